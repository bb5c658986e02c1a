"""Self-play in batches on the compiled engine: many games stepped together, every seat played by
the caller's policy.

>>> import numpy as np
>>> from boneyard.rl.vector import SelfPlay
>>> play = SelfPlay("merry-go-round", games=8, seed=1)
>>> obs, mask, seat = play.observe()
>>> obs.shape[0], mask.shape == (8, play.actions), seat.shape
(8, True, (8,))
>>> rng = np.random.default_rng(0)
>>> for _ in range(50):
...     rewards, done = play.step(play.random_actions(rng))
>>> rewards.shape, done.dtype
((8, 2), dtype('bool'))

:meth:`SelfPlay.observe` gives, for every game, the vector and action mask of the seat to move
and that seat; :meth:`SelfPlay.step` gives each game its action id; a game that ends reports
every seat's reward in that step's row and starts again at once (the next deal of the same
seeded stream), so the batch is always full.

The games are stepped by the engine's side (:class:`boneyard.games.batch.Batch`, compiled) and
read through their fast path (:class:`~boneyard.games.learning.FastPath`): no observation is
built and no JSON written; what the batch writes (native vectors) numpy views without a copy.
The arrays are numpy arrays of this object, filled in place at every step (copy them to keep
them; write into a copy: a step clears only the flags and mask entries it set), the vectors of
the whole batch by a few numpy operations (:class:`~boneyard.rl.features.Filler`). The ids
legal now are also listed flat (:attr:`SelfPlay.legal_rows`, :attr:`SelfPlay.legal_ids`), which
a sampler reads without scanning the whole mask (:meth:`SelfPlay.random_actions`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from librt.vecs import vec
from mypy_extensions import i64
from numpy.typing import NDArray

from boneyard.core.errors import BoneyardError
from boneyard.games.batch import Batch
from boneyard.rl.features import Filler
from boneyard.rl.table import Table, rewards_of


class SelfPlay:
    """``games`` games of ``game`` for ``players`` seats, all seats played by the caller."""

    def __init__(
        self,
        game: str,
        games: int,
        players: int = 2,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
    ) -> None:
        if games < 1:
            raise BoneyardError("self-play needs at least one game")
        probe = Table(game, players, options)
        if probe.filler is None:
            raise BoneyardError(f"{probe.spec.title} has no fast path for batched self-play")
        spec, opts = probe.spec, dict(options or {})
        self.players = players
        self.filler: Filler = probe.filler
        self.batch = Batch(
            lambda: spec.new_game(players, opts),
            [random.Random(f"{seed}/{k}") for k in range(games)],
            self.filler.fast,
        )
        self.actions = probe.codec.size
        """The size of the action space."""
        self.obs = np.zeros((games, self.filler.size), dtype=np.float32)
        self.mask = np.zeros((games, self.actions), dtype=np.int8)
        self.seats = np.zeros(games, dtype=np.int64)
        self.legal_rows = np.zeros(0, dtype=np.int64)
        """The game (row) of each id listed in :attr:`legal_ids`, ascending."""
        self.legal_ids = np.zeros(0, dtype=np.int64)
        """Every id the seat to move of each game may give now, game by game."""
        batch = self.batch
        self._nums = np.frombuffer(memoryview(batch.nums), dtype=np.float64).reshape(games, -1)
        self._flags = _view(batch.flags)
        self._flagged = np.zeros(0, dtype=np.int64)
        """The places in :attr:`obs` (flat) of the flags set at the last step."""
        self._seats = _view(batch.seats)
        self._rows, self._ids = _view(batch.legal_rows), _view(batch.legal_ids)
        self._refresh()

    @property
    def finished(self) -> int:
        """Games finished so far."""
        return self.batch.finished

    def observe(self) -> tuple[NDArray[np.float32], NDArray[np.int8], NDArray[np.int64]]:
        """The vector and mask of the seat to move in each game, and that seat (this object's
        arrays, filled in place by :meth:`step`)."""
        return self.obs, self.mask, self.seats

    def random_actions(self, rng: np.random.Generator) -> NDArray[np.int64]:
        """A uniformly random legal id for every game (a baseline policy)."""
        counts = np.bincount(self.legal_rows, minlength=len(self.seats))
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        pick = (rng.random(len(counts)) * counts).astype(np.int64)
        chosen: NDArray[np.int64] = self.legal_ids[starts + pick]
        return chosen

    def step(
        self, actions: NDArray[np.integer[Any]]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
        """Give each game its action id; every seat's reward and whether each game ended (and
        was started again). An id that is not legal raises IllegalActionError (naming the game)
        and no game moves."""
        games = len(self.seats)
        if len(actions) != games:
            raise BoneyardError(f"give one action id per game ({games}), not {len(actions)}")
        ended = self.batch.step(np.asarray(actions, dtype=np.int64).tolist())
        rewards = np.zeros((games, self.players), dtype=np.float32)
        done = np.zeros(games, dtype=np.bool_)
        for k in ended:
            rewards[k] = rewards_of(self.batch.results[k], self.players)
            done[k] = True
        self._fill()
        return rewards, done

    def _refresh(self) -> None:
        """Deal, list the legal ids and fill the arrays (through the batch)."""
        self.batch.refresh()
        self._fill()

    def _fill(self) -> None:
        """The arrays from what the batch wrote: its numbers, its flags' places, its seats and
        its legal ids (numpy views of its native vectors, made once: the vectors of the legal
        ids again when the batch made them longer)."""
        batch = self.batch
        self.filler.numbers(self.obs, self._nums)
        flat = self.obs.reshape(-1)
        flat[self._flagged] = 0.0
        self._flagged = self._flags[: batch.flagged].copy()
        flat[self._flagged] = 1.0
        self.seats[:] = self._seats
        if len(self._ids) != len(batch.legal_ids):
            self._rows, self._ids = _view(batch.legal_rows), _view(batch.legal_ids)
        count = batch.count
        self.mask[self.legal_rows, self.legal_ids] = 0
        self.legal_rows = self._rows[:count].copy()
        self.legal_ids = self._ids[:count].copy()
        self.mask[self.legal_rows, self.legal_ids] = 1


def _view(v: vec[i64]) -> NDArray[np.int64]:
    """A read-only numpy view of a native vector of 64-bit ints (no copy)."""
    return np.frombuffer(memoryview(v), dtype=np.int64)
