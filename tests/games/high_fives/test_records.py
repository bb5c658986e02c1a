"""Golden records, record -> replay -> record, and bad records rejected where they go wrong."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from boneyard.core.errors import RecordError
from boneyard.core.records import parse_record, record_from_json
from boneyard.games.high_fives import SPEC, new_game
from boneyard.games.registry import play_out
from tests.games.high_fives import helpers

RECORDS = helpers.RECORDS
NAMES = helpers.golden_names()


def golden(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A golden record and its committed replay output."""
    return helpers.load(name), helpers.expected(name)


def test_every_vector_has_a_golden_record() -> None:
    for vector in ("03", "04", "05", "06", "07", "08"):
        assert any(n.startswith(f"t-gf-{vector}") for n in NAMES), vector
    for name in NAMES:
        assert (RECORDS / f"{name}.jsonl").exists(), name


@pytest.mark.parametrize("name", NAMES)
def test_golden_replay(name: str) -> None:
    _, expected = golden(name)
    text = (RECORDS / f"{name}.json").read_text(encoding="utf-8")
    assert list(SPEC.replay(parse_record(text))) == expected


@pytest.mark.parametrize("name", NAMES)
def test_golden_round_trip(name: str) -> None:
    doc, _ = golden(name)
    assert helpers.replay_state(doc).record() == doc


# The vector figures, stated here again so the golden files are not their own witness.
VECTOR_LINES = {
    "t-gf-03-w5-line": [("7-8", "8-9", ["0-1", "1-2"], 3)],
    "t-gf-03-capture-double": [("7-8", "7-7", ["0-1", "1-2"], 4)],
    "t-gf-03-claim-only": [("3-4", None, ["0-1", "1-2"], 0)],
    "t-gf-04-capture": [("2-5", "1-2", None, 0)],
    "t-gf-04-claim": [("2-5", None, ["0-1", "1-2"], 0)],
    "t-gf-05-no-match": [("5-8", None, None, 0)],
    "t-gf-06-best": [
        ("12-15", "11-12", None, 0),
        ("13-14", "13-13", None, 1),
        ("4-6", "6-9", ["1-4", "4-4"], 7),
    ],
    "t-gf-07-capture-double": [
        ("11-13", "1-13", None, 0),
        ("6-14", "14-14", None, 5),
        ("10-15", "10-10", None, 10),
    ],
    "t-gf-07-claim": [
        ("11-13", "1-13", None, 0),
        ("6-14", "14-14", None, 5),
        ("10-15", None, ["5-10", "10-10"], 8),
    ],
}

LAYOUT_AFTER = {
    "t-gf-03-w5-line": ["7-7", "10-15"],
    "t-gf-04-capture": ["0-1", "7-7", "8-9", "10-15"],
    "t-gf-04-claim": ["7-7", "8-9", "10-15", "2-5"],
    "t-gf-05-no-match": ["3-4", "6-9", "10-12", "0-13", "2-2", "5-8"],
    "t-gf-06-best": [],
    "t-gf-07-capture-double": ["5-10", "3-12"],
    "t-gf-07-claim": ["3-12", "10-15"],
}


@pytest.mark.parametrize("name", sorted(VECTOR_LINES))
def test_vector_figures(name: str) -> None:
    doc, lines = golden(name)
    got = [(ln["tile"], ln.get("capture"), ln.get("claim"), ln["points"]) for ln in lines]
    assert got == VECTOR_LINES[name]
    assert all(ln["type"] == "turn" and ln["seat"] == ln["event"] % 2 for ln in lines)
    if name in LAYOUT_AFTER:
        assert [str(t) for t in helpers.replay_state(doc).layout] == LAYOUT_AFTER[name]


