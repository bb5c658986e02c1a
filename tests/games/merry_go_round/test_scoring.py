"""The scoring rules as pure functions, against the figures of RULES.md §2.5–§2.7."""

from __future__ import annotations

import pytest

from boneyard.games.merry_go_round.scoring import (
    block_points,
    credit_order,
    domino_points,
    lowest_member,
    pips_to_points,
    play_points,
    round5_half,
)

OTHERS3 = [[1, 2], [0, 2], [0, 1]]


@pytest.mark.parametrize(
    ("pips", "points"),
    [(0, 0), (1, 0), (2, 0), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 2), (12, 2), (13, 3)],
)
def test_t_mg_02_s2_table(pips: int, points: int) -> None:
    assert pips_to_points(pips) == points
    assert domino_points(0, [0, pips], None) == points


def test_play_points() -> None:
    assert [play_points(c) for c in (0, 2, 5, 10, 13, 15, 35)] == [0, 0, 1, 2, 0, 3, 7]


def test_t_mg_03() -> None:
    assert domino_points(0, [0, 23], None) == 5


def test_t_mg_04_total_vs_per_opponent() -> None:
    assert domino_points(0, [0, 7, 7], None) == 3
    assert domino_points(0, [0, 7, 7], None, per_opponent=True) == 2


def test_t_mg_05_differences() -> None:
    assert block_points([4, 10, 17], OTHERS3, "differences") == [4, 1, 0]
    assert block_points([4, 10, 16], OTHERS3, "differences") == [4, 1, 0]
    assert block_points([10, 17, 4], OTHERS3, "differences") == [1, 0, 4]


def test_t_mg_06_split() -> None:
    assert block_points([5, 5, 25], OTHERS3, "lowest_takes_all") == [3, 3, 0]
    assert block_points([5, 5, 25], OTHERS3, "lowest_takes_all", half_up=False) == [2, 2, 0]
    assert block_points([25, 5, 5], OTHERS3, "lowest_takes_all") == [0, 3, 3]
    assert round5_half(25, True) == 15 and round5_half(25, False) == 10


def test_lowest_takes_all_ties() -> None:
    assert block_points([5, 5], [[1], [0]], "lowest_takes_all") == [0, 0]
    assert block_points([5, 5, 5], OTHERS3, "lowest_takes_all") == [0, 0, 0]
    four = [[1, 3], [0, 2], [1, 3], [0, 2]]
    assert block_points([5, 5, 9, 20], four, "lowest_takes_all") == [0, 0, 0, 0]
    assert block_points([4, 5, 9, 20], four, "lowest_takes_all") == [5, 0, 0, 0]


def test_lowest_minus_own() -> None:
    assert block_points([4, 10, 17], OTHERS3, "lowest_minus_own") == [5, 0, 0]
    assert block_points([4, 4, 17], OTHERS3, "lowest_minus_own") == [0, 0, 0]


@pytest.mark.parametrize("twice", range(80))
def test_round5_half_agrees_with_round5_on_integers(twice: int) -> None:
    if twice % 2 == 0:
        assert round5_half(twice, True) == round5_half(twice, False) == 5 * ((twice // 2 + 2) // 5)
    else:
        exact = twice / 2
        got = round5_half(twice, True)
        assert abs(got - exact) <= 2.5 and got % 5 == 0


def test_t_mg_07_partnerships() -> None:
    # N (seat 0) dominoes; S (seat 2) 9, E (seat 1) 14, W (seat 3) 11: net 16 -> 15 -> 3.
    assert domino_points(0, [0, 14, 9, 11], 2) == 3
    # S 20, E 6, W 4: net -10 -> lose 2.
    assert domino_points(0, [0, 6, 20, 4], 2) == -2
    # The partner ignored.
    assert domino_points(0, [0, 6, 20, 4], 2, net=False) == 2


def test_partnership_differences_exclude_the_partner() -> None:
    opponents = [[1, 3], [0, 2], [1, 3], [0, 2]]
    everyone = [[j for j in range(4) if j != i] for i in range(4)]
    pips = [3, 10, 20, 12]
    assert block_points(pips, opponents, "differences") == [
        5 * ((7 + 9 + 2) // 5) // 5,
        5 * ((10 + 2) // 5) // 5,
        0,
        5 * ((8 + 2) // 5) // 5,
    ]
    assert block_points(pips, everyone, "differences")[0] == 5 * ((7 + 17 + 9 + 2) // 5) // 5


def test_credit_order_and_lowest_member() -> None:
    assert credit_order([9, 3, 12, 3], [[0, 2], [1, 3]]) == [1, 0]
    assert credit_order([4, 10, 4], [[0], [1], [2]]) == [0, 2, 1]
    assert lowest_member([9, 3, 12, 3], [1, 3]) == 1
    assert lowest_member([9, 4, 12, 3], [1, 3]) == 3
