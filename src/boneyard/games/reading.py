"""A game's fast path as methods: what :class:`~boneyard.games.batch.Batch` calls for every
decision of batched self-play (:class:`~boneyard.games.learning.FastPath` holds one).

Compiled with the engine (setup.py), with each game's subclass (its ``fast`` module): the batch
then calls a game's methods as machine code through the class's method table, with its
arguments as they are (a native vector, a machine int), where a call of a function held in an
attribute goes through Python's generic call (its arguments boxed, then checked and unboxed
again: about a tenth of a decision's time in Merry-Go-Round).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from librt.vecs import vec
from mypy_extensions import i64

Path = int | tuple[int, ...]
"""An action's ids: its id when it is one (most are), else its ids in order (a High Fives turn
with a claim)."""


class Reading:
    """A game's ids and raw numbers read straight from its states; a game's fast path
    subclasses it (each method's docstring says what it gives)."""

    def read(self, state: Any, seat: int, out: vec[float], at: int) -> Sequence[bytes]:
        """Write the number columns of ``seat``'s view into ``out[at:at + width]`` and return
        its bytes columns (the layout's ``ids`` segments, in order)."""
        raise NotImplementedError

    def ids(self, state: Any, actions: Sequence[object]) -> list[Path]:
        """The ids of each legal action ``actions`` of ``state``'s seat to move (the codec's
        tokens, as a :data:`Path`)."""
        raise NotImplementedError

    def ids_into(self, state: Any, actions: Sequence[object], out: vec[i64], at: i64) -> i64:
        """:meth:`ids` written into ``out`` from ``at`` (the caller made room for one id an
        action), where each action takes one id: how many; -1 (``out`` then holds nothing to
        rely on, and the caller lists :meth:`ids`) where one may take several (a High Fives turn
        with a claim). A game overrides it to write its ids as it finds them, with no list of
        boxed ints in between."""
        paths = self.ids(state, actions)
        for i in range(len(paths)):
            p = paths[i]
            if not isinstance(p, int):
                return -1
            out[at + i] = p
        return len(paths)
