"""The move clock at event tables (docs/tournaments-site.md, "Time at event tables"): a server task per
table, whether or not anyone watches, resumed after a restart; the event decides what a time-out
means (the seat loses the game, a bot plays on, or the directors rule), and the log records it.

Clocks run scaled (``clock_scale``): a 5-second move and a 5-second warning take 0.1 s each.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import fast_dir, make_app, post, register, use
from tests.server.tournaments.test_tournaments import get, match, matches, ok, people, playing, wait

FAST = 0.02  # 5 s of clock in 0.1 s


@pytest.fixture
def db_file() -> Iterator[str]:
    with tempfile.TemporaryDirectory(dir=fast_dir()) as d:
        yield str(Path(d) / "clock.db")


def clock_event(c: TestClient, tag: str = "", **kw: Any) -> str:
    """An online event of two people who never come to their table, started by its director
    (the client acts as the director afterwards)."""
    dora = register(c, f"dora{tag}")
    body = {"name": "Clock", "preset": "pda", "schedule": "bo3", "per_move": 5, "move_grace": 5}
    eid: str = ok(post(c, "/api/tournaments", {**body, **kw}))["id"]
    people(c, eid, [f"ann{tag}", f"bob{tag}"])
    use(c, dora)
    return eid


def test_time_outs_lose_games_with_nobody_watching(db_file: str) -> None:
    with TestClient(make_app(db_file, clock_scale=FAST)) as c:
        c.get("/api/me")
        eid = clock_event(c)
        data = ok(post(c, f"/api/tournaments/{eid}/start"))  # and nobody opens a table
        first = playing(match(data, "R1M1"))
        assert first is not None
        data = wait(c, eid, lambda d: d["status"] == "finished", limit=60)
        games = [g for g in match(data, "R1M1")["games"] if g["kind"] == "game"]
        assert len(games) in (2, 3)
        for g in games:
            assert g["status"] == "ruled" and g["reason"] == "timeout"
            assert "time ran out" in g["note"] and g["winner"] is not None
            # recorded as the time-out it was, with the event's rule, not as a ruling
            assert g["how"].endswith("lost on time (the event's rule: lose)"), g["how"]
            table = c.get(f"/api/tables/{g['table_id']}").json()
            assert table["status"] == "closed" and "time ran out" in table["halted"]
        timeouts = [a for a in data["actions"] if a["kind"] == "timeout"]
        assert len(timeouts) == len(games) and all(a["payload"]["rule"] == "lose" for a in timeouts)
        assert match(data, "R1M1")["outcome"] == "timeout"
        assert match(data, "R1M1")["outcome_label"]["name"] == "Time-out"
        # the directors were told of each time-out; the clock says what the rule does
        notes = c.get("/api/me/notifications").json()["notifications"]
        assert sum(n["kind"] == "timeout" for n in notes) == len(games)
        assert data["clock"]["timeout"] == "lose"
        # a stopped table takes no move
        with c.websocket_connect(f"/ws/tables/{first['table_id']}") as ws:
            view = ws.receive_json()
            assert view["table"]["status"] == "closed"
            assert view["clock"]["timeout"] == "lose"  # (the table's warning words: clock.js)


def test_a_clock_runs_out_across_a_restart(db_file: str) -> None:
    with TestClient(make_app(db_file)) as c:  # real time: nothing runs out before the stop
        c.get("/api/me")
        eid = clock_event(c, per_move=60, move_grace=30)
        data = ok(post(c, f"/api/tournaments/{eid}/start"))
        g = playing(match(data, "R1M1"))
        assert g is not None and g["status"] == "playing"
    # The server stops and starts again with a faster clock: the stored times say the move
    # time is long over; the seat still gets its warning time after the restart, then loses.
    with TestClient(make_app(db_file, clock_scale=FAST)) as c:
        c.get("/api/me")
        data = wait(c, eid, lambda d: match(d, "R1M1")["games"][0]["status"] != "playing", 60)
        first = match(data, "R1M1")["games"][0]
        assert first["id"] == g["id"] and first["reason"] == "timeout"
        assert any(a["kind"] == "timeout" for a in data["actions"])


def test_time_out_rules_bot_and_director(db_file: str) -> None:
    with TestClient(make_app(db_file, clock_scale=FAST)) as c:
        c.get("/api/me")
        eid = clock_event(c, timeout="director", schedule="bo1")
        ok(post(c, f"/api/tournaments/{eid}/start"))
        data = wait(c, eid, lambda d: match(d, "R1M1")["games"][0]["status"] == "timeout", 60)
        g = match(data, "R1M1")["games"][0]
        assert "the director decides" in g["note"] and data["status"] == "running"
        table = c.get(f"/api/tables/{g['table_id']}").json()
        assert table["status"] == "closed"
        m = match(data, "R1M1")
        data = ok(
            post(
                c,
                f"/api/tournaments/{eid}/matches/R1M1/ruling",
                {
                    "kind": "score",
                    "game_id": g["id"],
                    "score_a": 150,
                    "score_b": 60,
                    "note": "b was away: a's game",
                },
            )
        )
        assert data["status"] == "finished" and data["champion"]["id"] == m["a"]
        # a bot plays on: the seat is a bot's, the game goes on to its end
        eid2 = clock_event(c, "2", timeout="bot", schedule="bo1", name="Clock 2")
        ok(post(c, f"/api/tournaments/{eid2}/start"))
        data = wait(c, eid2, lambda d: d["status"] == "finished", limit=120)
        games = [x for m in matches(data) for x in m["games"]]
        assert games[0]["status"] == "over" and games[0]["reason"] in ("target", "bogus")
        timeouts = [a for a in data["actions"] if a["kind"] == "timeout"]
        assert {a["payload"]["rule"] for a in timeouts} == {"bot"}
        r = post(c, f"/api/tournaments/{eid2}/actions/{timeouts[0]['id']}/undo", {})
        assert r.status_code == 400 and "a bot played on" in r.json()["detail"]
        seats = c.get(f"/api/tables/{games[0]['table_id']}").json()["seats"]
        assert all(s["kind"] == "bot" and s.get("replacing") for s in seats)
        assert get(c, eid2)["champion"] is not None
