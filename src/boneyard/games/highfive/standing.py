"""The chance of winning a two-player High Five game from the scores between two hands.

Why: the expert values a play-out by the chips it wins in the rest of the hand, and by
:data:`~boneyard.games.highfive.worlds.GAME_BONUS` more (less) when the hand ends the game. But
chips are not worth the same at every score: ahead 140 to 40, ten chips more hardly change
who wins; at 120 all, they nearly decide it. So a hand that leaves the game going is also
valued by how it leaves the game: ``GAME_BONUS × (2 p − 1)``, with ``p`` the chance the seat
wins from the scores it leaves (a hand that ends the game gives ±GAME_BONUS, ``p`` being 1 or
0, as before). Measured on 600 games a seed, two seeds, against greedy: docs/performance.md.

``p`` is found by dynamic programming over the hands still to come, each hand's gains drawn
from what greedy self-play measured (``hand_gains.json``, made by ``scripts/hand_gains.py``):
the chance of reaching 150 first. Two seats reaching it in one hand count as half a win (which
one is first depends on the order of the plays, which the table does not know); a hand that
gives neither seat a chip leaves the scores as they were and is solved out of the recursion.
Every score is a multiple of 5, so the table is 30 × 30. The script solves the table and ships
it beside the gains, so that a bot does not spend its first decision solving it (a test solves
it again).

>>> round(win_chance(0, 0), 2), round(win_chance(100, 50), 2), win_chance(150, 145)
(0.5, 0.87, 1.0)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import Any, Final

from boneyard.games.highfive.settlement import TARGET

STEP: Final = 5
"""Every score is a multiple of this (counts, settlements and caps all are)."""

DIGITS: Final = 6
"""Decimals of the shipped chances (a millionth: far below what play-outs can tell apart)."""


@cache
def _shipped() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(files(__package__).joinpath("hand_gains.json").read_text())
    return doc


def hand_gains() -> list[tuple[int, int, int]]:
    """The measured hands: (chips one seat received, chips the other received, how many)."""
    return [(int(a), int(b), int(n)) for a, b, n in _shipped()["gains"]]


def shipped_table() -> list[list[float]]:
    """The chances :func:`win_table` solves from :func:`hand_gains`, as shipped."""
    return [[float(p) for p in row] for row in _shipped()["table"]]


def win_table(
    gains: Sequence[tuple[int, int, int]], target: int = TARGET, step: int = STEP
) -> list[list[float]]:
    """``table[a // step][b // step]``: the chance that the seat with ``a`` wins against the
    seat with ``b`` (both below ``target``) when every hand's gains follow ``gains``.

    >>> t = win_table([(10, 0, 1), (0, 10, 1)], target=20, step=10)
    >>> t  # a hand gives one of the two seats 10 chips, each as likely
    [[0.5, 0.25], [0.75, 0.5]]
    """
    n = -(-target // step)
    total = sum(k for _, _, k in gains)
    still = sum(k for a, b, k in gains if a == 0 and b == 0)
    if still == total:
        raise ValueError("the hands never score: no game ever ends")
    table = [[0.5] * n for _ in range(n)]
    for a in range(n - 1, -1, -1):  # every hand that scores leads to a later cell
        for b in range(n - 1, -1, -1):
            won = 0.0
            for ga, gb, k in gains:
                if ga or gb:
                    won += k * _after(table, a * step + ga, b * step + gb, target, step)
            table[a][b] = won / (total - still)
    return table


def _after(table: list[list[float]], a: int, b: int, target: int, step: int) -> float:
    """The chance of winning from scores ``a`` and ``b`` once a hand has paid them."""
    if a >= target:
        return 0.5 if b >= target else 1.0
    if b >= target:
        return 0.0
    return table[a // step][b // step]


@cache
def _measured() -> list[list[float]]:
    return shipped_table()


def win_chance(mine: int, theirs: int) -> float:
    """The chance that a seat with ``mine`` chips received wins a two-player game against one
    with ``theirs``, between hands (1 or 0 once either has reached 150)."""
    return _after(_measured(), mine, theirs, TARGET, STEP)
