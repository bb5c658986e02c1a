"""The expert's analysis over HTTP: computed by the worker processes in parts with progress,
kept per record and seat, for finished games only."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from boneyard.bots.analysis import analyse
from boneyard.core.records import record_from_json
from tests.server.conftest import ROOMY, make_app, post, register
from tests.server.test_replay import bot_table, self_played

WORLDS = 3


def finished(client: TestClient, started: dict[str, Any], timeout: float = 120) -> dict[str, Any]:
    """Poll an analysis until it is done (or stopped); every answer shows its progress."""
    doc = started
    end = time.monotonic() + timeout
    seen = []
    while doc["status"] == "running":
        seen.append((doc["done"], doc["total"]))
        assert time.monotonic() < end, doc
        time.sleep(0.1)
        r = client.get(f"/api/analysis/{doc['key']}")
        assert r.status_code == 200, r.text
        doc = r.json()
    assert all(total is None or 0 <= done <= total for done, total in seen)
    return doc


def app_client(tmp_path: Path) -> TestClient:
    settings = replace(ROOMY, analysis_worlds=WORLDS)
    return TestClient(make_app(str(tmp_path / "db.sqlite"), settings=settings))


def test_a_finished_tables_analysis_is_the_experts_and_is_kept(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        client.get("/api/me")
        tid = bot_table(client)
        record = client.get(f"/api/tables/{tid}/record").json()
        r = post(client, f"/api/tables/{tid}/analysis", {"seat": 1})
        assert r.status_code == 200, r.text
        doc = finished(client, r.json())
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
        again = post(client, f"/api/tables/{tid}/analysis", {"seat": 1}).json()
        assert again["status"] == "done" and again["key"] == doc["key"]


def test_only_finished_games_are_analysed(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        register(client, "ann")
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
        tid = post(client, "/api/tables", {"seats": seats}).json()["id"]
        r = post(client, f"/api/tables/{tid}/analysis", {"seat": 0})
        assert r.status_code == 400 and "once the game is over" in r.json()["detail"]
        unfinished = self_played("highfive", 2)
        unfinished["hands"] = unfinished["hands"][:1]
        r = post(client, "/api/analysis", {"seat": 0, "record": unfinished})
        assert r.status_code == 200, r.text
        doc = finished(client, r.json())
        assert doc["status"] == "error" and "finished games only" in doc["error"]
        r = post(client, "/api/analysis", {"seat": 5, "record": self_played("highfive", 2)})
        assert r.status_code == 400 and "there is no seat 6" in r.json()["detail"]
        assert client.get("/api/analysis/nothing").status_code == 404


def test_an_uploaded_record_is_analysed_in_any_game(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        client.get("/api/me")
        for game in ("merry-go-round", "highrise"):
            record = self_played(game, 2)
            doc = finished(
                client, post(client, "/api/analysis", {"seat": 0, "record": record}).json()
            )
            assert doc["status"] == "done", doc
            assert doc["decisions"] and doc["total"] == len(doc["decisions"])
