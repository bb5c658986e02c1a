"""Hardening, round two (issue 28), in process: each finding reproduced, and shown to fail now.

Sign-in lockouts, rating farms, lobby floods and stalls. The connection flood needs a real
server process (tests/server/ops/test_hardening_live.py); the clockless stall and the claim at a
clocked table are in tests/server/tables/test_table_flow.py, beside the other claims.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from boneyard.server.ratelimit import DEFAULT_LIMITS
from boneyard.store.tournaments import PlayerRating
from tests.server.conftest import (
    ROOMY,
    hooks_settled,
    live,
    make_app,
    metric,
    metrics_text,
    play_moves,
    post,
    receive_until,
    register,
    use,
    wait_for,
)


def csrf_for(c: TestClient) -> dict[str, str]:
    c.get("/api/me")
    return {"X-CSRF-Token": c.cookies.get("boneyard_csrf") or ""}


# -- 2: nobody can lock another person out -----------------------------------------------------


def test_nobody_can_lock_another_person_out(
    db_path: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 28, 2: five wrong passwords from each of 8 addresses locked the owner out (429 for
    their right password, all day). Now failures count per address and account and per
    address: the owner, from an address that has not failed, signs in, and is told."""
    from boneyard.server.accounts import service

    monkeypatch.setattr(service, "SLOW_SECONDS", 0.01)
    limits = {"login_account": "10/15 minutes"}  # (the default: the slowdown's threshold)
    with TestClient(proxied(make_app(db_path, limits={**DEFAULT_LOGIN, **limits}))) as c:
        register(c, "ann", "correct horse")
        use(c, None)

        def attempt(password: str, address: str) -> Any:
            c.cookies.clear()
            return c.post(
                "/api/login",
                json={"username": "ann", "password": password},
                headers={**csrf_for(c), "X-Forwarded-For": address},
            )

        codes = [
            attempt("wrong guess", f"10.0.0.{i}").status_code for i in range(8) for _ in range(5)
        ]
        assert codes == [400] * 40  # each address: 5 failures, all answered "wrong"
        # Those addresses are held back (the pair's limit), and slowed (many fail on "ann")...
        again = attempt("wrong guess", "10.0.0.3")
        assert again.status_code == 429 and "from your address" in again.json()["detail"]
        assert "Retry-After" in again.headers
        # ... the owner, from her own address, is not: she signs in and is told.
        mine = attempt("correct horse", "192.0.2.7")
        assert mine.status_code == 200, mine.text
        told = mine.json()["failed_sign_ins"]
        assert told["count"] == 40 and told["since"]
        assert c.get("/api/me").json()["user"]["username"] == "ann"
        assert attempt("correct horse", "192.0.2.7").json()["failed_sign_ins"] is None  # once
        # The operator sees it: /metrics and the log.
        text = metrics_text(c)
        assert metric(text, "boneyard_login_failed_total") == 40
        assert metric(text, "boneyard_login_slowed_total") >= 1
        assert 'boneyard_refused_total{limit="login_pair"}' in text
        assert any("keeps failing from several addresses" in r.message for r in caplog.records)


def proxied(app: Any) -> Any:
    """``app`` behind uvicorn's proxy headers, as ``boneyard serve`` runs it (the test client
    is the trusted proxy): each request's ``X-Forwarded-For`` is its address."""
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    return ProxyHeadersMiddleware(app, trusted_hosts=["testclient"])


DEFAULT_LOGIN = {name: DEFAULT_LIMITS[name] for name in ("login_pair", "login_failed", "login")}
"""The site's own sign-in limits (make_app lifts every limit unless a test sets it)."""


