"""HTTP API: accounts, CSRF, rate limit, lobby and records."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from boneyard.core.errors import OptionError
from boneyard.games.registry import get_spec
from boneyard.server.rules.service import changed_options
from tests.games.golden import GAMES
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
    assert [g["game"] for g in data["games"]] == list(GAMES)
    assert "greedy" in data["bots"]


def test_the_new_table_form_offers_only_what_each_game_takes(client: TestClient) -> None:
    """Every choice /api/games offers a form, and a whole number's bounds, is taken by the
    game, and shown as a change at the table unless it is the default; a number just outside
    the bounds is refused; every option has its words."""
    games = client.get("/api/games").json()["games"]
    assert games[0]["presets"] == ["box", "pda"] and all(not g["presets"] for g in games[1:])
    offered = 0
    for g in games:
        spec = get_spec(g["game"])
        assert g["options"] and all(o["label"] and o["help"] for o in g["options"])
        for o in g["options"]:
            values = list(o["choices"])
            if "low" in o:
                values += [o["low"], o["high"]]
                for wrong in (o["low"] - 1, o["high"] + 1):
                    with pytest.raises(OptionError, match=o["name"]):
                        spec.options(g["max_players"], {o["name"]: wrong})
            for value in values:
                spec.options(g["max_players"], {o["name"]: value})
                shown = changed_options(g["game"], {o["name"]: value})
                assert bool(shown) == (value != o["default"]), (o["name"], value, shown)
                offered += 1
    assert offered > 120


def test_a_table_states_what_its_options_change(client: TestClient) -> None:
    register(client, "ann")
    seats = [{"kind": "me"}, {"kind": "open"}]
    body = {"game": "merry-go-round", "seats": seats, "start": False}
    r = post(client, "/api/tables", {**body, "options": {"target": 31, "first_setter": 1}})
    table = client.get(f"/api/tables/{r.json()['id']}").json()
    assert table["rules"] == ["Who sets first: seat 2", "The winning score: 31"]
    listed = client.get("/api/tables").json()["tables"]
    assert [t["rules"] for t in listed] == [table["rules"]]
    body = {**body, "game": "highfive", "options": {"preset": "pda", "bogus_grace": False}}
    r = post(client, "/api/tables", body)
    # bogus_grace false is part of the pda preset, not a change of it
    assert client.get(f"/api/tables/{r.json()['id']}").json()["rules"] == ["Preset: pda"]


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


PAGES = (
    "/",
    "/table/abc",
    "/replay",
    "/leaderboard",
    "/tournaments",
    "/profile/nobody",
    "/tournaments/x/scorecard",
    "/rules",
    "/rules/highfive",
    "/rules/highrise",
    "/rules/nope",
)


def test_every_page_describes_itself(client: TestClient) -> None:
    """One description a page (a search engine's line, a shared link's preview); a rules page
    gives its game's first paragraph as plain text."""
    seen = {}
    for path in PAGES:
        found = re.findall(r'<meta name="description" content="([^"<>]+)">', client.get(path).text)
        assert len(found) == 1 and len(found[0]) > 20, (path, found)
        seen[path] = found[0]
    assert seen["/rules/highrise"].startswith("Highrise is a stacking game for 2 to 4 players")
    assert (
        "  " not in seen["/rules/highfive"]
        and "Professional Domino Association" in seen["/rules/highfive"]
    )
    assert seen["/rules/nope"] == "Boneyard has no game by that name."


def test_migrations_are_idempotent(tmp_path: Path) -> None:
    db = str(tmp_path / "again.db")
    for _ in range(2):
        with TestClient(make_app(db)) as c:
            assert c.get("/api/games").status_code == 200
