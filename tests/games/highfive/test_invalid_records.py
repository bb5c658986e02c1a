"""Bad records are rejected at the right hand and event, with the broken rule in a player's
words (RECORDS.md §5–6)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.games.highfive.helpers import edited, load, replay_error, replay_lines


def case(name: str, change: Any) -> dict[str, Any]:
    doc = edited(name)
    change(doc)
    return doc


def ev(doc: dict[str, Any], hand: int, i: int) -> dict[str, Any]:
    e: dict[str, Any] = doc["hands"][hand]["events"][i]
    return e


def test_t_h5_03_spinner_ends_are_locked_until_both_sides_are_covered() -> None:
    doc = edited("t-h5-02")
    doc["hands"][0]["events"][2] = {"seat": 0, "play": "5-6", "on": "6-6", "port": "END_A"}
    doc["hands"][0]["deal"][0] = ["6-6", "5-6", "6-2", "0-1", "0-2", "0-3", "0-4"]
    doc["hands"][0]["boneyard"] = [
        t for t in load("t-h5-02")["hands"][0]["boneyard"] + ["6-4"] if t != "5-6"
    ]
    err = replay_error(doc)
    assert (err.hand, err.event) == (0, 2)
    assert "ends open only after both its sides are covered" in err.why
    lines = replay_lines(edited("t-h5-02"))
    assert lines[1]["count"] == 15


BAD: list[tuple[str, str, Any, int | None, int | None, str]] = [
    (
        "t-h5-01",
        "mismatch",
        lambda d: ev(d, 0, 3).update(play="1-4", on="0-5"),
        0,
        3,
        "1-4 does not match an open end (open: 5, 5, 0, 6)",
    ),
    (
        "t-h5-01",
        "wrong seat",
        lambda d: ev(d, 0, 1).update(seat=0),
        0,
        1,
        "it is seat 1's turn, not seat 0's",
    ),
    (
        "t-h5-01",
        "not held",
        lambda d: ev(d, 0, 1).update(play="2-6", on="5-5"),
        0,
        1,
        "seat 1 does not hold 2-6",
    ),
    (
        "t-h5-01",
        "big 6",
        lambda d: ev(d, 0, 0).update(play="5-6"),
        0,
        0,
        "the Big 6 call: 5-5, the highest double dealt, must lead",
    ),
    (
        "t-h5-01",
        "lead with on",
        lambda d: ev(d, 0, 0).update(on="5-6"),
        0,
        0,
        "5-5 is the lead (the first tile of the hand): it has no on or port",
    ),
    (
        "t-h5-01",
        "port on a single",
        lambda d: ev(d, 0, 3).update(port="SIDE_A"),
        0,
        3,
        "0-5 is not the spinner: only a spinner's edges are named",
    ),
    (
        "t-h5-01",
        "no on",
        lambda d: ev(d, 0, 1).pop("on"),
        0,
        1,
        "say which placed tile 0-5 joins (on): the lead was already played",
    ),
    (
        "t-h5-01",
        "draw while able",
        lambda d: d["hands"][0]["events"].insert(1, {"seat": 1, "draw": "2-2"}),
        0,
        1,
        "seat 1 must play: it holds 0-5",
    ),
    (
        "t-h5-13",
        "wrong drawn tile",
        lambda d: ev(d, 1, 1).update(draw="1-3"),
        1,
        1,
        "seat 1 draws 1-3, but the next boneyard tile is 2-2",
    ),
    (
        "t-h5-13",
        "pass with boneyard",
        lambda d: d["hands"][1]["events"].__setitem__(1, {"seat": 1, "pass": True}),
        1,
        1,
        "seat 1 cannot pass: the boneyard still has tiles to draw",
    ),
    (
        "t-h5-01",
        "tile twice",
        lambda d: d["hands"][0]["boneyard"].__setitem__(0, "5-5"),
        0,
        None,
        "5-5 is dealt twice",
    ),
    (
        "t-h5-01",
        "short hand",
        lambda d: d["hands"][0]["boneyard"].append(d["hands"][0]["deal"][0].pop()),
        0,
        None,
        "seat 0 is dealt 6 tiles; each player gets 7",
    ),
    (
        "t-h5-01",
        "not a tile",
        lambda d: ev(d, 0, 2).update(play="5-9"),
        0,
        2,
        "5-9 is not a tile of the double-6 set",
    ),
    (
        "t-h5-01",
        "ruling in strict",
        lambda d: d["hands"][0]["events"].append({"seat": 0, "ruling": "BOGUS_DRAW"}),
        0,
        4,
        "rulings are valid only under detect or tabletop enforcement",
    ),
    (
        "t-h5-01",
        "empty event",
        lambda d: d["hands"][0]["events"].append({"seat": 0}),
        0,
        4,
        "an event must be a play, a draw, a pass or a ruling",
    ),
    (
        "t-h5-01",
        "unknown option",
        lambda d: d["options"].update(speed="fast"),
        None,
        None,
        "unknown option 'speed'",
    ),
    (
        "t-h5-01",
        "bad option value",
        lambda d: d["options"].update(lead_after_lock="coin"),
        None,
        None,
        "option lead_after_lock cannot be 'coin'",
    ),
    (
        "t-h5-16",
        "event after game end",
        lambda d: d["hands"][-1]["events"].append({"seat": 1, "pass": True}),
        -1,
        None,
        "the game is over: no further event may follow",
    ),
    (
        "t-h5-06",
        "unfinished hand followed",
        lambda d: d["hands"][0]["events"].pop(),
        0,
        -1,
        "this hand is unfinished, yet another hand follows it",
    ),
]


@pytest.mark.parametrize(
    ("name", "label", "change", "hand", "event", "why"), BAD, ids=[b[1] for b in BAD]
)
def test_bad_record_is_rejected_at_the_right_event(
    name: str, label: str, change: Any, hand: int | None, event: int | None, why: str
) -> None:
    doc = case(name, change)
    err = replay_error(doc)
    want_hand = hand if hand is None or hand >= 0 else len(doc["hands"]) - 1
    if label == "event after game end":
        want_event = len(doc["hands"][-1]["events"]) - 1
    elif label == "unfinished hand followed":
        want_event = len(doc["hands"][0]["events"])
    else:
        want_event = event
    assert (err.hand, err.event) == (want_hand, want_event)
    assert why in err.why


def test_replay_stops_at_the_error_and_prints_nothing_after() -> None:
    doc = case("t-h5-01", lambda d: ev(d, 0, 2).update(play="1-4", on="5-5"))
    from boneyard.core.records import record_from_json
    from boneyard.games.highfive import SPEC

    got = []
    with pytest.raises(Exception):  # noqa: B017
        for line in SPEC.replay(record_from_json(doc)):
            got.append(line)
    assert [x["event"] for x in got] == [0, 1]


def test_a_valid_record_is_not_changed_by_the_checks() -> None:
    doc = edited("t-h5-07")
    before = copy.deepcopy(doc)
    replay_lines(doc)
    assert doc == before
