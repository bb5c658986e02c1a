"""Replays over HTTP: a finished table's steps, record upload, and live hand summaries."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from boneyard.bots import make_bot
from boneyard.core.records import record_from_json
from boneyard.core.tiles import Tile
from boneyard.games.registry import get_spec, play_out
from boneyard.server.replays.steps import replay_steps
from boneyard.server.tables import fairness
from tests.server.conftest import post, register, thrown_in_seed

GAMES = [("highfive", 2), ("merry-go-round", 4), ("highrise", 2), ("high-fives", 2)]


def self_played(game: str, n: int, seed: int = 7) -> dict[str, Any]:
    spec = get_spec(game)
    state = spec.new_game(n, {})
    bots = [make_bot("greedy", random.Random(seed + i)) for i in range(n)]
    play_out(state, [b.choose for b in bots], random.Random(seed))
    record: dict[str, Any] = state.record()
    return record


def bot_table(client: TestClient, game: str = "highfive", n: int = 2) -> str:
    """A table of bots only, watched (its bots move only then) and played to its end (bots move
    at once in the test app)."""
    register(client, "host")
    seats = [{"kind": "bot", "bot": "greedy"}] * n
    r = post(client, "/api/tables", {"game": game, "seats": seats})
    assert r.status_code == 200, r.text
    tid = str(r.json()["id"])
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        while not (view := ws.receive_json()).get("result"):
            assert view["type"] != "error", view
    return tid


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_every_step_of_a_record_is_a_public_view_with_all_hands(game: str, n: int) -> None:
    record = self_played(game, n)
    out = replay_steps(record_from_json(record))
    events = sum(len(h["events"]) for h in record["hands"])
    assert len(out["steps"]) == events + len(record["hands"])
    assert out["game"] == game and out["seats"] == record["seats"]
    first = out["steps"][0]
    assert first["event"] is None and first["text"] == "Hand 1 is dealt"
    for step in out["steps"]:
        view = step["view"]
        assert view["seat"] is None and "legal_actions" not in view
        assert len(view["hands"]) == n
        # The hand a step shows is the step's, its end too (not the next one the state counts).
        assert view.get("hand_number", step["hand"]) == step["hand"], step
    # Hands shown once the game is over: the dealt tiles of seat 0 at the first step.
    assert first["view"]["hands"][0]
    last = out["steps"][-1]
    assert last["view"]["is_over"] is True
    assert last["game_end"]["type"] == "game_end"
    assert len(out["hand_ends"]) == len(record["hands"])
    assert out["record"]["hands"] == record["hands"]


def test_a_deal_thrown_in_shows_the_hands_dealt() -> None:
    # High Five throws a deal in when nobody holds a double: its step shows the hands as dealt
    # (the reason it was dealt again), not the empty hands of the state after it.
    state = fairness.new_state("highfive", {}, ["a", "b"])
    fairness.deal(state, thrown_in_seed(), 0, [None, None])
    bots = [make_bot("greedy", random.Random(i)) for i in range(2)]
    play_out(state, [b.choose for b in bots], random.Random(1))
    record = state.record()
    out = replay_steps(record_from_json(record))
    first = out["steps"][0]
    assert first["hand_end"]["reason"] == "redeal" and first["hand_end"]["kept"] is None
    assert first["view"]["hands"] == record["hands"][0]["deal"]
    assert all(len(hand) == 7 for hand in first["view"]["hands"])
    assert first["view"]["hand_sizes"] == [7, 7] and first["view"]["boneyard_size"] == 14
    assert first["view"]["hand_number"] == 0  # (the hand the replay's step names: hand 1)
    assert not any(Tile.parse(t).is_double for hand in first["view"]["hands"] for t in hand)
    assert (
        out["steps"][1]["hand"] == 1 and out["steps"][1]["view"]["hands"] != first["view"]["hands"]
    )


def test_uploaded_records_replay_or_are_refused_with_the_replay_error(
    client: TestClient,
) -> None:
    record = self_played("highfive", 2)
    r = post(client, "/api/replays", {"record": record})
    assert r.status_code == 200, r.text
    assert r.json()["steps"][-1]["view"]["is_over"]
    # Uploading needs no account; a record that breaks the rules is refused with why.
    bad = json.loads(json.dumps(record))
    bad["hands"][0]["events"][1]["play"] = "9-9"
    r = post(client, "/api/replays", {"record": bad})
    assert r.status_code == 400
    assert r.json()["detail"].startswith("the record does not replay:")
    assert "(hand 0, event 1)" in r.json()["detail"]
    r = post(client, "/api/replays", {"record": {"format": "nonsense"}})
    assert r.status_code == 400 and "does not replay" in r.json()["detail"]
    r = post(client, "/api/replays", {"record": {**record, "game": "chess"}})
    assert r.status_code == 400
    # The body is parsed in a worker (a large record never blocks the site): a body without
    # a record is refused there, with what to send.
    r = post(client, "/api/replays", {"nothing": 1})
    assert r.status_code == 400 and r.json()["detail"].startswith('send {"record"')
    # The CSRF rule holds for uploads too.
    assert client.post("/api/replays", json={"record": record}).status_code == 403


def test_a_finished_table_has_a_replay_and_hand_summaries(client: TestClient) -> None:
    tid = bot_table(client)
    r = client.get(f"/api/tables/{tid}/replay")
    assert r.status_code == 200, r.text
    out = r.json()
    record = client.get(f"/api/tables/{tid}/record").json()
    assert out["table"] == tid
    assert out["record"]["hands"] == record["hands"]
    assert len(out["steps"]) == sum(len(h["events"]) + 1 for h in record["hands"])
    assert out["steps"][-1]["view"]["is_over"]
    assert client.get(f"/api/tables/{tid}/replay").json() == out  # cached, identical
    hands = client.get(f"/api/tables/{tid}/hands").json()["hands"]
    assert [h["hand"] for h in hands if h["type"] == "hand_end"] == list(
        range(len(record["hands"]))
    )
    assert hands[-1]["type"] == "game_end"
    assert client.get("/api/tables/nope/replay").status_code == 404


def test_no_replay_of_a_game_in_play_and_only_finished_hands_summarised(
    client: TestClient,
) -> None:
    register(client, "ann")
    t = post(client, "/api/quickplay").json()
    r = client.get(f"/api/tables/{t['id']}/replay")
    assert r.status_code == 400 and "once the game is over" in r.json()["detail"]
    r = client.get(f"/api/tables/{t['id']}/hands")
    assert r.status_code == 200
    text = r.text
    # The first hand is still in play (a hand the rules redealt is over: the bot may have dealt
    # one whose redeal came at once).
    assert all(h["reason"] == "redeal" for h in r.json()["hands"]), r.json()
    assert "deal" not in text and "boneyard" not in text
    # An open table (not started) has no hands either.
    r = post(
        client, "/api/tables", {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}]}
    )
    assert client.get(f"/api/tables/{r.json()['id']}/hands").json() == {"hands": []}
    assert client.get(f"/api/tables/{r.json()['id']}/replay").status_code == 400


def test_every_shipped_game_has_its_row() -> None:
    """The table of games above has a row for every game the registry ships (a new game
    without one would be left out of these tests)."""
    from boneyard.games.registry import SHIPPED

    assert {g for g, _n in GAMES} == set(SHIPPED)