def test_t_gf_08_golden_pass() -> None:
    doc, lines = golden("t-gf-08-two-player-pass")
    hand = doc["hands"][0]
    assert len(hand["deals"]) == 13 and all(len(d[0]) == 5 for d in hand["deals"])
    assert len(hand["extra"]) == 1 and len(hand["events"]) == 130
    assert lines[-1] == {
        "hand": 0,
        "type": "hand_end",
        "reason": "played_out",
        "winner": None,
        "award": 0,
        "scores": lines[-2]["scores"],
    }
    # replay up to the first turn of deal 13: the extra tile has just joined the layout
    partial = copy.deepcopy(doc)
    partial["hands"][0]["events"] = hand["events"][:120]
    state = helpers.replay_state(partial)
    assert state.deal_index == 12
    assert str(state.layout[-1]) == hand["extra"][0]
    partial["hands"][0]["events"] = hand["events"][:119]
    state = helpers.replay_state(partial)
    assert state.deal_index == 11 and hand["extra"][0] not in {str(t) for t in state.layout}
    # scores are the points of the won tiles
    assert sum(lines[-1]["scores"]) <= 100


def test_game_golden_endings() -> None:
    _, lines = golden("game-3p-immediate")
    assert lines[-2]["reason"] == "game_over" and lines[-1]["type"] == "game_end"
    assert lines[-1]["scores"][lines[-1]["winner"]] >= 60
    assert [ln["reason"] for ln in lines if ln["type"] == "hand_end"] == ["played_out", "game_over"]
    _, lines = golden("game-2p-end-of-pass")
    assert lines[-2]["reason"] == "played_out" and lines[-2]["winner"] == lines[-1]["winner"]
    doc, lines = golden("game-5p-variants")
    assert [h["leader"] for h in doc["hands"]] == [2, 2]
    assert any(isinstance(ln.get("claim"), list) for ln in lines)


