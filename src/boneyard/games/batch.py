"""Many games stepped together by their action ids: the engine's side of batched self-play
(:mod:`boneyard.rl.vector` adds numpy and the learner's API).

A :class:`Batch` holds ``n`` states of one game, deals them from their own generators, lists
the ids of each one's legal actions through the game's fast path
(:class:`~boneyard.games.learning.FastPath`), applies the action each is given id by id, and
writes what the learner reads into flat native vectors (``librt.vecs.vec``, machine numbers
behind the buffer protocol, which numpy views without a copy): every seat-to-move's raw
numbers, the places of its vector's flags, its seat, and the legal ids as (game, id) pairs.
One call per step for the whole batch, compiled with the engine (setup.py), where a loop over
the games in Python would cost more than the engine's own step; writing a vector's item is a
machine store there, where a list's item is a Python object made, stored and read back by
numpy.

A step keeps no per-game Python container alive that it did not have before (each game's legal
actions are kept in one list of its own, emptied and refilled): what the cyclic garbage
collector has to walk after a step is then only what the games themselves made (their events).
The collector is paused while a step runs: the step makes and drops thousands of small
containers (legal actions, ids) and no cycle, and the collector would otherwise walk every
game's objects over and over. Right after the step (where the caller's collector is on) a young
collection (generation 0) walks what the step left, a few hundred objects a step at 256 games,
while they are still in the processor's cache: left to the interpreter, they were walked a few
steps later and again in the middle generation, out of the cache, which took a fifth of
self-play's time (docs/performance.md, "Self-play"). The collector's own schedule is otherwise
untouched: the middle and old generations are collected when the interpreter decides, the
caller's cyclic garbage as before.

>>> import random
>>> from boneyard.games.registry import get_spec
>>> spec = get_spec("highfive")
>>> fast = spec.learning.fast(2, spec.new_game(2, {}))
>>> batch = Batch(lambda: spec.new_game(2, {}), [random.Random(k) for k in range(3)], fast)
>>> batch.refresh()
>>> rows, ids = batch.listed()
>>> sorted(set(rows)), len(batch.nums) == 3 * fast.width
([0, 1, 2], True)
>>> batch.step([ids[rows.index(k)] for k in range(3)]), sorted(set(batch.listed()[0]))
([], [0, 1, 2])
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from librt.vecs import vec
from mypy_extensions import i64

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.state import GameBase, GameResult
from boneyard.games.learning import FastPath
from boneyard.games.reading import Path, Reading

if TYPE_CHECKING:
    State = GameBase[Any, Any, Any]

ROOM: i64 = 16
"""Legal ids first made room for, per game (the room doubles when a step lists more)."""


def _resume(collecting: bool) -> None:
    """End a step's pause of the collector: where it was on, turn it on again and walk the young
    objects the step left while they are in cache (see the module docstring)."""
    if collecting:
        gc.enable()
        gc.collect(0)


def zeros(n: int) -> vec[i64]:
    """A native vector of ``n`` zeros (64-bit ints)."""
    return vec[i64]([0] * n)


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
        self.reading: Reading = fast.reading
        self.width: i64 = fast.width
        self.size: i64 = fast.size
        self.row = Row([(s.kind, s.size, s.scale) for s in fast.layout], masks=False)
        """Where the flags go (those of the masks are numpy's: :mod:`boneyard.rl.features`)."""
        self.states: list[State] = [self._new() for _ in range(n)]
        self.seats = zeros(n)
        """Each game's seat to move."""
        self.choices: list[list[object]] = [[] for _ in range(n)]
        """Each game's legal actions (the list is kept and refilled)."""
        self.paths: list[list[Path] | None] = [None] * n
        """Each game's legal actions' ids (:data:`~boneyard.games.learning.Path`) where one
        takes several ids (High Fives' claims); ``None`` where each takes one: they are then
        :attr:`legal_ids` from ``start[k]`` on, in the order of :attr:`choices`."""
        self.start = zeros(n)
        self.prefix: list[tuple[int, ...]] = [() for _ in range(n)]
        """The ids given so far of an action given id by id (a High Fives claim, then its turn)."""
        self.nums = vec[float]([0.0] * (n * self.width))
        """Every game's number columns, game after game (``width`` each)."""
        self.flags = zeros(n * self.row.room)
        """The places of the flags set in every game's vector but its masks' bits, as places in
        the whole batch's vectors laid end to end (game ``k``'s vector starts at ``k * size``):
        :attr:`flagged` of them."""
        self.flagged: i64 = 0
        self.legal_rows = zeros(n * ROOM)
        """The game of each id listed in :attr:`legal_ids` (:attr:`listed` of them)."""
        self.legal_ids = zeros(n * ROOM)
        """Every id the seat to move of each game may give next, game by game."""
        self.count: i64 = 0
        self.results: list[GameResult | None] = [None] * n
        """How each game that ended at the last :meth:`step` ended (else ``None``)."""
        self.finished = 0

    def _new(self) -> State:
        state: State = self.new_game()  # type: ignore[assignment]
        return state

    def listed(self) -> tuple[list[int], list[int]]:
        """The ids that may be given next, as (game, id) in two lists."""
        c = self.count
        return [int(self.legal_rows[i]) for i in range(c)], [
            int(self.legal_ids[i]) for i in range(c)
        ]

    def refresh(self) -> None:
        """Deal where a deal is awaited, number each game's legal actions and read its seat to
        move (into :attr:`legal_ids`, :attr:`nums`, :attr:`flags` and :attr:`seats`)."""
        self.count = 0
        self.flagged = 0
        collecting = gc.isenabled()
        gc.disable()
        try:
            for k in range(len(self.states)):
                self._look(k)
        finally:
            _resume(collecting)

    def step(self, tokens: Sequence[int]) -> list[int]:
        """Give game ``k`` the id ``tokens[k]``, then look at every game again (as
        :meth:`refresh`, each game right after its move, while its state is at hand); the games
        that ended (their result in :attr:`results`: each was replaced by a new game). An id
        that is not legal raises IllegalActionError naming the game, and no game moves."""
        n = len(self.states)
        if len(tokens) != n:
            raise BoneyardError(f"give one action id per game ({n}), not {len(tokens)}")
        given = [int(t) for t in tokens]
        chosen: list[object] = []
        for k in range(n):
            i = self._find(k, given[k])
            chosen.append(self.choices[k][i] if i >= 0 else None)
        ended: list[int] = []
        self.count = 0
        self.flagged = 0
        collecting = gc.isenabled()
        gc.disable()
        try:
            for k in range(n):
                self.results[k] = None
                action = chosen[k]
                if action is None:
                    self.prefix[k] = (*self.prefix[k], given[k])
                else:
                    self.prefix[k] = ()
                    state = self.states[k]
                    state.apply(action)
                    if state.is_over:
                        self.results[k] = state.result()
                        self.finished += 1
                        self.states[k] = self._new()
                        ended.append(k)
                self._look(k)
        finally:
            _resume(collecting)
        return ended

    def _look(self, k: i64) -> None:
        """Deal game ``k`` if it awaits a deal, number its legal actions, read its seat to move
        (its view is kept while an action is given id by id), and list the ids it may be given
        next."""
        prefix = self.prefix[k]
        state = self.states[k]
        if prefix:
            self._following(k, prefix)
        else:
            while state.awaiting_deal:
                deal: Any = state
                deal.deal_random(self.rngs[k])
            seat = state.current_seat
            self.seats[k] = -1 if seat is None else seat
            legal = state.legal_actions()
            choices = self.choices[k]
            choices.clear()
            choices.extend(legal)
            self._number(k, state, legal)
        at = k * self.width
        blobs = self.reading.read(state, int(self.seats[k]), self.nums, at)
        self.flagged = self.row.flags_into(
            self.nums, at, blobs, self.flags, self.flagged, k * self.size
        )

    def _number(self, k: i64, state: State, legal: Sequence[object]) -> None:
        """List the first ids of game ``k``'s legal actions ``legal`` (each once) and keep what
        :meth:`_find` reads: the game writes them in place where each action takes one id."""
        c = self.count
        self.start[k] = c
        self.paths[k] = None
        while c + len(legal) > len(self.legal_ids):
            self.legal_rows = grown(self.legal_rows)
            self.legal_ids = grown(self.legal_ids)
        listed = self.reading.ids_into(state, legal, self.legal_ids, c)
        if listed >= 0:
            rows = self.legal_rows
            for i in range(c, c + listed):
                rows[i] = k
            self.count = c + listed
            return
        paths = self.reading.ids(state, legal)
        seen: set[int] | None = None
        for p in paths:
            if isinstance(p, int):
                self._list(k, p)
                continue
            if seen is None:  # a first id several actions may share (High Fives' claims)
                self.paths[k] = paths
                seen = set()
                for q in paths:
                    if isinstance(q, int):
                        seen.add(q)
            if p[0] not in seen:
                seen.add(p[0])
                self._list(k, p[0])

    def _list(self, k: i64, token: int) -> None:
        """List ``token`` as an id game ``k`` may be given next."""
        c = self.count
        if c == len(self.legal_ids):
            self.legal_rows = grown(self.legal_rows)
            self.legal_ids = grown(self.legal_ids)
        self.legal_rows[c] = k
        self.legal_ids[c] = token
        self.count = c + 1

    def _following(self, k: i64, prefix: tuple[int, ...]) -> None:
        """The ids that may follow ``prefix`` in game ``k``."""
        n = len(prefix)
        seen: set[int] = set()
        self.start[k] = self.count
        for p in self.paths[k] or ():
            if isinstance(p, tuple) and len(p) > n and p[:n] == prefix and p[n] not in seen:
                seen.add(p[n])
                self._list(k, p[n])

    def _find(self, k: i64, token: int) -> int:
        """The legal action of game ``k`` whose ids are its action's ids given so far and then
        ``token``; -1 when they only begin one."""
        paths = self.paths[k]
        if paths is None:
            start = self.start[k]
            ids = self.legal_ids
            for i in range(len(self.choices[k])):
                if ids[start + i] == token:
                    return i
            raise IllegalActionError(f"game {k}: action id {token} is not legal now")
        prefix = self.prefix[k]
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


def grown(v: vec[i64]) -> vec[i64]:
    """A vector twice as long as ``v``, ``v``'s items first (a new one: numpy may be viewing
    ``v``)."""
    n = len(v)
    out = zeros(2 * n)
    for i in range(n):
        out[i] = v[i]
    return out


class Row:
    """Where a seat's raw numbers (:attr:`~boneyard.games.learning.FastPath.read`) go in its
    vector: the numbers scaled and clipped, and the places of the flags set (each bit of a
    mask, each index, each id of a bytes column).

    Compiled with the batch, so the loop over a view's bits, indices and ids (hundreds of flags
    in Highrise) runs as machine code: :class:`Batch` writes every game's flags with it, and
    the PettingZoo and OpenSpiel adapters' one vector at a time (:meth:`numbers`,
    :meth:`flags`), numpy then writing them into a zero vector with two operations."""

    def __init__(self, layout: Sequence[tuple[str, int, float]], masks: bool = True) -> None:
        self.masks = masks
        """Whether :meth:`flags_into` lists the bits of the masks (else the caller unpacks them:
        numpy does it for a whole batch in a few operations)."""
        self.num_columns: list[int] = []
        self.scales: list[float] = []
        self.bit_columns: list[int] = []
        self.bit_at: list[int] = []
        self.bit_size: list[int] = []
        self.hot_columns: list[int] = []
        self.hot_at: list[int] = []
        self.id_at: list[int] = []
        self.num_at: list[int] = []
        """Where each number goes in the vector, in :meth:`numbers`' order."""
        self.room: i64 = 0
        """How many flags a vector may have set at most."""
        column = at = 0
        for kind, size, scale in layout:
            if kind == "ids":
                self.id_at.append(at)
                self.room += size
            else:
                self._plan(kind, column, at, size, scale)
                column += 1
            at += size
        self.scratch = zeros(self.room)

    def _plan(self, kind: str, column: int, at: int, size: int, scale: float) -> None:
        if kind == "num":
            self.num_columns.append(column)
            self.num_at.append(at)
            self.scales.append(scale)
            return
        if kind == "bits":
            self.room += size if self.masks else 0
            self.bit_columns.append(column)
            self.bit_at.append(at)
            self.bit_size.append(size)
        else:
            self.room += size
            self.hot_columns.append(column)
            self.hot_at.append(at)

    def numbers(self, nums: vec[float], limit: float) -> list[float]:
        """The number segments' values of ``nums`` (one seat's), scaled and clipped to
        ``[-limit, limit]``."""
        out: list[float] = []
        for i in range(len(self.num_columns)):
            value = nums[self.num_columns[i]] / self.scales[i]
            out.append(limit if value > limit else -limit if value < -limit else value)
        return out

    def flags(self, nums: vec[float], blobs: Sequence[bytes]) -> list[int]:
        """The places of every flag set in one seat's vector (its numbers ``nums``, its bytes
        columns ``blobs``)."""
        scratch = self.scratch
        return [int(scratch[i]) for i in range(self.flags_into(nums, 0, blobs, scratch, 0, 0))]

    def flags_into(
        self, nums: vec[float], at: i64, blobs: Sequence[bytes], out: vec[i64], pos: i64, base: i64
    ) -> i64:
        """Write ``base`` plus the place of each flag set in the vector of the numbers from
        ``nums[at]`` and the bytes columns ``blobs`` into ``out`` from ``pos``; where the next
        goes. A mask's bits past its segment's size are not flags (no reader sets them)."""
        for i in range(len(self.bit_columns) if self.masks else 0):
            mask = i64(int(nums[at + self.bit_columns[i]]))
            place: i64 = base + self.bit_at[i]
            end = place + self.bit_size[i]
            while mask != 0 and place < end:
                if mask & 1:
                    out[pos] = place
                    pos += 1
                mask >>= 1
                place += 1
        for i in range(len(self.hot_columns)):
            index = i64(int(nums[at + self.hot_columns[i]]))
            if index >= 0:
                out[pos] = base + self.hot_at[i] + index
                pos += 1
        for i in range(len(self.id_at)):
            first: i64 = base + self.id_at[i]
            for b in blobs[i]:
                out[pos] = first + b
                pos += 1
        return pos


__all__ = ["Batch", "Row"]
