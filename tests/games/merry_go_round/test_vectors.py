"""The T-MG vectors of RULES.md §2.7 as golden records, with their figures asserted explicitly.

Every ``tests/records/merry-go-round/*.json`` replays to its ``.jsonl``. The vector tests then
check the numbers the rules text gives, with hand pips recounted from the record itself
(:func:`tests.games.merry_go_round.helpers.final_pips`), so the golden output cannot merely confirm the engine.
"""

from __future__ import annotations

import pytest

from boneyard.core.errors import RecordError
from tests.games.merry_go_round.helpers import (
    RECORDS,
    expected,
    final_pips,
    hand_ends,
    load,
    replay_lines,
)

NAMES = sorted(p.stem for p in RECORDS.glob("*.json"))


def test_every_vector_has_a_record() -> None:
    for name in ("t-mg-01", "t-mg-03", "t-mg-04", "t-mg-05", "t-mg-06", "t-mg-07", "t-mg-09"):
        assert name in NAMES
    assert [n for n in NAMES if n.startswith("t-mg-02-")]
    assert [n for n in NAMES if n.startswith("t-mg-08-")]


@pytest.mark.parametrize("name", NAMES)
def test_golden_replay(name: str) -> None:
    assert replay_lines(load(name)) == expected(name)


def play_counts(lines: list[dict]) -> list[tuple[int, int]]:
    return [(x["count"], x["points"]) for x in lines if "count" in x]


def test_t_mg_01_cross_order_figures() -> None:
    lines = replay_lines(load("t-mg-01"))
    assert [x["tile"] for x in lines] == ["5-5", "0-5", "5-6", "4-5", "3-5", "0-2"]
    assert lines[0]["type"] == "lead"
    assert play_counts(lines) == [(10, 2), (10, 2), (6, 0), (10, 2), (13, 0), (15, 3)]
    assert lines[-1]["scores"] == [2, 7]


@pytest.mark.parametrize(("pips", "points"), [(2, 0), (3, 1), (7, 1), (8, 2), (12, 2)])
def test_t_mg_02_domino_bonus_table(pips: int, points: int) -> None:
    record = load(f"t-mg-02-{pips}")
    lines = replay_lines(record)
    (end,) = hand_ends(lines)
    left = final_pips(record, 0)
    winner = end["winner"]
    assert end["reason"] == "domino"
    assert left[winner] == 0
    assert left[1 - winner] == pips
    assert end["award"] == points
    before = [x for x in lines if "count" in x][-1]["scores"][winner]
    assert end["scores"][winner] == before + points


def test_t_mg_03_domino_against_23() -> None:
    record = load("t-mg-03")
    lines = replay_lines(record)
    (end,) = hand_ends(lines)
    w = end["winner"]
    assert final_pips(record, 0)[1 - w] == 23
    assert end["award"] == 5


def test_t_mg_04_three_players_round_the_total() -> None:
    record = load("t-mg-04")
    (end,) = hand_ends(replay_lines(record))
    w = end["winner"]
    assert sorted(p for i, p in enumerate(final_pips(record, 0)) if i != w) == [7, 7]
    assert end["award"] == 3
    per = load("t-mg-04-per-opponent")
    assert per["hands"] == record["hands"]
    assert per["options"] == {"domino_bonus_rounding": "per_opponent"}
    (end_per,) = hand_ends(replay_lines(per))
    assert end_per["award"] == 2


