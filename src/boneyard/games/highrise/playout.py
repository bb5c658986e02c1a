"""Highrise's play-out policy, compiled: the expert's search plays every legal action out to
the end of the hand with it in every world, so most of a decision's time is spent here.

>>> import random
>>> from boneyard.games.highrise import new_game
>>> s = new_game(2)
>>> s.deal_random(random.Random(1))
>>> greedy_action(s, random.Random(0)) in s.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Any

from boneyard.games.highrise.actions import Place
from boneyard.games.highrise.state import HighriseState


def greedy_action(state: HighriseState, rng: random.Random) -> Any:
    """The placement scoring most now, then the heaviest tile (the hand value it saves), then
    generation order; a draw or pass only when nothing can be placed (deterministic: ``rng``
    is reserved for randomised policies)."""
    raw = state.raw_placements()
    if not raw:
        return state.legal_actions()[0]
    values = state.values
    best = raw[0]
    best_points = -1
    best_value = -1
    for p in raw:
        points = p[7]
        value = values[p[0]]
        if points > best_points or (points == best_points and value > best_value):
            best, best_points, best_value = p, points, value
    _tid, i, j, fa, fb, sp, _lvl, _pts = best
    cells = state.geometry.cells
    return Place((fa, fb), (cells[i], cells[j]), None if sp < 0 else cells[sp])


def finish_hand(state: HighriseState, rng: random.Random) -> None:
    """Play the hand out with :func:`greedy_action` for every seat."""
    while not state.hand_over:
        state.apply(greedy_action(state, rng))
