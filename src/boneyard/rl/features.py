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

from dataclasses import dataclass

import numpy as np
from librt.vecs import vec
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
    """Fills the vectors of many seats' views at once from a game's fast path: the batch
    (:class:`~boneyard.games.batch.Batch`, compiled) reads each seat's raw values
    (:attr:`~boneyard.games.learning.FastPath.read`) and lists the places of its flags but
    its masks' bits; numpy then writes those flags, unpacks the masks and scales the numbers of
    the whole batch, a few operations a step."""

    def __init__(self, fast: FastPath) -> None:
        self.fast = fast
        self.size = fast.size
        self.width = fast.width
        self.row = Row([(seg.kind, seg.size, seg.scale) for seg in fast.layout])
        """Where the raw values go (compiled with the engine): the flags' places, and one
        seat's entries at a time for :meth:`vector`."""
        self.num_columns = _index(self.row.num_columns)
        self.num_at = _index(self.row.num_at)
        self.num_scale = np.array(self.row.scales, dtype=np.float64)
        self.row_at = np.array(self.row.num_at, dtype=np.intp)
        self.bits = _runs(self.row.bit_columns, self.row.bit_at, self.row.bit_size)
        """Runs of bit masks of one size, side by side: (first column, masks, start, size)."""

    def numbers(self, out: Batch, raw: NDArray[np.float64]) -> None:
        """Write the number and mask segments of ``out``: row ``k`` from ``raw[k]`` (a seat's
        number columns), the numbers scaled and clipped, the masks' bits unpacked (each run of
        masks by one ``unpackbits`` of their little-endian bytes)."""
        if len(self.num_scale):
            scaled = raw[:, self.num_columns] / self.num_scale
            out[:, self.num_at] = np.clip(scaled, -LIMIT, LIMIT, out=scaled)
        b = len(out)
        for column, count, at, size in self.bits:
            wide = "<u4" if size <= 32 else "<u8"
            masks = raw[:, column : column + count].astype(wide)
            bits = np.unpackbits(masks.view(np.uint8), axis=1, bitorder="little")
            place = out[:, at : at + count * size].reshape(b, count, size)
            place[...] = bits.reshape(b, count, -1)[:, :, :size]

    def vector(self, state: GameState, seat: int) -> Vector:
        """One seat's vector: what a batch's step writes, for a single row (the PettingZoo and
        OpenSpiel adapters ask for one at a time, where numpy's fixed cost per operation would
        be most of the work): the compiled :class:`~boneyard.games.batch.Row` lists its
        non-zero entries, and numpy writes them into a zero vector."""
        nums = vec[float]([0.0] * self.width)
        blobs = self.fast.read(state, seat, nums, 0)
        out = np.zeros(self.size, dtype=np.float32)
        out[self.row_at] = self.row.numbers(nums, LIMIT)
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


def _runs(columns: list[int], at: list[int], sizes: list[int]) -> list[tuple[int, int, int, int]]:
    """Bit-mask segments (their columns, starts and sizes) as runs that one operation fills:
    masks of one size in consecutive columns whose flags lie side by side.

    >>> _runs([0, 1, 3], [0, 28, 70], [28, 28, 28])
    [(0, 2, 0, 28), (3, 1, 70, 28)]
    """
    runs: list[tuple[int, int, int, int]] = []
    for column, start, size in zip(columns, at, sizes, strict=True):
        if runs:
            first, count, begin, width = runs[-1]
            if width == size and column == first + count and start == begin + count * size:
                runs[-1] = (first, count + 1, begin, width)
                continue
        runs.append((column, 1, start, size))
    return runs


__all__ = ["LIMIT", "Batch", "Features", "Filler", "Vector", "features_for"]