def selfplay_record(players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    from boneyard.bots import make_bot

    state = new_game(players, options)
    bots = [make_bot(("random", "greedy")[i % 2], random.Random(seed + i)) for i in range(players)]
    play_out(state, [b.choose for b in bots], random.Random(seed))
    return state.record()


@pytest.mark.parametrize("players", range(2, 9))
def test_selfplay_record_replays_and_round_trips(players: int) -> None:
    doc = selfplay_record(players, {"target": 40}, players)
    doc = json.loads(json.dumps(doc))
    lines = helpers.replay_lines(doc)
    state = helpers.replay_state(doc)
    assert state.record() == doc
    result = state.result()
    assert result is not None
    assert lines[-1] == {"type": "game_end", "winner": result.winner, "scores": list(result.scores)}
    turns = [ln for ln in lines if ln["type"] == "turn"]
    assert len(turns) == sum(len(h["events"]) for h in doc["hands"])
    for before, line in zip([None, *turns], turns, strict=False):
        prev = [0] * players if before is None else before["scores"]
        gained = [b - a for a, b in zip(prev, line["scores"], strict=True)]
        assert gained[line["seat"]] == line["points"]
        assert sum(gained) == line["points"]


# ---------------------------------------------------------------------------- bad records


def golden_copy(helpers: Any, name: str = "t-gf-06-best") -> dict[str, Any]:
    doc, _ = golden(name)
    return copy.deepcopy(doc)


def replay_fails(doc: dict[str, Any], hand: int | None, event: int | None, why: str) -> list[Any]:
    rec = record_from_json(doc)
    out = []
    with pytest.raises(RecordError) as info:
        for line in SPEC.replay(rec):
            out.append(line)
    err = info.value
    assert (err.hand, err.event) == (hand, event), err.why
    assert why in err.why, err.why
    return out


def test_wrong_seat() -> None:
    doc = golden_copy(helpers)
    doc["hands"][0]["events"][1]["seat"] = 0
    lines = replay_fails(doc, 0, 1, "it is seat 1's turn, but the event is for seat 0")
    assert len(lines) == 1


def test_missing_seat() -> None:
    doc = golden_copy(helpers)
    del doc["hands"][0]["events"][0]["seat"]
    replay_fails(doc, 0, 0, "it is seat 0's turn")


def test_tile_not_in_hand() -> None:
    doc = golden_copy(helpers)
    doc["hands"][0]["events"][1]["play"] = "4-6"
    replay_fails(doc, 0, 1, "seat 1 does not hold 4-6")


def test_capture_missing() -> None:
    doc = golden_copy(helpers)
    del doc["hands"][0]["events"][2]["capture"]
    replay_fails(
        doc, 0, 2, "4-6 matches 6-9 on the layout and must capture it (capture is compulsory)"
    )


def test_capture_does_not_match() -> None:
    doc = golden_copy(helpers)
    doc["hands"][0]["events"][0]["capture"] = "13-13"
    replay_fails(doc, 0, 0, "13-13 does not match 12-15")


def test_capture_not_on_layout() -> None:
    doc = golden_copy(helpers)
    doc["hands"][0]["events"][0]["capture"] = "12-12"
    replay_fails(doc, 0, 0, "12-12 is not on the layout")


def test_claim_that_does_not_match() -> None:
    doc = golden_copy(helpers)
    doc["hands"][0]["events"][2]["claim"] = ["1-4", "13-13"]
    replay_fails(doc, 0, 2, "13-13 is not on the layout")
    doc["hands"][0]["events"][0]["claim"] = ["1-4", "6-9"]
    replay_fails(doc, 0, 0, "1-4 and 6-9 do not match")


def test_claim_and_capture_share_a_tile() -> None:
    doc = golden_copy(helpers, "t-gf-04-claim")
    doc["hands"][0]["events"][0]["capture"] = "1-2"
    replay_fails(doc, 0, 0, "1-2 is claimed this turn: a claim and a capture cannot share a tile")


def test_a_train_cannot_be_claimed() -> None:
    doc = golden_copy(helpers, "t-gf-04-claim")
    doc["hands"][0]["events"][0]["claim"] = ["0-1", "1-2", "2-5"]
    replay_fails(doc, 0, 0, "claim must be two matching layout tiles")
    doc["hands"][0]["events"][0]["claim"] = [["0-1", "1-2"], ["7-7", "8-9"]]
    replay_fails(doc, 0, 0, "claim must be two matching layout tiles")


def test_unlimited_claim_shape() -> None:
    doc = golden_copy(helpers, "game-7p-unlimited-claims")
    ev = next(e for e in doc["hands"][0]["events"] if "claim" in e)
    i = doc["hands"][0]["events"].index(ev)
    ev["claim"] = ev["claim"][0]
    replay_fails(doc, 0, i, "claim must be a list of pairs")


def test_no_rulings_draws_or_passes() -> None:
    doc = golden_copy(helpers)
    doc["hands"][0]["events"][1] = {"seat": 1, "ruling": "BOGUS_DRAW"}
    replay_fails(doc, 0, 1, "High Fives has no rulings")
    doc["hands"][0]["events"][1] = {"seat": 1, "pass": True}
    replay_fails(doc, 0, 1, "High Fives has no draws or passes")
    doc["hands"][0]["events"][1] = {"seat": 1}
    replay_fails(doc, 0, 1, 'a turn must name the tile it plays ("play")')


def test_bad_tile_text() -> None:
    doc = golden_copy(helpers)
    doc["hands"][0]["events"][0]["play"] = "12-16"
    replay_fails(doc, 0, 0, "12-16 is not a tile of the double-15 set")
    doc["hands"][0]["events"][0]["play"] = 7
    replay_fails(doc, 0, 0, "play must be a tile")


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda h: h["layout"].append(h["extra"].pop()), "the layout must start with 5 tiles"),
        (lambda h: h.__setitem__("extra", []), "extra must list the 1 tile left over at the"),
        (lambda h: h["deals"].pop(), "a pass with 2 players has 13 deals, but 12 are listed"),
        (lambda h: h["deals"][3][1].pop(), "deal 3 gives seat 1 4 tiles; it must give 5"),
        (lambda h: h["deals"][3].pop(), "deal 3 must give tiles to 2 seats, not 1"),
        (lambda h: h["deals"][5][0].__setitem__(0, h["layout"][0]), "is dealt twice"),
        (lambda h: h.__setitem__("leader", 2), "leader must be a seat number 0-1, not 2"),
        (lambda h: h.__setitem__("leader", "0"), "leader must be a seat number"),
        (lambda h: h.pop("leader"), "the pass has no leader"),
        (lambda h: h.__setitem__("deals", "none"), "deals must be a list of deals"),
        (lambda h: h["deals"][0][0].__setitem__(0, "0-16"), "0-16 is not a tile"),
    ],
)
def test_bad_setup(change: Any, why: str) -> None:
    doc = golden_copy(helpers)
    change(doc["hands"][0])
    replay_fails(doc, 0, None, why)


