"""Seed order: by rating (highest first) or by a random draw from an injected rng."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence


def seed_by_rating(ratings: Mapping[str, float]) -> tuple[str, ...]:
    """Entrant ids by rating, highest first (ties by id); index 0 is seed 1.

    >>> seed_by_rating({"cy": 20.0, "ann": 30.5, "bo": 20.0})
    ('ann', 'bo', 'cy')
    """
    return tuple(sorted(ratings, key=lambda e: (-ratings[e], e)))


def seed_random(entrants: Sequence[str], rng: random.Random) -> tuple[str, ...]:
    """A random draw: the entrants shuffled with ``rng``.

    >>> seed_random(["a", "b", "c", "d"], random.Random(1))
    ('d', 'a', 'c', 'b')
    """
    out = list(entrants)
    rng.shuffle(out)
    return tuple(out)


def bracket_order(size: int) -> tuple[int, ...]:
    """Standard bracket positions for a power-of-two ``size``: seeds in slot order, so that
    slot pairs (0, 1), (2, 3), ... are the round-1 matches, seed ``s`` meets ``size + 1 - s``,
    and seeds 1 and 2 are in different halves (they can meet only in the final).

    >>> bracket_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    """
    order = [1]
    n = 1
    while n < size:
        n *= 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return tuple(order)
