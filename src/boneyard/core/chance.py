"""Chance for the deals: a shuffle and a bounded random number, drawn exactly as ``random``
draws them.

The rules never draw random numbers themselves; a game's ``deal_random`` takes the caller's
``random.Random``. These helpers consume that generator exactly as ``rng.shuffle`` and
``rng.randrange(n)`` do (so a seed deals the same hands as ever), without their per-call
Python overhead once this module is compiled (setup.py).

>>> import random
>>> a, b = list(range(28)), list(range(28))
>>> random.Random(3).shuffle(a)
>>> shuffled(random.Random(3), b) == a
True
>>> rng, twin = random.Random(5), random.Random(5)
>>> [randbelow(rng, n) for n in (2, 3, 7, 36)] == [twin.randrange(n) for n in (2, 3, 7, 36)]
True
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: the same draws from the generator."""
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffled(rng: random.Random, items: list[T]) -> list[T]:
    """A shuffled copy of ``items``: exactly what ``rng.shuffle`` gives (the same draws)."""
    x = items.copy()
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r: int = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        x[i], x[r] = x[r], x[i]
    return x
