"""Chance for the deals: a shuffle and a bounded random number, drawn exactly as ``random``
draws them.

The rules never draw random numbers themselves; a game's ``deal_random`` takes the caller's
``random.Random`` and draws only through these two helpers. They consume that generator exactly
as ``rng.shuffle`` and ``rng.randrange(n)`` do (so a seed deals the same hands as ever), without
their per-call Python overhead once this module is compiled (setup.py). A generator with a
``below(n)`` method is asked for each draw instead: a script of chance outcomes, which makes a
deal explicit chance nodes (boneyard.rl.chance, for OpenSpiel).

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
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def _script(rng: random.Random) -> Callable[[int], int] | None:
    """The ``below`` of a scripted generator (see the module docstring), else ``None``."""
    if type(rng) is random.Random:
        return None
    below: Callable[[int], int] | None = getattr(rng, "below", None)
    return below


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: the same draws from the generator."""
    below = _script(rng)
    if below is not None:
        return below(n)
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffled(rng: random.Random, items: list[T]) -> list[T]:
    """A shuffled copy of ``items``: exactly what ``rng.shuffle`` gives (the same draws)."""
    x = items.copy()
    below = _script(rng)
    if below is not None:
        for i in range(len(x) - 1, 0, -1):
            j = below(i + 1)
            x[i], x[j] = x[j], x[i]
        return x
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r: int = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        x[i], x[r] = x[r], x[i]
    return x