def test_an_address_that_fails_too_often_is_held_back_and_waits_when_it_keeps_failing_on_one_account(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from boneyard.server.accounts import service

    monkeypatch.setattr(service, "SLOW_SECONDS", 0.01)
    limits = {"login_failed": "6/hour", "login_account": "3/15 minutes", "login_pair": "100/hour"}
    with TestClient(proxied(make_app(db_path, limits=limits))) as c:
        register(c, "bob", "correct horse")
        register(c, "cyd", "correct horse")
        use(c, None)

        def attempt(user: str, password: str, address: str) -> int:
            c.cookies.clear()
            return int(
                c.post(
                    "/api/login",
                    json={"username": user, "password": password},
                    headers={**csrf_for(c), "X-Forwarded-For": address},
                ).status_code
            )

        def slowed() -> float:
            return metric(metrics_text(c), "boneyard_login_slowed_total")

        assert [attempt("bob", "nope", f"10.1.0.{i}") for i in range(3)] == [400] * 3
        assert slowed() == 0  # (three failures: the account is not yet "failing from many")
        assert attempt("bob", "nope", "10.1.0.1") == 400 and slowed() == 1
        assert attempt("bob", "correct horse", "10.9.9.9") == 200  # a clean address: no wait
        assert slowed() == 1
        # One address failing on any accounts: held back after 6 failures in an hour.
        codes = [attempt("cyd", "nope", "10.2.0.1") for _ in range(7)]
        assert codes == [400] * 6 + [429]


# -- 3: rating farms ---------------------------------------------------------------------------


def rating(c: TestClient, player: str) -> tuple[float, int] | None:
    """``player``'s High Five two-player rating (mu, games), or ``None``."""

    async def read() -> tuple[float, int] | None:
        async with c.app.state.sessions() as db:  # type: ignore[attr-defined]
            row = await db.scalar(
                select(PlayerRating).where(
                    PlayerRating.player == player, PlayerRating.category == "2p"
                )
            )
            return None if row is None else (row.mu, row.games)

    return c.portal.call(read)  # type: ignore[union-attr]


def duel(c: TestClient, host: dict[str, Any], other: dict[str, Any], **extra: Any) -> Any:
    """``host`` opens a High Five table (the default clock unless ``extra`` says), ``other``
    takes the open seat, ``host`` starts it; the live table."""
    use(c, host)
    body = {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}], **extra}
    tid = post(c, "/api/tables", body).json()["id"]
    use(c, other)
    assert post(c, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 200
    use(c, host)
    assert post(c, f"/api/tables/{tid}/start").status_code == 200
    return live(c, tid)


def leave(c: TestClient, jar: dict[str, Any], table: Any, message: dict[str, Any]) -> None:
    """The person of ``jar`` sends ``message`` (resign, a claim) and sees the game end."""
    use(c, jar)
    with c.websocket_connect(f"/ws/tables/{table.id}") as ws:
        ws.receive_json()
        ws.send_json(message)
        receive_until(ws, lambda m: m["type"] in ("view", "resync") and bool(m.get("ending")))
    hooks_settled(c)


def test_the_resign_before_moving_farm_leaves_both_ratings_as_they_were(db_path: str) -> None:
    """Issue 28, 3: a second account joined, the creator started, the partner resigned before
    any move: rated as a full game (+306 in 30 s, first on the leaderboard). Now such a game
    is not rated, whoever resigns or leaves; the same two are rated three times a day at most;
    a newcomer is listed once they have met three different opponents."""
    with TestClient(make_app(db_path, claim_after=0)) as c:
        ann, sock = register(c, "ann"), register(c, "sock")
        ids = {}
        for name, jar in (("ann", ann), ("sock", sock)):
            use(c, jar)
            ids[name] = f"u:{c.get('/api/me').json()['user']['id']}"
        # One real game first: both move, then Sock resigns. Rated.
        table = duel(c, ann, sock)
        play_moves(c, table, {0: 2, 1: 2})
        leave(c, sock, table, {"type": "resign"})
        before = {name: rating(c, key) for name, key in ids.items()}
        assert before["ann"] is not None and before["sock"] is not None
        assert before["ann"][0] > before["sock"][0] and before["ann"][1] == 1
        # The farm: resign before moving (three times), leave and be claimed against...
        for _ in range(3):
            leave(c, sock, duel(c, ann, sock), {"type": "resign"})
        leave(c, ann, duel(c, ann, sock), {"type": "claim", "seat": 1, "how": "win"})
        # ... Sock moved once and resigned; they played without a clock.
        table = duel(c, ann, sock)
        play_moves(c, table, {1: 1})
        leave(c, sock, table, {"type": "resign"})
        table = duel(c, ann, sock, clock=None)
        play_moves(c, table, {0: 2, 1: 2})
        leave(c, sock, table, {"type": "resign"})
        assert {name: rating(c, key) for name, key in ids.items()} == before
        # Two more real games are rated; a fourth between the same two in a day is not.
        for _ in range(3):
            table = duel(c, ann, sock)
            play_moves(c, table, {0: 2, 1: 2})
            leave(c, sock, table, {"type": "resign"})
        assert rating(c, ids["ann"])[1] == 3  # type: ignore[index]
        # Ann has met one opponent: not on the leaderboard yet, only counted.
        board = c.get("/api/leaderboard?game=highfive&category=2p").json()
        assert board["ratings"] == [] and board["people"] == 2 and board["unranked"] == 2
        assert board["ranked_opponents"] == 3
        # Two more opponents: she is listed (rated games with each), they are not.
        for name in ("bea", "cyd"):
            table = duel(c, ann, register(c, name))
            play_moves(c, table, {0: 2, 1: 2})
            leave(c, ann, table, {"type": "resign"})
        board = c.get("/api/leaderboard?game=highfive&category=2p").json()
        assert [r["name"] for r in board["ratings"]] == ["ann"]
        assert board["ratings"][0]["provisional"] and board["unranked"] == 3
        every = c.get("/api/ratings?game=highfive&category=2p").json()["ratings"]
        assert {r["name"]: r["ranked"] for r in every} == {
            "ann": True, "sock": False, "bea": False, "cyd": False
        }  # fmt: skip


# -- 4: the lobby flood ------------------------------------------------------------------------


def guest_from(c: TestClient, name: str, address: str) -> None:
    """Sign ``c`` in as a new guest from ``address``."""
    c.cookies.clear()
    r = c.post("/api/guest", json={"display_name": name}, headers=from_(c, address))
    assert r.status_code == 200, r.text


def from_(c: TestClient, address: str) -> dict[str, str]:
    return {**csrf_for(c), "X-Forwarded-For": address}


OPEN = {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}]}


