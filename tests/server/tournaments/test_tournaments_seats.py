"""Directors act on seats but never put a person in a seat another person holds in a game in
play (issue 28): a person is offered a place, and takes it, only before its game's first move;
in a game under way the replacement is a bot (or the director rules a forfeit); the person who
held the place is told."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.server.conftest import post, register, use
from tests.server.tournaments.test_tournaments import get, match, ok, pda_event, people, playing


def first_move(c: TestClient, tid: str, jars: dict[str, dict[str, str]]) -> None:
    """The player on the move at table ``tid`` makes a move."""
    for jar in jars.values():
        use(c, jar)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            msg = ws.receive_json()
            if msg.get("type") != "error" and msg.get("moves"):
                seq = msg["version"]
                ws.send_json({"seq": seq, "action": msg["moves"][0]["event"]})
                for _ in range(100):  # the move is taken: a view of the next version
                    seen = ws.receive_json()
                    assert seen.get("type") != "error", seen
                    if seen.get("version", 0) > seq:
                        return
    raise AssertionError("nobody was on the move")


def test_the_directors_second_account_is_refused_a_seat_in_a_game_in_play(
    tournament_client: TestClient,
) -> None:
    c = tournament_client
    dora = register(c, "dora")
    sock = register(c, "sockpuppet")  # the director's second account
    use(c, dora)
    eid = pda_event(c, schedule="bo1")["id"]
    jars = people(c, eid, ["ann", "bob"])
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    g = playing(match(data, "R1M1"))
    assert g is not None
    tid = g["table_id"]
    ann = next(e for e in data["entrants"] if e["name"] == "ann")
    # before the first move the place may be offered ...
    ok(post(c, f"/api/tournaments/{eid}/entrants/{ann['id']}/replace", {"username": "sockpuppet"}))
    first_move(c, tid, jars)
    # ... but once the game is under way nobody takes it: not by accepting,
    use(c, sock)
    offer = c.get("/api/me/offers").json()["offers"][0]
    r = post(c, f"/api/tournaments/{eid}/offers/{offer['id']}/accept")
    assert r.status_code == 400 and "only before its game's first move" in r.json()["detail"]
    seats = c.get(f"/api/tables/{tid}").json()["seats"]
    assert "ann" in [s["name"] for s in seats] and "sockpuppet" not in [s["name"] for s in seats]
    assert next(e for e in get(c, eid)["entrants"] if e["id"] == ann["id"])["name"] == "ann"
    # ... nor by a new offer, which says what the director may do instead
    use(c, dora)
    r = post(c, f"/api/tournaments/{eid}/entrants/{ann['id']}/replace", {"username": "sockpuppet"})
    assert r.status_code == 400
    assert "Put a bot in the seat (bot:greedy) or rule a forfeit" in r.json()["detail"]
    # a bot may take it, and ann is told
    ok(post(c, f"/api/tournaments/{eid}/entrants/{ann['id']}/replace", {"bot": "greedy"}))
    seats = c.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["kind"] for s in seats].count("bot") == 1
    use(c, jars["ann"])
    notes = c.get("/api/me/notifications").json()["notifications"]
    assert any("The director gave your place" in n["title"] for n in notes)
