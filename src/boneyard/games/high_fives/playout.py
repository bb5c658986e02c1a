"""High Fives' play-out policy, compiled: the expert's search plays every legal action out
with it in every world (to the end of the next deal), so most of a decision's time is spent
here.

>>> import random
>>> from boneyard.games.high_fives import new_game
>>> s = new_game(2)
>>> s.deal_random(random.Random(1))
>>> greedy_action(s, random.Random(0)) in s.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Any

from boneyard.games.high_fives.actions import Claim, Turn
from boneyard.games.high_fives.rules import PIPS, TILE_ID
from boneyard.games.high_fives.state import HighFivesState


def greedy_action(state: HighFivesState, rng: random.Random) -> Any:
    """The greedy bot's choice: most points now, then the heaviest tile played, then legal
    order (deterministic: ``rng`` is reserved for randomised policies). A play-out policy that
    also feared leaving tiles for the next seat played weaker in trials (docs/performance.md,
    "Bot strength")."""
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    best: Any = actions[0]
    best_points = -2
    best_pips = -2
    for action in actions:
        points = -1
        pips = -1
        if type(action) is Turn:
            points, pips = action.points, PIPS[TILE_ID[action.tile]]
        elif type(action) is Claim:
            points = action.points
        if points > best_points or (points == best_points and pips > best_pips):
            best, best_points, best_pips = action, points, pips
    return best


def finish_deals(state: HighFivesState, last_deal: int, rng: random.Random) -> None:
    """Play on with :func:`greedy_action` for every seat until deal ``last_deal`` is over (or
    the game)."""
    while state.current_seat is not None and state.deal <= last_deal:
        state.apply(greedy_action(state, rng))
