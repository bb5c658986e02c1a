"""Profiles: /api/users/{id} (public information only) and the /profile/{id} page."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient

from tests.server.conftest import post, register, until_turn, use


def finish(c: TestClient, tid: str) -> dict[str, Any]:
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        msg = until_turn(ws)
        while not msg["view"]["is_over"]:
            ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
            msg = until_turn(ws)
    return msg


def test_a_profile_lists_games_with_opponents_results_and_replays(client: TestClient) -> None:
    ann = register(client, "ann")
    me = client.get("/api/me").json()["user"]
    done = post(client, "/api/quickplay").json()["id"]
    end = finish(client, done)
    playing = post(client, "/api/quickplay").json()["id"]
    secret = post(
        client,
        "/api/tables",
        {"seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}], "private": True},
    ).json()["id"]
    p = client.get(f"/api/users/{me['id']}").json()
    assert p["user"]["id"] == me["id"] and p["user"]["display_name"] == "ann"
    assert p["user"]["guest"] is False and len(p["user"]["member_since"]) == 10
    won = int(end["result"]["winner"] == 0)
    assert p["stats"] == {
        "played": 1,
        "won": won,
        "games": [{"game": "highfive", "title": "High Five", "played": 1, "won": won}],
    }
    assert [g["table"] for g in p["games"]] == [secret, playing, done]  # newest first
    last = p["games"][2]
    assert last["result"] == ("won" if won else "lost")
    assert last["scores"] == end["result"]["scores"] and last["winner"] == end["result"]["winner"]
    assert last["replay"] == f"/replay/{done}" and last["opponents"] == ["Greedy bot 2"]
    assert last["players"][1] == {"seat": 1, "kind": "bot", "name": "Greedy bot 2", "bot": "greedy"}
    assert p["games"][1]["result"] is None and p["games"][1]["replay"] is None
    assert p["games"][1]["status"] == "playing"
    text = json.dumps(p)
    for secret_word in ("password", "hash", "session", "token", "username", "argon2"):
        assert secret_word not in text
    # Someone else (or nobody) sees the public games, not the private table's.
    register(client, "bob")
    seen = client.get(f"/api/users/{me['id']}").json()
    assert [g["table"] for g in seen["games"]] == [playing, done]
    assert seen["stats"] == p["stats"]
    use(client, None)
    assert [g["table"] for g in client.get(f"/api/users/{me['id']}").json()["games"]] == [
        playing,
        done,
    ]
    use(client, ann)
    assert client.get(f"/profile/{me['id']}").status_code == 200
    assert "profile.js" in client.get(f"/profile/{me['id']}").text


def test_guests_have_profiles_and_unknown_ids_are_404(client: TestClient) -> None:
    r = post(client, "/api/guest", {"display_name": "Gus"})
    gid = r.json()["user"]["id"]
    p = client.get(f"/api/users/{gid}").json()
    assert p["user"] == {
        "id": gid,
        "display_name": "Gus",
        "guest": True,
        "bot": False,
        "member_since": p["user"]["member_since"],
    }
    assert p["games"] == [] and p["stats"] == {"played": 0, "won": 0, "games": []}
    r = client.get("/api/users/99999")
    assert r.status_code == 404 and r.json()["detail"] == "no such player"
    assert client.get("/api/users/0").status_code == 422
    assert client.get("/api/users/abc").status_code == 422


def test_an_opponent_links_to_their_profile(client: TestClient) -> None:
    ann = register(client, "ann")
    t = post(client, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
    register(client, "bob")
    bob_id = client.get("/api/me").json()["user"]["id"]
    post(client, f"/api/tables/{t['id']}/join", {"seat": 1})
    use(client, ann)
    ann_id = client.get("/api/me").json()["user"]["id"]
    games = client.get(f"/api/users/{ann_id}").json()["games"]
    assert games[0]["players"][1] == {"seat": 1, "kind": "person", "name": "bob", "user_id": bob_id}
    assert games[0]["status"] == "open" and games[0]["opponents"] == ["bob"]
