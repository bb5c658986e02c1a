"""Bad Merry-Go-Round records are rejected at the right event, with a reason a player reads;
the lines printed before the fault are exactly the valid prefix."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.games.merry_go_round.helpers import expected, fixed_hand, load, replay_partial

Edit = Callable[[dict[str, Any]], None]


def hand_events(rec: dict[str, Any], h: int = 0) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = rec["hands"][h]["events"]
    return events


def set_fields(h: int, i: int, **fields: Any) -> Edit:
    def edit(rec: dict[str, Any]) -> None:
        ev = hand_events(rec, h)[i]
        for k, v in fields.items():
            if v is None:
                ev.pop(k, None)
            else:
                ev[k] = v

    return edit


def replace_event(h: int, i: int, event: dict[str, Any]) -> Edit:
    def edit(rec: dict[str, Any]) -> None:
        hand_events(rec, h)[i] = event

    return edit


def insert_event(h: int, i: int, event: dict[str, Any]) -> Edit:
    def edit(rec: dict[str, Any]) -> None:
        hand_events(rec, h).insert(i, event)

    return edit


def with_options(**opts: Any) -> Edit:
    def edit(rec: dict[str, Any]) -> None:
        rec["options"] = {**rec["options"], **opts}

    return edit


def short_deal(rec: dict[str, Any]) -> None:
    rec["hands"][0]["boneyard"].append(rec["hands"][0]["deal"][0].pop())


def tile_dealt_twice(rec: dict[str, Any]) -> None:
    rec["hands"][0]["boneyard"][0] = rec["hands"][0]["deal"][1][0]


def event_after_game(rec: dict[str, Any]) -> tuple[int, int]:
    h = len(rec["hands"]) - 1
    hand_events(rec, h).append({"seat": 0, "pass": True})
    return h, len(hand_events(rec, h)) - 1


def hand_after_game(rec: dict[str, Any]) -> tuple[int, None]:
    rec["hands"].append(copy.deepcopy(rec["hands"][0]))
    return len(rec["hands"]) - 1, None


def unfinished_then_more(rec: dict[str, Any]) -> tuple[int, int]:
    hand_events(rec, 0).pop()
    rec["hands"].append(copy.deepcopy(rec["hands"][0]))
    return 0, len(hand_events(rec, 0))


def wrong_later_setter(rec: dict[str, Any]) -> tuple[int, int]:
    first = hand_events(rec, 1)[0]
    first["seat"] = 1 - first["seat"]
    return 1, 0


Where = tuple[int | None, int | None]
CASES: list[tuple[str, str, Edit, Where, str]] = [
    # (record, what, edit, (hand, event), reason)
    (
        "t-mg-01",
        "unknown option",
        with_options(mgr_cross_order="x"),
        (None, None),
        "unknown option 'mgr_cross_order'",
    ),
    (
        "t-mg-01",
        "bad option value",
        with_options(cross_order="random"),
        (None, None),
        "option cross_order cannot be 'random'",
    ),
    (
        "t-mg-01",
        "first setter option",
        with_options(first_setter=1),
        (0, 0),
        "it is seat 1's turn, not seat 0's",
    ),
    ("t-mg-01", "six tiles dealt", short_deal, (0, None), "seat 0 is dealt 6 tiles"),
    ("t-mg-01", "a tile twice", tile_dealt_twice, (0, None), "is dealt twice"),
    (
        "t-mg-01",
        "not a tile",
        set_fields(0, 0, play="7-7"),
        (0, 0),
        "7-7 is not a tile of the double-6",
    ),
    (
        "t-mg-01",
        "set a non-double",
        set_fields(0, 0, play="5-6"),
        (0, 0),
        "the set must be a double, and 5-6 is not",
    ),
    (
        "t-mg-01",
        "set with on",
        set_fields(0, 0, on="5-6"),
        (0, 0),
        "5-5 would be the set (the first tile of the hand): it has no on or port",
    ),
    (
        "t-mg-01",
        "draw instead of setting",
        replace_event(0, 0, {"seat": 0, "draw": "1-6"}),
        (0, 0),
        "seat 0 must set a double: it holds 5-5",
    ),
    (
        "t-mg-01",
        "pass instead of setting",
        replace_event(0, 0, {"seat": 0, "pass": True}),
        (0, 0),
        "seat 0 must set a double: it holds 5-5",
    ),
    (
        "t-mg-01",
        "wrong seat",
        set_fields(0, 1, seat=0),
        (0, 1),
        "it is seat 1's turn, not seat 0's",
    ),
    (
        "t-mg-01",
        "seat out of range",
        set_fields(0, 1, seat=5),
        (0, 1),
        "seat must be a seat number",
    ),
    (
        "t-mg-01",
        "the 0 during the cross (T-MG-01)",
        replace_event(0, 2, {"seat": 0, "play": "0-3", "on": "0-5"}),
        (0, 2),
        "0-3 cannot go on 0-5 yet: both sides of the set 5-5 come first (open: SIDE_B",
    ),
    (
        "t-mg-01",
        "an end before the sides",
        set_fields(0, 2, port="END_A"),
        (0, 2),
        "5-6 cannot go on 5-5 yet: both sides of the set 5-5 come first",
    ),
    (
        "t-mg-01",
        "a covered side",
        set_fields(0, 2, port="SIDE_A"),
        (0, 2),
        "5-5 has no open SIDE_A end",
    ),
    (
        "t-mg-01",
        "a tile not held",
        set_fields(0, 1, play="5-6"),
        (0, 1),
        "seat 1 does not hold 5-6",
    ),
    (
        "t-mg-01",
        "no match",
        set_fields(0, 5, play="1-2"),
        (0, 5),
        "1-2 does not match the 0 on 0-5",
    ),
    (
        "t-mg-01",
        "play without on",
        set_fields(0, 1, on=None, port=None),
        (0, 1),
        "say which placed tile 0-5 joins (on)",
    ),
    (
        "t-mg-01",
        "port on a single",
        set_fields(0, 5, port="SIDE_A"),
        (0, 5),
        "0-5 is not the set double: only the set's edges are named",
    ),
    (
        "t-mg-01",
        "bad port name",
        set_fields(0, 1, port="LEFT"),
        (0, 1),
        "port must be SIDE_A, SIDE_B, END_A or END_B, not 'LEFT'",
    ),
    (
        "t-mg-01",
        "on a tile not placed",
        set_fields(0, 5, on="6-6"),
        (0, 5),
        "6-6 is not on the table",
    ),
    (
        "t-mg-01",
        "wrong drawn tile",
        insert_event(0, 1, {"seat": 1, "draw": "2-3"}),
        (0, 1),
        "seat 1 draws 2-3, but the next boneyard tile is 1-6",
    ),
    (
        "t-mg-01",
        "pass while able to play",
        insert_event(0, 1, {"seat": 1, "pass": True}),
        (0, 1),
        "seat 1 must play: it holds",
    ),
    (
        "t-mg-01",
        "not an event",
        replace_event(0, 1, {"seat": 1, "hop": 1}),
        (0, 1),
        "an event must be a play, a draw or a pass",
    ),
    (
        "t-mg-09",
        "pass while a tile can be drawn",
        replace_event(0, 0, {"seat": 0, "pass": True}),
        (0, 0),
        "seat 0 cannot pass: it has no double and must draw for one",
    ),
    (
        "t-mg-set-pass-left",
        "set passes the wrong way",
        set_fields(0, 1, seat=0),
        (0, 1),
        "it is seat 2's turn, not seat 0's",
    ),
]

LOCATED: list[tuple[str, str, Callable[[dict[str, Any]], Where], str]] = [
    (
        "t-mg-08-play",
        "event after the game",
        event_after_game,
        "the game is over: no further event may follow",
    ),
    (
        "t-mg-08-play",
        "hand after the game",
        hand_after_game,
        "the game is already over: no further hand may follow",
    ),
    (
        "t-mg-03",
        "unfinished hand followed by another",
        unfinished_then_more,
        "this hand is unfinished, yet another hand follows it",
    ),
    ("selfplay-2p-default", "wrong setter of a later hand", wrong_later_setter, "turn, not seat"),
]


def check_fault(name: str, rec: dict[str, Any], where: Where, why: str) -> None:
    lines, fault = replay_partial(rec)
    assert fault is not None
    assert (fault.hand, fault.event) == where, fault.to_json()
    assert why in fault.why, fault.why
    # What was printed before the fault is the valid prefix of the original replay.
    assert lines == expected(name)[: len(lines)]


@pytest.mark.parametrize(("name", "what", "edit", "where", "why"), CASES, ids=[c[1] for c in CASES])
def test_bad_record(name: str, what: str, edit: Edit, where: Where, why: str) -> None:
    rec = load(name)
    edit(rec)
    check_fault(name, rec, where, why)


@pytest.mark.parametrize(("name", "what", "edit", "why"), LOCATED, ids=[c[1] for c in LOCATED])
def test_bad_record_located(
    name: str, what: str, edit: Callable[[dict[str, Any]], Where], why: str
) -> None:
    rec = load(name)
    where = edit(rec)
    check_fault(name, rec, where, why)


def test_forced_play_draw_rejected_only_under_forced_play() -> None:
    rec = load("t-mg-01")
    insert_event(0, 1, {"seat": 1, "draw": "1-6"})(rec)
    _lines, fault = replay_partial(rec)
    assert fault is None  # drawing while able to play is the default rule (MG-7)
    rec["options"] = {"forced_play": True}
    _lines, fault = replay_partial(rec)
    assert fault is not None and (fault.hand, fault.event) == (0, 1)
    assert fault.why == "seat 1 must play: it holds 0-5"


@pytest.mark.parametrize("reserve", ["none", "kelley"])
def test_reserve_tiles_cannot_be_drawn(reserve: str) -> None:
    hands, bone = fixed_hand([["6-6"], []])
    events: list[dict[str, Any]] = [{"seat": 0, "play": "6-6"}]
    events += [{"seat": 1, "draw": str(t)} for t in bone]
    rec = {
        "format": "boneyard-record/1",
        "game": "merry-go-round",
        "options": {"boneyard_reserve": reserve},
        "seats": ["A", "B"],
        "hands": [
            {
                "deal": [[str(t) for t in h] for h in hands],
                "boneyard": [str(t) for t in bone],
                "events": events,
            }
        ],
    }
    _lines, fault = replay_partial(rec)
    if reserve == "none":
        assert fault is None
        return
    assert fault is not None and (fault.hand, fault.event) == (0, 13)
    assert fault.why == "only the reserve is left in the boneyard (2 tiles that are never drawn)"
