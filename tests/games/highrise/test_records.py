"""Golden records, record round trips, and invalid records rejected at the right place."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from boneyard.core.errors import RecordError
from boneyard.core.records import record_from_json
from boneyard.core.tiles import Tile
from boneyard.games.highrise import SPEC
from boneyard.games.highrise.options import recorded_options
from boneyard.games.registry import get_spec
from tests.games.highrise.helpers import RECORDS, load

GOLDEN = sorted(p.stem for p in RECORDS.glob("*.json"))


def test_golden_files_exist() -> None:
    assert {"t-hr-14", "t-hr-15", "t-hr-16", "t-hr-17"} <= set(GOLDEN)
    for name in GOLDEN:
        assert (RECORDS / f"{name}.jsonl").exists()


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_replay(name: str) -> None:
    expected = [json.loads(line) for line in (RECORDS / f"{name}.jsonl").read_text().splitlines()]
    assert list(SPEC.replay(record_from_json(load(name)))) == expected


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_record_round_trip(name: str) -> None:
    doc = load(name)
    state = SPEC.from_record(record_from_json(doc))
    again = state.record()
    doc["meta"] = {}  # a state writes no meta of its own
    # the options come back resolved, every key stated (an absent early_block meant false)
    doc["options"] = recorded_options(doc["options"]).to_json()
    assert doc["options"]["early_block"] is (
        name in ("t-hr-17", "selfplay-3p-carry-over-early-block")
    )
    # unordered tiles (deal, pile) come back in the set's spelling ("5-2" -> "2-5"); oriented
    # ones (basement, plays) keep the record's writing
    for hand in doc["hands"]:
        hand["deal"] = [[str(Tile.parse(t)) for t in h] for h in hand["deal"]]
        hand["pile"] = [str(Tile.parse(t)) for t in hand["pile"]]
    assert again == doc
    assert list(SPEC.replay(record_from_json(again))) == list(SPEC.replay(record_from_json(doc)))


def test_registry_finds_highrise() -> None:
    assert get_spec("highrise") is SPEC
    assert (SPEC.min_players, SPEC.max_players) == (2, 4)


def test_full_games_end_with_game_end() -> None:
    for name in GOLDEN:
        if name.startswith("selfplay"):
            lines = list(SPEC.replay(record_from_json(load(name))))
            end = lines[-1]
            assert end["type"] == "game_end"
            assert end["scores"] == lines[-2]["scores"]
            top = max(end["scores"])
            assert end["scores"].count(top) == 1 and end["scores"][end["winner"]] == top


# ---- invalid records ---------------------------------------------------------------------

Edit = Callable[[dict[str, Any]], None]


def t15(edit: Edit) -> dict[str, Any]:
    doc = load("t-hr-15")
    edit(doc)
    return doc


def t16(edit: Edit) -> dict[str, Any]:
    doc = load("t-hr-16")
    edit(doc)
    return doc


def ev(doc: dict[str, Any], i: int, hand: int = 0) -> dict[str, Any]:
    event: dict[str, Any] = doc["hands"][hand]["events"][i]
    return event


def with_ww(doc: dict[str, Any]) -> None:
    """Give seat 0 W-W in place of 0-0 (swapped with the pile)."""
    hand = doc["hands"][0]
    hand["deal"][0][hand["deal"][0].index("0-0")] = "W-W"
    hand["pile"][hand["pile"].index("W-W")] = "0-0"


def second_hand(doc: dict[str, Any], starter: int = 1) -> None:
    hand = copy.deepcopy(doc["hands"][0])
    hand["starter"] = starter
    hand["events"] = []
    doc["hands"].append(hand)


def setattr_(path: list[Any], value: Any) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return edit


def seq(*edits: Edit) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        for e in edits:
            e(doc)

    return edit


H0 = ["hands", 0]
E = [*H0, "events"]

BAD: list[tuple[str, dict[str, Any], int | None, int | None, str]] = [
    (
        "unknown option",
        t15(setattr_(["options"], {"colour": "red"})),
        None,
        None,
        "unknown option 'colour'",
    ),
    (
        "bad option value",
        t15(setattr_(["options"], {"base_layout": "3x5"})),
        None,
        None,
        "option base_layout cannot be '3x5'",
    ),
    (
        "five players",
        t15(setattr_(["seats"], ["a", "b", "c", "d", "e"])),
        None,
        None,
        "Highrise is for 2 to 4 players, not 5",
    ),
    ("no starter", t15(setattr_([*H0, "starter"], KeyError)), 0, None, "the hand has no starter"),
    (
        "starter off the table",
        t15(setattr_([*H0, "starter"], 2)),
        0,
        None,
        "starter must be a seat from 0 to 1, not 2",
    ),
    (
        "starter against first_player",
        t15(setattr_(["options"], {"first_player": 1})),
        0,
        None,
        "seat 1 starts the first hand (option first_player), not seat 0",
    ),
    (
        "short basement",
        t15(lambda d: d["hands"][0]["basement"].pop()),
        0,
        None,
        "the basement holds 8 dominoes, not 7",
    ),
    (
        "basement tile not in set",
        t15(setattr_([*H0, "basement", 0], "7-7")),
        0,
        None,
        "7-7 is not a tile of the Highrise set",
    ),
    ("tile dealt twice", t15(setattr_([*H0, "deal", 1, 4], "5-2")), 0, None, "2-5 is dealt twice"),
    (
        "deal not a list per seat",
        t15(setattr_([*H0, "deal", 0], "5-2")),
        0,
        None,
        "the deal must list each seat's tiles as a list",
    ),
    (
        "short deal",
        t15(lambda d: d["hands"][0]["deal"][1].pop()),
        0,
        None,
        "seat 1 must be dealt 5 tiles, not 4",
    ),
    ("tile left out", t15(lambda d: d["hands"][0]["pile"].pop()), 0, None, "the set-up leaves out"),
    ("not a tile", t15(setattr_([*H0, "pile", 0], "five")), 0, None, "'five' is not a tile"),
    (
        "wrong seat",
        t15(setattr_([*E, 1, "seat"], 0)),
        0,
        1,
        "seat 0 is not to play: it is seat 1's turn",
    ),
    ("tile not held", t15(setattr_([*E, 0, "play"], "6-6")), 0, 0, "seat 0 does not hold 6-6"),
    (
        "faces do not match",
        t15(setattr_([*E, 0, "play"], "2-5")),
        0,
        0,
        "2-5 cannot go there: 2 cannot cover the 5 at (0,0)",
    ),
    (
        "spacer missing",
        t15(lambda d: ev(d, 3).pop("spacer")),
        0,
        3,
        "(0,2) is one level lower: a spacer must go on it",
    ),
    (
        "spacer on the higher cell",
        t15(setattr_([*E, 3, "spacer"], [1, 2])),
        0,
        3,
        "the spacer must go on the lower cell (0,2)",
    ),
    (
        "spacer not needed",
        t15(setattr_([*E, 0, "spacer"], [0, 0])),
        0,
        0,
        "(0,0) and (0,1) are both at level 0: no spacer may be used",
    ),
    (
        "spacer not under the domino",
        t15(setattr_([*E, 3, "spacer"], [2, 2])),
        0,
        3,
        "the spacer must go under the domino, on (0,2) or (1,2)",
    ),
    (
        "no spacers left",
        t15(setattr_(["options"], {"spacers_per_hand": 0})),
        0,
        3,
        "(0,2) is one level lower and no spacers are left",
    ),
    (
        "one domino covered",
        t15(seq(with_ww, setattr_([*E, 0], {"seat": 0, "play": "W-W", "cells": [[0, 0], [1, 0]]}))),
        0,
        0,
        "(0,0) and (1,0) are both on one domino",
    ),
    (
        "gap of two levels",
        t15(
            seq(
                with_ww,
                lambda d: (
                    ev(d, 0, 0)
                    and d["hands"][0]["events"].append(
                        {"seat": 0, "play": "W-W", "cells": [[1, 0], [1, 1]], "spacer": [1, 0]}
                    )
                ),
            )
        ),
        0,
        4,
        "(1,0) is at level 0 and (1,1) at level 2: a domino cannot bridge a gap of 2 levels",
    ),
    (
        "off the base",
        t15(setattr_([*E, 0, "cells"], [[0, 3], [0, 4]])),
        0,
        0,
        "(0,4) is off the base",
    ),
    (
        "not side by side",
        t15(setattr_([*E, 0, "cells"], [[0, 0], [0, 2]])),
        0,
        0,
        "(0,0) and (0,2) are not side by side",
    ),
    (
        "cells malformed",
        t15(setattr_([*E, 0, "cells"], [[0, 0]])),
        0,
        0,
        "a play needs cells: two [row, col] pairs",
    ),
    (
        "cell malformed",
        t15(setattr_([*E, 0, "cells"], [[0, 0], [0, "1"]])),
        0,
        0,
        "the second cell must be a cell [row, col]",
    ),
    (
        "two kinds",
        t15(setattr_([*E, 0, "draw"], "0-0")),
        0,
        0,
        "an event must have exactly one of play, draw or pass",
    ),
    (
        "no kind",
        t15(setattr_([*E, 0], {"seat": 0})),
        0,
        0,
        "an event must have exactly one of play, draw or pass",
    ),
    (
        "draw while able to place",
        t15(setattr_([*E, 0], {"seat": 0, "draw": "0-1"})),
        0,
        0,
        "seat 0 must place a tile instead of drawing: it can play 2-5, W-3",
    ),
    (
        "pass while able to place",
        t15(setattr_([*E, 0], {"seat": 0, "pass": True})),
        0,
        0,
        "seat 0 cannot pass: it can play 2-5, W-3",
    ),
    (
        "pass false",
        t15(setattr_([*E, 0], {"seat": 0, "pass": False})),
        0,
        0,
        "pass must be true, not False",
    ),
    (
        "draw names the wrong tile",
        t16(setattr_([*E, 10, "draw"], "0-1")),
        0,
        10,
        "the next pile tile is W-5, not 0-1",
    ),
    (
        "pass with tiles in the pile",
        t16(setattr_([*E, 10], {"seat": 1, "pass": True})),
        0,
        10,
        "seat 1 cannot pass: the pile has 13 tiles, so it must draw",
    ),
    (
        "draw twice",
        t16(lambda d: ev(d, 11).update({"draw": "5-5"}) or ev(d, 11).pop("play")),
        0,
        11,
        "seat 1 has drawn already and must place W-5",
    ),
    (
        "another tile after a draw",
        t16(setattr_([*E, 11], {"seat": 1, "play": "6-6", "cells": [[0, 0], [0, 1]]})),
        0,
        11,
        "seat 1 must place the tile it drew, W-5",
    ),
    (
        "event after going out",
        t16(lambda d: d["hands"][0]["events"].append({"seat": 1, "pass": True})),
        0,
        14,
        "the hand is over (seat 0 went out): no event may follow",
    ),
    (
        "unfinished hand then another",
        t15(second_hand),
        0,
        4,
        "hand 0 is unfinished but another hand follows",
    ),
    (
        "next starter wrong",
        t16(lambda d: second_hand(d, starter=2)),
        1,
        None,
        "seat 1 starts this hand (the seat left of the last starter), not seat 2",
    ),
]


@pytest.mark.parametrize(
    ("doc", "hand", "event", "why"), [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_invalid_records(
    doc: dict[str, Any], hand: int | None, event: int | None, why: str
) -> None:
    lines: list[dict[str, Any]] = []
    with pytest.raises(RecordError) as info:
        for line in SPEC.replay(record_from_json(doc)):
            lines.append(line)
    err = info.value
    assert why in err.why
    assert (err.hand, err.event) == (hand, event)
    assert err.to_json() == {"error": err.why, "hand": hand, "event": event}
    if event is not None:
        # the lines yielded before the fault are exactly the valid events before it
        assert [x.get("event") for x in lines if x.get("hand") == hand and "event" in x] == list(
            range(event)
        )


def test_game_over_then_another_hand() -> None:
    doc = load("selfplay-2p-default")
    last = doc["hands"][-1]
    extra = copy.deepcopy(last)
    extra["starter"] = (last["starter"] + 1) % 2
    extra["events"] = []
    doc["hands"].append(extra)
    with pytest.raises(RecordError) as info:
        list(SPEC.replay(record_from_json(doc)))
    assert (info.value.hand, info.value.event) == (len(doc["hands"]) - 1, None)
    assert "the game is over" in info.value.why


def test_event_after_game_end() -> None:
    doc = load("selfplay-2p-default")
    doc["hands"][-1]["events"].append({"seat": 0, "pass": True})
    n = len(doc["hands"][-1]["events"]) - 1
    with pytest.raises(RecordError) as info:
        list(SPEC.replay(record_from_json(doc)))
    assert (info.value.hand, info.value.event) == (len(doc["hands"]) - 1, n)
    assert info.value.why.startswith("the game is over")


def test_placement_written_the_other_way_round_is_the_same_move() -> None:
    doc = load("t-hr-15")
    doc["hands"][0]["events"][3] = {
        "seat": 1,
        "play": "6-W",
        "cells": [[1, 2], [0, 2]],
        "spacer": [0, 2],
    }
    lines = list(SPEC.replay(record_from_json(doc)))
    assert lines[3]["tile"] == "6-W" and lines[3]["points"] == 20
    assert (
        SPEC.from_record(record_from_json(doc)).record()["hands"][0]["events"][3]["play"] == "6-W"
    )


def test_wrong_game_name() -> None:
    doc = load("t-hr-15")
    doc["game"] = "highfive"
    with pytest.raises(RecordError, match="not a highrise one"):
        list(SPEC.replay(record_from_json(doc)))
