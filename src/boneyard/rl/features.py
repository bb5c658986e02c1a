"""Observation tensors: one seat's observation (its JSON form) as a fixed-length vector.

The game's encoder (``GameSpec.learning``, :mod:`boneyard.games.learning`) gives the numbers:
seats counted from the observer (0 is the observer, 1 the next to play after it...), so a
policy learns once for every seat, and counts scaled to about 0 … 1 (scores by the target).
Here they become a float32 vector with every value clipped to ``[-LIMIT, LIMIT]``. docs/bots.md
lists each game's layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from boneyard.games.learning import Encoder, View
from boneyard.rl.codec import learning_of

LIMIT = 10.0
Vector = NDArray[np.float32]


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


__all__ = ["LIMIT", "Features", "Vector", "features_for"]
