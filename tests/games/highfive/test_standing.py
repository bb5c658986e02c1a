"""The chance of winning a two-player High Five game from the scores (the expert's standing)."""

from __future__ import annotations

import importlib.util
import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boneyard.bots.expert import LEVELS, with_standing
from boneyard.core.state import PLAYING
from boneyard.games.highfive import worlds
from boneyard.games.highfive.standing import (
    DIGITS,
    hand_gains,
    shipped_table,
    win_chance,
    win_table,
)
from boneyard.games.highfive.state import HighFiveState

SCORES = range(0, 150, 5)


def brute_force(gains: list[tuple[int, int, int]], target: int, a: int, b: int) -> Fraction:
    """The chance by the definition, in exact fractions: a hand that scores nothing is drawn
    again (its chance spread over the others), two seats past the target share the win."""

    @cache
    def p(a: int, b: int) -> Fraction:
        if a >= target:
            return Fraction(1, 2) if b >= target else Fraction(1)
        if b >= target:
            return Fraction(0)
        moving = [(ga, gb, k) for ga, gb, k in gains if ga or gb]
        total = sum(k for _, _, k in moving)
        return sum((k * p(a + ga, b + gb) for ga, gb, k in moving), Fraction(0)) / total

    return p(a, b)


@given(
    st.lists(
        st.tuples(
            st.sampled_from([0, 5, 10, 15]), st.sampled_from([0, 5, 10, 15]), st.integers(1, 9)
        ),
        min_size=1,
        max_size=6,
    ).filter(lambda g: any(a or b for a, b, _ in g)),
    st.sampled_from([5, 10, 20, 25]),
)
def test_the_table_is_the_chance_by_its_definition(
    gains: list[tuple[int, int, int]], target: int
) -> None:
    table = win_table(gains, target=target, step=5)
    for a in range(0, target, 5):
        for b in range(0, target, 5):
            assert table[a // 5][b // 5] == pytest.approx(float(brute_force(gains, target, a, b)))


def test_a_table_of_hands_that_never_score_is_refused() -> None:
    with pytest.raises(ValueError, match="never score"):
        win_table([(0, 0, 3)])


def test_the_measured_chances_are_fair_and_grow_with_the_score() -> None:
    for a in SCORES:
        assert win_chance(a, a) == pytest.approx(0.5)
        for b in SCORES:
            assert win_chance(a, b) + win_chance(b, a) == pytest.approx(1.0)
            if a + 5 < 150:
                assert win_chance(a + 5, b) > win_chance(a, b)
    assert win_chance(150, 145) == 1.0 and win_chance(145, 150) == 0.0
    assert 0.8 < win_chance(100, 50) < 0.95  # 2 of 3 hands' worth ahead: likely, not certain


def test_the_shipped_table_is_the_one_solved_from_the_shipped_hands() -> None:
    solved, shipped = win_table(hand_gains()), shipped_table()
    assert len(shipped) == len(solved) == 30
    for row, want in zip(shipped, solved, strict=True):
        assert row == pytest.approx(want, abs=10**-DIGITS)


def test_the_measured_hands_are_counted_from_both_seats() -> None:
    gains = hand_gains()
    counts = {(a, b): n for a, b, n in gains}
    assert all(counts[(b, a)] == n for (a, b), n in counts.items())
    assert all(a % 5 == 0 and b % 5 == 0 for a, b, _ in gains)
    assert sum(counts.values()) > 100_000


def test_the_script_counts_what_a_hand_gives_each_seat() -> None:
    path = Path(__file__).resolve().parents[3] / "scripts" / "hand_gains.py"
    spec = importlib.util.spec_from_file_location("hand_gains_script", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    counts = script.hand_gains(20, 7)
    assert all(counts[(b, a)] == n for (a, b), n in counts.items())
    assert sum(counts.values()) // 2 >= 20  # every game has at least one hand short of its end
    assert counts == script.hand_gains(20, 7)


def mid_game(seed: int, scores: tuple[int, int]) -> HighFiveState:
    state = HighFiveState(2)
    state.deal_random(random.Random(seed))
    state.scores[:] = list(scores)
    state.chips[:] = [150 - scores[1], 150 - scores[0]]  # what each has left to pay the other
    return state


def test_standing_is_the_chance_on_the_bonus_scale_only_while_the_game_goes_on() -> None:
    state = mid_game(3, (100, 50))
    rng = random.Random(1)
    while state.phase == PLAYING and state.result() is None:
        state.apply(worlds.greedy_action(state, rng))
    if state.result() is None:
        a, b = state.scores
        assert worlds.standing(state, 0) == pytest.approx(
            worlds.GAME_BONUS * (2 * win_chance(a, b) - 1)
        )
        assert worlds.standing(state, 1) == pytest.approx(-worlds.standing(state, 0))
    over = mid_game(4, (145, 0))
    while over.result() is None:
        over.apply(worlds.greedy_action(over, rng))
        if over.phase != PLAYING and over.result() is None:
            over.deal_random(rng)
    assert worlds.standing(over, 0) == 0.0 and worlds.standing(over, 1) == 0.0
    three = HighFiveState(3)
    three.deal_random(random.Random(5))
    assert worlds.standing(three, 0) == 0.0


@pytest.mark.parametrize("scores", [(0, 0), (120, 130), (140, 30)])
def test_the_experts_playouts_add_the_standing_to_the_chips(scores: tuple[int, int]) -> None:
    assert LEVELS["expert"].standing and not LEVELS["expert-pimc"].standing
    search = worlds.SEARCH
    reading = with_standing(search)
    for seed in range(6):
        plain, read = mid_game(seed, scores), mid_game(seed, scores)
        chips = search.playout(plain, 0, random.Random(seed))
        valued = reading.playout(read, 0, random.Random(seed))
        assert plain.scores == read.scores  # the same play-out
        assert valued == pytest.approx(chips + worlds.standing(read, 0))
