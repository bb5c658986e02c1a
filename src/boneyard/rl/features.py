"""Observation tensors: one seat's observation as a fixed-length vector.

The game's encoder (``GameSpec.learning``, :mod:`boneyard.games.learning`) gives the numbers:
seats counted from the observer (0 is the observer, 1 the next to play after it...), so a
policy learns once for every seat, and counts scaled to about 0 … 1 (scores by the target).
Here they become a float32 vector with every value clipped to ``[-LIMIT, LIMIT]``. docs/bots.md
lists each game's layout.

Two ways give the same vector: :meth:`Features.encode` from an observation's JSON (what a bot
account's program receives), and :class:`Filler` straight from states, a whole batch at once (the
game's fast path: the adapters' way, with no observation built).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from boneyard.core.protocol import GameState
from boneyard.games.batch import Row
from boneyard.games.learning import Encoder, FastPath, View
from boneyard.rl.codec import learning_of

LIMIT = 10.0
Vector = NDArray[np.float32]
Batch = NDArray[np.float32]


@dataclass(frozen=True)
class Features:
    """The encoder of one game's observations for ``players`` seats (see the module docstring)."""

    game: str
    players: int
    size: int
    encode_list: Encoder

    def encode(self, view: View) -> Vector:
        """The vector of one observation (its JSON form)."""
        x = np.asarray(self.encode_list(view), dtype=np.float32)
        return np.clip(x, -LIMIT, LIMIT, out=x)


def features_for(game: str, players: int, view: View) -> Features:
    """The encoder of ``game`` for ``players`` seats, sized by an observation of it."""
    encode = learning_of(game).features(players, view)
    return Features(game, players, len(encode(view)), encode)


class Filler:
    """Fills the vectors of many seats' views at once from a game's fast path (its raw values,
    :attr:`~boneyard.games.learning.FastPath.read`): bit masks unpacked, indices and ids set as
    flags, numbers scaled, each kind by a few numpy operations over the whole batch."""

    def __init__(self, fast: FastPath) -> None:
        self.fast = fast
        self.size = fast.size
        self.width = fast.width
        where: dict[str, list[tuple[int, int, int, float]]] = {}
        """Per kind: (its column among its kind's, where it starts, size, scale) per segment."""
        columns: dict[bool, int] = {True: 0, False: 0}
        at = 0
        for seg in fast.layout:
            blob = seg.kind == "ids"
            where.setdefault(seg.kind, []).append((columns[blob], at, seg.size, seg.scale))
            columns[blob] += 1
            at += seg.size
        nums = where.get("num", [])
        self.num_columns = _index([c for c, *_ in nums])
        self.num_at = _index([a for _c, a, *_ in nums])
        self.num_scale = np.array([s for *_, s in nums], dtype=np.float64)
        hot = where.get("onehot", [])
        self.hot_columns = np.array([c for c, *_ in hot], dtype=np.intp)
        self.hot_at = np.array([a for _c, a, *_ in hot], dtype=np.int64)
        self.bits = _runs(where.get("bits", []))
        """Runs of bit masks of one size, side by side: (first column, masks, start, shifts)."""
        self.ids = [(c, a) for c, a, _n, _s in where.get("ids", [])]
        self.row = Row([(seg.kind, seg.size, seg.scale) for seg in fast.layout], LIMIT)
        """One seat's entries at a time (compiled with the engine): :meth:`vector`."""
        self.row_at = np.array(self.row.num_at, dtype=np.intp)
        self.cleared = _index(
            [
                a + i
                for kind in ("onehot", "ids")
                for _c, a, n, _s in where.get(kind, [])
                for i in range(n)
            ]
        )
        """The columns set as flags, cleared before each fill (the others are all written)."""

    def fill(self, out: Batch, nums: Sequence[float], blobs: Sequence[Sequence[bytes]]) -> None:
        """Write the vectors into ``out``: row ``k`` from ``nums[k * width:(k + 1) * width]``
        (the number columns) and ``blobs[k]`` (the bytes columns)."""
        b = len(out)
        raw = np.fromiter(nums, np.float64, b * self.width).reshape(b, self.width)
        if len(self.num_scale):
            scaled = raw[:, self.num_columns] / self.num_scale
            out[:, self.num_at] = np.clip(scaled, -LIMIT, LIMIT, out=scaled)
        out[:, self.cleared] = 0.0
        if len(self.hot_at):
            index = raw[:, self.hot_columns].astype(np.int64)
            hit = index >= 0
            rows = np.broadcast_to(np.arange(b)[:, None], index.shape)
            out[rows[hit], (self.hot_at + index)[hit]] = 1.0
        for column, count, at, shifts in self.bits:
            masks = raw[:, column : column + count].astype(np.int64)
            flags = (masks[:, :, None] >> shifts) & 1
            out[:, at : at + count * len(shifts)] = flags.reshape(b, -1)
        for column, at in self.ids:
            ids = [blob[column] for blob in blobs]
            counts = np.fromiter((len(x) for x in ids), np.int64, b)
            flat = np.frombuffer(b"".join(ids), dtype=np.uint8)
            out[np.repeat(np.arange(b), counts), at + flat.astype(np.intp)] = 1.0

    def vector(self, state: GameState, seat: int) -> Vector:
        """One seat's vector: what :meth:`fill` writes, for a single row (the PettingZoo and
        OpenSpiel adapters ask for one at a time, where numpy's fixed cost per operation would
        be most of the work): the compiled :class:`~boneyard.games.batch.Row` lists its
        non-zero entries, and numpy writes them into a zero vector."""
        nums = [0.0] * self.width
        blobs = self.fast.read(state, seat, nums, 0)
        out = np.zeros(self.size, dtype=np.float32)
        out[self.row_at] = self.row.numbers(nums)
        out[self.row.flags(nums, blobs)] = 1.0
        return out


def _index(values: list[int]) -> slice | NDArray[np.intp]:
    """``values`` as an index: a slice where they run one after the other (numpy copies a
    slice's columns at once), else an array.

    >>> _index([3, 4, 5]), _index([1, 4])
    (slice(3, 6, None), array([1, 4]))
    """
    if not values:
        return slice(0, 0)
    if values == list(range(values[0], values[0] + len(values))):
        return slice(values[0], values[0] + len(values))
    return np.array(values, dtype=np.intp)


def _runs(bits: list[tuple[int, int, int, float]]) -> list[tuple[int, int, int, NDArray[np.int64]]]:
    """Bit-mask segments (column, start, size, scale) as runs that one operation fills: masks of
    one size in consecutive columns whose flags lie side by side."""
    runs: list[tuple[int, int, int, NDArray[np.int64]]] = []
    for column, at, size, _scale in bits:
        if runs:
            first, count, start, shifts = runs[-1]
            if len(shifts) == size and column == first + count and at == start + count * size:
                runs[-1] = (first, count + 1, start, shifts)
                continue
        runs.append((column, 1, at, np.arange(size, dtype=np.int64)))
    return runs


__all__ = ["LIMIT", "Batch", "Features", "Filler", "Vector", "features_for"]
