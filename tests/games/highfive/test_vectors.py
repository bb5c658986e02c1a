"""Every T-H5 vector of RULES.md §1.11, through golden records and their replay output.

Each test checks the vector's own figures (counts, points, payments) against the replay, and the
whole replay output against the golden ``.jsonl``; the two agree only if both are right.
"""

from __future__ import annotations

import pytest

from boneyard.games.fives.layout import pips_of_mask
from tests.games.highfive.helpers import (
    RECORDS,
    events_of,
    expected,
    load,
    replay_lines,
    replay_state,
)

GOLDEN = sorted(p.stem for p in RECORDS.glob("t-h5-*.json"))


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_replay_output(name: str) -> None:
    assert replay_lines(load(name)) == expected(name)


def counts(name: str, hand: int = 0) -> list[tuple[int, int]]:
    return [
        (x["count"], x["points"]) for x in events_of(replay_lines(load(name)), hand) if "count" in x
    ]


def test_h5_01_box_worked_example() -> None:
    assert counts("t-h5-01") == [(10, 10), (10, 10), (6, 0), (10, 10)]
    state = replay_state(load("t-h5-01"))
    ends = sorted((v, port) for v, _t, port in state.observation(0).available_ends)
    assert ends == [(4, "OUT"), (5, "END_A"), (5, "END_B"), (6, "OUT")]
    assert state.scores == [10, 20]


def test_h5_02_spinner_with_one_to_four_arms() -> None:
    assert counts("t-h5-02") == [(12, 0), (15, 15), (7, 0), (8, 0), (10, 10)]


def test_h5_04_double_at_an_arm_end() -> None:
    assert counts("t-h5-04") == [(12, 0), (15, 15), (7, 0), (10, 10), (9, 0)]


def test_h5_05_double_at_an_arm_end_while_the_spinner_counts() -> None:
    assert counts("t-h5-05") == [(12, 0), (15, 15), (18, 0), (8, 0), (9, 0), (4, 0)]


def test_h5_06_advantage_lead_and_mid_line_spinner() -> None:
    lines = replay_lines(load("t-h5-06"))
    assert lines[next(i for i, x in enumerate(lines) if x.get("type") == "hand_end")]["winner"] == 0
    assert counts("t-h5-06", 1) == [(10, 10), (14, 0), (7, 0), (7, 0), (13, 0), (15, 15)]


def test_h5_07_maximum_count_35() -> None:
    assert counts("t-h5-07", 1) == [
        (4, 0),
        (10, 10),
        (11, 0),
        (17, 0),
        (22, 0),
        (26, 0),
        (30, 30),
        (33, 0),
        (35, 35),
    ]


def test_h5_08_zero_count_does_not_score() -> None:
    assert counts("t-h5-08") == [(0, 0), (5, 5)]


def test_h5_09_lock_settlement_rounds_the_payer_hand() -> None:
    for name, low, payer_pips, award in (("t-h5-09a", 11, 13, 15), ("t-h5-09b", 11, 12, 10)):
        state = replay_state(load(name))
        end = next(x for x in replay_lines(load(name)) if x["type"] == "hand_end")
        pips = [pips_of_mask(h) for h in state.hands]
        winner = end["winner"]
        assert end["reason"] == "block"
        assert pips[winner] == low and pips[state.payer(winner)] == payer_pips
        assert end["award"] == award


def test_h5_10_lock_12_vs_13_pays_15() -> None:
    state = replay_state(load("t-h5-10"))
    end = next(x for x in replay_lines(load("t-h5-10")) if x["type"] == "hand_end")
    w = end["winner"]
    pips = [pips_of_mask(h) for h in state.hands]
    assert (pips[w], pips[state.payer(w)], end["award"]) == (12, 13, 15)
    before = [x for x in replay_lines(load("t-h5-10")) if "event" in x][-1]["scores"]
    assert end["scores"][w] - before[w] == 15


def test_h5_11_domino_bonus_rounds_the_opponent_hand() -> None:
    for name, award in (("t-h5-11a", 40), ("t-h5-11b", 30)):
        end = next(x for x in replay_lines(load(name)) if x["type"] == "hand_end")
        assert (end["reason"], end["award"]) == ("domino", award)


def test_h5_12_tied_lock_pays_nothing_and_next_hand_is_big6() -> None:
    state = replay_state(load("t-h5-12"))
    end = next(x for x in replay_lines(load("t-h5-12")) if x["type"] == "hand_end")
    pips = sorted(pips_of_mask(h) for h in state.hands)
    assert pips[:2] == [12, 12]
    assert (end["reason"], end["winner"], end["award"]) == ("block", None, 0)
    assert state.advantage is None


