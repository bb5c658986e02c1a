"""A 128-entrant PDA event played by greedy bots through the server, end to end.

Every game is a real table of the TableManager (games to 150 under the ``pda`` preset), each
table's end advances the bracket through the ``on_game_over`` hook, and the test only talks to
the HTTP API. The match length: best of 1 by default, which keeps CI at about a minute and a
half (127 games); ``BONEYARD_FULL_PDA=1`` plays the real PDA schedule (best of 5, final best of
7: about 520 games, several minutes; see docs/events.md for the figures).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from starlette.testclient import TestClient

from tests.server.conftest import make_app, post, register

FULL = os.environ.get("BONEYARD_FULL_PDA") == "1"


def test_128_bots_play_a_pda_event_to_the_champion() -> None:
    ram = "/dev/shm" if Path("/dev/shm").is_dir() else None  # SQLite commits dominate on disk
    with tempfile.TemporaryDirectory(dir=ram) as d, TestClient(make_app(f"{d}/e.db")) as c:
        c.get("/api/me")
        register(c, "director")
        body = {
            "name": "PDA 128",
            "preset": "pda",
            "schedule": "pda" if FULL else "bo1",
            "cap": 128,
            "max_tables": 8,
        }
        r = post(c, "/api/events", body)
        assert r.status_code == 200, r.text
        eid = r.json()["id"]
        r = post(c, f"/api/events/{eid}/bots", {"bot": "greedy", "count": 128})
        assert r.status_code == 200 and len(r.json()["entrants"]) == 128
        t0 = time.monotonic()
        r = post(c, f"/api/events/{eid}/start")
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["num_rounds"] == 7 and len(data["rounds"][0]) == 64
        while data["status"] != "finished":
            assert time.monotonic() - t0 < (3600 if FULL else 900), "the event did not finish"
            time.sleep(0.5)
            data = c.get(f"/api/events/{eid}").json()
        seconds = time.monotonic() - t0
        games = [g for rnd in data["rounds"] for m in rnd for g in m["games"]]
        print(f"\n128-entrant PDA event: {len(games)} games in {seconds:.1f} s")
        final = data["rounds"][-1][0]
        assert data["champion"]["id"] == final["winner"]
        assert data["standings"][0]["entrant"] == str(final["winner"])
        assert final["best_of"] == (7 if FULL else 1)
        for rnd in data["rounds"]:
            for m in rnd:
                assert m["over"] and max(m["wins"]) == m["best_of"] // 2 + 1
                for g in m["games"]:
                    assert g["status"] == "over" and g["table_id"]
                    assert max(g["score_a"], g["score_b"]) >= 150
        assert len(games) >= 127
