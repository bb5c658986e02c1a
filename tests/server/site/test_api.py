"""HTTP API: accounts, CSRF, rate limit, lobby and records."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from tests.server.conftest import make_app, post, register, use


def test_anonymous_gets_csrf_cookie_and_no_user(client: TestClient) -> None:
    r = client.get("/api/me")
    assert r.json() == {"user": None}
    assert client.cookies.get("boneyard_csrf")


def test_posts_need_the_csrf_token(client: TestClient) -> None:
    r = client.post("/api/guest", json={"display_name": "Ann"})
    assert r.status_code == 403
    assert "CSRF" in r.json()["detail"]
    r = client.post("/api/guest", json={"display_name": "Ann"}, headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403


def test_register_login_logout(client: TestClient) -> None:
    register(client, "ann")
    me = client.get("/api/me").json()["user"]
    assert me["username"] == "ann" and me["guest"] is False
    set_cookie = [v for k, v in client.cookies.items() if k == "boneyard_session"]
    assert set_cookie
    assert post(client, "/api/logout").status_code == 200
    assert client.get("/api/me").json() == {"user": None}
    r = post(client, "/api/register", {"username": "ann", "password": "another one"})
    assert r.status_code == 400 and r.json()["detail"] == "that username is taken"
    r = post(client, "/api/login", {"username": "ann", "password": "wrong password"})
    assert r.status_code == 400 and r.json()["detail"] == "wrong username or password"
    r = post(client, "/api/login", {"username": "ann", "password": "correct horse"})
    assert r.status_code == 200
    assert client.get("/api/me").json()["user"]["username"] == "ann"


def test_session_cookie_is_httponly_and_lax(client: TestClient) -> None:
    r = post(client, "/api/register", {"username": "bea", "password": "long enough"})
    header = r.headers["set-cookie"]
    assert "boneyard_session=" in header
    assert "HttpOnly" in header and "SameSite=lax" in header


def test_bad_registrations_are_explained(client: TestClient) -> None:
    r = post(client, "/api/register", {"username": "x", "password": "long enough"})
    assert r.status_code == 400 and "username" in r.json()["detail"]
    r = post(client, "/api/register", {"username": "carl", "password": "short"})
    assert r.status_code == 400 and "8 characters" in r.json()["detail"]
    r = post(client, "/api/register", {"username": "carl", "password": "p" * 500})
    assert r.status_code == 422


def test_login_is_rate_limited(db_path: str) -> None:
    with TestClient(make_app(db_path, limits={"login": "3/minute"})) as c:
        c.get("/api/me")
        codes = [
            post(c, "/api/login", {"username": "nobody", "password": "whatever1"}).status_code
            for _ in range(4)
        ]
    assert codes == [400, 400, 400, 429]


def test_guest_play_with_a_display_name(client: TestClient) -> None:
    r = post(client, "/api/guest", {"display_name": "  Dot  "})
    assert r.status_code == 200
    assert r.json()["user"] == {
        "id": 1,
        "display_name": "Dot",
        "username": None,
        "guest": True,
        "bot": False,
    }
    assert post(client, "/api/guest", {"display_name": "   "}).status_code == 400


def test_lobby_needs_a_user_and_checks_the_request(client: TestClient) -> None:
    body = {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "bot"}]}
    assert post(client, "/api/tables", body).status_code == 401
    register(client, "ann")
    r = post(client, "/api/tables", {**body, "game": "chess"})
    assert r.status_code == 400 and "unknown" in r.json()["detail"]
    r = post(client, "/api/tables", {**body, "options": {"nonsense": 3}})
    assert r.status_code == 400 and "nonsense" in r.json()["detail"]
    r = post(client, "/api/tables", {**body, "seats": [{"kind": "me"}] * 2})
    assert r.status_code == 400
    r = post(
        client, "/api/tables", {**body, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "x"}]}
    )
    assert r.status_code == 400 and "bot" in r.json()["detail"]


def test_games_list(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert {g["game"] for g in data["games"]} == {
        "highfive",
        "merry-go-round",
        "high-fives",
        "highrise",
    }
    assert "greedy" in data["bots"]


def test_quickplay_starts_high_five_against_greedy(client: TestClient) -> None:
    register(client, "ann")
    t = post(client, "/api/quickplay").json()
    assert t["game"] == "highfive" and t["status"] == "playing"
    assert [s["kind"] for s in t["seats"]] == ["person", "bot"]
    assert t["seats"][1]["bot"] == "greedy"
    r = client.get(f"/api/tables/{t['id']}/record")
    assert r.status_code == 400 and "over" in r.json()["detail"]


def test_open_table_join_and_start(client: TestClient) -> None:
    ann = register(client, "ann")
    t = post(
        client,
        "/api/tables",
        {"game": "merry-go-round", "seats": [{"kind": "me"}, {"kind": "open"}]},
    ).json()
    assert t["status"] == "open"
    assert t["id"] in [x["id"] for x in client.get("/api/tables").json()["tables"]]
    r = post(client, f"/api/tables/{t['id']}/start")
    assert r.status_code == 400 and "every seat" in r.json()["detail"]
    register(client, "bob")
    assert post(client, f"/api/tables/{t['id']}/join", {"seat": 0}).status_code == 400
    r = post(client, f"/api/tables/{t['id']}/join", {"seat": 1})
    assert r.status_code == 200 and r.json()["seats"][1]["name"] == "bob"
    use(client, ann)
    r = post(client, f"/api/tables/{t['id']}/start")
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert post(client, f"/api/tables/{t['id']}/start").status_code == 400
    assert client.get("/api/tables/nope").status_code == 404


def test_static_client_is_served(client: TestClient) -> None:
    assert "Play a bot now" in client.get("/").text
    assert "table.js" in client.get("/table/abc").text
    assert client.get("/static/table.js").status_code == 200


def test_migrations_are_idempotent(tmp_path: Path) -> None:
    db = str(tmp_path / "again.db")
    for _ in range(2):
        with TestClient(make_app(db)) as c:
            assert c.get("/api/games").status_code == 200
