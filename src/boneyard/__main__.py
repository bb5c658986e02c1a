"""``python -m boneyard`` runs the ``boneyard`` command."""

from boneyard.cli.main import main

main()
