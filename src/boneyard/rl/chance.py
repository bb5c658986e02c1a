"""A deal as explicit chance outcomes, for libraries that enumerate chance (OpenSpiel).

Every game deals with ``deal_random(rng)``, which draws only through
:func:`boneyard.core.chance.randbelow` and :func:`~boneyard.core.chance.shuffled`. A
:class:`Script` is a generator that answers those draws from a list of outcomes, so a deal is a
sequence of chance nodes, each a uniform choice among ``n`` outcomes (a shuffle of ``n`` tiles is
``n - 1`` of them, then whatever else the deal decides: a leader, a tile's orientation). Its
probabilities are exactly those of a random deal.

>>> from boneyard.games.registry import get_spec
>>> state = get_spec("highfive").new_game(2, {})
>>> next_draw(state, []), next_draw(state, [0] * 26), next_draw(state, [0] * 27)
(28, 2, None)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import GameState


class NeedDraw(Exception):
    """The deal needs one more outcome, among ``n``."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class Script(random.Random):
    """A generator that gives a deal's draws from ``outcomes`` (each below its draw's bound),
    then raises :class:`NeedDraw` (see the module docstring)."""

    def __init__(self, outcomes: Sequence[int]) -> None:
        super().__init__(0)
        self.outcomes = outcomes
        self.used = 0

    def below(self, n: int) -> int:
        """The next outcome, one of ``range(n)``."""
        if self.used == len(self.outcomes):
            raise NeedDraw(n)
        r = self.outcomes[self.used]
        if not 0 <= r < n:
            raise BoneyardError(f"chance outcome {r} is not one of the {n} of this draw")
        self.used += 1
        return r

    def getrandbits(self, k: int, /) -> int:
        """Refused: a deal draws only through ``below`` (a bug if it does not)."""
        raise RuntimeError("a deal drew a number outside boneyard.core.chance")


def next_draw(state: GameState, outcomes: Sequence[int]) -> int | None:
    """How many outcomes the next draw of ``state``'s coming deal has once ``outcomes`` are
    drawn, or ``None`` when they complete the deal (``state`` itself is not changed)."""
    try:
        state.copy().deal_random(Script(outcomes))
    except NeedDraw as need:
        return need.n
    return None


def most_outcomes(state: GameState) -> int:
    """The most outcomes any draw of ``state``'s deal has (OpenSpiel's ``max_chance_outcomes``):
    the first deal drawn with the first outcome every time."""
    outcomes: list[int] = []
    most = 1
    while (n := next_draw(state, outcomes)) is not None:
        most = max(most, n)
        outcomes.append(0)
    return most


__all__ = ["NeedDraw", "Script", "most_outcomes", "next_draw"]
