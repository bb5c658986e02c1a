"""A 128-entrant PDA event played by greedy bots through the server, end to end.

Every game is a real table of the TableManager (games to 150 under the ``pda`` preset), each
table's end advances the bracket through the ``on_game_over`` hook, and the test only talks to
the HTTP API. The match length: best of 1 by default, which keeps CI at about a minute and a
half (127 games); ``BONEYARD_FULL_PDA=1`` plays the real PDA schedule (best of 5, final best of
7: about 520 games, several minutes; see docs/tournaments-site.md for the figures).
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
        register(c, "td-dora")
        body = {
            "name": "PDA 128",
            "preset": "pda",
            "schedule": "pda" if FULL else "bo1",
            "cap": 128,
            "max_tables": 8,
        }
        r = post(c, "/api/tournaments", body)
        assert r.status_code == 200, r.text
        eid = r.json()["id"]
        r = post(c, f"/api/tournaments/{eid}/bots", {"bot": "greedy", "count": 128})
        assert r.status_code == 200 and len(r.json()["entrants"]) == 128
        t0 = time.monotonic()
        r = post(c, f"/api/tournaments/{eid}/start")
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["num_rounds"] == 7 and len(data["rounds"][0]) == 64
        while data["status"] != "finished":
            assert time.monotonic() - t0 < (3600 if FULL else 900), "the event did not finish"
            time.sleep(0.5)
            data = c.get(f"/api/tournaments/{eid}").json()
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


def test_128_people_run_an_over_the_board_pda_event_by_score_cards() -> None:
    """Over the board: 128 people register and check in, every game's score is entered by one
    player and signed by the other, the bracket advances to the champion, and every card is in
    the CSV and JSON exports. (Best of 1 by default, the PDA schedule with BONEYARD_FULL_PDA=1.)"""
    from tests.server.conftest import fast_dir, use
    from tests.server.tournaments.test_tournaments import match, ok, people

    with (
        tempfile.TemporaryDirectory(dir=fast_dir()) as d,
        TestClient(make_app(f"{d}/otb.db")) as c,  # 129 sign-ups, one address
    ):
        c.get("/api/me")
        director = register(c, "td-dora")
        body = {"name": "PDA 128 OTB", "preset": "pda", "mode": "otb", "cap": 128}
        body["schedule"] = "pda" if FULL else "bo1"
        eid = ok(post(c, "/api/tournaments", body))["id"]
        names = [f"player{i:03d}" for i in range(128)]
        jars = people(c, eid, names)
        use(c, director)
        data = ok(post(c, f"/api/tournaments/{eid}/start"))
        assert data["num_rounds"] == 7 and len(data["rounds"][0]) == 64
        cards = 0
        for rnd in range(7):
            for m in data["rounds"][rnd]:
                mid = m["id"]
                while not match(data, mid)["over"]:
                    m = match(data, mid)
                    # The lower name wins each game 150 to 100; the other signs the card.
                    a_wins = m["a_name"] < m["b_name"]
                    scores = (
                        {"score_a": 150, "score_b": 100}
                        if a_wins
                        else {
                            "score_a": 100,
                            "score_b": 150,
                        }
                    )
                    use(c, jars[m["a_name"]])
                    data = ok(post(c, f"/api/tournaments/{eid}/matches/{mid}/report", scores))
                    game = match(data, mid)["games"][-1]
                    assert game["status"] == "reported"
                    use(c, jars[m["b_name"]])
                    data = ok(post(c, f"/api/tournaments/{eid}/games/{game['id']}/confirm"))
                    cards += 1
        assert data["status"] == "finished"
        assert data["champion"]["name"] == "player000"  # the lowest name wins every match
        final = data["rounds"][-1][0]
        assert final["best_of"] == (7 if FULL else 1)
        r = c.get(f"/api/tournaments/{eid}/scorecards.csv")
        assert r.status_code == 200 and len(r.text.strip().splitlines()) == cards + 1
        doc = c.get(f"/api/tournaments/{eid}/scorecards.json").json()
        assert len(doc["cards"]) == cards >= 127
        assert all(x["status"] == "confirmed" and x["confirmed_by"] for x in doc["cards"])
