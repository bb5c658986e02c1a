"""Private tables and invite links; bot levels chosen per seat."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.games.golden import GAMES
from tests.server.conftest import post, register, use

LEVELS = ["random", "greedy", "easy", "medium", "hard", "expert"]


def private_table(c: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    ann = register(c, "ann")
    r = post(c, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}], "private": True})
    assert r.status_code == 200, r.text
    return r.json(), ann


def test_a_private_table_is_not_listed_and_needs_its_token(client: TestClient) -> None:
    t, ann = private_table(client)
    tid, token = t["id"], t["invite"]
    assert t["private"] is True and len(token) >= 20
    assert t["invite_url"] == f"/join/{token}"
    public = post(client, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
    assert "invite" not in public and public["private"] is False
    listed = [x["id"] for x in client.get("/api/tables").json()["tables"]]
    assert listed == [public["id"]]
    assert client.get(f"/api/tables/{tid}").status_code == 200  # its creator
    bob = register(client, "bob")
    assert [x["id"] for x in client.get("/api/tables").json()["tables"]] == [public["id"]]
    for path in (f"/api/tables/{tid}", f"/api/tables/{tid}?invite=wrong"):
        r = client.get(path)
        assert r.status_code == 404 and "no such table" in r.json()["detail"]
    assert client.get(f"/api/tables/{tid}/hands").status_code == 404
    assert client.get(f"/api/tables/{tid}?invite={token}").json()["id"] == tid
    assert client.get(f"/api/tables/{tid}/hands?invite={token}").status_code == 200
    # Joining needs the token too.
    for body in ({"seat": 1}, {"seat": 1, "invite": "wrong"}):
        r = post(client, f"/api/tables/{tid}/join", body)
        assert r.status_code == 404
    live = client.app.state.tables.live[tid]  # type: ignore[attr-defined]
    assert live.seats[1].kind == "open"
    r = post(client, f"/api/tables/{tid}/join", {"seat": 1, "invite": token})
    assert r.status_code == 200, r.text
    assert live.seats[1].name == "bob"
    # Seated now: no token needed.
    assert client.get(f"/api/tables/{tid}").status_code == 200
    use(client, ann)
    assert post(client, f"/api/tables/{tid}/start").status_code == 200
    use(client, bob)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        view = ws.receive_json()
        assert view["seat"] == 1 and view["invite"] == token
    assert [x["id"] for x in client.get("/api/tables").json()["tables"]] == [public["id"]]


def test_spectating_a_private_table_needs_the_token(client: TestClient) -> None:
    t, _ann = private_table(client)
    tid, token = t["id"], t["invite"]
    use(client, None)
    with (
        pytest.raises(WebSocketDisconnect) as info,
        client.websocket_connect(f"/ws/tables/{tid}") as ws,
    ):
        ws.receive_json()
    assert info.value.code == 1008
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/tables/{tid}?invite=nope") as ws,
    ):
        ws.receive_json()
    with client.websocket_connect(f"/ws/tables/{tid}?invite={token}") as ws:
        view = ws.receive_json()
        assert view["seat"] is None and view["table"]["id"] == tid
        assert "invite" not in view  # only seated people are shown the link


def test_the_join_link_opens_the_table(client: TestClient) -> None:
    t, _ann = private_table(client)
    r = client.get(f"/join/{t['invite']}", follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == f"/table/{t['id']}?invite={t['invite']}"
    assert client.get(r.headers["location"]).status_code == 200
    r = client.get("/join/not-a-token", follow_redirects=False)
    assert r.status_code == 404 and "not valid" in r.text


def test_bot_levels_per_seat(client: TestClient) -> None:
    register(client, "ann")
    assert client.get("/api/games").json()["bots"] == LEVELS
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "expert"}]
    r = post(client, "/api/tables", {"game": "highfive", "seats": seats, "start": False})
    assert r.status_code == 200, r.text
    got = r.json()["seats"]
    assert [s["bot"] for s in got] == [None, "random", "expert"]
    assert got[2]["name"] == "Expert bot 3"
    live = client.app.state.tables.live[r.json()["id"]]  # type: ignore[attr-defined]
    assert sorted(live.bots) == [1, 2]
    r = post(client, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "bot", "bot": "superb"}]})
    assert r.status_code == 400
    assert r.json()["detail"] == (f"bot 'superb' is unknown (bots: {', '.join(LEVELS)})")
    for name in ("cmd:python bot.py", "os:system", "random:Random"):
        r = post(client, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "bot", "bot": name}]})
        assert r.status_code == 400 and "is unknown" in r.json()["detail"], name


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_is_offered_for_every_game(client: TestClient, game: str, level: str) -> None:
    register(client, "ann")
    body = {"game": game, "seats": [{"kind": "me"}, {"kind": "bot", "bot": level}], "start": False}
    r = post(client, "/api/tables", body)
    # A game whose expert search is not there yet says so clearly (the server validates).
    if r.status_code == 400:
        assert level in ("easy", "medium", "hard", "expert")
        assert f"bot {level!r} cannot play {game} yet" in r.json()["detail"]
    else:
        assert r.status_code == 200 and r.json()["seats"][1]["bot"] == level
