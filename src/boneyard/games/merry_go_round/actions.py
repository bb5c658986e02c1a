"""Merry-Go-Round actions: frozen values with their record form (RECORDS.md §2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boneyard.core.tiles import Tile


@dataclass(frozen=True, slots=True)
class Play:
    """Place ``tile``: the set when ``on`` is None, else on an open end of ``on``.

    ``port`` names an edge of the set double (``SIDE_A``, ``SIDE_B``, ``END_A``, ``END_B``);
    ``key`` is the engine's internal ``(tile, anchor, port)`` ids (not part of equality).

    >>> Play(Tile(5, 6), Tile(5, 5), "SIDE_B").to_event()
    {'play': '5-6', 'on': '5-5', 'port': 'SIDE_B'}
    >>> str(Play(Tile(5, 5)))
    'set 5-5'
    """

    tile: Tile
    on: Tile | None = None
    port: str | None = None
    key: tuple[int, int, int] = field(default=(-1, -1, -1), compare=False, repr=False)

    def to_event(self) -> dict[str, Any]:
        """Record fields without ``seat``."""
        ev: dict[str, Any] = {"play": str(self.tile)}
        if self.on is not None:
            ev["on"] = str(self.on)
        if self.port is not None:
            ev["port"] = self.port
        return ev

    def __str__(self) -> str:
        if self.on is None:
            return f"set {self.tile}"
        where = f" {self.port}" if self.port else ""
        return f"{self.tile} on {self.on}{where}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next boneyard tile (the state writes the tile into the record)."""

    def to_event(self) -> dict[str, Any]:
        """Record fields without ``seat``; the drawn tile is filled in by the state."""
        return {"draw": None}

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: nothing to play (or no double to set) and nothing to draw."""

    def to_event(self) -> dict[str, Any]:
        """Record fields without ``seat``."""
        return {"pass": True}

    def __str__(self) -> str:
        return "pass"


DRAW = Draw()
PASS = Pass()
Action = Play | Draw | Pass