def difference_awards(pips: list[int], rivals: list[list[int]]) -> list[int]:
    """RULES §2.5 difference method, written out independently of the engine."""
    out = []
    for i, mine in enumerate(pips):
        diff = sum(pips[j] - mine for j in rivals[i] if pips[j] > mine)
        out.append(5 * ((diff + 2) // 5) // 5)
    return out


def test_t_mg_05_block_differences_with_reserve() -> None:
    record = load("t-mg-05")
    assert record["options"] == {"boneyard_reserve": "kelley"}
    pips = final_pips(record, 0)
    assert sorted(pips) == [4, 10, 17]
    (end,) = hand_ends(replay_lines(record))
    assert end["reason"] == "block"
    by_pips = {pips[i]: end["awards"][i] for i in range(3)}
    assert by_pips == {4: 4, 10: 1, 17: 0}
    assert end["winner"] == pips.index(4)
    assert end["award"] == 4
    # The reserve: one of the 7 boneyard tiles was never drawn.
    draws = sum(1 for ev in record["hands"][0]["events"] if "draw" in ev)
    assert draws <= 6


def test_t_mg_05_default_rules_reachable_case() -> None:
    record = load("t-mg-05-default")
    pips = final_pips(record, 0)
    assert sorted(pips) == [4, 10, 16]
    (end,) = hand_ends(replay_lines(record))
    by_pips = {pips[i]: end["awards"][i] for i in range(3)}
    assert by_pips == {4: 4, 10: 1, 16: 0}
    others = [[j for j in range(3) if j != i] for i in range(3)]
    assert end["awards"] == difference_awards(pips, others)


@pytest.mark.parametrize(("name", "half_up"), [("t-mg-06", True), ("t-mg-06-down", False)])
def test_t_mg_06_three_handed_split(name: str, half_up: bool) -> None:
    record = load(name)
    pips = final_pips(record, 0)
    low, mid, high = sorted(pips)
    assert low == mid < high and high % 10 == 5  # an x.5 share halfway between two 5s
    (end,) = hand_ends(replay_lines(record))
    k = (high - 5) // 10  # high / 2 = 5k + 2.5
    share = k + 1 if half_up else k
    assert end["winner"] is None and end["award"] == 0
    assert end["awards"] == [share if p == low else 0 for p in pips]


def test_t_mg_07_partnership_domino() -> None:
    record = load("t-mg-07")
    (end,) = hand_ends(replay_lines(record))
    w = end["winner"]
    pips = final_pips(record, 0)
    assert pips[w] == 0 and pips[(w + 2) % 4] == 9
    assert sorted((pips[(w + 1) % 4], pips[(w + 3) % 4])) == [11, 14]
    assert end["award"] == 3
    assert end["scores"][w] == end["scores"][(w + 2) % 4]


def test_t_mg_07_partnership_net_below_zero() -> None:
    record = load("t-mg-07-net-negative")
    lines = replay_lines(record)
    (end,) = hand_ends(lines)
    w = end["winner"]
    pips = final_pips(record, 0)
    assert pips[(w + 2) % 4] == 20
    assert sorted((pips[(w + 1) % 4], pips[(w + 3) % 4])) == [4, 6]
    before = [x for x in lines if "count" in x][-1]["scores"][w]
    assert before >= 2
    assert end["award"] == -2
    assert end["scores"][w] == before - 2


def test_t_mg_07_partnership_loss_floored_at_zero() -> None:
    record = load("t-mg-07-floor")
    lines = replay_lines(record)
    (end,) = hand_ends(lines)
    w = end["winner"]
    pips = final_pips(record, 0)
    assert pips[(w + 1) % 4] + pips[(w + 3) % 4] - pips[(w + 2) % 4] == -10
    before = [x for x in lines if "count" in x][-1]["scores"][w]
    assert before == 1
    assert end["award"] == -1
    assert end["scores"][w] == end["scores"][(w + 2) % 4] == 0


@pytest.mark.parametrize(
    ("name", "partners"), [("t-mg-08-play", False), ("t-mg-08-partners", True)]
)
def test_t_mg_08_exactly_61_on_plays(name: str, partners: bool) -> None:
    lines = replay_lines(load(name))
    last_hand = lines[-3]["hand"]
    plays = [x for x in lines if x.get("hand") == last_hand and "count" in x]
    win = plays[-1]
    seat = win["seat"]
    same_side = {seat, (seat + 2) % 4} if partners else {seat}
    assert (win["count"], win["points"], win["scores"][seat]) == (10, 2, 61)
    bust = next(
        x for x in plays if x["seat"] in same_side and x["count"] == 15 and x["points"] == 0
    )
    previous = lines[lines.index(bust) - 1]["scores"]
    assert previous[seat] == bust["scores"][seat] == 59
    if partners:
        assert win["scores"][seat] == win["scores"][(seat + 2) % 4]
    assert lines[-2] == {
        "hand": last_hand,
        "type": "hand_end",
        "reason": "game_over",
        "winner": seat,
        "award": 0,
        "scores": win["scores"],
    }
    assert lines[-1] == {"type": "game_end", "winner": seat, "scores": win["scores"]}


def test_t_mg_08_domino_bonus_busts() -> None:
    record = load("t-mg-08-domino")
    lines = replay_lines(record)
    end = hand_ends(lines)[-1]
    w = end["winner"]
    h = end["hand"]
    pips = final_pips(record, h)
    assert 23 <= sum(pips) - pips[w] <= 27  # worth 5 points
    before = [x for x in lines if x.get("hand") == h and "count" in x][-1]["scores"][w]
    assert before == 58
    assert end["reason"] == "domino" and end["award"] == 0 and end["scores"][w] == 58
    assert lines[-1] is end  # no game end: play goes on


def test_t_mg_09_setter_draws_for_a_double() -> None:
    lines = replay_lines(load("t-mg-09"))
    assert [(x["type"], x.get("tile")) for x in lines[:3]] == [
        ("draw", "3-4"),
        ("draw", "1-1"),
        ("lead", "1-1"),
    ]
    assert (lines[2]["count"], lines[2]["points"]) == (2, 0)
    assert lines[3]["seat"] == 1 and lines[3]["type"] == "play"


def test_set_passes_left_with_four_players() -> None:
    lines = replay_lines(load("t-mg-set-pass-left"))
    assert [(x["seat"], x["type"]) for x in lines] == [
        (1, "pass"),
        (2, "pass"),
        (3, "lead"),
        (0, "play"),
    ]


def test_set_redeal_option() -> None:
    record = load("t-mg-set-redeal")
    lines = replay_lines(record)
    assert [x["type"] for x in lines] == ["pass", "hand_end"]
    assert lines[1]["reason"] == "redeal" and lines[1]["winner"] is None
    # The same seat sets the hand dealt again.
    again = dict(record, hands=[*record["hands"], {**record["hands"][0], "events": []}])
    again["hands"][1]["events"] = [{"seat": 1, "pass": True}]
    assert replay_lines(again)[-1]["reason"] == "redeal"
    again["hands"][1]["events"] = [{"seat": 2, "pass": True}]
    with pytest.raises(RecordError, match="it is seat 1's turn, not seat 2's"):
        replay_lines(again)


def test_partnership_block_awards() -> None:
    record = load("t-mg-block-partners")
    pips = final_pips(record, 0)
    (end,) = hand_ends(replay_lines(record))
    rivals = [[j for j in range(4) if j % 2 != i % 2] for i in range(4)]
    each = difference_awards(pips, rivals)
    side = [each[0] + each[2], each[1] + each[3]]
    assert end["awards"] == [side[0], side[1], side[0], side[1]]
    assert end["awards"][0] > 0 and end["awards"][1] > 0
    low = min(pips)
    assert pips.count(low) == 1 and end["winner"] == pips.index(low)
    assert end["award"] == end["awards"][end["winner"]]


def test_block_credit_order_at_the_target() -> None:
    record = load("t-mg-block-wins")
    lines = replay_lines(record)
    end = hand_ends(lines)[-1]
    pips = final_pips(record, end["hand"])
    others = [[j for j in range(3) if j != i] for i in range(3)]
    due = difference_awards(pips, others)
    order = sorted(range(3), key=lambda i: (pips[i], i))
    before = lines[-3]["scores"]
    first_to_61 = next(i for i in order if due[i] and before[i] + due[i] == 61)
    assert end["awards"][first_to_61] == due[first_to_61]
    for i in order[order.index(first_to_61) + 1 :]:
        assert end["awards"][i] == 0  # dropped: the game is already won
    assert any(due[i] and not end["awards"][i] for i in range(3))
    assert lines[-1] == {"type": "game_end", "winner": first_to_61, "scores": end["scores"]}


def test_block_credit_past_the_target_scores_nothing() -> None:
    record = load("t-mg-block-bust")
    lines = replay_lines(record)
    end = hand_ends(lines)[-1]
    pips = final_pips(record, end["hand"])
    due = difference_awards(pips, [[1], [0]])
    before = lines[-2]["scores"]
    for i in range(2):
        if before[i] + due[i] > 61:
            assert end["awards"][i] == 0
    assert any(before[i] + due[i] > 61 for i in range(2))
    assert end["scores"] == before
