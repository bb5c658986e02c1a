"""Bots: programs that choose an action from one seat's observation only.

``random`` and ``greedy`` work for every game: greedy asks the observation what each legal action
scores right now (``action_points``, asked of the observation). Use :func:`make_bot` to build
one by name: a built-in name, a plugin (:mod:`boneyard.bots.plugins`) or a program in another
process (``cmd:python mybot.py``, :mod:`boneyard.bots.process`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from boneyard.bots.referee import AnyBot, Rules
from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import Action, Observation

A = TypeVar("A", bound=Action)

__all__ = ["BOTS", "AnyBot", "GreedyBot", "RandomBot", "Rules", "make_bot"]


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"
    blocks = False  # microseconds: a server calls it on its event loop

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation[A]) -> A:
        """A uniformly random legal action."""
        actions = observation.legal_actions
        if not actions:
            raise BoneyardError("the bot has nothing to choose from: it is not its turn")
        return actions[self.rng.randrange(len(actions))]


class GreedyBot:
    """Most points now; ties by heaviest tile; remaining ties at random."""

    name = "greedy"
    blocks = False  # microseconds: a server calls it on its event loop

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation[A]) -> A:
        """The legal action scoring most at once (then the heaviest tile)."""
        actions = observation.legal_actions
        if not actions:
            raise BoneyardError("the bot has nothing to choose from: it is not its turn")
        best: list[A] = []
        best_key: tuple[int, int] | None = None
        for a in actions:
            key = (observation.action_points(a), observation.action_weight(a))
            if best_key is None or key > best_key:
                best, best_key = [a], key
            elif key == best_key:
                best.append(a)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]


BOTS: dict[str, Callable[[random.Random], AnyBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, rng: random.Random, rules: Rules | None = None) -> AnyBot:
    """A bot by name (``random``, ``greedy``, an expert level ``easy`` ... ``expert``, a plugin
    or ``cmd:COMMAND``); ``rules`` bound a process bot's time."""
    from boneyard.bots.plugins import make

    return make(name, rng, rules)


def _register_experts() -> None:
    from boneyard.bots.expert import FACTORIES

    BOTS.update(FACTORIES)


_register_experts()
