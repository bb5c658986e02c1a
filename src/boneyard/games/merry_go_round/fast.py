"""Merry-Go-Round's learner fast path (:mod:`boneyard.games.merry_go_round.learning`): the raw
numbers of a seat's vector read straight from a state. Compiled with the engine (setup.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, cast

from librt.vecs import vec

from boneyard.core.state import PLAYING
from boneyard.games.fives.fast import NO_BYTES, FivesReading, fives_numbers, seat_numbers
from boneyard.games.fives.layout import SIDE_A, SIDE_B, Availability
from boneyard.games.fives.play import FIELD_BITS
from boneyard.games.merry_go_round.layout import CrossLayout
from boneyard.games.merry_go_round.state import SETTING, MerryGoRoundState

STAGES: Final = ("set", "cross_sides", "cross_ends", "cross", "open", "idle")
STAGE_INDEX: Final = {s: float(i) for i, s in enumerate(STAGES)}
CROSS_ANY_ORDER: Final = int(Availability.CROSS_ANY_ORDER)
CROSS: Final = 0b1111 << SIDE_A
SIDES: Final = (1 << SIDE_A) | (1 << SIDE_B)


def stage_index(state: MerryGoRoundState) -> float:
    """The place of ``state.stage()`` in :data:`STAGES`, read as the state reads it but with its
    policy compared as a machine int (the state's method compares it with an enum member, a
    generic call once compiled, and names the stage in words; tests/rl check they agree).

    >>> from boneyard.games.merry_go_round import new_game
    >>> stage_index(new_game(2)) == STAGE_INDEX[new_game(2).stage()]
    True
    """
    phase = state.phase
    if phase == SETTING:
        return 0.0
    if phase != PLAYING:
        return 5.0
    lay = state.layout
    s = lay.first_spinner
    assert s is not None
    c = lay.connected[s]
    if c & CROSS == CROSS:
        return 4.0
    if state.policy == CROSS_ANY_ORDER:
        return 3.0
    return 1.0 if c & SIDES != SIDES else 2.0


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
    out[at] = stage_index(state)
    out[at + 1] = 1.0 if state.teams else 0.0
    return NO_BYTES


class MerryGoRoundReading(FivesReading):
    """Merry-Go-Round's fast path (:func:`read`)."""

    def read(self, state: Any, seat: int, out: vec[float], at: int) -> Sequence[bytes]:
        return read(state, seat, out, at)
