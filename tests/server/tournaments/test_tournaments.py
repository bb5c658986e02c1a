"""Tournaments on the site: registration, check-in, no-shows, online tables advancing the bracket,
the over-the-board confirm/dispute/ruling flow, score cards, the director's console, abandonment
and ratings (docs/tournaments-site.md)."""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import ROOMY, hooks_settled, make_app, post, register, until_turn, use

Data = dict[str, Any]


def get(c: TestClient, eid: str) -> Data:
    r = c.get(f"/api/tournaments/{eid}")
    assert r.status_code == 200, r.text
    data: Data = r.json()
    return data


def ok(r: Any) -> Data:
    assert r.status_code == 200, r.text
    data: Data = r.json()
    return data


def wait(c: TestClient, eid: str, cond: Callable[[Data], bool], limit: float = 120) -> Data:
    end = time.monotonic() + limit
    while True:
        data = get(c, eid)
        if cond(data):
            return data
        assert time.monotonic() < end, json.dumps(data)[:2000]
        time.sleep(0.05)


def matches(data: Data) -> list[Data]:
    return [m for rnd in data["rounds"] for m in rnd]


def match(data: Data, mid: str) -> Data:
    return next(m for m in matches(data) if m["id"] == mid)


def playing(m: Data) -> Data | None:
    return next((g for g in m["games"] if g["status"] == "playing"), None)


def pda_event(c: TestClient, **kw: Any) -> Data:
    """An event under the ``pda`` preset (its other settings from ``kw``), made by ``c``."""
    body = {"name": "Test Open", "preset": "pda", **kw}
    return ok(post(c, "/api/tournaments", body))


def people(c: TestClient, eid: str, names: list[str], check_in: bool = True) -> dict[str, Any]:
    jars = {}
    for n in names:
        jars[n] = register(c, n)
        ok(post(c, f"/api/tournaments/{eid}/register"))
        if check_in:
            ok(post(c, f"/api/tournaments/{eid}/checkin"))
    return jars


# -- creation, registration, check-in ------------------------------------------------------------


def test_create_register_checkin_and_caps(tournament_client: TestClient) -> None:
    c = tournament_client
    assert post(c, "/api/tournaments", {"name": "x"}).status_code == 401
    director = register(c, "dora")
    r = post(c, "/api/tournaments", {"name": "x", "game": "chess"})
    assert r.status_code == 400 and "unknown" in r.json()["detail"]
    r = post(c, "/api/tournaments", {"name": "x", "schedule": "bo4"})
    assert r.status_code == 400
    ev = pda_event(c, cap=2, starts_at="2026-12-01T18:00:00Z")
    assert ev["schedule"] == "pda" and ev["options"] == {"preset": "pda"}
    assert ev["rules"] == ["Preset: pda"]
    mgr = {"name": "y", "game": "merry-go-round", "options": {"target": 31}}
    assert ok(post(c, "/api/tournaments", mgr))["rules"] == ["The winning score: 31"]
    r = post(c, "/api/tournaments", {**mgr, "options": {"target": 0}})
    assert r.status_code == 400 and "target must be from 1 to 500" in r.json()["detail"]
    assert ev["status"] == "registration" and ev["me"]["director"] is True
    eid = ev["id"]
    assert any(e["id"] == eid for e in c.get("/api/tournaments").json()["events"])
    ann = register(c, "ann")
    assert post(c, f"/api/tournaments/{eid}/checkin").status_code == 400  # register first
    ok(post(c, f"/api/tournaments/{eid}/register"))
    assert post(c, f"/api/tournaments/{eid}/register").status_code == 400
    assert post(c, f"/api/tournaments/{eid}/start").status_code == 403  # not the director
    assert post(c, f"/api/tournaments/{eid}/bots", {"count": 1}).status_code == 403
    data = ok(post(c, f"/api/tournaments/{eid}/checkin"))
    assert data["entrants"][0]["checked_in"] is True
    register(c, "bob")
    ok(post(c, f"/api/tournaments/{eid}/register"))
    register(c, "cyd")
    r = post(c, f"/api/tournaments/{eid}/register")
    assert r.status_code == 400 and "full" in r.json()["detail"]
    use(c, ann)
    data = ok(post(c, f"/api/tournaments/{eid}/withdraw"))
    assert [e["name"] for e in data["entrants"]] == ["bob"]
    use(c, director)
    r = post(c, f"/api/tournaments/{eid}/start")
    assert r.status_code == 400 and "at least 2" in r.json()["detail"]


