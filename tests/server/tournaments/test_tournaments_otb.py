"""An over-the-board round run by the director (docs/tournaments-site.md, "Over-the-board events"): from
the printed pairings with table numbers to cards typed in by the director or a player, signed
by both players (PDA rule 11), an impossible score refused, a dispute ruled and kept whole in
the exports, a PDA 9b penalty, stable game numbers after a void, and ratings from signed cards.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from starlette.testclient import TestClient

from tests.server.conftest import post, register, use
from tests.server.tournaments.test_tournaments import get, match, ok

NAMES = ["ann", "bob", "cyd", "dan", "eve", "fay", "gus", "hal"]


def sign_both(c: TestClient, eid: str, gid: int, m: dict[str, Any], jars: dict[str, Any]) -> Any:
    use(c, jars[m["a_name"]])
    ok(post(c, f"/api/tournaments/{eid}/games/{gid}/sign"))
    use(c, jars[m["b_name"]])
    return ok(post(c, f"/api/tournaments/{eid}/games/{gid}/sign"))


def test_an_over_the_board_round_from_pairings_to_signed_cards(
    tournament_client: TestClient,
) -> None:
    c = tournament_client
    dora = register(c, "dora")
    eid = ok(
        post(
            c,
            "/api/tournaments",
            {
                "name": "Hall",
                "mode": "otb",
                "preset": "pda",
                "format": "swiss",
                "schedule": "bo1",
                "rounds": 3,
            },
        )
    )["id"]
    jars = {}
    for n in NAMES:
        jars[n] = register(c, n)
        ok(post(c, f"/api/tournaments/{eid}/register"))
    use(c, dora)
    for e in get(c, eid)["entrants"]:  # they arrive at the hall: the director checks them in
        ok(post(c, f"/api/tournaments/{eid}/entrants/{e['id']}/checkin", {"present": True}))
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    r1 = data["rounds"][0]
    assert [m["table"] for m in r1] == [1, 2, 3, 4]  # the pairing list's table numbers
    page = c.get(f"/tournaments/{eid}/pairings?round=1")
    assert page.status_code == 200 and 'class="scorecard"' in page.text
    card = f"/api/tournaments/{eid}/matches/R1M1/card"
    # impossible scores are refused with the reason
    r = post(c, card, {"score_a": 100, "score_b": 90})
    assert r.status_code == 400 and "Nobody reached 150 (100-90)" in r.json()["detail"]
    r = post(c, card, {"score_a": 400, "score_b": 20})
    assert r.status_code == 400 and "400 is more than a game allows" in r.json()["detail"]
    use(c, jars["ann"])
    assert post(c, card, {"score_a": 150, "score_b": 95}).status_code == 403  # directors only
    # the director types in R1M1's paper card; both players sign it on screen
    use(c, dora)
    data = ok(post(c, card, {"score_a": 150, "score_b": 95}))
    m1 = match(data, "R1M1")
    g1 = m1["games"][0]
    assert g1["status"] == "reported" and g1["by_director"] and g1["number"] == 1
    assert not m1["over"]
    use(c, jars[m1["a_name"]])
    ok(post(c, f"/api/tournaments/{eid}/games/{g1['id']}/sign"))
    r = post(c, f"/api/tournaments/{eid}/games/{g1['id']}/sign")
    assert r.status_code == 403 and "signed" in r.json()["detail"]
    use(c, jars[m1["b_name"]])
    data = ok(post(c, f"/api/tournaments/{eid}/games/{g1['id']}/sign"))
    g1 = match(data, "R1M1")["games"][0]
    assert g1["status"] == "confirmed" and g1["signed_a_at"] and g1["signed_b_at"]
    assert match(data, "R1M1")["over"]
    # R1M2: a card disputed by one player, ruled by the director, every entry kept
    m2 = match(data, "R1M2")
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/matches/R1M2/card", {"score_a": 150, "score_b": 60}))
    g2 = match(data, "R1M2")["games"][0]
    use(c, jars[m2["a_name"]])
    ok(post(c, f"/api/tournaments/{eid}/games/{g2['id']}/sign"))
    use(c, jars[m2["b_name"]])
    ok(post(c, f"/api/tournaments/{eid}/games/{g2['id']}/dispute", {"note": "it was 150-120"}))
    use(c, dora)
    body = {
        "kind": "score",
        "game_id": g2["id"],
        "score_a": 150,
        "score_b": 120,
        "note": "both sheets say 150-120",
    }
    data = ok(post(c, f"/api/tournaments/{eid}/matches/R1M2/ruling", body))
    g2 = match(data, "R1M2")["games"][0]
    assert (g2["status"], g2["score_b"]) == ("ruled", 120)
    assert [h["what"] for h in g2["history"]] == [
        "entered by the director",
        "signed",
        "disputed",
        "ruling",
    ]
    assert g2["history"][0]["score_b"] == 60  # the first entry is not lost
    # R1M3: a player enters the card (their signature), the opponent signs
    m3 = match(data, "R1M3")
    use(c, jars[m3["b_name"]])
    data = ok(
        post(c, f"/api/tournaments/{eid}/matches/R1M3/report", {"score_a": 85, "score_b": 150})
    )
    g3 = match(data, "R1M3")["games"][0]
    assert g3["signed_b"] is not None and g3["signed_a"] is None
    use(c, jars[m3["a_name"]])
    ok(post(c, f"/api/tournaments/{eid}/games/{g3['id']}/sign"))
    # R1M4: a bogus play (PDA 8c) is 150-100 and nothing else
    use(c, dora)
    bad = {"score_a": 150, "score_b": 90, "reason": "bogus"}
    r = post(c, f"/api/tournaments/{eid}/matches/R1M4/card", bad)
    assert r.status_code == 400 and "150-100" in r.json()["detail"]
    data = ok(post(c, f"/api/tournaments/{eid}/matches/R1M4/card", {**bad, "score_b": 100}))
    m4 = match(data, "R1M4")
    data = sign_both(c, eid, m4["games"][0]["id"], m4, jars)
    # round 2 is paired on the same tables
    assert [m["table"] for m in data["rounds"][1]] == [1, 2, 3, 4]
    # PDA 9b in round 2, then a card voided and entered again keeps its game number
    use(c, dora)
    r2 = match(data, "R2M1")
    ok(
        post(
            c,
            f"/api/tournaments/{eid}/matches/R2M1/penalty",
            {"offender": r2["b"], "points": 55, "note": "picked up 8 tiles (9a)"},
        )
    )
    data = ok(post(c, f"/api/tournaments/{eid}/matches/R2M1/card", {"score_a": 150, "score_b": 45}))
    g = match(data, "R2M1")["games"][0]
    data = sign_both(c, eid, g["id"], r2, jars)
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/games/{g['id']}/reopen", {"note": "wrong table"}))
    data = ok(post(c, f"/api/tournaments/{eid}/matches/R2M1/card", {"score_a": 45, "score_b": 150}))
    again = [x for x in match(data, "R2M1")["games"] if x["status"] == "reported"]
    assert [x["number"] for x in again] == [1]
    penalty = next(a for a in data["actions"] if a["kind"] == "penalty")
    assert penalty["payload"]["points"] == 55 and penalty["payload"]["rule"] == "PDA 9b"
    # exports: every card entry, the dispute's history, standings and rulings with times
    text = c.get(f"/api/tournaments/{eid}/scorecards.csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    disputed = next(x for x in rows if x["match"] == "R1M2")
    assert "disputed" in disputed["history"] and "150–60" in disputed["history"]
    assert disputed["status"] == "ruled" and disputed["by_director"] == "True"
    assert {x["status"] for x in rows} >= {"confirmed", "ruled", "void", "reported"}
    doc = c.get(f"/api/tournaments/{eid}/export.json").json()
    assert [s["rank"] for s in doc["standings"]][:1] == [1]
    assert "Buchholz" in doc["standings"][0]
    kinds = {r["kind"] for r in doc["rulings"]}
    assert {"ruling", "penalty", "dispute", "reopen", "start"} <= kinds
    assert all(r["at"] for r in doc["rulings"])
    card_doc = next(x for x in doc["cards"] if x["match"] == "R1M2")
    assert len(card_doc["history"]) == 4 and json.dumps(card_doc["history"])
    standings = list(
        csv.DictReader(io.StringIO(c.get(f"/api/tournaments/{eid}/standings.csv").text))
    )
    assert standings[0]["rank"] == "1" and "Sonneborn-Berger" in standings[0]
    log = list(csv.DictReader(io.StringIO(c.get(f"/api/tournaments/{eid}/log.csv").text)))
    assert any(x["kind"] == "ruling" and x["match"] == "R1M2" for x in log)
    # cards signed by both are rated like games at a table (the ruled one is not)
    board = c.get("/api/ratings?game=highfive&category=2p").json()["ratings"]
    rated = {r["name"]: r["games"] for r in board}
    signed: dict[str, int] = {}
    for rnd in get(c, eid)["rounds"]:
        for m in rnd:
            for x in m["games"]:
                if x["signed_a"] and x["signed_b"]:
                    for name in (m["a_name"], m["b_name"]):
                        signed[name] = signed.get(name, 0) + 1
    assert rated == signed and signed  # (the ruled R1M2 card counts for nobody)