def test_open_tables_are_capped_per_address_and_per_guest(db_path: str) -> None:
    """Issue 28, 4: 60 guests (20 an hour from one address), 3 tables each, made 180 open
    tables. Now one address opens at most 6, a guest 1 (the site's defaults)."""
    settings = replace(ROOMY, open_tables_per_person=3, open_tables_per_guest=1)
    settings = replace(settings, open_tables_per_address=6)
    with TestClient(proxied(make_app(db_path, settings=settings))) as c:
        codes: dict[int, int] = {}
        for i in range(20):
            guest_from(c, f"Flood{i}", "10.5.0.1")
            for _ in range(3):
                r = c.post("/api/tables", json=OPEN, headers=from_(c, "10.5.0.1"))
                codes[r.status_code] = codes.get(r.status_code, 0) + 1
        assert codes == {200: 6, 429: 54}, codes
        assert "from your address" in r.json()["detail"]
        guest_from(c, "Solo", "10.5.0.2")
        assert c.post("/api/tables", json=OPEN, headers=from_(c, "10.5.0.2")).status_code == 200
        r = c.post("/api/tables", json=OPEN, headers=from_(c, "10.5.0.2"))
        assert r.status_code == 429 and "for a guest" in r.json()["detail"]
        # Playing a bot is not waiting for players: never held back by these caps.
        assert post(c, "/api/quickplay").status_code == 200
        assert "open_tables_address" in metrics_text(c)


def test_a_waiting_person_is_listed_first_whatever_floods_the_lobby(db_path: str) -> None:
    """Caps aside (many addresses), 180 flooding tables and bot tables never push a table
    whose person waits at it off the list's first page; the list is paged, and a person
    always sees their own tables."""
    with TestClient(make_app(db_path)) as c:
        honest = register(c, "honest")
        mine = post(c, "/api/tables", OPEN).json()["id"]
        away = post(c, "/api/tables", OPEN).json()["id"]  # (hers too, she is not at it)
        bots = {"game": "highfive", "seats": [{"kind": "bot", "bot": "random"}] * 2}
        for i in range(60):
            guest_from(c, f"Flood{i}", f"10.6.{i}.1")
            for _ in range(3):
                assert post(c, "/api/tables", OPEN).status_code == 200
        for _ in range(5):
            assert post(c, "/api/tables", bots).status_code == 200
        use(c, honest)
        with c.websocket_connect(f"/ws/tables/{mine}"):  # she waits at her table
            wait_for(lambda: c.get("/api/tables").json()["tables"][0]["id"] == mine)
            first = c.get("/api/tables").json()
            assert first["total"] == 187 and first["pages"] == 4 and len(first["tables"]) == 50
            assert {t["id"] for t in first["mine"]} == {mine, away}
            last = c.get("/api/tables?page=4").json()["tables"]
            assert all(t["seats"][0]["kind"] == "bot" for t in last[-5:])  # bots last
            use(c, None)  # signed out: the same page, no "mine"
            assert c.get("/api/tables").json()["tables"][0]["id"] == mine
            assert c.get("/api/tables").json()["mine"] == []
            assert c.get("/api/tables?page=0").status_code == 422