# -- online play ---------------------------------------------------------------------------------


def test_bots_play_a_round_robin_and_a_swiss_to_the_end(tournament_client: TestClient) -> None:
    c = tournament_client
    register(c, "dora")
    for fmt in ("round_robin", "swiss"):
        eid = pda_event(c, format=fmt, schedule="bo1")["id"]
        ok(post(c, f"/api/tournaments/{eid}/bots", {"bot": "greedy", "count": 4}))
        ok(post(c, f"/api/tournaments/{eid}/start"))
        data = wait(c, eid, lambda d: d["status"] == "finished")
        assert data["champion"] is not None
        assert len(data["standings"]) == 4 and data["standings"][0]["rank"] == 1
        games = [g for m in matches(data) for g in m["games"]]
        assert games and all(g["status"] == "over" and g["table_id"] for g in games)
        assert all(max(g["score_a"], g["score_b"]) >= 150 for g in games)
        if fmt == "round_robin":
            assert len(matches(data)) == 6
        same_as_the_event_page(c, data)
        r = c.get(f"/api/tables/{games[0]['table_id']}/record")
        assert r.status_code == 200 and r.json()["options"]["preset"] == "pda"


def same_as_the_event_page(c: TestClient, data: Data) -> None:
    """Each match's page (which reads only that match's rows) shows the match as the event
    page does, and the list of events counts the event's entrants."""
    titles = data["round_titles"]
    for r, rnd in enumerate(data["rounds"]):
        for m in rnd:
            page = ok(c.get(f"/api/tournaments/{data['id']}/matches/{m['id']}"))
            assert page["match"] == m
            keys = ("id", "name", "mode", "status", "me", "format")
            assert page["event"] == {**{k: data[k] for k in keys}, "round_title": titles[r]}
    assert data["me"]["director"]
    listed = ok(c.get("/api/tournaments"))["events"]
    mine = next(e for e in listed if e["id"] == data["id"])
    assert mine["entrants"] == len(data["entrants"]) and mine["director"] == "dora"
    assert listed[0]["id"] == data["id"]  # newest first


def test_no_show_forfeits_and_person_tables(tournament_client: TestClient) -> None:
    c = tournament_client
    dora = register(c, "dora")
    eid = pda_event(c, schedule="bo3", grace_minutes=0)["id"]  # no grace: forfeited at once
    jars = people(c, eid, ["ann", "bob", "cyd"])
    register(c, "dan")
    ok(post(c, f"/api/tournaments/{eid}/register"))  # never checks in
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    assert data["status"] == "running"
    dan = next(e for e in data["entrants"] if e["name"] == "dan")
    assert dan["status"] == "no_show"
    r1 = data["rounds"][0]
    dans = next(m for m in r1 if dan["id"] in (m["a"], m["b"]))
    assert dans["over"] and dans["winner"] != dan["id"]
    assert dans["games"][0]["kind"] == "forfeit" and "no-show" in dans["games"][0]["note"]
    other = next(m for m in r1 if m is not dans)
    g = playing(other)
    assert g is not None and g["number"] == 1
    table = c.get(f"/api/tables/{g['table_id']}").json()
    assert table["status"] == "playing"
    assert {s["name"] for s in table["seats"]} == {other["a_name"], other["b_name"]}
    assert all(s["kind"] == "person" for s in table["seats"])
    # the entrant sees the way to the table
    use(c, jars[other["a_name"]])
    assert get(c, eid)["me"]["entrant"] == other["a"]


