"""Toy Line on the site, over the WebSocket: a person plays a bot to the game's end; the table,
its move log, its record, its replay and its fair deal come from the game's spec alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from boneyard.core.records import record_from_json
from boneyard.games.registry import get_spec
from boneyard.server.tables.fairness import verify_record
from tests.server.conftest import make_app, post, register
from tests.toygame.rules import GAME

Msg = dict[str, Any]


def play_to_the_end(ws: Any, log: list[Msg]) -> tuple[Msg, list[Msg]]:
    """Ann's first legal move at each of her turns until the game is over: the last view, and
    every view she was sent (their move log pieced together in ``log``, as the page does)."""
    views: list[Msg] = []
    for _ in range(2000):
        msg: Msg = ws.receive_json()
        assert msg["type"] != "error", msg
        if msg["type"] not in ("view", "resync") or msg["view"] is None:
            continue
        views.append(msg)
        part = msg.get("log")
        if part:
            del log[part["from"] :]
            log.extend(part["entries"])
        if msg["view"]["is_over"]:
            return msg, views
        if msg["moves"]:
            ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
    raise AssertionError("the game never ended")


def test_a_person_plays_the_toy_game_against_a_bot(tmp_path: Path) -> None:
    with TestClient(make_app(str(tmp_path / "site.db"))) as c:
        c.get("/api/me")
        assert GAME in {g["game"] for g in c.get("/api/games").json()["games"]}
        register(c, "ann")
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
        body = {"game": GAME, "seats": seats, "options": {"target": 4}}
        r = post(c, "/api/tables", body)
        assert r.status_code == 200, r.text
        tid = r.json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            log: list[Msg] = []
            last, views = play_to_the_end(ws, log)
        record = c.get(f"/api/tables/{tid}/record").json()
        steps = c.get(f"/api/tables/{tid}/replay").json()
    assert all(v["drawing"] == {"board": "layout", "pick": "end", "piles": False} for v in views)
    assert max(last["result"]["scores"]) >= 4
    mine = [v for v in views if v["moves"]]
    assert mine and all(v["view"]["hand"] is not None for v in mine)
    assert all(v["view"]["seat"] == 0 for v in views)  # never the bot's tiles
    # the move log: every move in words, the hand ends with what each seat kept
    assert any(e["type"] == "lead" and e["text"].startswith("ann led") for e in log)
    ends = [e for e in log if e["type"] == "hand_end"]
    assert ends and all(len(e["hands"]) == 2 for e in ends if e["reason"] != "redeal")
    # the record replays, its deals check against the seeds, the replay viewer reads it
    assert get_spec(GAME).from_record(record).result() is not None
    assert all(check.ok for check in verify_record(record_from_json(record)))
    assert steps["drawing"]["board"] == "layout"
    assert steps["steps"][-1]["view"]["is_over"]
