"""Bot accounts (issue 18, item 3): the upgrade, API tokens (hashed, shown once, revocable), the
bearer and CSRF rules, challenges, the ``act`` messages of a bot's seat, labels, and events."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from boneyard.server.accounts.service import Me
from tests.server.conftest import csrf, register, use


def bot_with_token(c: TestClient, name: str = "robo") -> tuple[dict[str, Any], str]:
    """A new bot account (signed in on ``c``) and a token of it."""
    register(c, name)
    user = c.get("/api/me").json()["user"]
    r = c.post("/api/me/bot", headers=csrf(c))
    assert r.status_code == 200, r.text
    assert r.json()["user"]["bot"] is True
    r = c.post("/api/me/tokens", json={"name": "laptop"}, headers=csrf(c))
    assert r.status_code == 200, r.text
    return user, str(r.json()["token"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def bare(c: TestClient) -> TestClient:
    """``c`` with no cookie at all (a bot program)."""
    c.cookies.clear()
    return c


def test_a_token_is_shown_once_stored_hashed_and_revocable(
    client: TestClient, db_path: str
) -> None:
    user, token = bot_with_token(client)
    assert token.startswith("byt_") and len(token) == 44
    listed = client.get("/api/me/tokens").json()["tokens"]
    assert [t["prefix"] for t in listed] == [token[:10]]
    assert token not in json.dumps(listed)  # never shown again
    engine = create_engine(f"sqlite:///{db_path}")
    with Session(engine) as s:
        from boneyard.store.models import ApiToken

        row = s.scalar(select(ApiToken))
        assert row is not None
        assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert token not in (row.token_hash, row.prefix, row.name)
    engine.dispose()
    jar = dict(client.cookies)
    program = bare(client)
    me = program.get("/api/me", headers=bearer(token)).json()["user"]
    assert me["id"] == user["id"] and me["bot"] is True
    other = token[:-1] + ("y" if token[-1] == "x" else "x")  # one character off
    assert program.get("/api/me", headers=bearer(other)).json()["user"] is None
    use(client, jar)
    r = client.delete(f"/api/me/tokens/{listed[0]['id']}", headers=csrf(client))
    assert r.json()["tokens"][0]["revoked"] is True
    assert program.get("/api/me", headers=bearer(token)).json()["user"] is None
    assert program.get("/api/bot/stream", headers=bearer(token)).status_code == 401


def test_only_an_account_that_played_nothing_becomes_a_bot(client: TestClient) -> None:
    register(client, "played")
    r = client.post(
        "/api/tables", json={"seats": [{"kind": "me"}, {"kind": "bot"}]}, headers=csrf(client)
    )
    assert r.status_code == 200
    r = client.post("/api/me/bot", headers=csrf(client))
    assert r.status_code == 400 and "played no game" in r.json()["detail"]
    r = client.post("/api/me/tokens", json={"name": "x"}, headers=csrf(client))
    assert r.status_code == 403  # a person has no tokens
    use(client, None)
    client.post("/api/guest", json={"display_name": "Gus"}, headers=csrf(client))
    assert client.post("/api/me/bot", headers=csrf(client)).status_code == 400


def test_bearer_requests_skip_csrf_but_a_cookie_never_rides_along(client: TestClient) -> None:
    _user, token = bot_with_token(client)
    jar = dict(client.cookies)
    # A session cookie with a bearer and no CSRF header: refused as any cookie request.
    r = client.post("/api/bot/challenges/nope/accept", headers=bearer(token))
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    # A bogus bearer identifies nobody (no fallback to the cookie).
    r = client.get("/api/me", headers=bearer("byt_nothing"))
    assert r.json()["user"] is None
    program = bare(client)
    # No cookie, a bearer: no CSRF token needed (the route answers, not the CSRF check).
    r = program.post("/api/bot/challenges/nope/accept", headers=bearer(token))
    assert r.status_code == 404
    # A token never manages tokens.
    r = program.post("/api/me/tokens", json={"name": "y"}, headers=bearer(token))
    assert r.status_code == 403
    use(client, jar)


def receive_until(ws: Any, want: str) -> dict[str, Any]:
    for _ in range(200):
        msg = ws.receive_json()
        if msg.get("type") == want:
            return dict(msg)
    raise AssertionError(f"no {want} message")


def test_a_challenge_accepted_and_played_over_the_socket(client: TestClient) -> None:
    _bot, token = bot_with_token(client, "challenged")
    ann = register(client, "ann")
    r = client.post(
        "/api/tables",
        json={"seats": [{"kind": "me"}, {"kind": "account", "account": "challenged"}]},
        headers=csrf(client),
    )
    assert r.status_code == 200, r.text
    table = r.json()
    assert table["status"] == "open" and table["seats"][1]["invited"] == "challenged"
    # Someone else may not take the kept seat.
    register(client, "tom")
    r = client.post(f"/api/tables/{table['id']}/join", json={"seat": 1}, headers=csrf(client))
    assert r.status_code == 400 and "kept for the bot" in r.json()["detail"]
    program = bare(client)
    r = program.post(f"/api/bot/challenges/{table['id']}/accept", headers=bearer(token))
    assert r.status_code == 200, r.text
    info = client.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "playing"
    assert info["seats"][1]["bot_account"] is True and "bot_account" not in info["seats"][0]
    with program.websocket_connect(f"/ws/tables/{table['id']}", headers=bearer(token)) as ws:
        view = receive_until(ws, "view")
        assert view["seat"] == 1
        if view["view"]["current_seat"] != 1:  # the person moves first: play their move
            use(client, ann)
            with client.websocket_connect(f"/ws/tables/{table['id']}") as pws:
                pv = receive_until(pws, "view")
                pws.send_json({"seq": pv["version"], "action": pv["moves"][0]["event"]})
                receive_until(pws, "view")
        act = receive_until(ws, "act")
        assert act["legal_actions"] and "legal_actions" not in act["observation"]
        assert act["observation"]["seat"] == 1
        # Only this seat's hand: the other hand's tiles never appear.
        assert set(act["observation"]) == set(view["view"]) - {"legal_actions"}
        ws.send_json({"seq": act["version"], "action": act["legal_actions"][0]})
        after = receive_until(ws, "view")
        assert after["version"] > act["version"]


def test_a_game_begun_and_ended_between_two_looks_of_the_stream_is_said_to_be_over(
    client: TestClient,
) -> None:
    """The stream looks at the database once a second: a challenge can be accepted, its game
    start and end between two looks (a built-in bot leads and reaches the target at once). It
    still gets one last event, ``game_finish`` with the table's status — a bot client that
    took the game on waits for it otherwise — and a challenge declined gets ``challenge_gone``.
    """
    user, token = bot_with_token(client, "quick")
    register(client, "dan")
    tids = []
    for _ in range(2):
        r = client.post(
            "/api/tables",
            json={"game": "highrise", "options": {"single_hand": True},
                  "seats": [{"kind": "account", "account": "quick"}, {"kind": "bot"}]},
            headers=csrf(client),
        )  # fmt: skip
        assert r.status_code == 200, r.text
        tids.append(r.json()["id"])
    played, declined = tids
    api = client.app.state.botapi  # type: ignore[attr-defined]
    me = Me(id=user["id"], display_name="quick", username="quick", is_guest=False, is_bot=True)
    seen: dict[str, str] = {}
    first = client.portal.call(api.news, me, seen)  # type: ignore[union-attr]
    assert sorted((e["type"], e["table"]) for e in first) == sorted(("challenge", t) for t in tids)
    program = bare(client)
    assert program.post(f"/api/bot/challenges/{played}/accept", headers=bearer(token)).is_success
    with program.websocket_connect(f"/ws/tables/{played}", headers=bearer(token)) as ws:
        while (msg := ws.receive_json()).get("result") is None:
            if msg["type"] == "act":
                ws.send_json({"seq": msg["version"], "action": msg["legal_actions"][0]})
    assert program.post(f"/api/bot/challenges/{declined}/decline", headers=bearer(token)).is_success
    last = client.portal.call(api.news, me, seen)  # type: ignore[union-attr]
    assert sorted(last, key=lambda e: e["type"]) == [
        {"type": "challenge_gone", "table": declined},
        {"type": "game_finish", "table": played, "game": "highrise", "seat": 0,
         "socket": f"/ws/tables/{played}", "status": "over"},
    ]  # fmt: skip
    assert seen == {} and client.portal.call(api.news, me, seen) == []  # type: ignore[union-attr]


def test_a_declined_challenge_closes_its_table(client: TestClient) -> None:
    _bot, token = bot_with_token(client, "shy")
    bea = register(client, "bea")
    tid = client.post(
        "/api/tables",
        json={"seats": [{"kind": "me"}, {"kind": "account", "account": "shy"}]},
        headers=csrf(client),
    ).json()["id"]
    r = bare(client).post(f"/api/bot/challenges/{tid}/decline", headers=bearer(token))
    assert r.status_code == 200
    use(client, bea)
    info = client.get(f"/api/tables/{tid}").json()
    assert info["status"] == "closed" and "declined" in info["halted"]
    # A person cannot be challenged as a bot.
    r = client.post(
        "/api/tables",
        json={"seats": [{"kind": "me"}, {"kind": "account", "account": "bea"}]},
        headers=csrf(client),
    )
    assert r.status_code == 400 and "not a bot account" in r.json()["detail"]


def test_an_event_takes_bot_accounts_only_when_its_director_allows(client: TestClient) -> None:
    _bot, token = bot_with_token(client, "entrant")
    register(client, "dora")
    closed = client.post("/api/tournaments", json={"name": "People only"}, headers=csrf(client))
    assert closed.status_code == 200, closed.text
    open_ = client.post(
        "/api/tournaments",
        json={"name": "Bots welcome", "bot_accounts": True},
        headers=csrf(client),
    )
    program = bare(client)
    r = program.post(f"/api/tournaments/{closed.json()['id']}/register", headers=bearer(token))
    assert r.status_code == 403 and "bot accounts" in r.json()["detail"]
    r = program.post(f"/api/tournaments/{open_.json()['id']}/register", headers=bearer(token))
    assert r.status_code == 200, r.text
    assert [e["name"] for e in r.json()["entrants"]] == ["entrant"]
