"""High Five actions: frozen values with their record form (RECORDS.md §2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boneyard.core.tiles import Tile

RULING_KINDS = (
    "BOGUS_DRAW",
    "BOGUS_PASS",
    "DRAW_RETRACTED",
    "MISDEAL_OVER",
    "MISDEAL_UNDER",
    "FALSE_DOMINO",
    "HIDDEN_TILES",
    "WRONG_BONE",
    "MISPLACED_SPINNER",
    "ACCIDENTAL_EXPOSURE",
    "COMMISSIONER",
    "FORFEIT",
)


@dataclass(frozen=True, slots=True)
class Play:
    """Place ``tile``: the lead when ``on`` is None, else on an open end of ``on``.

    ``port`` names a spinner edge (``SIDE_A``...``END_B``). ``touch`` (tabletop only) is the half
    laid against the end when the tile does not match it; ``call`` is the score the player called
    (only read when ``require_score_call`` is on).

    >>> Play(Tile(5, 6), Tile(5, 5), "SIDE_B").to_event()
    {'play': '5-6', 'on': '5-5', 'port': 'SIDE_B'}
    """

    tile: Tile
    on: Tile | None = None
    port: str | None = None
    touch: int | None = None
    call: int | None = None
    key: tuple[int, int, int] = field(default=(-1, -1, -1), compare=False, repr=False)

    def to_event(self) -> dict[str, Any]:
        """Record fields without ``seat``."""
        ev: dict[str, Any] = {"play": str(self.tile)}
        if self.on is not None:
            ev["on"] = str(self.on)
        if self.port is not None:
            ev["port"] = self.port
        if self.touch is not None:
            ev["touch"] = self.touch
        if self.call is not None:
            ev["call"] = self.call
        return ev

    def __str__(self) -> str:
        if self.on is None:
            return f"lead {self.tile}"
        where = f" {self.port}" if self.port else ""
        return f"{self.tile} on {self.on}{where}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next boneyard tile."""

    def to_event(self) -> dict[str, Any]:
        """Record fields without ``seat`` (the state adds the drawn tile)."""
        return {"draw": None}

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: nothing to play and nothing to draw."""

    def to_event(self) -> dict[str, Any]:
        """Record fields without ``seat``."""
        return {"pass": True}

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class ReturnTile:
    """The box grace rule: put back a tile drawn while holding a playable one.

    ``position`` is where it goes in the boneyard's draw order (None: last).
    """

    position: int | None = None

    def to_event(self) -> dict[str, Any]:
        """Record form: a ``DRAW_RETRACTED`` ruling."""
        ev: dict[str, Any] = {"ruling": "DRAW_RETRACTED"}
        if self.position is not None:
            ev["position"] = self.position
        return ev

    def __str__(self) -> str:
        return "return the drawn tile"


@dataclass(frozen=True, slots=True)
class Ruling:
    """A referee's ruling (RULES §1.10) against ``seat``; see docs/records-highfive.md."""

    kind: str
    seat: int
    caught: bool = True
    note: str = ""
    tiles: tuple[Tile, ...] = ()
    adjust: tuple[int, ...] = ()
    winner: int | None = None
    position: int | None = None

    def to_event(self) -> dict[str, Any]:
        """Record fields (``seat`` is the offender and is included)."""
        ev: dict[str, Any] = {"ruling": self.kind, "seat": self.seat}
        if not self.caught:
            ev["caught"] = False
        if self.note:
            ev["note"] = self.note
        if self.tiles:
            ev["tiles"] = [str(t) for t in self.tiles]
        if self.adjust:
            ev["adjust"] = list(self.adjust)
        if self.winner is not None:
            ev["winner"] = self.winner
        if self.position is not None:
            ev["position"] = self.position
        return ev

    def __str__(self) -> str:
        return f"ruling {self.kind} against seat {self.seat}"


DRAW = Draw()
PASS = Pass()
RETURN_TILE = ReturnTile()
Action = Play | Draw | Pass | ReturnTile | Ruling
