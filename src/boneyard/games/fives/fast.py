"""The fast path of the Fives games' learners (High Five, Merry-Go-Round): ids and raw numbers
read straight from a state (:class:`~boneyard.games.learning.FastPath`; the layout of the
numbers is :mod:`boneyard.games.fives.learning`'s).

Compiled with mypyc with the engine (setup.py): a learner's self-play calls it for every
decision, so it costs about as much as the engine's own step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from librt.vecs import vec
from mypy_extensions import i64

from boneyard.games.fives.layout import FivesLayout
from boneyard.games.fives.play import Draw, Pass, Play
from boneyard.games.reading import Path, Reading

DRAW_ID: Final = 28 * 141
"""The ids of :class:`~boneyard.games.fives.learning.FivesCodec`: a draw, a pass, a returned
tile (a placement: ``tile * 141 + where``)."""
PASS_ID: Final = DRAW_ID + 1
RETURN_ID: Final = DRAW_ID + 2


NO_BYTES: Final[tuple[bytes, ...]] = ()
"""The bytes columns of a Fives vector: none."""


def fives_ids(_state: object, actions: Sequence[object]) -> list[int | tuple[int, ...]]:
    """The id of each of a state's legal actions, from its engine ids (``Play.key``)."""
    return [fives_id(action) for action in actions]


def fives_id(action: object) -> int:
    """The id of one of a Fives state's legal actions."""
    if isinstance(action, Play):
        tile, anchor, code = action.key
        if anchor < 0:
            return tile * 141
        return tile * 141 + 1 + 5 * anchor + (code - 2 if code >= 3 else 0)
    if isinstance(action, Draw):
        return DRAW_ID
    if isinstance(action, Pass):
        return PASS_ID
    return RETURN_ID  # High Five's returned tile, the only other action a state offers


class FivesReading(Reading):
    """The Fives games' ids (:func:`fives_ids`); each game reads its numbers (its subclass)."""

    def ids(self, state: Any, actions: Sequence[object]) -> list[Path]:
        return fives_ids(state, actions)

    def ids_into(self, state: Any, actions: Sequence[object], out: vec[i64], at: i64) -> i64:
        for i in range(len(actions)):
            out[at + i] = fives_id(actions[i])
        return len(actions)


def fives_numbers(
    out: vec[float],
    at: int,
    lay: FivesLayout,
    hand: int,
    count: int,
    moving: bool,
    boneyard: int,
) -> int:
    """Write the number columns of the Fives part of the vector into ``out`` from ``at``: the
    seat's hand and the tiles on the table (bit masks), the ends open to play by value left at
    zero (the game counts them: :func:`slot_ends`, or Merry-Go-Round's packed ports), the count,
    to move, table empty, the boneyard. Returns where the next column goes."""
    table = 0
    for t in lay.order:
        table |= 1 << t
    out[at] = float(hand)
    out[at + 1] = float(table)
    for v in range(7):
        out[at + 2 + v] = 0.0
    out[at + 9] = float(count)
    out[at + 10] = 1.0 if moving else 0.0
    out[at + 11] = 0.0 if lay.order else 1.0
    out[at + 12] = float(boneyard)
    return at + 13


def slot_ends(out: vec[float], at: int, lay: FivesLayout, policy: int) -> None:
    """Count the ends open to play under ``policy`` (-1: none is) by value into the seven
    columns from ``at`` (the layout's list of them, which the legal actions have made)."""
    if policy >= 0:
        lay.available_slots(policy)
        for v in lay.avail_values:
            out[at + v] += 1.0


def held_count(mask: int) -> int:
    """How many tiles a hand's bit mask holds (``int.bit_count`` is a generic call once
    compiled; this loop is machine code).

    >>> held_count(0), held_count(0b1011)
    (0, 3)
    """
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def seat_numbers(
    out: vec[float], at: int, sizes: list[int], scores: list[int], me: int, held: bool
) -> int:
    """Write tiles held (a bit mask's count; none unless ``held``) and score per seat from
    ``me``, alternately, into ``out`` from ``at``; returns where the next column goes."""
    n = len(scores)
    for k in range(n):
        s = (me + k) % n
        out[at] = float(held_count(sizes[s])) if held else 0.0
        out[at + 1] = float(scores[s])
        at += 2
    return at