def test_director_console_ruling_forfeit_pause_reopen_replace(
    tournament_client: TestClient,
) -> None:
    c = tournament_client
    dora = register(c, "dora")
    eid = pda_event(c, schedule="bo3")["id"]
    jars = people(c, eid, ["ann", "bob"])
    subby = register(c, "subby")
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    m = match(data, "R1M1")
    a, b = m["a"], m["b"]
    g1 = playing(m)
    assert g1 is not None
    # not the director
    use(c, jars["ann"])
    r = post(c, f"/api/tournaments/{eid}/matches/R1M1/ruling", {"kind": "bogus", "offender": b})
    assert r.status_code == 403
    use(c, dora)
    # PDA bogus play on the table in play: 150-100, with a note; the next game starts
    data = ok(
        post(
            c,
            f"/api/tournaments/{eid}/matches/R1M1/ruling",
            {"kind": "bogus", "offender": b, "game_id": g1["id"], "note": "pulled a bone (8c)"},
        )
    )
    m = match(data, "R1M1")
    ruled = next(g for g in m["games"] if g["id"] == g1["id"])
    assert ruled["status"] == "ruled" and ruled["reason"] == "bogus"
    assert (ruled["score_a"], ruled["score_b"]) == (150, 100) and ruled["winner"] == a
    assert ruled["note"] == "pulled a bone (8c)"
    assert m["wins"] == [1, 0]
    g2 = playing(m)
    assert g2 is not None and g2["number"] == 2 and g2["table_id"] != g1["table_id"]
    assert any(x["kind"] == "ruling" and x["note"] == "pulled a bone (8c)" for x in data["actions"])
    # replace bob by a person, then by a bot: the seat at the live table changes too
    # (a person takes a place only by accepting the director's offer: issue 14)
    data = ok(post(c, f"/api/tournaments/{eid}/entrants/{b}/replace", {"username": "subby"}))
    assert next(e for e in data["entrants"] if e["id"] == b)["name"] != "subby"
    use(c, subby)
    offer = c.get("/api/me/offers").json()["offers"][0]
    data = ok(post(c, f"/api/tournaments/{eid}/offers/{offer['id']}/accept"))
    use(c, dora)
    assert next(e for e in data["entrants"] if e["id"] == b)["name"] == "subby"
    seats = c.get(f"/api/tables/{g2['table_id']}").json()["seats"]
    assert "subby" in [s["name"] for s in seats]
    # pause: a decided game starts no new table until resume
    ok(post(c, f"/api/tournaments/{eid}/pause", {"note": "lunch"}))
    data = ok(
        post(
            c,
            f"/api/tournaments/{eid}/matches/R1M1/ruling",
            {"kind": "score", "score_a": 120, "score_b": 150, "game_id": g2["id"]},
        )
    )
    m = match(data, "R1M1")
    assert m["wins"] == [1, 1] and playing(m) is None and data["status"] == "paused"
    data = ok(post(c, f"/api/tournaments/{eid}/resume", {}))
    g3 = playing(match(data, "R1M1"))
    assert g3 is not None and g3["number"] == 3
    # forfeit decides the match and the event (two entrants: the final)
    data = ok(
        post(
            c, f"/api/tournaments/{eid}/matches/R1M1/forfeit", {"loser": a, "note": "left the hall"}
        )
    )
    assert data["status"] == "finished" and data["champion"]["id"] == b
    forfeit = next(g for g in match(data, "R1M1")["games"] if g["kind"] == "forfeit")
    assert next(g for g in match(data, "R1M1")["games"] if g["id"] == g3["id"])["status"] == "void"
    # reopen the forfeit: the match is undecided again and a new game starts
    data = ok(post(c, f"/api/tournaments/{eid}/games/{forfeit['id']}/reopen", {"note": "appeal"}))
    m = match(data, "R1M1")
    assert data["status"] == "running" and not m["over"] and m["wins"] == [1, 1]
    g4 = playing(m)
    assert g4 is not None and g4["number"] == 3  # game 3 was void: its replay is game 3 again
    data = ok(post(c, f"/api/tournaments/{eid}/entrants/{b}/replace", {"bot": "greedy"}))
    seats = c.get(f"/api/tables/{g4['table_id']}").json()["seats"]
    assert [s["kind"] for s in seats].count("bot") == 1
    r = post(c, f"/api/tournaments/{eid}/games/{g4['id']}/reopen", {})
    assert r.status_code == 400  # not decided
    kinds = [x["kind"] for x in data["actions"]]
    for k in ("start", "ruling", "replace", "pause", "resume", "forfeit", "reopen"):
        assert k in kinds


# -- over the board ------------------------------------------------------------------------------


