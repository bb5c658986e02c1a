"""A PDA event at a real venue (docs/tournaments-site.md, "At the venue"): walk-ins entered by name (one,
a pasted list, a CSV of names, clubs and seeds) without accounts, claimed later by an account
with their games and rating; accounts made at the venue with the event's join code, held to the
event's limit and not the address's; everyone not checked in dropped when check-in closes; and
scorekeepers, who enter cards but do not rule or play."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from boneyard.server.middleware.connections import Gate
from tests.server.conftest import fast_dir, make_app, post, register, use
from tests.server.tournaments.test_tournaments import get, match, ok

Data = dict[str, Any]


def otb_event(c: TestClient, **kw: Any) -> str:
    """An over-the-board PDA event made by the signed-in director."""
    body = {"name": "Hall Open", "mode": "otb", "preset": "pda", "schedule": "bo1", **kw}
    return str(ok(post(c, "/api/tournaments", body))["id"])


def entrant(data: Data, name: str) -> Data:
    return next(e for e in data["entrants"] if e["name"] == name)


def paper(c: TestClient, eid: str, mid: str, *games: tuple[int, int]) -> Any:
    body = {"paper": True, "games": [{"score_a": a, "score_b": b} for a, b in games]}
    return post(c, f"/api/tournaments/{eid}/matches/{mid}/card", body)


def ratings(c: TestClient) -> dict[str, Data]:
    board = c.get("/api/ratings?game=highfive&category=2p").json()["ratings"]
    return {r["player"]: r for r in board}


def test_walk_ins_by_name_list_and_csv_then_claimed_with_their_games_and_rating(
    tournament_client: TestClient,
) -> None:
    c = tournament_client
    dora = register(c, "dora")
    eid = otb_event(c)
    walk_ins = f"/api/tournaments/{eid}/walk-ins"
    r = ok(post(c, walk_ins, {"name": "  Ann   Lee ", "club": "Hilltop", "here": True}))
    assert r["message"] == "Ann Lee is entered and checked in"
    ann = entrant(r, "Ann Lee")
    assert ann["walk_in"] and ann["club"] == "Hilltop" and ann["checked_in"]
    assert len(ann["claim_code"]) == 9 and ann["claim_code"][4] == "-"
    r = ok(post(c, walk_ins, {"text": "Bob\nCyd\n\nDan\tDowntown\t2\n"}))
    assert r["message"] == "3 entrants are entered" and r["settings"]["seeding"] == "manual"
    assert (entrant(r, "Dan")["club"], entrant(r, "Dan")["seed"]) == ("Downtown", 2)
    r = ok(post(c, walk_ins, {"text": "Name,Club,Seed\nEve,Eastside,\nFay,,\n", "csv": True}))
    assert [e["name"] for e in r["entrants"]] == ["Ann Lee", "Bob", "Cyd", "Dan", "Eve", "Fay"]
    # refusals name the line, in the director's words, and add nobody
    for body, words in [
        ({"text": "Gus\nann lee"}, "line 2: ann lee is already entered"),
        ({"text": "Hal\tX\tfirst"}, "the seed of Hal must be a whole number from 1 to 256"),
        ({"text": "Ivy\tX\t2"}, "seed 2 is already given"),
        ({"text": "\n\n"}, "the list is empty"),
    ]:
        r = post(c, walk_ins, body)
        assert r.status_code == 400 and words in r.json()["detail"], (body, r.text)
    ok(
        c.patch(
            f"/api/tournaments/{eid}",
            json={"cap": 8},
            headers={"X-CSRF-Token": c.cookies["boneyard_csrf"]},
        )
    )
    r = post(c, walk_ins, {"text": "Gus\nHal\nIvy"})
    assert r.status_code == 400
    assert "takes 8 entrants and has 6: 2 more fit, not 3" in r.json()["detail"]
    assert len(get(c, eid)["entrants"]) == 6
    # only directors and scorekeepers; only over the board; codes only for the staff
    use(c, None)
    assert all(e["claim_code"] is None for e in get(c, eid)["entrants"])
    register(c, "nosy")
    assert post(c, walk_ins, {"name": "Zed"}).status_code == 403
    use(c, dora)
    online = ok(post(c, "/api/tournaments", {"name": "Online", "preset": "pda"}))["id"]
    r = post(c, f"/api/tournaments/{online}/walk-ins", {"name": "Zed"})
    assert r.status_code == 400 and "play over the board" in r.json()["detail"]
    # play it out on paper: the lowest name of each match wins
    for e in get(c, eid)["entrants"]:
        ok(post(c, f"/api/tournaments/{eid}/entrants/{e['id']}/checkin", {"present": True}))
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    while data["status"] == "running":
        for m in [m for rnd in data["rounds"] for m in rnd if m["ready"] and not m["over"]]:
            a_wins = m["a_name"] < m["b_name"]
            data = ok(paper(c, eid, m["id"], (150, 90) if a_wins else (90, 150)))
    assert data["champion"]["name"] == "Ann Lee"
    ann_games = [g for rnd in data["rounds"] for m in rnd if ann["id"] in (m["a"], m["b"])
                 for g in m["games"] if g["kind"] == "game"]  # fmt: skip
    assert ann_games and all(g["paper"] and g["status"] == "confirmed" for g in ann_games)
    walked = ratings(c)[f"w:{ann['id']}"]
    assert walked["name"] == "Ann Lee" and walked["games"] == len(ann_games)
    # after the event, Ann makes an account and claims her entry with the code (typed loosely)
    annlee = register(c, "annlee")
    code = ann["claim_code"].lower().replace("-", " ")
    assert post(c, "/api/tournaments/claim", {"code": "NOPE-NOPE"}).status_code == 404
    data = ok(post(c, "/api/tournaments/claim", {"code": code}))
    assert data["me"]["entrant"] == ann["id"] and data["champion"]["id"] == ann["id"]
    me = c.get("/api/me").json()["user"]
    board = ratings(c)
    assert f"w:{ann['id']}" not in board
    assert board[f"u:{me['id']}"]["games"] == len(ann_games)
    assert board[f"u:{me['id']}"]["mu"] == walked["mu"]
    r = post(c, "/api/tournaments/claim", {"code": code})
    assert r.status_code == 404  # a code is good once
    notes = c.get("/api/me/notifications").json()["notifications"]
    assert any("is now on your account" in n["title"] for n in notes)
    # the director links Bob's entry to an account that already has a rating: Bob's cards
    # are rated again for it, in order, and the walk-in's rating is gone
    use(c, annlee)
    bob = entrant(get(c, eid), "Bob")
    bobby = register(c, "bobby")
    other = otb_event(c, name="Club night")  # (bobby directs it: no rating from it)
    use(c, dora)
    before = ratings(c)
    data = ok(post(c, f"/api/tournaments/{eid}/entrants/{bob['id']}/link", {"username": "bobby"}))
    assert entrant(data, "Bob")["user_id"] is not None and not entrant(data, "Bob")["walk_in"]
    after = ratings(c)
    assert f"w:{bob['id']}" not in after
    moved = next(r for k, r in after.items() if k.startswith("u:") and r["name"] == "bobby")
    assert moved["games"] == before[f"w:{bob['id']}"]["games"]
    r = post(c, f"/api/tournaments/{eid}/entrants/{bob['id']}/link", {"username": "bobby"})
    assert r.status_code == 400 and "already plays with an account" in r.json()["detail"]
    assert other and bobby


def test_venue_sign_up_with_the_join_code_is_held_to_the_event_not_the_address() -> None:
    limits = {"register": "1/hour", "venue_signups": "3/minute"}
    with (
        tempfile.TemporaryDirectory(dir=fast_dir()) as d,
        TestClient(make_app(str(Path(d) / "venue.db"), limits=limits)) as c,
    ):
        c.get("/api/me")
        dora = register(c, "dora")
        eid = otb_event(c)
        data = ok(post(c, f"/api/tournaments/{eid}/join-code", {"on": True}))
        code = data["join_code"]
        assert code and len(code) == 9
        use(c, None)
        assert get(c, eid)["join_code"] is None  # only the directors see it
        r = post(c, "/api/register", {"username": "first", "password": "a good password"})
        assert r.status_code == 429  # the hall's address made its one account (dora)
        join = f"/api/tournaments/{eid}/join"
        r = post(c, join, {"code": "ABCD-EFGH", "username": "zed", "password": "a good password"})
        assert r.status_code == 400 and "not this event's" in r.json()["detail"]
        for n in ("amy", "ben", "cat"):
            use(c, None)
            data = ok(
                post(c, join, {"code": code.lower(), "username": n, "password": "a good password"})
            )
            assert c.get("/api/me").json()["user"]["username"] == n  # signed in
            assert entrant(data, n)["checked_in"]  # check-in is open: they are here
            assert data["me"]["entrant"] == entrant(data, n)["id"]
        use(c, None)
        r = post(c, join, {"code": code, "username": "dan", "password": "a good password"})
        assert r.status_code == 429 and "too many new accounts for this event" in r.json()["detail"]
        use(c, dora)
        ok(post(c, f"/api/tournaments/{eid}/join-code", {"on": False}))
        use(c, None)
        r = post(c, join, {"code": code, "username": "eve", "password": "a good password"})
        assert r.status_code == 400


def test_drop_everyone_not_checked_in_at_check_in_close(tournament_client: TestClient) -> None:
    c = tournament_client
    register(c, "dora")
    eid = otb_event(c, schedule="bo1")
    data = ok(post(c, f"/api/tournaments/{eid}/walk-ins", {"text": "A1\nB2\nC3\nD4\nE5\nF6"}))
    for e in data["entrants"][:4]:
        ok(post(c, f"/api/tournaments/{eid}/entrants/{e['id']}/checkin", {"present": True}))
    data = ok(post(c, f"/api/tournaments/{eid}/drop-absent", {"note": "check-in closed at 10:00"}))
    assert data["message"].startswith("check-in is closed; 2 not checked in were dropped")
    assert not data["checkin"]["open"]
    gone = [e for e in data["entrants"] if e["dropped"]]
    assert [e["name"] for e in gone] == ["E5", "F6"] and len(data["entrants"]) == 6
    log = next(a for a in data["actions"] if a["kind"] == "drop_absent")
    assert log["payload"]["names"] == ["E5", "F6"] and log["note"] == "check-in closed at 10:00"
    # E5 turns up before the start: checked in, back in the event
    e5 = entrant(data, "E5")
    data = ok(post(c, f"/api/tournaments/{eid}/entrants/{e5['id']}/checkin", {"present": True}))
    assert not entrant(data, "E5")["dropped"] and entrant(data, "E5")["status"] == "registered"
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    drawn = {x for m in data["rounds"][0] for x in (m["a"], m["b"]) if x is not None}
    assert len(drawn) == 5 and entrant(data, "F6")["id"] not in drawn
    assert entrant(data, "F6")["dropped"]  # still listed, as dropped
    r = post(
        c, f"/api/tournaments/{eid}/entrants/{entrant(data, 'F6')['id']}/checkin", {"present": True}
    )
    assert r.status_code == 400 and "not in the draw" in r.json()["detail"]


def test_a_whole_paper_card_counts_at_once_and_the_rules_still_hold(
    tournament_client: TestClient,
) -> None:
    c = tournament_client
    dora = register(c, "dora")
    eid = otb_event(c, schedule="bo5", format="single_elimination")
    ok(post(c, f"/api/tournaments/{eid}/walk-ins", {"text": "Ann\nBob\nCyd\nDan", "here": True}))
    sam = register(c, "sam")
    use(c, dora)
    ok(post(c, f"/api/tournaments/{eid}/scorekeepers", {"username": "sam"}))
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    m1, m2 = data["rounds"][0]
    card = f"/api/tournaments/{eid}/matches/{m1['id']}/card"
    # every check of the game's rules stays, in the words of who typed the card
    for games, words in [
        ([(400, 20)], "Game 1: 400 is more than a game allows"),
        ([(150, 150)], "Game 1: The scores are equal (150-150)"),
        ([(145, 20)], "Game 1: Nobody reached 150 (145-20)"),
        (
            [(150, 90), (150, 95), (150, 60), (150, 10)],
            "game 4: Ann had won the match 3–0 after game 3",
        ),
    ]:
        r = paper(c, eid, m1["id"], *games)
        assert r.status_code == 400 and words in r.json()["detail"], r.text
        assert "ask the director" not in r.json()["detail"]
    r = post(c, card, {"paper": True, "games": [{"score_a": -5, "score_b": 150}]})
    assert r.status_code == 422
    assert [d["msg"] for d in r.json()["detail"]] == ["A score cannot be negative (you gave -5)"]
    r = post(
        c, card, {"paper": True, "games": [{"score_a": 150, "score_b": 90, "winner": m1["b"]}]}
    )
    assert r.status_code == 400
    assert f"say {m1['a_name']} won, not {m1['b_name']}: check the card" in r.json()["detail"]
    assert not match(get(c, eid), m1["id"])["games"]  # nothing entered
    # the scorekeeper types the card in: one form, it counts at once, signed on paper
    register(c, "stranger")
    assert paper(c, eid, m1["id"], (150, 90)).status_code == 403
    use(c, sam)
    data = ok(paper(c, eid, m1["id"], (150, 90), (120, 150), (150, 145), (150, 0)))
    m = match(data, m1["id"])
    assert m["over"] and m["wins"] == [3, 1] and m["winner_name"] == "Ann"
    assert all(g["paper"] and g["status"] == "confirmed" for g in m["games"])
    assert m["games"][0]["how"] == "signed on paper, entered from the paper card by sam"
    assert m["games"][1]["history_text"][0]["text"] == (
        f"Ann 120–150 {m['b_name']} entered from the paper card by sam: signed on paper by both"
    )
    assert data["me"]["scorekeeper"] and not data["me"]["director"]
    r = post(
        c,
        f"/api/tournaments/{eid}/matches/{m2['id']}/ruling",
        {"kind": "bogus", "offender": m2["a"]},
    )
    assert r.status_code == 403  # a scorekeeper does not rule
    r = post(c, f"/api/tournaments/{eid}/register")
    assert r.status_code == 400 and "scorekeeper of this event" in r.json()["detail"]
    board = ratings(c)
    assert board[f"w:{m1['a']}"]["games"] == 4 and board[f"w:{m1['b']}"]["games"] == 4
    # an event whose players sign on screen: no paper card, and walk-ins cannot sign
    use(c, dora)
    screen = otb_event(c, name="Screen", signatures="screen")
    ok(post(c, f"/api/tournaments/{screen}/walk-ins", {"text": "Eve\nFay", "here": True}))
    data = ok(post(c, f"/api/tournaments/{screen}/start"))
    mid = data["rounds"][0][0]["id"]
    r = paper(c, screen, mid, (150, 90))
    assert r.status_code == 400 and "sign their cards on screen" in r.json()["detail"]
    r = post(c, f"/api/tournaments/{screen}/matches/{mid}/card", {"score_a": 150, "score_b": 90})
    assert r.status_code == 400 and "has no account to sign with on screen" in r.json()["detail"]


def test_where_the_staff_follow_an_over_the_board_event_is_the_venue_and_its_phones_fit() -> None:
    """The address the director (or a scorekeeper) of an over-the-board event follows it from
    may hold 8 connections a person entered while the event is not over: the hall's phones
    share it. Anyone else looking, an event played online, or one that is over gives no address
    more than the site's cap (docs/operations.md, "Connections")."""
    gate = Gate(per_address=4)
    with (
        tempfile.TemporaryDirectory(dir=fast_dir()) as d,
        TestClient(make_app(str(Path(d) / "v.db"), connections=gate)) as c,
    ):
        c.get("/api/me")
        dora = register(c, "dora")
        online = str(ok(post(c, "/api/tournaments", {"name": "Net", "mode": "online"}))["id"])
        get(c, online)
        assert gate.cap("testclient") == 4  # (played online: no venue)
        eid = otb_event(c)
        ok(post(c, f"/api/tournaments/{eid}/walk-ins", {"text": "Ann\nBob\nCyd"}))
        assert gate.cap("testclient") == 4  # (an answer to an entry is not a look)
        use(c, None)  # signed out: a player's phone
        get(c, eid)
        register(c, "eve")  # signed in, not on its staff
        get(c, eid)
        assert gate.cap("testclient") == 4
        use(c, dora)
        get(c, eid)
        assert gate.cap("testclient") == 8 * 3 and gate.cap("10.0.0.1") == 4
        ok(post(c, f"/api/tournaments/{eid}/cancel", {}))
        later = Gate(per_address=4)
        c.app.state.tournaments.connections = later  # type: ignore[attr-defined]
        get(c, eid)
        assert later.cap("testclient") == 4  # (over: no venue)
