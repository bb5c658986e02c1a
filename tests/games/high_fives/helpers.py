"""Helpers for the High Fives tests: its golden records, replay, positions built directly."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from boneyard.core.tiles import DOUBLE_FIFTEEN, Tile
from boneyard.games.high_fives import HighFivesOptions, HighFivesState
from tests.games.golden import Golden, replay_error, replay_lines, replay_partial, replay_state

GAME = "high-fives"
GOLDEN = Golden(GAME)
RECORDS = GOLDEN.dir
golden_names = GOLDEN.names
load = GOLDEN.load
expected = GOLDEN.expected

__all__ = [
    "RECORDS",
    "expected",
    "golden_names",
    "load",
    "make_position",
    "replay_error",
    "replay_lines",
    "replay_partial",
    "replay_state",
    "tiles",
    "turn_set",
]


def tiles(text: str) -> list[Tile]:
    """``"0-1 1-2"`` -> tiles."""
    return [Tile.parse(t) for t in text.split()]


def make_position(
    layout: str,
    hand: str,
    *,
    options: HighFivesOptions | None = None,
    players: int = 2,
    left_pairs: Iterable[tuple[str, str]] = (),
    scores: tuple[int, ...] | None = None,
) -> HighFivesState:
    """Seat 0 to play ``hand`` on ``layout``; the other seats hold filler tiles."""
    row, held = tiles(layout), tiles(hand)
    used = set(row) | set(held)
    spare = [t for t in DOUBLE_FIFTEEN if t not in used]
    hands = [held] + [[spare.pop() for _ in range(len(held))] for _ in range(players - 1)]
    pairs = [(Tile.parse(a), Tile.parse(b)) for a, b in left_pairs]
    return HighFivesState.from_position(
        row, hands, options=options, left_pairs=pairs, scores=scores
    )


def turn_set(actions: Iterable[Any]) -> set[tuple[str, str | None, frozenset[frozenset[str]]]]:
    """Turns as comparable ``(tile, capture, claim)`` strings."""
    out = set()
    for a in actions:
        out.add(
            (
                str(a.tile),
                None if a.capture is None else str(a.capture),
                frozenset(frozenset(str(t) for t in p) for p in a.claim),
            )
        )
    return out