def test_over_the_board_confirm_dispute_ruling_and_cards(tournament_client: TestClient) -> None:
    c = tournament_client
    dora = register(c, "dora")
    eid = pda_event(c, mode="otb", schedule="bo3")["id"]
    assert post(c, f"/api/tournaments/{eid}/bots", {"count": 1}).status_code == 400  # online only
    jars = people(c, eid, ["ann", "bob"])
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    m = match(data, "R1M1")
    assert m["games"] == []  # no tables over the board
    a_jar = jars[m["a_name"]]
    b_jar = jars[m["b_name"]]
    path = f"/api/tournaments/{eid}/matches/R1M1/report"
    use(c, dora)
    assert post(c, path, {"score_a": 150, "score_b": 90}).status_code == 403
    use(c, a_jar)
    assert post(c, path, {"score_a": 150, "score_b": 150}).status_code == 400
    data = ok(post(c, path, {"score_a": 150, "score_b": 90}))
    g1 = match(data, "R1M1")["games"][0]
    assert g1["status"] == "reported" and g1["winner"] == m["a"]
    assert post(c, path, {"score_a": 150, "score_b": 0}).status_code == 400  # awaits signature
    assert (
        post(c, f"/api/tournaments/{eid}/games/{g1['id']}/confirm").status_code == 403
    )  # own card
    use(c, b_jar)
    data = ok(post(c, f"/api/tournaments/{eid}/games/{g1['id']}/confirm"))
    g1 = match(data, "R1M1")["games"][0]
    assert g1["status"] == "confirmed" and match(data, "R1M1")["wins"] == [1, 0]
    # game 2: bob enters a score, ann disputes, the director rules
    data = ok(post(c, path, {"score_a": 100, "score_b": 150}))
    g2 = match(data, "R1M1")["games"][1]
    use(c, a_jar)
    data = ok(
        post(c, f"/api/tournaments/{eid}/games/{g2['id']}/dispute", {"note": "it was 150-145"})
    )
    g2 = match(data, "R1M1")["games"][1]
    assert g2["status"] == "disputed" and match(data, "R1M1")["wins"] == [1, 0]
    assert post(c, f"/api/tournaments/{eid}/games/{g2['id']}/confirm").status_code == 400
    use(c, dora)
    data = ok(
        post(
            c,
            f"/api/tournaments/{eid}/matches/R1M1/ruling",
            {
                "kind": "score",
                "game_id": g2["id"],
                "score_a": 145,
                "score_b": 150,
                "note": "score sheet checked: 145-150",
            },
        )
    )
    g2 = match(data, "R1M1")["games"][1]
    assert g2["status"] == "ruled" and g2["note"] == "score sheet checked: 145-150"
    assert match(data, "R1M1")["wins"] == [1, 1]
    use(c, a_jar)
    ok(post(c, path, {"score_a": 150, "score_b": 60}))
    use(c, b_jar)
    g3 = match(get(c, eid), "R1M1")["games"][2]
    data = ok(post(c, f"/api/tournaments/{eid}/games/{g3['id']}/confirm"))
    assert data["status"] == "finished" and data["champion"]["id"] == m["a"]
    # score cards: page, CSV and JSON
    assert "scorecard" in c.get(f"/tournaments/{eid}/scorecard").text
    r = c.get(f"/api/tournaments/{eid}/scorecards.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [(x["game"], x["score_a"], x["score_b"], x["status"]) for x in rows] == [
        ("1", "150", "90", "confirmed"),
        ("2", "145", "150", "ruled"),
        ("3", "150", "60", "confirmed"),
    ]
    assert rows[0]["reported_by"] == m["a_name"] and rows[0]["confirmed_by"] == m["b_name"]
    assert rows[1]["note"] == "score sheet checked: 145-150"
    doc = c.get(f"/api/tournaments/{eid}/scorecards.json").json()
    assert doc["event"]["mode"] == "otb" and len(doc["cards"]) == 3
    assert doc["cards"][1]["reported_by"] == m["b_name"]


# -- ratings and pages ---------------------------------------------------------------------------


def play_to_the_end(c: TestClient, tid: str) -> None:
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        for _ in range(400):
            msg = until_turn(ws)
            if msg["view"]["is_over"]:
                return
            ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
    raise AssertionError("the game did not end")


