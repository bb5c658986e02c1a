"""Many games stepped together by their action ids: the engine's side of batched self-play
(:mod:`boneyard.rl.vector` adds numpy and the learner's API).

A :class:`Batch` holds ``n`` states of one game, deals them from their own generators, lists
the ids of each one's legal actions through the game's fast path
(:class:`~boneyard.games.learning.FastPath`), applies the action each is given id by id, and
writes every seat-to-move's raw numbers into one flat list: one call per step for the whole
batch, compiled with the engine (setup.py), where a loop over the games in Python would cost
more than the engine's own step. Python's cyclic garbage collector is paused while a step runs:
the step makes and drops thousands of small containers (legal actions, ids) and no cycle, and
the collector would otherwise walk every game's objects over and over.

>>> import random
>>> from boneyard.games.registry import get_spec
>>> spec = get_spec("highfive")
>>> fast = spec.learning.fast(2, spec.new_game(2, {}))
>>> batch = Batch(lambda: spec.new_game(2, {}), [random.Random(k) for k in range(3)], fast)
>>> rows, ids = batch.refresh()
>>> sorted(set(rows)), len(batch.nums) == 3 * fast.width
([0, 1, 2], True)
>>> ended, rows, ids = batch.step([ids[rows.index(k)] for k in range(3)])
>>> ended, sorted(set(rows))
([], [0, 1, 2])
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Sequence
from typing import Any

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.state import GameResult
from boneyard.games.learning import FastPath, Path


class Batch:
    """``len(rngs)`` games made by ``new_game``, each dealt from its generator (see the module
    docstring)."""

    def __init__(
        self, new_game: Callable[[], object], rngs: Sequence[random.Random], fast: FastPath
    ) -> None:
        n = len(rngs)
        if n < 1:
            raise BoneyardError("a batch needs at least one game")
        self.new_game = new_game
        self.rngs = list(rngs)
        self.read = fast.read
        self.ids = fast.ids
        self.width = fast.width
        self.states: list[Any] = [new_game() for _ in range(n)]
        self.seats: list[int] = [0] * n
        self.paths: list[list[Path]] = [[] for _ in range(n)]
        """Each game's legal actions' ids (:data:`~boneyard.games.learning.Path`)."""
        self.choices: list[Sequence[object]] = [[] for _ in range(n)]
        self.prefix: list[tuple[int, ...]] = [() for _ in range(n)]
        """The ids given so far of an action given id by id (a High Fives claim, then its turn)."""
        self.nums: list[float] = [0.0] * (n * self.width)
        """Every game's number columns, game after game (``width`` each)."""
        self.blobs: list[Sequence[bytes]] = [() for _ in range(n)]
        """Every game's bytes columns."""
        self.results: list[GameResult | None] = [None] * n
        """How each game that ended at the last :meth:`step` ended (else ``None``)."""
        self.finished = 0

    def refresh(self) -> tuple[list[int], list[int]]:
        """Deal where a deal is awaited, number each game's legal actions and read its seat to
        move; the ids that may be given next, as (game, id) in two lists."""
        rows: list[int] = []
        ids: list[int] = []
        collecting = gc.isenabled()
        gc.disable()
        try:
            for k in range(len(self.states)):
                self._look(k, rows, ids)
        finally:
            if collecting:
                gc.enable()
        return rows, ids

    def step(self, tokens: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
        """Give game ``k`` the id ``tokens[k]``, then look at every game again (as
        :meth:`refresh`, each game right after its move, while its state is at hand): the games
        that ended (their result in :attr:`results`: each was replaced by a new game), and the
        ids that may be given next. An id that is not legal raises IllegalActionError naming the
        game, and no game moves."""
        n = len(self.states)
        if len(tokens) != n:
            raise BoneyardError(f"give one action id per game ({n}), not {len(tokens)}")
        given = [int(t) for t in tokens]
        found = [self._find(k, given[k]) for k in range(n)]
        ended: list[int] = []
        rows: list[int] = []
        ids: list[int] = []
        collecting = gc.isenabled()
        gc.disable()
        try:
            for k in range(n):
                self.results[k] = None
                i = found[k]
                if i < 0:
                    self.prefix[k] = (*self.prefix[k], given[k])
                else:
                    self.prefix[k] = ()
                    state = self.states[k]
                    state.apply(self.choices[k][i])
                    if state.is_over:
                        self.results[k] = state.result()
                        self.finished += 1
                        self.states[k] = self.new_game()
                        ended.append(k)
                self._look(k, rows, ids)
        finally:
            if collecting:
                gc.enable()
        return ended, rows, ids

    def _look(self, k: int, rows: list[int], ids: list[int]) -> None:
        """Deal game ``k`` if it awaits a deal, number its legal actions, read its seat to move
        (its view is kept while an action is given id by id), and list the ids it may be given
        next into ``rows`` and ``ids``."""
        prefix = self.prefix[k]
        if prefix:
            self._following(k, prefix, rows, ids)
            return
        state = self.states[k]
        while state.awaiting_deal:
            state.deal_random(self.rngs[k])
        seat: int = state.current_seat
        self.seats[k] = seat
        legal = state.legal_actions()
        paths = self.ids(state, legal)
        self.paths[k] = paths
        self.choices[k] = legal
        seen: set[int] | None = None
        for p in paths:
            if isinstance(p, int):
                rows.append(k)
                ids.append(p)
                continue
            if seen is None:  # a first id several actions may share (High Fives' claims)
                seen = set()
                for q in paths:
                    if isinstance(q, int):
                        seen.add(q)
            if p[0] not in seen:
                seen.add(p[0])
                rows.append(k)
                ids.append(p[0])
        self.blobs[k] = self.read(state, seat, self.nums, k * self.width)

    def _following(self, k: int, prefix: tuple[int, ...], rows: list[int], ids: list[int]) -> None:
        """The ids that may follow ``prefix`` in game ``k``."""
        n = len(prefix)
        seen: set[int] = set()
        for p in self.paths[k]:
            if isinstance(p, tuple) and len(p) > n and p[:n] == prefix and p[n] not in seen:
                seen.add(p[n])
                rows.append(k)
                ids.append(p[n])

    def _find(self, k: int, token: int) -> int:
        """The legal action of game ``k`` whose ids are its action's ids given so far and then
        ``token``; -1 when they only begin one."""
        prefix = self.prefix[k]
        paths = self.paths[k]
        if not prefix:
            for i in range(len(paths)):
                p = paths[i]
                if isinstance(p, int) and p == token:
                    return i
        path = (*prefix, token)
        m = len(path)
        started = False
        for i in range(len(paths)):
            p = paths[i]
            if isinstance(p, tuple):
                if p == path:
                    return i
                started = started or (len(p) > m and p[:m] == path)
        if started:
            return -1
        raise IllegalActionError(f"game {k}: action id {token} is not legal now")


class Row:
    """One seat's vector at a time (the PettingZoo and OpenSpiel adapters ask for one per step),
    as its non-zero entries: the numbers scaled and clipped, and the places of the flags set.

    Compiled with the batch, so the loop over a view's bits, indices and ids (hundreds of flags
    in Highrise) runs as machine code; numpy then writes the two lists into a zero vector with
    two operations, where building the vector in Python cost more than the engine's move."""

    def __init__(
        self,
        layout: Sequence[tuple[str, int, float]],
        limit: float,
    ) -> None:
        self.limit = limit
        self.num_columns: list[int] = []
        self.scales: list[float] = []
        self.bit_columns: list[int] = []
        self.bit_at: list[int] = []
        self.hot_columns: list[int] = []
        self.hot_at: list[int] = []
        self.id_at: list[int] = []
        self.num_at: list[int] = []
        """Where each number goes in the vector, in :meth:`numbers`' order."""
        column = at = 0
        for kind, size, scale in layout:
            if kind == "ids":
                self.id_at.append(at)
            else:
                self._plan(kind, column, at, scale)
                column += 1
            at += size

    def _plan(self, kind: str, column: int, at: int, scale: float) -> None:
        if kind == "num":
            self.num_columns.append(column)
            self.num_at.append(at)
            self.scales.append(scale)
        elif kind == "bits":
            self.bit_columns.append(column)
            self.bit_at.append(at)
        else:
            self.hot_columns.append(column)
            self.hot_at.append(at)

    def numbers(self, nums: list[float]) -> list[float]:
        """The number segments' values, scaled and clipped to ``[-limit, limit]``."""
        limit = self.limit
        out: list[float] = []
        for i in range(len(self.num_columns)):
            value = nums[self.num_columns[i]] / self.scales[i]
            out.append(limit if value > limit else -limit if value < -limit else value)
        return out

    def flags(self, nums: list[float], blobs: Sequence[bytes]) -> list[int]:
        """The places of every flag set: each bit of the masks, each index (-1: none), each id
        of the bytes columns."""
        out: list[int] = []
        for i in range(len(self.bit_columns)):
            mask = int(nums[self.bit_columns[i]])
            place = self.bit_at[i]
            while mask:
                if mask & 1:
                    out.append(place)
                mask >>= 1
                place += 1
        for i in range(len(self.hot_columns)):
            index = int(nums[self.hot_columns[i]])
            if index >= 0:
                out.append(self.hot_at[i] + index)
        for i in range(len(self.id_at)):
            at = self.id_at[i]
            for b in blobs[i]:
                out.append(at + b)
        return out


__all__ = ["Batch", "Row"]
