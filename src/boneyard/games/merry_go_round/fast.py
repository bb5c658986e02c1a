"""Merry-Go-Round's learner fast path (:mod:`boneyard.games.merry_go_round.learning`): the raw
numbers of a seat's vector read straight from a state. Compiled with the engine (setup.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, cast

from librt.vecs import vec

from boneyard.core.state import PLAYING
from boneyard.games.fives.fast import NO_BYTES, FivesReading, fives_numbers, seat_numbers
from boneyard.games.fives.play import FIELD_BITS
from boneyard.games.merry_go_round.layout import CrossLayout
from boneyard.games.merry_go_round.state import MerryGoRoundState

STAGES: Final = ("set", "cross_sides", "cross_ends", "cross", "open", "idle")
STAGE_INDEX: Final = {s: float(i) for i, s in enumerate(STAGES)}


def read(state: MerryGoRoundState, seat: int, out: vec[float], at: int) -> tuple[bytes, ...]:
    """Write the number columns of ``seat``'s vector into ``out`` from ``at`` (what the encoder
    reads of its observation); there are no bytes columns."""
    in_hand = state.phase >= PLAYING
    lay = cast(CrossLayout, state.layout)
    ends = at + 2
    at = fives_numbers(
        out,
        at,
        lay,
        state.hands[seat] if in_hand else 0,
        state.count if not lay.empty else 0,
        state.phase >= PLAYING and state.turn == seat,
        state.bend - state.bpos if in_hand else 0,
    )
    if state.phase == PLAYING:  # the ends open to play, by value: the packed ports' low bits
        ports = lay.ready
        for _k in range(lay.ready_count):
            out[ends + (ports & 7)] += 1.0
            ports >>= FIELD_BITS
    at = seat_numbers(out, at, state.hands, state.scores, seat, in_hand)
    out[at] = STAGE_INDEX[state.stage()]
    out[at + 1] = 1.0 if state.teams else 0.0
    return NO_BYTES


class MerryGoRoundReading(FivesReading):
    """Merry-Go-Round's fast path (:func:`read`)."""

    def read(self, state: Any, seat: int, out: vec[float], at: int) -> Sequence[bytes]:
        return read(state, seat, out, at)