def test_a_person_v_bot_game_is_rated_and_feeds_seeding(tmp_path: Path) -> None:
    """Where the operator rates games against bots: the person is rated, the bot never."""
    settings = replace(ROOMY, rate_bot_games=True)
    with TestClient(make_app(str(tmp_path / "rated.db"), settings=settings)) as c:
        c.get("/api/me")
        person_v_bot_rated(c)


def person_v_bot_rated(c: TestClient) -> None:
    register(c, "ann")
    t = ok(post(c, "/api/quickplay"))
    play_to_the_end(c, t["id"])
    for _ in range(100):
        board = c.get("/api/ratings?game=highfive&category=2p").json()["ratings"]
        if board:
            break
        time.sleep(0.05)
    assert {r["player"] for r in board} == {"u:1"}
    assert all(r["games"] == 1 for r in board)
    ann = next(r for r in board if r["player"] == "u:1")
    assert ann["name"] == "ann" and ann["ordinal"] == pytest.approx(
        ann["mu"] - 3 * ann["sigma"], abs=3e-3
    )
    # ratings feed seeding: the rated one is seeded above newcomers
    ann_jar = dict(c.cookies)
    dora = register(c, "dora")
    eid = pda_event(c, schedule="bo1")["id"]
    use(c, ann_jar)
    ok(post(c, f"/api/tournaments/{eid}/register"))
    ok(post(c, f"/api/tournaments/{eid}/checkin"))
    use(c, dora)
    ok(post(c, f"/api/tournaments/{eid}/bots", {"bot": "random", "count": 2}))
    ok(post(c, f"/api/tournaments/{eid}/bots", {"bot": "greedy", "count": 1}))
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    seeds = {e["name"]: e["seed"] for e in data["entrants"]}
    # bots are never rated: they all have a newcomer's ordinal, 0
    assert seeds["ann"] == (1 if board[0]["ordinal"] > 0 else 4)
    assert c.get("/leaderboard").status_code == 200
    assert "tournament.js" in c.get(f"/tournaments/{eid}").text
    assert c.get("/static/bracket.js").status_code == 200
    assert "Tournaments" in c.get("/").text


def test_match_page_api_links_every_game(tournament_client: TestClient) -> None:
    c = tournament_client
    register(c, "dora")
    eid = pda_event(c, schedule="bo3")["id"]
    ok(post(c, f"/api/tournaments/{eid}/bots", {"bot": "greedy", "count": 2}))
    ok(post(c, f"/api/tournaments/{eid}/start"))
    wait(c, eid, lambda d: d["status"] == "finished")
    m = ok(c.get(f"/api/tournaments/{eid}/matches/R1M1"))["match"]
    assert 2 <= len(m["games"]) <= 3 and max(m["wins"]) == 2
    for g in m["games"]:
        assert g["table_id"]
        assert c.get(f"/api/tables/{g['table_id']}/replay").status_code in (200, 404)
    assert c.get(f"/api/tournaments/{eid}/matches/R9M9").status_code == 404
    assert c.get("/api/tournaments/nope").status_code == 404


def test_an_unrated_event_leaves_the_ratings_alone(tmp_path: Path) -> None:
    settings = replace(ROOMY, rate_bot_games=True)  # (so that only the event's flag decides)
    with TestClient(make_app(str(tmp_path / "unrated.db"), settings=settings)) as c:
        c.get("/api/me")
        unrated_event(c)


def unrated_event(c: TestClient) -> None:
    dora = register(c, "dora")
    eid = pda_event(c, schedule="bo1", rated=False)["id"]
    register(c, "ann")
    ok(post(c, f"/api/tournaments/{eid}/register"))
    ok(post(c, f"/api/tournaments/{eid}/checkin"))
    ann = dict(c.cookies)
    use(c, dora)
    ok(post(c, f"/api/tournaments/{eid}/bots", {"bot": "greedy", "count": 1}))
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    g = playing(match(data, "R1M1"))
    assert g is not None
    use(c, ann)
    play_to_the_end(c, g["table_id"])
    data = wait(c, eid, lambda d: d["status"] == "finished")
    assert data["champion"] is not None
    hooks_settled(c)  # the rating hook runs beside the event's
    assert c.get("/api/ratings?game=highfive&category=2p").json()["ratings"] == []
