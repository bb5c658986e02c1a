"""Core values shared by every game: tiles, errors, the Game/State protocol and records."""

from boneyard.core.errors import (
    BoneyardError,
    IllegalActionError,
    OptionError,
    RecordError,
)
from boneyard.core.tiles import (
    DOUBLE_FIFTEEN,
    DOUBLE_SIX,
    HIGHRISE_36,
    WILD,
    Tile,
    TileSet,
    round5,
)

__all__ = [
    "DOUBLE_FIFTEEN",
    "DOUBLE_SIX",
    "HIGHRISE_36",
    "WILD",
    "BoneyardError",
    "IllegalActionError",
    "OptionError",
    "RecordError",
    "Tile",
    "TileSet",
    "round5",
]
