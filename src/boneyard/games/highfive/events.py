"""High Five's events: the Fives events (:mod:`boneyard.games.fives.events`) and the referee's
two: a tile put back under the grace rule, and a ruling (RULES §1.10, docs/records.md).

>>> from boneyard.core.tiles import Tile
>>> Returned(1, Tile(1, 5), 3, (0, 0)).to_json()
{'seat': 1, 'ruling': 'DRAW_RETRACTED', 'position': 3}
"""

from __future__ import annotations

from typing import Final

from boneyard.core.records import JSON
from boneyard.core.state import Value
from boneyard.core.tiles import Tile
from boneyard.games.fives.events import Drew, Passed, Placed
from boneyard.games.fives.play import PublicEvent
from boneyard.games.highfive.actions import Ruling


class Returned(Value):
    """The box grace rule: ``seat`` put the tile it had just drawn back into the boneyard, at
    ``position`` in its draw order (0 = next). The tile is shown to everyone."""

    __slots__ = ("position", "scores", "seat", "tile")

    def __init__(self, seat: int, tile: Tile, position: int, scores: tuple[int, ...]) -> None:
        self.seat: Final = seat
        self.tile: Final = tile
        self.position: Final = position
        self.scores: Final = scores

    def to_json(self) -> JSON:
        """The record event: a ``DRAW_RETRACTED`` ruling with its ``position``."""
        return {"seat": self.seat, "ruling": "DRAW_RETRACTED", "position": self.position}

    def public(self, viewer: int | None) -> PublicEvent:
        """The return as everyone sees it."""
        return PublicEvent(self.seat, "return", self.tile)


class Ruled(Value):
    """A referee's ruling against ``seat``; ``tile`` is the tile it took back (a caught wrong
    bone or misplaced spinner), shown in its replay line."""

    __slots__ = ("ruling", "scores", "seat", "tile")

    def __init__(self, ruling: Ruling, tile: Tile | None, scores: tuple[int, ...]) -> None:
        self.seat: Final = ruling.seat
        self.ruling: Final = ruling
        self.tile: Final = tile
        self.scores: Final = scores

    def to_json(self) -> JSON:
        """The record event (the ruling's own fields)."""
        return self.ruling.to_event()

    def public(self, viewer: int | None) -> PublicEvent:
        """The ruling as everyone sees it."""
        return PublicEvent(self.seat, "ruling:" + self.ruling.kind)


HighFiveEvent = Placed | Drew | Passed | Returned | Ruled
"""Everything a High Five action can do."""
