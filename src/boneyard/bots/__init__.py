"""Bots: programs that choose an action from one seat's observation only.

``random`` and ``greedy`` work for every game: greedy asks the observation what each legal action
scores right now (:class:`GreedyView`). Use :func:`make_bot` to build one by name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from boneyard.core.errors import BoneyardError


@runtime_checkable
class GreedyView(Protocol):
    """An observation that can value its own legal actions without seeing hidden tiles."""

    @property
    def legal_actions(self) -> Sequence[Any]:
        """The seat's legal actions."""
        ...

    def action_points(self, action: Any) -> int:
        """Points the action scores at once for this seat (0 for draws and passes)."""
        ...

    def action_weight(self, action: Any) -> int:
        """Tie-break: the pip weight the action gets rid of (heaviest first); -1 for non-plays."""
        ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Any) -> Any:
        """A uniformly random legal action."""
        actions = observation.legal_actions
        if not actions:
            raise BoneyardError("the bot has nothing to choose from: it is not its turn")
        return actions[self.rng.randrange(len(actions))]


class GreedyBot:
    """Most points now; ties by heaviest tile; remaining ties at random."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: GreedyView) -> Any:
        """The legal action scoring most at once (then the heaviest tile)."""
        actions = observation.legal_actions
        if not actions:
            raise BoneyardError("the bot has nothing to choose from: it is not its turn")
        best: list[Any] = []
        best_key: tuple[int, int] | None = None
        for a in actions:
            key = (observation.action_points(a), observation.action_weight(a))
            if best_key is None or key > best_key:
                best, best_key = [a], key
            elif key == best_key:
                best.append(a)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]


BOTS: dict[str, Callable[[random.Random], Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, rng: random.Random) -> Any:
    """A bot by name (``random``, ``greedy``, or an expert level: ``easy`` ... ``expert``)."""
    try:
        return BOTS[name](rng)
    except KeyError:
        raise BoneyardError(f"bot {name!r} is unknown (bots: {', '.join(BOTS)})") from None


def _register_experts() -> None:
    from boneyard.bots.expert import FACTORIES

    BOTS.update(FACTORIES)


_register_experts()
