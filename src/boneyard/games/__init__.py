"""The rule sets. Each game module exposes ``SPEC``, its
:class:`~boneyard.games.registry.GameSpec`."""