def test_h5_13_draw_until_playable() -> None:
    lines = events_of(replay_lines(load("t-h5-13")), 1)
    assert [x["type"] for x in lines] == ["lead", "draw", "draw", "draw", "play"]
    assert [x.get("tile") for x in lines[1:4]] == ["2-2", "1-3", "5-6"]
    state = replay_state(load("t-h5-13"))
    hand = {str(t) for t in state.observation(1).hand}
    assert {"2-2", "1-3"} <= hand and "5-6" not in hand


def test_h5_14_three_players_domino_paid_by_the_right_hand_player_only() -> None:
    lines = replay_lines(load("t-h5-14"))
    end = next(x for x in lines if x["type"] == "hand_end")
    before = [x for x in lines if "event" in x][-1]["scores"]
    assert (end["winner"], end["award"]) == (1, 10)
    assert [a - b for a, b in zip(end["scores"], before, strict=True)] == [0, 10, 0]
    state = replay_state(load("t-h5-14"))
    assert state.chips == [150 - end["scores"][1], 150 - end["scores"][2], 150 - end["scores"][0]]


def test_h5_15_four_players_only_the_opposite_seat_pays() -> None:
    state = replay_state(load("t-h5-15"))
    assert state.scores == [15, 0, 0, 0]
    assert state.chips == [150, 150, 135, 150]


def test_h5_16_chip_cap_ends_the_game_at_150() -> None:
    lines = replay_lines(load("t-h5-16"))
    play = [x for x in lines if x.get("type") == "play" and x.get("count") == 20][-1]
    assert play["points"] == 10 and play["scores"][0] == 150
    assert lines[-2] == {
        "hand": play["hand"],
        "type": "hand_end",
        "reason": "game_over",
        "winner": 0,
        "award": 0,
        "scores": play["scores"],
    }
    assert lines[-1]["type"] == "game_end" and lines[-1]["winner"] == 0
    assert lines[-3] == play
    before = [x for x in lines if x.get("hand") == play["hand"] and x["type"] != "hand_end"]
    assert before[0]["scores"][0] == 140
    state = replay_state(load("t-h5-16"))
    assert state.chips[1] == 0


@pytest.mark.parametrize(("name", "award"), [("t-h5-17a", 50), ("t-h5-17b", 60)])
def test_h5_17_box_bogus_draw(name: str, award: int) -> None:
    lines = replay_lines(load(name))
    end = lines[-1]
    assert (end["type"], end["reason"], end["winner"], end["award"]) == (
        "hand_end",
        "bogus",
        0,
        award,
    )
    state = replay_state(load(name))
    assert state.advantage == 0 and state.awaiting_deal


def test_h5_17_pda_bogus_draw_ends_the_game_150_100() -> None:
    lines = replay_lines(load("t-h5-17c"))
    assert lines[-1] == {"type": "game_end", "winner": 0, "scores": [150, 100]}


def test_h5_17_box_grace_returns_the_tile_without_penalty() -> None:
    lines = replay_lines(load("t-h5-17d-grace"))
    assert [x["type"] for x in lines] == ["lead", "draw", "ruling", "play"]
    assert lines[2]["ruling"] == "DRAW_RETRACTED" and lines[-1]["scores"] == [0, 0]
    state = replay_state(load("t-h5-17d-grace"))
    assert state.boneyard[state.bpos :][-1] == state.boneyard[-1]
    assert str(state.observation(1).hand).count("1-5") == 0


def test_h5_18_pda_overdraw_ends_the_hand() -> None:
    lines = replay_lines(load("t-h5-18a"))
    state = replay_state(load("t-h5-18a"))
    assert pips_of_mask(state.hands[0]) == 47
    assert lines[-1]["reason"] == "ruling" and lines[-1]["winner"] == 1
    assert lines[-1]["award"] == 50 and state.advantage == 1


def test_h5_18_pda_early_underdraw_draws_up_without_penalty() -> None:
    lines = replay_lines(load("t-h5-18b"))
    assert lines[-1]["scores"] == [0, 0]
    state = replay_state(load("t-h5-18b"))
    assert state.observation(0).hand_sizes == (6, 7)  # 7 after drawing up, one led


@pytest.mark.parametrize("name", ["t-h5-18c", "t-h5-18d"])
def test_h5_18_box_misdeal_pays_50_and_play_continues(name: str) -> None:
    lines = replay_lines(load(name))
    assert lines[0]["type"] == "ruling" and lines[0]["scores"] == [0, 50]
    state = replay_state(load(name))
    assert state.observation(0).hand_sizes[0] == 6 and not state.awaiting_deal
