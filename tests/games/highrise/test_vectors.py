"""Every Highrise test vector of RULES.md §4.5 (T-HR-01 … T-HR-17), figures asserted explicitly."""

from __future__ import annotations

import pytest

from boneyard.core.tiles import parse_halves
from boneyard.games.highrise import SPEC, Place
from boneyard.games.highrise.text import describe_action
from tests.games.highrise.helpers import (
    T15_DEAL,
    W,
    dealt,
    load,
    load_record,
    place,
    tower_from_stacks,
)

PC, QC = (0, 0), (0, 1)
PI, QI = 0, 1


def play_pq(stacks: dict, move: str, spacer: bool = False, **kw) -> tuple[str | None, int, int]:
    """Explain, then (if legal) place ``move`` with its first face on P; returns
    ``(reason, level, points)`` and checks the generated placements agree."""
    tower = tower_from_stacks(stacks, **kw)
    fa, fb = parse_halves(move)
    sp = -1
    if spacer:
        sp = PI if tower.level[PI] < tower.level[QI] else QI
    reason = tower.explain(PI, QI, fa, fb, sp)
    generated = [
        p for p in tower.placements([(99, fa, fb)]) if (p[1], p[2], p[3], p[4]) == (PI, QI, fa, fb)
    ]
    if reason is not None:
        assert generated == []
        return reason, 0, 0
    before = tower.spacers_left
    level, points, used = tower.place(99, PI, QI, fa, fb)
    assert generated == [(99, PI, QI, fa, fb, used, level, points)]
    assert (used >= 0) == spacer
    assert tower.spacers_left == before - (1 if spacer else 0)
    return None, level, points


def test_t_hr_01_street_level() -> None:
    assert play_pq({PC: ["B1:5@0"], QC: ["B2:2@0"]}, "5-2") == (None, 1, 7)


def test_t_hr_02_level_two() -> None:
    stacks = {PC: ["B1:1@0", "D1:6@1"], QC: ["B2:0@0", "D2:3@1"]}
    assert play_pq(stacks, "6-3") == (None, 2, 18)


def test_t_hr_03_level_five() -> None:
    stacks = {
        PC: ["B1:1@0", "D1:1@1", "D3:1@2", "D5:1@3", "D7:6@4"],
        QC: ["B2:1@0", "D2:1@1", "D4:1@2", "D6:1@3", "D8:2@4"],
    }
    assert play_pq(stacks, "6-2") == (None, 5, 40)


def test_t_hr_04_wild_covers_a_number() -> None:
    stacks = {PC: ["B1:1@0", "D1:4@1"], QC: ["B2:0@0", "D2:3@1"]}
    assert play_pq(stacks, "W-3") == (None, 2, 14)


def test_t_hr_05_number_covers_a_wild() -> None:
    assert play_pq({PC: ["B4:W@0"], QC: ["B5:3@0"]}, "4-3") == (None, 1, 7)


def test_t_hr_06_spacer() -> None:
    stacks = {PC: ["B1:5@0"], QC: ["B2:0@0", "D1:3@1"]}
    tower = tower_from_stacks(stacks)
    assert tower.explain(PI, QI, 5, 3, -1) == "(0,0) is one level lower: a spacer must go on it"
    assert tower.explain(PI, QI, 5, 3, QI) == "the spacer must go on the lower cell (0,0)"
    level, points, used = tower.place(99, PI, QI, 5, 3)
    assert (level, points, used, tower.spacers_left) == (2, 16, PI, 11)
    assert tower.on_spacer[PI] and not tower.on_spacer[QI]
    assert play_pq(stacks, "5-3", spacer=True) == (None, 2, 16)


def test_t_hr_07_wild_on_a_spacer_counts_the_face_below() -> None:
    stacks = {PC: ["B1:0@0", "D1:4@1"], QC: ["B2:0@0", "D2:1@1", "D3:2@2"]}
    assert play_pq(stacks, "W-2", spacer=True) == (None, 3, 18)


def test_t_hr_08_wild_on_wild_counts_seven() -> None:
    stacks = {PC: ["B1:0@0", "D1:W@1"], QC: ["B2:0@0", "D2:5@1"]}
    assert play_pq(stacks, "W-5") == (None, 2, 24)


def test_t_hr_09_never_covers_one_domino() -> None:
    reason, _, _ = play_pq({PC: ["B1:1@0", "D1:6@1"], QC: ["B2:1@0", "D1:3@1"]}, "6-3")
    assert (
        reason
        == "(0,0) and (0,1) are both on one domino: a domino must cover two different dominoes"
    )


def test_t_hr_10_level_gap_of_two() -> None:
    stacks = {PC: ["B1:5@0"], QC: ["B2:0@0", "D1:1@1", "D2:3@2"]}
    reason, _, _ = play_pq(stacks, "5-3", spacer=True)
    assert reason is not None and "gap of 2 levels, even with a spacer" in reason
    reason, _, _ = play_pq(stacks, "5-3")
    assert reason is not None and "gap of 2" in reason


