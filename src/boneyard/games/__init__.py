"""The rule sets. Each game module exposes ``SPEC``, a :class:`~boneyard.games.registry.GameSpec`."""
