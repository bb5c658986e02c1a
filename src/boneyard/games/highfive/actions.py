"""High Five actions: frozen values with their record form (RECORDS.md §2).

A placement, a draw and a pass are the Fives actions (:mod:`boneyard.games.fives.play`); High
Five adds the box grace rule's returned tile and the referee's rulings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from boneyard.core.tiles import Tile
from boneyard.games.fives.play import DRAW, PASS, Draw, Pass, Play

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
class ReturnTile:
    """The box grace rule: put back a tile drawn while holding a playable one.

    ``position`` is where it goes in the boneyard's draw order (0 = next); None, as the
    engine offers it, lets the engine put it at a random place (the record then names it).
    """

    position: int | None = None

    def to_event(self) -> dict[str, object]:
        """Record form: a ``DRAW_RETRACTED`` ruling."""
        ev: dict[str, object] = {"ruling": "DRAW_RETRACTED"}
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

    def to_event(self) -> dict[str, object]:
        """Record fields (``seat`` is the offender and is included)."""
        ev: dict[str, object] = {"ruling": self.kind, "seat": self.seat}
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


RETURN_TILE: Final = ReturnTile()
HighFiveAction = Play | Draw | Pass | ReturnTile | Ruling
"""Everything a seat (or the referee) can do in High Five."""

__all__ = [
    "DRAW",
    "PASS",
    "RETURN_TILE",
    "RULING_KINDS",
    "Draw",
    "HighFiveAction",
    "Pass",
    "Play",
    "ReturnTile",
    "Ruling",
]
