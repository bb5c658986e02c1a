"""The events of the Fives games (High Five, Merry-Go-Round): what a placement, a draw or a pass
did, as immutable values (RECORDS.md §2).

``apply`` returns one; the state keeps those of the hand in play, and the record, the replay
lines (:mod:`boneyard.games.fives.lines`), the observations' history and the move logs are built
from them. Each carries the scores right after it, as its replay line shows them.

>>> from boneyard.core.tiles import Tile
>>> e = Placed(1, Tile(0, 5), Tile(5, 5), "SIDE_A", 10, 10, (10, 10), "play")
>>> e.to_json()
{'seat': 1, 'play': '0-5', 'on': '5-5', 'port': 'SIDE_A'}
>>> Drew(0, Tile(2, 2), (0, 0)).public(1).to_json()["tile"] is None
True
"""

from __future__ import annotations

from typing import Final

from boneyard.core.records import JSON
from boneyard.core.state import Value
from boneyard.core.tiles import Tile
from boneyard.games.fives.play import PublicEvent


class Placed(Value):
    """A tile placed: on ``port`` of ``on`` (``None``: the first tile of the hand), making the
    open-end ``count`` and scoring ``points``. ``kind`` is its replay type (``lead`` or
    ``play``); ``touch`` and ``call`` are High Five's record fields; ``ruling`` names what the
    engine itself ruled on it (a false domino)."""

    __slots__ = (
        "call",
        "count",
        "kind",
        "on",
        "points",
        "port",
        "ruling",
        "scores",
        "seat",
        "tile",
        "touch",
    )

    def __init__(
        self,
        seat: int,
        tile: Tile,
        on: Tile | None,
        port: str | None,
        count: int,
        points: int,
        scores: tuple[int, ...],
        kind: str,
        touch: int | None = None,
        call: int | None = None,
        ruling: str | None = None,
    ) -> None:
        self.seat: Final = seat
        self.tile: Final = tile
        self.on: Final = on
        self.port: Final = port
        self.count: Final = count
        self.points: Final = points
        self.scores: Final = scores
        self.kind: Final = kind
        self.touch: Final = touch
        self.call: Final = call
        self.ruling: Final = ruling

    def to_json(self) -> JSON:
        """The record event."""
        ev: JSON = {"seat": self.seat, "play": str(self.tile)}
        if self.on is not None:
            ev["on"] = str(self.on)
            if self.port is not None:
                ev["port"] = self.port
        if self.touch is not None:
            ev["touch"] = self.touch
        if self.call is not None:
            ev["call"] = self.call
        return ev

    def public(self, viewer: int | None) -> PublicEvent:
        """The placement as everyone sees it."""
        return PublicEvent(self.seat, "play", self.tile, self.on, self.port, self.points)


class Drew(Value):
    """A tile drawn from the boneyard (only the drawer sees which)."""

    __slots__ = ("scores", "seat", "tile")

    def __init__(self, seat: int, tile: Tile, scores: tuple[int, ...]) -> None:
        self.seat: Final = seat
        self.tile: Final = tile
        self.scores: Final = scores

    def to_json(self) -> JSON:
        """The record event (it names the tile: records are full information)."""
        return {"seat": self.seat, "draw": str(self.tile)}

    def public(self, viewer: int | None) -> PublicEvent:
        """The draw as ``viewer`` sees it: the tile only if ``viewer`` drew it."""
        return PublicEvent(self.seat, "draw", self.tile if viewer == self.seat else None)


class Passed(Value):
    """A pass."""

    __slots__ = ("scores", "seat")

    def __init__(self, seat: int, scores: tuple[int, ...]) -> None:
        self.seat: Final = seat
        self.scores: Final = scores

    def to_json(self) -> JSON:
        """The record event."""
        return {"seat": self.seat, "pass": True}

    def public(self, viewer: int | None) -> PublicEvent:
        """The pass as everyone sees it."""
        return PublicEvent(self.seat, "pass")


FivesEvent = Placed | Drew | Passed
"""The events both Fives games share (Merry-Go-Round's whole union)."""
