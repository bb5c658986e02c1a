"""High Five's learner fast path (:mod:`boneyard.games.highfive.learning`): the raw numbers of a
seat's vector read straight from a state. Compiled with the engine (setup.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from librt.vecs import vec

from boneyard.core.state import PLAYING
from boneyard.games.fives.fast import (
    NO_BYTES,
    FivesReading,
    fives_numbers,
    seat_numbers,
    slot_ends,
)
from boneyard.games.highfive.state import HighFiveState


def read(state: HighFiveState, seat: int, out: vec[float], at: int) -> tuple[bytes, ...]:
    """Write the number columns of ``seat``'s vector into ``out`` from ``at`` (what the encoder
    reads of its observation); there are no bytes columns."""
    in_hand = state.phase == PLAYING
    lay = state.layout
    ends = at + 2
    at = fives_numbers(
        out,
        at,
        lay,
        state.hands[seat] if in_hand else 0,
        lay.count,
        state.phase >= PLAYING and state.turn == seat,
        len(state.boneyard) - state.bpos if in_hand else 0,
    )
    slot_ends(out, ends, lay, state.policy)
    at = seat_numbers(out, at, state.hands, state.scores, seat, in_hand)
    chips = state.chips
    n = len(chips)
    for k in range(n):
        out[at + k] = float(chips[(seat + k) % n])
    return NO_BYTES


class HighFiveReading(FivesReading):
    """High Five's fast path (:func:`read`)."""

    def read(self, state: Any, seat: int, out: vec[float], at: int) -> Sequence[bytes]:
        return read(state, seat, out, at)
