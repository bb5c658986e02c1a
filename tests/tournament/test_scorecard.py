"""Score cards: impossible scores are refused in the player's words, real games pass, and game
numbers stay put after a void."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.bots import make_bot
from boneyard.core.errors import BoneyardError
from boneyard.games.registry import get_spec, play_out
from boneyard.tournament import TournamentError
from boneyard.tournament.scorecard import PDA_CARD, ScoreRule, game_number

PDA_VECTORS = [
    ((150, 95), "target", None),
    ((0, 150), "target", None),
    ((100, 90), "target", "Nobody reached 150 (100-90): the game was not over."),
    ((400, 20), "target", "400 is more than a game allows: the winner ends on exactly 150."),
    ((155, 150), "target", "155 is more than a game allows: the winner ends on exactly 150."),
    ((150, 150), "target", "The scores are equal (150-150): a game has one winner."),
    ((150, 97), "target", "Scores go up in steps of 5: 97 cannot be a final score."),
    ((-5, 150), "target", "A score cannot be negative (-5-150)."),
    ((100, 150), "bogus", None),
    ((150, 95), "bogus", "A game ended by a bogus play is scored 150-100 (PDA 8c-e), not 150-95."),
    ((100, 90), "ruling", None),  # the director's override is not checked
    ((0, 0), "forfeit", None),
]


@pytest.mark.parametrize(("scores", "reason", "problem"), PDA_VECTORS)
def test_pda_cards(scores: tuple[int, int], reason: str, problem: str | None) -> None:
    assert PDA_CARD.problem(scores, reason) == problem
    assert ScoreRule.for_game("highfive", {"preset": "pda"}) == PDA_CARD


def test_other_rules() -> None:
    box = ScoreRule.for_game("highfive")
    assert box.problem((100, 150), "bogus") == (
        "A bogus play does not end the game under these rules."
    )
    uncapped = ScoreRule.for_game("highfive", {"payment_cap": "uncapped"})
    assert uncapped.problem((185, 20)) is None
    assert (
        uncapped.problem((185, 150))
        == "Both reached 150 (185-150): the game ends when the first does."
    )
    mgr = ScoreRule.for_game("merry-go-round", {"target": 31})
    assert mgr.problem((31, 30)) is None and mgr.problem((32, 3)) is not None
    assert ScoreRule.for_game("high-fives").problem((104, 99)) is None
    assert (
        ScoreRule.for_game("high-fives", {"win_check": "end_of_pass"}).problem((104, 101)) is None
    )
    highrise = ScoreRule.for_game("highrise")
    assert highrise.problem((310, 305)) is None and highrise.problem((-20, 300)) is None
    assert highrise.problem((290, 10)) == "Nobody reached 300 (290-10): the game was not over."
    assert ScoreRule.for_game("highrise", {"single_hand": True}).problem((12, -3)) is None
    with pytest.raises(TournamentError, match="unknown"):
        ScoreRule.for_game("chess")
    with pytest.raises(BoneyardError):
        ScoreRule.for_game("highfive", {"payment_cap": "gold"})


GAMES = [
    ("highfive", {"preset": "pda"}),
    ("highfive", {"payment_cap": "uncapped"}),
    ("merry-go-round", {}),
    ("high-fives", {"target": 40}),
    ("highrise", {"target": 100}),
]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), which=st.sampled_from(range(len(GAMES))))
def test_games_the_engine_plays_pass(seed: int, which: int) -> None:
    game, options = GAMES[which]
    state = get_spec(game).new_game(2, options)
    bots = [make_bot("random", random.Random(seed + i)).choose for i in range(2)]
    play_out(state, bots, random.Random(seed))
    result = state.result()
    assert result is not None and result.winner is not None
    scores = (result.scores[0], result.scores[1])
    assert ScoreRule.for_game(game, options).problem(scores, result.reason) is None


@settings(max_examples=100, deadline=None)
@given(ops=st.lists(st.integers(-1, 6), max_size=30))
def test_game_numbers_stay_put(ops: list[int]) -> None:
    """-1 plays a new game; k voids the k-th live game (if any)."""
    live: list[int] = []
    voids = adds_after = 0
    for op in ops:
        if op < 0:
            n = game_number(live)
            assert n not in live
            live.append(n)
            adds_after += 1
        elif op < len(live):
            live.pop(op)
            voids += 1
            adds_after = 0
    assert len(set(live)) == len(live)
    if adds_after >= voids:
        assert sorted(live) == list(range(1, len(live) + 1))


def test_a_voided_game_is_replaced_under_its_number() -> None:
    assert game_number([]) == 1
    assert game_number([1]) == 2  # game 2 voided: the next game is game 2 again
    assert game_number([2, 3]) == 1
