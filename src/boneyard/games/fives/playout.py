"""The play-out policy of both Fives games (High Five, Merry-Go-Round), compiled.

The expert's search spends most of its time here: every world plays every legal action out to
the end of the hand with this policy for every seat. Compiled with the engine (setup.py), it
reads a placement's tile weight from the engine's ids instead of the tile's Python property.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from boneyard.games.fives.layout import PIPS, TILE_ID
from boneyard.games.fives.play import Play


class PlayoutState(Protocol):
    """What :func:`greedy_action` reads of a Fives game state."""

    def legal_actions(self) -> Sequence[Any]:
        """The legal actions, in the game's order."""
        ...

    def points_if(self, play: Any) -> int:
        """The points ``play`` (the game's :class:`~boneyard.games.fives.play.Play`) would
        score now."""
        ...


def greedy_action(state: PlayoutState, rng: random.Random) -> Any:
    """Most points now, then the heaviest tile, then the first in legal order (a draw or pass
    only when nothing can be placed; deterministic: ``rng`` is reserved for randomised
    policies)."""
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    best: Any = actions[0]
    best_points = -2
    best_pips = -2
    for action in actions:
        points = -1
        pips = -1
        if isinstance(action, Play):
            points = state.points_if(action)
            tile = action.key[0]
            pips = PIPS[tile if tile >= 0 else TILE_ID[action.tile]]
        if points > best_points or (points == best_points and pips > best_pips):
            best, best_points, best_pips = action, points, pips
    return best