def test_t_hr_11_mismatch() -> None:
    reason, _, _ = play_pq({PC: ["B1:5@0"], QC: ["B2:3@0"]}, "5-2")
    assert reason == "2 cannot cover the 3 at (0,1)"


def test_t_hr_12_no_spacers_left() -> None:
    stacks = {PC: ["B1:5@0"], QC: ["B2:0@0", "D1:3@1"]}
    reason, _, _ = play_pq(stacks, "5-3", spacer=True, spacers_left=0)
    assert reason == "(0,0) is one level lower and no spacers are left"


def test_t_hr_13_double_wild() -> None:
    assert play_pq({PC: ["B1:4@0"], QC: ["B2:W@0"]}, "W-W") == (None, 1, 11)


@pytest.mark.parametrize(("option_literal", "points"), [(True, (7 + 2) * 2), (False, (4 + 2) * 2)])
def test_wild_on_wild_inherit_option(option_literal: bool, points: int) -> None:
    # HR-4: a wild covering a wild that itself covered a 4 counts 7 (literal) or 4 (inherit).
    tower = tower_from_stacks({PC: ["B1:4@0"], QC: ["B2:0@0"]}, literal=option_literal)
    assert tower.place(98, PI, QI, W, 0) == (1, 4, -1)
    tower.set_top(QI, 97, 2, 1)  # another domino's 2 beside the wild, at level 1
    assert tower.place(96, PI, QI, W, 2) == (2, points, -1)


def test_basement_wild_under_a_wild_counts_seven_in_both_modes() -> None:
    for literal in (True, False):
        tower = tower_from_stacks({PC: ["B1:W@0"], QC: ["B2:1@0"]}, literal=literal)
        assert tower.place(98, PI, QI, W, 1) == (1, 8, -1)


# ---- T-HR-14: full basement, opening move generation ---------------------------------------

T14_HAND = ["3-6", "5-2", "4-4", "0-0", "W-3"]


def t14_state():
    return dealt([T14_HAND, ["1-2", "4-5", "0-1", "2-2", "6-6"]])


def by_tile(state, tile: str) -> list[Place]:
    return [a for a in state.legal_actions() if str(a.tile) == tile]


def where(a: Place) -> set:
    return set(zip(a.faces, a.cells, strict=True))


def test_t_hr_14_counts_and_scores() -> None:
    state = t14_state()
    assert len(state.legal_actions()) == 3 + 1 + 1 + 0 + 7
    assert {frozenset(where(a)) for a in by_tile(state, "3-6")} == {
        frozenset({(3, (1, 1)), (6, (1, 2))}),
        frozenset({(3, (1, 1)), (6, (2, 1))}),
        frozenset({(3, (2, 0)), (6, (2, 1))}),
    }
    assert {a.points for a in by_tile(state, "3-6")} == {9}
    (a52,) = by_tile(state, "2-5")
    assert where(a52) == {(5, (0, 0)), (2, (0, 1))} and a52.points == 7
    (a44,) = by_tile(state, "4-4")
    assert set(a44.cells) == {(0, 2), (0, 3)} and a44.points == 8
    assert by_tile(state, "0-0") == []
    w3 = {frozenset(where(a)): a.points for a in by_tile(state, "W-3")}
    assert w3 == {
        frozenset({(W, (0, 2)), (3, (0, 3))}): 7,
        frozenset({(W, (1, 0)), (3, (1, 1))}): 4,
        frozenset({(W, (1, 0)), (3, (2, 0))}): 4,
        frozenset({(3, (1, 1)), (W, (1, 2))}): 9,
        frozenset({(3, (1, 1)), (W, (2, 1))}): 9,
        frozenset({(3, (2, 0)), (W, (2, 1))}): 9,
        frozenset({(3, (3, 0)), (W, (3, 1))}): 5,
    }
    assert all(a.level == 1 and a.spacer is None for a in state.legal_actions())


def test_t_hr_14_golden_record() -> None:
    state = SPEC.from_record(load_record("t-hr-14"))
    assert state.scores == [9, 0]
    lines = list(SPEC.replay(load_record("t-hr-14")))
    assert lines == [
        {
            "hand": 0,
            "event": 0,
            "seat": 0,
            "type": "play",
            "tile": "3-W",
            "level": 1,
            "points": 9,
            "scores": [9, 0],
        }
    ]


# ---- T-HR-15: the sequence -----------------------------------------------------------------


