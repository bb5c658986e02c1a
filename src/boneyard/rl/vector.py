"""Self-play in batches: many games stepped at once, for a policy that acts on a batch.

>>> import numpy as np
>>> from boneyard.rl.vector import SelfPlay
>>> play = SelfPlay("merry-go-round", games=8, seed=1)
>>> obs, mask, seat = play.observe()
>>> obs.shape[0], mask.shape == (8, play.actions), seat.shape
(8, True, (8,))
>>> rng = np.random.default_rng(0)
>>> for _ in range(50):
...     choice = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
...     rewards, done = play.step(choice)
...     obs, mask, seat = play.observe()
>>> rewards.shape, done.dtype
((8, 2), dtype('bool'))

:meth:`SelfPlay.observe` gives, for every game, the vector and action mask of the seat to move
and that seat; :meth:`SelfPlay.step` gives each game its action id; a game that ends reports
every seat's reward in that step's row and starts again at once (the next deal of the same
seeded stream), so the batch is always full.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from boneyard.rl.table import Table


class SelfPlay:
    """``games`` games of ``game`` for ``players`` seats, all seats played by the caller."""

    def __init__(
        self,
        game: str,
        games: int,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> None:
        self.tables = [Table(game, players, options) for _ in range(games)]
        self.rngs = [random.Random(f"{seed}/{k}") for k in range(games)]
        for table, rng in zip(self.tables, self.rngs, strict=True):
            table.reset(rng)
        self.players = players
        self.actions = self.tables[0].codec.size
        """The size of the action space."""
        self.finished = 0
        """Games finished so far."""

    def observe(self) -> tuple[NDArray[np.float32], NDArray[np.int8], NDArray[np.int64]]:
        """The vector and mask of the seat to move in each game, and that seat."""
        seats = np.array([t.seat for t in self.tables], dtype=np.int64)
        obs = np.stack([t.observe(int(s)) for t, s in zip(self.tables, seats, strict=True)])
        mask = np.stack([t.mask() for t in self.tables])
        return obs, mask, seats

    def step(
        self, actions: NDArray[np.integer[Any]]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
        """Give each game its action id; every seat's reward and whether each game ended (and
        was started again)."""
        rewards = np.zeros((len(self.tables), self.players), dtype=np.float32)
        done = np.zeros(len(self.tables), dtype=np.bool_)
        for k, (table, token) in enumerate(zip(self.tables, actions, strict=True)):
            table.step(int(token))
            if table.over:
                rewards[k] = table.rewards()
                done[k] = True
                self.finished += 1
                table.reset(self.rngs[k])
        return rewards, done
