"""High Fives as a learner sees it (:mod:`boneyard.games.learning`).

**Ids**, 136 tiles in ``DOUBLE_FIFTEEN`` order: claiming the pair ``a < b`` is ``pair_id(a, b)``
(0 … 9179, pairs in order); playing tile ``t`` capturing ``x`` (``-1``: none) is
``9180 + t * 137 + x + 1``. A turn that claims is a claim id per pair, then the play id.

**Vector**: own hand, the layout and the pairs claimed this turn (136 each, ``DOUBLE_FIFTEEN``
order), claimable pairs / 10, to move, undealt / 136, tiles still to join the layout / 10, the
deal / deals in the pass, then per seat from the observer tiles held / 20 and score / target.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import DOUBLE_FIFTEEN
from boneyard.games.high_fives.fast import N15, PAIRS, HighFivesReading, pair_id
from boneyard.games.learning import (
    Encoder,
    EventForm,
    FastPath,
    Learning,
    Segment,
    View,
    seat_columns,
    seats_vector,
    tile_id,
    tile_index,
    tiles_vector,
    to_move,
)

FIFTEEN = tile_index(DOUBLE_FIFTEEN.tiles)


@dataclass(frozen=True)
class HighFivesCodec:
    """Claim tokens, then the play (see the module docstring)."""

    size: int = PAIRS + N15 * (N15 + 1)

    def tokens(self, event: EventForm, view: View) -> tuple[int, ...]:
        """A claim id per pair not already claimed this turn, then the play id."""
        claim = event.get("claim") or []
        if claim and isinstance(claim[0], str):
            claim = [claim]
        done = {frozenset(p) for p in view.get("claimed_this_turn") or []}
        out = [
            pair_id(tile_id(FIFTEEN, a), tile_id(FIFTEEN, b))
            for a, b in claim
            if frozenset((a, b)) not in done
        ]
        if "play" in event:
            tile = tile_id(FIFTEEN, event["play"])
            capture = tile_id(FIFTEEN, event["capture"]) if event.get("capture") else -1
            out.append(PAIRS + tile * (N15 + 1) + capture + 1)
        if not out:
            raise BoneyardError(f"{dict(event)} has no action id")
        return tuple(out)

    def name(self, token: int) -> str:
        """Record notation of an id."""
        tiles = DOUBLE_FIFTEEN.tiles
        if token < PAIRS:
            a = 0
            while pair_id(a, N15 - 1) < token:
                a += 1
            b = a + 1 + token - pair_id(a, a + 1)
            return f"claim {tiles[a]} {tiles[b]}"
        tile, capture = divmod(token - PAIRS, N15 + 1)
        return f"play {tiles[tile]}" + (f" x {tiles[capture - 1]}" if capture else "")


def vector(view: View, players: int) -> list[float]:
    """One observation's numbers (see the module docstring)."""
    x = tiles_vector(FIFTEEN, view.get("hand"))
    x += tiles_vector(FIFTEEN, view.get("layout"))
    x += tiles_vector(FIFTEEN, [t for pair in view.get("claimed_this_turn") or [] for t in pair])
    x += [len(view.get("claimable") or []) / 10, to_move(view)]
    x += [view.get("undealt", 0) / N15, view.get("extra_to_come", 0) / 10]
    x.append(view.get("deal", 0) / max(1, view.get("deals_in_pass") or 1))
    target = float((view.get("options") or {}).get("target") or 100)
    return x + seats_vector(view, players, 20, target)


def _features(players: int, _view: View) -> Encoder:
    def encode(view: View) -> list[float]:
        return vector(view, players)

    return encode


def _fast(players: int, state: Any) -> FastPath:
    layout = (
        Segment("ids", N15),
        Segment("ids", N15),
        Segment("ids", N15),
        Segment("num", 1, 10.0),
        Segment("num"),
        Segment("num", 1, float(N15)),
        Segment("num", 1, 10.0),
        Segment("num"),
        *seat_columns(players, 20.0, float(state.options.target)),
    )
    return FastPath(layout=layout, reading=HighFivesReading())


LEARNING = Learning(codec=lambda _view: HighFivesCodec(), features=_features, fast=_fast)