def test_t_hr_15_sequence() -> None:
    state = dealt(T15_DEAL)
    moves = [
        (place("5-2", (0, 0), (0, 1)), 1, 7),
        (place("3-6", (1, 1), (1, 2)), 1, 9),
        (place("W-3", (0, 1), (1, 1)), 2, 10),
    ]
    for action, level, points in moves:
        state.apply(action)
        assert (state.events[-1].level, state.events[-1].points) == (level, points)
    w6 = by_tile(state, "W-6")
    assert len(w6) == 9
    assert sorted(a.points for a in w6) == sorted([33, 10, 20, 27, 12, 14, 9, 7, 10])
    assert state.spacers_left == 12
    state.apply(place("W-6", (0, 2), (1, 2), (0, 2)))
    assert (state.events[-1].level, state.events[-1].points) == (2, 20)
    assert state.spacers_left == 11
    assert state.scores == [17, 29]


def test_t_hr_15_w6_placements_in_detail() -> None:
    state = dealt(T15_DEAL)
    for action in (
        place("5-2", (0, 0), (0, 1)),
        place("3-6", (1, 1), (1, 2)),
        place("W-3", (0, 1), (1, 1)),
    ):
        state.apply(action)
    got = {describe_action(a) for a in by_tile(state, "W-6")}
    assert got == {
        "W-6: W on (0,0), 6 on (0,1), spacer on (0,0) · level 3, 33 points",
        "W-6: W on (0,2), 6 on (0,3) · level 1, 10 points",
        "W-6: W on (0,2), 6 on (1,2), spacer on (0,2) · level 2, 20 points",
        "W-6: W on (1,1), 6 on (1,2), spacer on (1,2) · level 3, 27 points",
        "6-W: 6 on (1,2), W on (1,3), spacer on (1,3) · level 2, 12 points",
        "6-W: 6 on (1,2), W on (2,2), spacer on (2,2) · level 2, 14 points",
        "W-6: W on (2,0), 6 on (2,1) · level 1, 9 points",
        "6-W: 6 on (2,1), W on (2,2) · level 1, 7 points",
        "W-6: W on (3,2), 6 on (3,3) · level 1, 10 points",
    }


def test_t_hr_15_golden_record_matches_records_md_example() -> None:
    doc = load("t-hr-15")
    hand = doc["hands"][0]
    assert hand["basement"] == ["5-1", "2-3", "4-6", "W-0", "3-3", "6-2", "1-4", "5-6"]
    assert hand["deal"] == T15_DEAL and len(hand["pile"]) == 18
    assert hand["events"] == [
        {"seat": 0, "play": "5-2", "cells": [[0, 0], [0, 1]]},
        {"seat": 1, "play": "3-6", "cells": [[1, 1], [1, 2]]},
        {"seat": 0, "play": "W-3", "cells": [[0, 1], [1, 1]]},
        {"seat": 1, "play": "W-6", "cells": [[0, 2], [1, 2]], "spacer": [0, 2]},
    ]
    lines = list(SPEC.replay(load_record("t-hr-15")))
    assert [(x["level"], x["points"]) for x in lines] == [(1, 7), (1, 9), (2, 10), (2, 20)]


# ---- T-HR-16 / T-HR-17: end of hand ------------------------------------------------------


def test_t_hr_16_going_out() -> None:
    record = load_record("t-hr-16")
    state = SPEC.from_record(record)
    assert [sorted(str(t) for t in state.hand(s)) for s in range(3)] == [
        [],
        ["6-6", "W-3"],
        ["0-0"],
    ]
    lines = list(SPEC.replay(record))
    last_play, end = lines[-2], lines[-1]
    assert last_play["type"] == "play" and last_play["seat"] == 0
    before = lines[-3]["scores"]
    assert last_play["scores"][0] == before[0] + last_play["points"]
    assert end == {
        "hand": 0,
        "type": "hand_end",
        "reason": "domino",
        "winner": 0,
        "award": 10 + 12 + 0,
        "scores": [last_play["scores"][0] + 22, *last_play["scores"][1:]],
    }
    assert not state.is_over and state.awaiting_deal


@pytest.mark.parametrize("subtract", [False, True])
def test_t_hr_16_losers_subtract_option(subtract: bool) -> None:
    doc = load("t-hr-16")
    doc["options"] = {"losers_subtract_on_going_out": subtract}
    from boneyard.core.records import record_from_json

    end = list(SPEC.replay(record_from_json(doc)))[-1]
    assert end["award"] == 22
    if subtract:
        assert end["awards"] == [22, -22, 0]
    else:
        assert "awards" not in end


def test_t_hr_17_blocked_hand() -> None:
    record = load_record("t-hr-17")
    state = SPEC.from_record(record)
    assert [[str(t) for t in state.hand(s)] for s in range(2)] == [["W-W"], ["1-2"]]
    lines = list(SPEC.replay(record))
    end = lines[-1]
    before = lines[-2]["scores"]
    assert end == {
        "hand": 0,
        "type": "hand_end",
        "reason": "block",
        "winner": None,
        "award": 0,
        "awards": [-14, -3],
        "scores": [before[0] - 14, before[1] - 3],
    }
    assert state.tower.spacers_left == 0
    assert not state.tower.any_fits([(0, W, W)])
