"""The exact end of a two-player High Five hand, against a brute force over the real engine."""

from __future__ import annotations

import random

import pytest

from boneyard.bots import GreedyBot, RandomBot
from boneyard.core.state import PLAYING
from boneyard.games.highfive.endgame import solve
from boneyard.games.highfive.state import HighFiveState
from boneyard.games.highfive.worlds import GAME_BONUS


def brute_force(state: HighFiveState) -> list[float]:
    """Minimax over copies of the real state: the mover's chips minus the other's to the end
    of the hand, ±GAME_BONUS when it ends the game, for each legal action."""
    seat = state.turn
    hand = state.hands_dealt

    def after(s: HighFiveState, action: object) -> float:
        child = s.copy()
        before = list(s.scores)
        child.apply(action)  # type: ignore[arg-type]
        gain = [a - b for a, b in zip(child.scores, before, strict=True)]
        value = float(gain[seat] - gain[1 - seat])
        if child.phase != PLAYING or child.hands_dealt != hand:
            result = child.result()
            if result is not None:
                value += GAME_BONUS if result.winner == seat else -GAME_BONUS
            return value
        rest = [after(child, a) for a in child.legal_actions()]
        return value + (max(rest) if child.turn == seat else min(rest))

    return [after(state, a) for a in state.legal_actions()]


def endings(seed: int, count: int, most_tiles: int) -> list[HighFiveState]:
    """Two-player positions with a choice and at most ``most_tiles`` tiles left in the hands
    and the boneyard, under varied options and scores (near 150 too)."""
    rng = random.Random(seed)
    out: list[HighFiveState] = []
    while len(out) < count:
        options = {
            "spinner_ends_need_both_sides": rng.random() < 0.7,
            "domino_play_scores_first": rng.random() < 0.7,
            "lock_tie_compare": rng.choice(["raw", "rounded"]),
            "payment_cap": rng.choice(["chips", "uncapped"]),
        }
        s = HighFiveState(2, options)
        s.scores = [rng.choice([0, 100, 135, 145]), rng.choice([0, 110, 140, 145])]
        s.chips = [150 - s.scores[1], 150 - s.scores[0]]
        s.deal_random(rng)
        bots = [RandomBot(rng) if rng.random() < 0.5 else GreedyBot(rng) for _ in range(2)]
        while s.phase == PLAYING:
            left = sum(h.bit_count() for h in s.hands) + len(s.boneyard) - s.bpos
            if left <= most_tiles and not s.layout.empty and len(s.legal_actions()) > 1:
                out.append(s.copy())
                break
            s.apply(bots[s.turn].choose(s.observation(s.turn)))
    return out


def test_the_solve_matches_a_brute_force_over_the_engine() -> None:
    """Positions with the boneyard empty or not (a world knows its order), spinners and
    plain doubles, dominoes, locks and games won at 150."""
    for state in endings(1, 60, 10):
        assert solve(state) == pytest.approx(brute_force(state))


def test_the_solve_refuses_what_it_does_not_model() -> None:
    three = HighFiveState(3)
    three.deal_random(random.Random(1))
    assert solve(three) is None
    big = endings(3, 1, 28)[0]
    assert solve(big, nodes=10) is None