def test_leader_rotation() -> None:
    doc = golden_copy(helpers, "game-3p-immediate")
    assert [h["leader"] for h in doc["hands"]] == [0, 1]
    doc["hands"][1]["leader"] = 2
    lines = replay_fails(doc, 1, None, "pass 1 must be led by seat 1 (leader_next_pass rotate_left")
    assert lines[-1]["type"] == "hand_end"
    doc["options"]["leader_next_pass"] = "same"
    replay_fails(doc, 1, None, "pass 1 must be led by seat 0 (leader_next_pass same")


def test_first_leader_option() -> None:
    doc = golden_copy(helpers)
    doc["options"]["first_leader"] = 1
    replay_fails(doc, 0, None, "pass 0 must be led by seat 1 (option first_leader is seat 1)")


def test_unfinished_pass_followed_by_another() -> None:
    doc = golden_copy(helpers, "game-3p-immediate")
    del doc["hands"][0]["events"][-1]
    replay_fails(doc, 0, 119, "pass 0 is unfinished, but another pass follows")


def test_turn_after_the_pass_is_played_out() -> None:
    doc = golden_copy(helpers, "t-gf-08-two-player-pass")
    doc["hands"][0]["events"].append({"seat": 0, "play": "0-0"})
    lines = replay_fails(doc, 0, 130, "pass 0 is played out after 130 turns")
    assert lines[-1]["type"] == "hand_end"


def test_turn_after_the_game_is_over() -> None:
    doc = golden_copy(helpers, "game-3p-immediate")
    events = doc["hands"][1]["events"]
    n = len(events)
    events.append({"seat": (1 + n) % 3, "play": "0-0"})
    lines = replay_fails(doc, 1, n, "the game is over: no turn may follow")
    assert lines[-1]["type"] == "game_end"


def test_pass_after_the_game_is_over() -> None:
    doc = golden_copy(helpers, "game-3p-immediate")
    doc["hands"].append(copy.deepcopy(doc["hands"][1]))
    replay_fails(doc, 2, None, "the game ended in pass 1; no further pass may follow")


@pytest.mark.parametrize(
    ("options", "seats", "why"),
    [
        ({"colour": 1}, 2, "unknown option 'colour'"),
        ({"first_leader": 4}, 2, "option first_leader is seat 4"),
        ({}, 1, "High Fives is for 2 to 8 players, not 1"),
        ({}, 9, "High Fives is for 2 to 8 players, not 9"),
    ],
)
def test_bad_envelope(options: dict[str, Any], seats: int, why: str) -> None:
    doc = golden_copy(helpers)
    doc["options"] = options
    doc["seats"] = [f"P{i}" for i in range(seats)]
    replay_fails(doc, None, None, why)


def test_wrong_game() -> None:
    from boneyard.games.high_fives import SPEC

    doc = golden_copy(helpers)
    doc["game"] = "highrise"
    with pytest.raises(RecordError, match="this is a highrise record, not a high-fives record"):
        list(SPEC.replay(record_from_json(doc)))


def test_unfinished_game_has_no_end_lines() -> None:
    doc, lines = golden("t-gf-06-best")
    assert [ln["type"] for ln in lines] == ["turn"] * 3
    assert helpers.replay_state(doc).current_seat == 1
