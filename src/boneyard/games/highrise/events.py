"""Highrise's events: a placement (its level and points), a draw, a pass (RECORDS.md §4).

>>> from boneyard.core.tiles import Tile
>>> from boneyard.games.highrise.actions import Place
>>> Placed(0, Place((16, 3), ((0, 1), (1, 1)), None, 2, 20), (20, 0)).to_json()
{'seat': 0, 'play': 'W-3', 'cells': [[0, 1], [1, 1]]}
>>> Drew(1, Tile(2, 3), (20, 0)).seen_by(0)
Draw(tile=None)
"""

from __future__ import annotations

from typing import Final

from boneyard.core.records import JSON
from boneyard.core.state import Value
from boneyard.core.tiles import Tile
from boneyard.games.highrise.actions import HIDDEN_DRAW, Draw, HighriseAction, Pass, Place


class Placed(Value):
    """``seat`` placed a domino: ``place`` carries its ``level`` and ``points``."""

    __slots__ = ("place", "scores", "seat")

    def __init__(self, seat: int, place: Place, scores: tuple[int, ...]) -> None:
        self.seat: Final = seat
        self.place: Final = place
        self.scores: Final = scores

    @property
    def action(self) -> Place:
        """The placement made (with its level and points)."""
        return self.place

    @property
    def level(self) -> int:
        """The placement's level."""
        return self.place.level

    @property
    def points(self) -> int:
        """What the placement scored."""
        return self.place.points

    def to_json(self) -> JSON:
        """The record event (the tile as written: the face on the first cell first)."""
        return {"seat": self.seat, **self.place.to_event()}

    def seen_by(self, viewer: int | None) -> HighriseAction:
        """The placement, as everyone sees it."""
        return self.place


class Drew(Value):
    """``seat`` drew ``tile`` from the pile (only it sees which)."""

    __slots__ = ("scores", "seat", "tile")

    def __init__(self, seat: int, tile: Tile, scores: tuple[int, ...]) -> None:
        self.seat: Final = seat
        self.tile: Final = tile
        self.scores: Final = scores

    @property
    def action(self) -> Draw:
        """The draw, with its tile."""
        return Draw(self.tile)

    @property
    def level(self) -> int:
        """No level: nothing was placed."""
        return 0

    @property
    def points(self) -> int:
        """A draw scores nothing."""
        return 0

    def to_json(self) -> JSON:
        """The record event (it names the tile: records are full information)."""
        return {"seat": self.seat, "draw": str(self.tile)}

    def seen_by(self, viewer: int | None) -> HighriseAction:
        """The draw as ``viewer`` sees it: the tile only if ``viewer`` drew it."""
        return Draw(self.tile) if viewer == self.seat else HIDDEN_DRAW


class Passed(Value):
    """``seat`` passed (the pile is empty and it cannot place)."""

    __slots__ = ("scores", "seat")

    def __init__(self, seat: int, scores: tuple[int, ...]) -> None:
        self.seat: Final = seat
        self.scores: Final = scores

    @property
    def action(self) -> Pass:
        """The pass."""
        return Pass()

    @property
    def level(self) -> int:
        """No level: nothing was placed."""
        return 0

    @property
    def points(self) -> int:
        """A pass scores nothing."""
        return 0

    def to_json(self) -> JSON:
        """The record event."""
        return {"seat": self.seat, "pass": True}

    def seen_by(self, viewer: int | None) -> HighriseAction:
        """The pass."""
        return Pass()


HighriseEvent = Placed | Drew | Passed
"""Everything a Highrise action can do."""
