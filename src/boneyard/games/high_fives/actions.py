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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from boneyard.core.state import Value
from boneyard.core.tiles import Tile
from boneyard.games.high_fives import rules

if TYPE_CHECKING:  # a native 64-bit int once compiled, a plain int otherwise
    from mypy_extensions import i64

POINTS: Final = rules.POINTS
TILE_ID: Final = rules.TILE_ID

Pair = tuple[Tile, Tile]


class Turn(Value):
    """One whole turn: claim ``claim`` (pairs of layout tiles), play ``tile`` from the hand, and
    capture ``capture`` with it (``None``: the tile stays on the layout).

    ``claim_as_list`` only picks the record form of the claim (a list of pairs, used when
    ``max_claims_per_turn`` is ``"unlimited"``); it is not part of the turn's identity, and
    neither is ``code``: the engine's ids of a turn it listed (-1 otherwise; see
    :func:`~boneyard.games.high_fives.turns.turn_code`).

    An immutable value (:class:`~boneyard.core.state.Value`) rather than a dataclass: the engine
    lists turns at every move, and reads them when they are played.

    >>> Turn(Tile(7, 8), Tile(8, 9)) == Turn(Tile(7, 8), Tile(8, 9), (), True, code=1)
    True
    >>> Turn(Tile(2, 5))
    Turn(tile=Tile(lo=2, hi=5), capture=None, claim=(), claim_as_list=False)
    """

    __slots__ = ("capture", "claim", "claim_as_list", "code", "tile")

    def __init__(
        self,
        tile: Tile,
        capture: Tile | None = None,
        claim: tuple[Pair, ...] = (),
        claim_as_list: bool = False,
        *,
        code: int = -1,
    ) -> None:
        self.tile: Final = tile
        self.capture: Final = capture
        self.claim: Final = claim
        self.claim_as_list: Final = claim_as_list
        self.code: Final = code

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Turn)
            and self.tile == other.tile
            and self.capture == other.capture
            and self.claim == other.claim
        )

    def __hash__(self) -> int:
        return hash((self.tile, self.capture, self.claim))

    def __repr__(self) -> str:
        return (
            f"Turn(tile={self.tile!r}, capture={self.capture!r}, claim={self.claim!r}, "
            f"claim_as_list={self.claim_as_list!r})"
        )

    def to_event(self) -> dict[str, object]:
        """The record event fields (RECORDS.md §3), without ``seat``."""
        ev: dict[str, object] = {"play": str(self.tile)}
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
        if self.code >= 0:  # a listed turn: its ids are known
            return code_points(self.code)
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

    def to_event(self) -> dict[str, object]:
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


def turn_code(tile: i64, capture: i64, a: i64, b: i64) -> i64:
    """One int for a turn's ids: the played tile, the captured one and the claimed pair (-1:
    none); :func:`decode_turn` reads it back.

    >>> decode_turn(turn_code(7, -1, 3, 9)), decode_turn(turn_code(135, 3, -1, -1))
    ((7, -1, 3, 9), (135, 3, -1, -1))
    """
    return tile | (capture + 1) << 8 | (a + 1) << 16 | (b + 1) << 24


def decode_turn(code: i64) -> tuple[i64, i64, i64, i64]:
    """The ``(tile, capture, claimed a, claimed b)`` of a :func:`turn_code` (-1: none)."""
    return code & 0xFF, (code >> 8 & 0xFF) - 1, (code >> 16 & 0xFF) - 1, (code >> 24) - 1


def code_points(code: int) -> int:
    """The points of a turn from its :func:`turn_code`."""
    t, x, a, b = decode_turn(code)
    total = 0
    if a >= 0:
        total += POINTS[a] + POINTS[b]
    if x >= 0:
        total += POINTS[t] + POINTS[x]
    return total


HighFivesAction = Turn | Claim
"""Everything a High Fives seat can do."""
