"""The turn clock: warning, abandonment to a bot that finishes the game, taking the seat back,
restarts that resume the clock from the log's timestamps. Durations are scaled down."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from boneyard.core.records import record_from_json
from boneyard.games.registry import get_spec
from boneyard.server.tables.commands import Inspect
from tests.server.conftest import (
    clock_table,
    live,
    make_app,
    post,
    receive_until,
    register,
    use,
    wait_for,
)

SCALE = 0.01  # a 30-second clock runs 0.3 s


def test_the_clock_is_a_table_setting_checked_at_creation(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = clock_table(c, {"per_move": 60})
        assert live(c, tid).settings == {"clock": {"per_move": 60, "grace": 30, "bot": "medium"}}
        t = clock_table(c, {"per_move": 30, "grace": 10, "bot": "greedy"})
        assert live(c, t).settings["clock"] == {"per_move": 30, "grace": 10, "bot": "greedy"}
        from boneyard.bots.expert import GAMES_WITH_SEARCH

        body: dict[str, Any] = {"game": "highrise", "seats": [{"kind": "me"}, {"kind": "bot"}]}
        r = post(c, "/api/tables", {**body, "clock": {"per_move": 30}})
        level = "medium" if "highrise" in GAMES_WITH_SEARCH else "greedy"
        assert r.status_code == 200 and live(c, r.json()["id"]).settings["clock"]["bot"] == level
        r = post(c, "/api/tables", {**body, "clock": {"per_move": 30, "bot": "nobody"}})
        assert r.status_code == 400 and "unknown" in r.json()["detail"]
        for bad in ({"per_move": 2}, {"per_move": 30, "grace": -1}, {"grace": 5}):
            assert post(c, "/api/tables", {**body, "clock": bad}).status_code == 422
        # No clock: the view says so and no clock task runs.
        q = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{q}") as ws:
            assert ws.receive_json()["clock"] is None
        assert q not in c.app.state.tables.clock.tasks  # type: ignore[attr-defined]


@pytest.mark.usefixtures("no_throw_in")  # (the substitution is in hand 0)
def test_timeout_warns_then_a_bot_takes_the_seat_and_finishes_the_game(db_path: str) -> None:
    with TestClient(make_app(db_path, clock_scale=SCALE)) as c:
        c.get("/api/me")
        register(c, "ann")
        # 10 s to move: the socket opens within it even on a loaded machine (the warning comes
        # once, when the move time is up: a socket opened later would not hear it; CI once saw
        # it open after 3 s)
        tid = clock_table(c, {"per_move": 1000, "grace": 60, "bot": "greedy"})
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            mine = receive_until(ws, lambda m: m.get("moves") and m["clock"]["seat"] == 0)
            clock = mine["clock"]
            assert clock["phase"] == "move" and clock["per_move"] == 1000 and clock["grace"] == 60
            assert 0 <= clock["remaining"] <= 10.0
            assert abs(clock["deadline"] - clock["server_time"] - clock["remaining"]) < 0.01
            assert abs(clock["grace_until"] - clock["deadline"] - 0.6) < 0.01
            warning = receive_until(ws, lambda m: m["type"] == "clock")
            assert warning["clock"]["phase"] == "grace" and warning["clock"]["seat"] == 0
            assert 0 <= warning["clock"]["remaining"] <= 0.6
            taken = receive_until(ws, lambda m: m["type"] == "view" and m["seat"] is None)
            seat = taken["table"]["seats"][0]
            assert seat["kind"] == "bot" and seat["name"] == "bot (replacing ann)"
            assert seat["replacing"]["name"] == "ann" and seat["user_id"] is None
            assert taken["view"]["hand"] == [] and taken["moves"] == []  # a spectator now
            version = taken["version"]
        table = live(c, tid)
        wait_for(lambda: table.state.is_over)
        assert table.seats[0].replaced.name == "ann"
        rec = c.get(f"/api/tables/{tid}/record").json()
        (sub,) = rec["meta"]["substitutions"]
        assert sub["event"] == "abandoned" and sub["seat"] == 0 and sub["bot"] == "greedy"
        assert sub["seq"] == version and sub["hand"] == 0 and sub["name"] == "ann"
        assert list(get_spec("highfive").replay(record_from_json(rec)))[-1]["type"] == "game_end"
        # Ann's finished game is still hers.
        games = c.get("/api/me/games").json()["games"]
        assert [g["seat"] for g in games if g["id"] == tid] == [0]


def next_error(ws: Any, limit: int = 200) -> str:
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "error":
            return str(msg["message"])
    raise AssertionError("no error came")


def test_the_replaced_person_takes_the_seat_back_with_a_fresh_clock(db_path: str) -> None:
    with TestClient(make_app(db_path, clock_scale=SCALE, bot_delay=0.3)) as c:
        c.get("/api/me")
        ann = register(c, "ann")
        tid = clock_table(c, {"per_move": 30, "grace": 10, "bot": "greedy"})
        register(c, "bob")  # has no seat here
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "reclaim"})
            assert next_error(ws) == "a bot plays no seat of yours at this table"
        r = post(c, f"/api/tables/{tid}/reclaim")
        assert r.status_code == 400
        assert r.json()["detail"] == "a bot plays no seat of yours at this table"
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            receive_until(ws, lambda m: m["type"] == "view" and m["seat"] is None)
            before = time.time()
            ws.send_json({"type": "reclaim"})
            back = receive_until(ws, lambda m: m["type"] == "view" and m["seat"] == 0)
            seat = back["table"]["seats"][0]
            assert seat["kind"] == "person" and seat["name"] == "ann" and "replacing" not in seat
            clock = back["clock"]
            if clock["seat"] == 0:  # her turn at once: the clock starts afresh
                assert clock["deadline"] >= before + 0.3 - 0.02
            table = live(c, tid)
            assert 0 not in table.bots
            events = [x["event"] for x in table.settings["seat_changes"]]
            assert events == ["abandoned", "reclaimed"]
            ws.send_json({"type": "reclaim"})
            assert next_error(ws) == "a bot plays no seat of yours at this table"
            # She idles again: abandoned again once her fresh clock runs out.
            receive_until(ws, lambda m: m["type"] == "view" and m["seat"] is None)
        assert [x["event"] for x in table.settings["seat_changes"]][2] == "abandoned"


def my_clock(c: TestClient, tid: str) -> dict[str, Any]:
    """Ann's clock once it runs (the bot may lead), read by the table's actor between two
    commands (a view built while a move is being committed may still count from the entry
    before)."""
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        receive_until(ws, lambda m: m.get("moves") and m["clock"]["seat"] == 0)
    table = live(c, tid)

    async def status() -> Any:
        return await table.ask(Inspect(c.app.state.tables.clock.status))  # type: ignore[attr-defined]

    out = dict(c.portal.call(status))  # type: ignore[union-attr]
    assert out["seat"] == 0
    return out


def test_a_restart_mid_clock_resumes_the_same_deadline(db_path: str) -> None:
    scale = 0.05  # 120 s: 6 s (room for a slow restart); grace 30 s: 1.5 s
    with TestClient(make_app(db_path, clock_scale=scale)) as c:
        c.get("/api/me")
        ann = register(c, "ann")
        tid = clock_table(c, {"per_move": 120, "grace": 30, "bot": "greedy"})
        before = my_clock(c, tid)
        assert before["phase"] == "move"
    with TestClient(make_app(db_path, clock_scale=scale)) as c2:
        use(c2, ann)
        with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
            after = ws.receive_json()["clock"]
            assert after["seat"] == 0
            assert abs(after["deadline"] - before["deadline"]) < 0.002
            assert abs(after["grace_until"] - before["grace_until"]) < 0.002
            if after["phase"] == "move":  # (a very slow restart may already be in the grace)
                warning = receive_until(ws, lambda m: m["type"] == "clock")
                assert time.time() >= before["deadline"] - 0.01
                assert warning["clock"]["phase"] == "grace"
            receive_until(ws, lambda m: m["type"] == "view" and m["seat"] is None)
            assert time.time() >= before["grace_until"] - 0.01
        assert live(c2, tid).seats[0].kind == "bot"
    # The substitution was committed: a third start sees the bot in the seat.
    with TestClient(make_app(db_path, clock_scale=scale)) as c3:
        table = live(c3, tid)
        assert table.seats[0].replaced.name == "ann" and 0 in table.bots


def test_a_clock_that_ran_out_while_the_server_was_down_gets_its_grace(db_path: str) -> None:
    with TestClient(make_app(db_path, clock_scale=SCALE)) as c:
        c.get("/api/me")
        ann = register(c, "ann")
        # Five seconds of grace: her clock must still run when it is read on a loaded machine
        # (with two, the seat was once given to the bot before the read).
        tid = clock_table(c, {"per_move": 30, "grace": 500, "bot": "greedy"})
        before = my_clock(c, tid)
    time.sleep(max(0.0, before["grace_until"] - time.time()) + 0.3)
    started = time.time()  # (before the start: the clocks resume while the app starts up)
    with TestClient(make_app(db_path, clock_scale=SCALE)) as c2:
        use(c2, ann)
        with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
            first = ws.receive_json()
            assert first["seat"] == 0 and first["table"]["seats"][0]["kind"] == "person"
            assert first["clock"]["phase"] == "grace"
            assert first["clock"]["deadline"] == before["deadline"]
            assert first["clock"]["grace_until"] >= started + 5.0 - 0.05
            receive_until(ws, lambda m: m["type"] == "view" and m["seat"] is None)
        assert live(c2, tid).seats[0].kind == "bot"
