"""The High Fives turn: ``(claim?, tile, capture?)`` as one value (RULES §3.2, §5).

>>> t = Turn(Tile(7, 8), Tile(8, 9), ((Tile(0, 1), Tile(1, 2)),))
>>> t.to_event()
{'play': '7-8', 'capture': '8-9', 'claim': ['0-1', '1-2']}
>>> t.won_tiles()
(Tile(lo=0, hi=1), Tile(lo=1, hi=2), Tile(lo=7, hi=8), Tile(lo=8, hi=9))
>>> t.points
3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boneyard.core.tiles import Tile
from boneyard.games.high_fives.rules import POINTS, TILE_ID

Pair = tuple[Tile, Tile]


@dataclass(frozen=True, slots=True)
class Turn:
    """One whole turn: claim ``claim`` (pairs of layout tiles), play ``tile`` from the hand, and
    capture ``capture`` with it (``None``: the tile stays on the layout).

    ``claim_as_list`` only picks the record form of the claim (a list of pairs, used when
    ``max_claims_per_turn`` is ``"unlimited"``); it is not part of the turn's identity.
    """

    tile: Tile
    capture: Tile | None = None
    claim: tuple[Pair, ...] = ()
    claim_as_list: bool = field(default=False, compare=False)

    def to_event(self) -> dict[str, Any]:
        """The record event fields (RECORDS.md §3), without ``seat``."""
        ev: dict[str, Any] = {"play": str(self.tile)}
        if self.capture is not None:
            ev["capture"] = str(self.capture)
        if self.claim:
            if self.claim_as_list or len(self.claim) > 1:
                ev["claim"] = [[str(a), str(b)] for a, b in self.claim]
            else:
                a, b = self.claim[0]
                ev["claim"] = [str(a), str(b)]
        return ev

    def claimed_tiles(self) -> tuple[Tile, ...]:
        """Every tile taken by the claim."""
        return tuple(t for pair in self.claim for t in pair)

    def won_tiles(self) -> tuple[Tile, ...]:
        """Every tile this turn puts in the player's score pile."""
        out = self.claimed_tiles()
        if self.capture is not None:
            out += (self.tile, self.capture)
        return out

    @property
    def points(self) -> int:
        """Points scored by the turn: claimed tiles, plus the played and captured tiles."""
        total = 0
        for a, b in self.claim:
            total += POINTS[TILE_ID[a]] + POINTS[TILE_ID[b]]
        if self.capture is not None:
            total += POINTS[TILE_ID[self.tile]] + POINTS[TILE_ID[self.capture]]
        return total

    def key(self) -> tuple[Tile, Tile | None, frozenset[frozenset[Tile]]]:
        """The turn's identity regardless of the order its claimed tiles are written in."""
        return self.tile, self.capture, frozenset(frozenset(p) for p in self.claim)

    def __str__(self) -> str:
        parts: list[str] = []
        if self.claim:
            parts.append("claim " + ", ".join(f"{a}+{b}" for a, b in self.claim))
        play = f"play {self.tile}"
        play += f" x {self.capture}" if self.capture is not None else ""
        parts.append(play)
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim one pair and keep the turn: a step of a turn under ``max_claims_per_turn``
    ``"unlimited"`` (the whole turn would otherwise have too many forms to list; see
    docs/rules-notes.md (High Fives)). The turn ends with a :class:`Turn` whose ``claim`` holds
    every pair claimed in it; only that turn is recorded.

    >>> c = Claim((Tile(5, 10), Tile(10, 10)))
    >>> c.points, c.to_event()
    (8, {'claim': [['5-10', '10-10']]})
    """

    pair: Pair

    def to_event(self) -> dict[str, Any]:
        """The claim as it will appear in its turn's record event."""
        a, b = self.pair
        return {"claim": [[str(a), str(b)]]}

    @property
    def points(self) -> int:
        """Points of the two claimed tiles."""
        a, b = self.pair
        return POINTS[TILE_ID[a]] + POINTS[TILE_ID[b]]

    def __str__(self) -> str:
        a, b = self.pair
        return f"claim {a}+{b}"


HighFivesAction = Turn | Claim
"""Everything a High Fives seat can do."""
