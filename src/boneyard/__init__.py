"""Boneyard: exact rules, records and bots for the High Five family of domino games.

The package is layered: :mod:`boneyard.core` (tiles, protocol, records) is imported by
:mod:`boneyard.games` (one module per rule set), which :mod:`boneyard.bots` and
:mod:`boneyard.cli` build on.
"""

__version__ = "0.1.0"
