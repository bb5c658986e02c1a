"""The expert's analysis over HTTP: computed by the worker processes in parts, its progress
streamed as JSON lines, kept per record and seat, for finished games only."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from boneyard.bots.analysis import analyse
from boneyard.core.records import record_from_json
from tests.server.conftest import ROOMY, csrf, make_app, post, register
from tests.server.replays.test_replay import bot_table, self_played

WORLDS = 3


def analysis(client: TestClient, path: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every line of a streamed analysis: progress while it runs, then the end."""
    with client.stream("POST", path, json=body, headers=csrf(client)) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("application/x-ndjson")
        text = b"".join(r.iter_bytes()).decode()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def finished(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The last line, after checking that the progress only went forward."""
    assert [x["status"] for x in lines[:-1]] == ["running"] * (len(lines) - 1)
    done = [x["done"] for x in lines]
    assert done == sorted(done)
    assert all(x["total"] is None or 0 <= x["done"] <= x["total"] for x in lines)
    return lines[-1]


def app_client(tmp_path: Path) -> TestClient:
    settings = replace(ROOMY, analysis_worlds=WORLDS)
    return TestClient(make_app(str(tmp_path / "db.sqlite"), settings=settings))


def test_a_finished_tables_analysis_is_the_experts_and_is_kept(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        client.get("/api/me")
        tid = bot_table(client)
        record = client.get(f"/api/tables/{tid}/record").json()
        lines = analysis(client, f"/api/tables/{tid}/analysis", {"seat": 1})
        doc = finished(lines)
        assert len(lines) >= 3  # progress before the end (parts of a few decisions)
        assert doc["status"] == "done" and doc["seat"] == 1 and doc["worlds"] == WORLDS
        expected = analyse(record_from_json(record), 1, worlds=WORLDS)
        assert doc["total"] == len(expected) == len(doc["decisions"]) > 0
        for got, want in zip(doc["decisions"], expected, strict=True):
            assert (got["hand"], got["event"], got["chosen"]) == (
                want.hand,
                want.event,
                want.chosen.to_event(),
            )
            assert got["loss"] == round(want.loss, 3)
            assert got["chosen_text"] and all(v["text"] for v in got["values"])
            assert "SIDE_" not in got["chosen_text"] + got["best_text"]
        again = analysis(client, f"/api/tables/{tid}/analysis", {"seat": 1})
        assert len(again) == 1 and again[0]["status"] == "done" and again[0]["key"] == doc["key"]


def test_only_finished_games_are_analysed(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        register(client, "ann")
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
        tid = post(client, "/api/tables", {"seats": seats}).json()["id"]
        r = post(client, f"/api/tables/{tid}/analysis", {"seat": 0})
        assert r.status_code == 400 and "once the game is over" in r.json()["detail"]
        unfinished = self_played("highfive", 2)
        unfinished["hands"] = unfinished["hands"][:1]
        doc = finished(analysis(client, "/api/analysis", {"seat": 0, "record": unfinished}))
        assert doc["status"] == "error" and "finished games only" in doc["error"]
        r = post(client, "/api/analysis", {"seat": 5, "record": self_played("highfive", 2)})
        assert r.status_code == 400 and "there is no seat 6" in r.json()["detail"]


def test_an_uploaded_record_is_analysed_in_any_game(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        client.get("/api/me")
        for game in ("merry-go-round", "highrise"):
            record = self_played(game, 2)
            doc = finished(analysis(client, "/api/analysis", {"seat": 0, "record": record}))
            assert doc["status"] == "done", doc
            assert doc["decisions"] and doc["total"] == len(doc["decisions"])
