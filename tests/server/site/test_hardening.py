"""Hardening (issue 14), in process: every finding reproduced, and shown to fail now.

The findings that need a real server process (frame sizes, slow connections, chunked bodies, an
upload beside a live game) are in tests/server/ops/test_hardening_live.py.
"""

from __future__ import annotations

import asyncio
import base64
import csv
import hashlib
import io
import re
import secrets
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from boneyard.server.accounts import auth
from boneyard.server.accounts.service import aware
from boneyard.server.middleware.headers import CSP
from boneyard.server.settings import SiteSettings
from boneyard.store.models import GameTable, LogEntry, Session
from boneyard.store.tournaments import PlayerRating
from tests.server.conftest import (
    ROOMY,
    clock_table,
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
from tests.services import needs_redis, redis_url

BOTS2 = {"game": "highfive", "seats": [{"kind": "bot", "bot": "random"}] * 2}


def guest(c: TestClient, name: str) -> dict[str, Any]:
    """Sign ``c`` in as a new guest ``name``; returns its cookie jar."""
    c.cookies.clear()
    c.get("/api/me")
    r = post(c, "/api/guest", {"display_name": name})
    assert r.status_code == 200, r.text
    return dict(c.cookies)


# -- 2, 3: bot-only tables, floods, the lobby and a person's history -------------------------------


def test_a_guests_fifth_bot_only_table_is_refused_and_guests_get_none_by_default(
    db_path: str,
) -> None:
    settings = replace(ROOMY, bot_tables="everyone", bot_tables_per_person=4)
    with TestClient(make_app(db_path, settings=settings)) as c:
        guest(c, "Flo")
        codes = [post(c, "/api/tables", BOTS2).status_code for _ in range(5)]
        assert codes == [200, 200, 200, 200, 429]
        assert "at most 4" in post(c, "/api/tables", BOTS2).json()["detail"]
    default = replace(ROOMY, bot_tables=SiteSettings().bot_tables)  # accounts only
    with TestClient(make_app(db_path + "2", settings=default)) as c:
        c.get("/api/me")
        guest(c, "Gil")
        r = post(c, "/api/tables", BOTS2)
        assert r.status_code == 403 and "sign up" in r.json()["detail"]
        register(c, "hal")
        assert post(c, "/api/tables", BOTS2).status_code == 200


def test_the_site_wide_cap_on_bot_only_tables(db_path: str) -> None:
    settings = replace(ROOMY, bot_tables_total=3)
    with TestClient(make_app(db_path, settings=settings)) as c:
        codes = []
        for i in range(4):
            guest(c, f"Bo{i}")
            codes.append(post(c, "/api/tables", BOTS2).status_code)
        assert codes == [200, 200, 200, 429]
        assert metric(metrics_text(c), 'boneyard_refused_total{limit="bot_tables"}') == 1


def test_bot_only_tables_pause_unwatched_and_close_after_the_idle_time(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        guest(c, "Ida")
        tid = post(c, "/api/tables", BOTS2).json()["id"]
        table = live(c, tid)
        assert table.bot_only and table.version == 1  # dealt, then paused: nobody watches
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            receive_until(ws, lambda m: m["version"] > 3)  # watched: the bots play
        tables = c.app.state.tables  # type: ignore[attr-defined]
        # Unwatched again: the bot driver ends after at most the move under way (the pause)...
        wait_for(lambda: tables.paused(table) and (table.bot_task is None or table.bot_task.done()))
        stopped = table.version
        time.sleep(0.3)  # ... and from then on nothing moves (a window measured from the pause)
        assert table.version == stopped
        tables.unwatched_minutes = 0
        assert tid in c.portal.call(tables.expire)  # type: ignore[union-attr]
        assert c.get(f"/api/tables/{tid}").json()["status"] == "closed"
        assert all(t["id"] != tid for t in c.get("/api/tables").json()["tables"])


def test_table_flooding_is_stopped_and_the_honest_table_and_history_stay(db_path: str) -> None:
    limits = {"tables": "10/minute"}
    with TestClient(make_app(db_path, limits=limits)) as c:
        honest = register(c, "honest")
        me = c.get("/api/me").json()["user"]["id"]
        mine = post(c, "/api/quickplay").json()["id"]
        listed = post(
            c, "/api/tables", {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}]}
        ).json()["id"]
        codes = []
        for i in range(3):  # three flooders, each stopped by the limits
            guest(c, f"Spam{i}")
            for _ in range(15):
                body = {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}]}
                codes.append(post(c, "/api/tables", body).status_code)
        assert codes.count(200) == 3 * ROOMY_OPEN_CAP_IN(c)
        assert 429 in codes
        r = post(
            c, "/api/tables", {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}]}
        )
        assert r.status_code == 429 and "Retry-After" in r.headers
        lobby = [t["id"] for t in c.get("/api/tables").json()["tables"]]
        assert listed in lobby
        use(c, honest)
        history = [g["table"] for g in c.get(f"/api/users/{me}").json()["games"]]
        assert {mine, listed} <= set(history)
        assert {g["id"] for g in c.get("/api/me/games").json()["games"]} == {mine, listed}


def ROOMY_OPEN_CAP_IN(c: TestClient) -> int:
    """How many tables one person may have waiting for players on ``c``'s app."""
    return min(10, int(c.app.state.accounts.settings.open_tables_per_person))  # type: ignore[attr-defined]


def test_a_persons_history_is_indexed_by_person_not_by_the_newest_tables(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        ann = register(c, "ann")
        me = c.get("/api/me").json()["user"]["id"]
        first = post(c, "/api/quickplay").json()["id"]
        guest(c, "Many")
        for _ in range(60):  # other people's tables (the old window looked at the newest only)
            post(
                c, "/api/tables", {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}]}
            )
        use(c, ann)
        assert [g["id"] for g in c.get("/api/me/games").json()["games"]] == [first]
        assert [g["table"] for g in c.get(f"/api/users/{me}").json()["games"]] == [first]


def test_every_numeric_option_is_bounded(client: TestClient) -> None:
    register(client, "ann")
    for game, options in (
        ("merry-go-round", {"target": 10**9}),
        ("high-fives", {"target": 10**9}),
        ("highrise", {"target": 10**9}),
        ("highrise", {"spacers_per_hand": 10**6}),
    ):
        body = {"game": game, "options": options, "seats": [{"kind": "me"}, {"kind": "bot"}]}
        r = post(client, "/api/tables", body)
        assert r.status_code == 400, (game, r.text)
        assert "must be from" in r.json()["detail"] or "cannot be" in r.json()["detail"]


# -- 4: directors act on seats, never as a player --------------------------------------------------


def online_event(c: TestClient) -> tuple[str, int]:
    """An online event run by the signed-in person, with two bot entrants; (id, an entrant)."""
    r = post(c, "/api/tournaments", {"name": "Club night", "game": "highfive"})
    assert r.status_code == 200, r.text
    eid = r.json()["id"]
    r = post(c, f"/api/tournaments/{eid}/bots", {"bot": "greedy", "count": 2})
    assert r.status_code == 200, r.text
    return eid, int(r.json()["entrants"][0]["id"])


def test_a_director_offers_a_place_and_never_takes_a_seat(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        bob = register(c, "bob")
        director = register(c, "dora")
        eid, entrant = online_event(c)
        path = f"/api/tournaments/{eid}/entrants/{entrant}/replace"
        # The answer does not say whether a name exists.
        real = post(c, path, {"username": "bob"})
        fake = post(c, path, {"username": "nobody-here"})
        assert real.status_code == fake.status_code == 200
        assert "message" in real.json() and "message" in fake.json()
        assert real.json()["entrants"] == fake.json()["entrants"]
        # The director's own offer to themselves can never be accepted.
        post(c, path, {"username": "dora"})
        offers = c.get("/api/me/offers").json()["offers"]
        assert len(offers) == 1
        r = post(c, f"/api/tournaments/{eid}/offers/{offers[0]['id']}/accept")
        assert r.status_code == 400 and "director" in r.json()["detail"]
        assert post(c, f"/api/tournaments/{eid}/register").status_code == 400
        # Bob accepts: only then is he the entrant.
        use(c, bob)
        offer = c.get("/api/me/offers").json()["offers"][0]
        r = post(c, f"/api/tournaments/{eid}/offers/{offer['id']}/accept")
        assert r.status_code == 200, r.text
        assert any(e["name"] == "bob" for e in r.json()["entrants"])
        # Started: the director watching a table sees no hand.
        use(c, director)
        post(c, f"/api/tournaments/{eid}/entrants/{entrant}/replace", {"bot": "greedy"})
        assert post(c, f"/api/tournaments/{eid}/start").status_code == 200
        tables = c.app.state.tables.live  # type: ignore[attr-defined]
        tid = next(t for t in tables if tables[t].settings.get("event") == eid)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            view = ws.receive_json()
            assert view["seat"] is None and not (view["view"] or {}).get("hand")


def test_tournaments_are_for_accounts_with_a_cap_and_bots_are_capped(db_path: str) -> None:
    settings = replace(ROOMY, events_per_person=2, event_bots=3)
    with TestClient(make_app(db_path, settings=settings)) as c:
        guest(c, "Gus")
        r = post(c, "/api/tournaments", {"name": "Official PDA World Championship"})
        assert r.status_code == 403 and "sign up" in r.json()["detail"]
        register(c, "eve")
        ids = [post(c, "/api/tournaments", {"name": f"E{i}"}).status_code for i in range(3)]
        assert ids == [200, 200, 429]
        events = c.get("/api/tournaments").json()["events"]
        assert {e["director"] for e in events} == {"eve"}
        eid = events[0]["id"]
        r = post(c, f"/api/tournaments/{eid}/bots", {"bot": "greedy", "count": 4})
        assert r.status_code == 400 and "at most 3 bots" in r.json()["detail"]


# -- 6: a leaver loses; bots are never rated -----------------------------------------------------


def turn_or_end(msg: dict[str, Any]) -> bool:
    """A view in which this seat is to move, or the game is over."""
    return msg["type"] in ("view", "resync") and bool(msg["moves"] or msg["view"]["is_over"])


def rating(c: TestClient, player: str) -> PlayerRating | None:
    async def read() -> PlayerRating | None:
        async with c.app.state.sessions() as db:  # type: ignore[attr-defined]
            found: PlayerRating | None = await db.scalar(
                select(PlayerRating).where(PlayerRating.player == player)
            )
            return found

    return c.portal.call(read)  # type: ignore[union-attr]


def test_a_leaver_is_rated_as_the_loser_and_bots_are_not_rated(db_path: str) -> None:
    # 300 s a move run as 3 s: Ann's runs out soon, Bea (who answers at once) never runs out,
    # even on a machine under heavy load.
    with TestClient(make_app(db_path, clock_scale=0.01)) as c:
        bea = register(c, "bea")
        bea_id = c.get("/api/me").json()["user"]["id"]
        ann = register(c, "ann")
        ann_id = c.get("/api/me").json()["user"]["id"]
        tid = clock_table(c, {"per_move": 300, "grace": 30, "bot": "greedy"}, others="open")
        use(c, bea)
        assert post(c, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 200
        use(c, ann)
        assert post(c, f"/api/tables/{tid}/start").status_code == 200
        table = live(c, tid)
        play_moves(c, table, {0: 2, 1: 2})  # (a game is rated once each has made two moves)
        # Ann walks away; Bea plays on, whatever her moves; bots take Ann's seat and finish.
        use(c, bea)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            while not table.state.is_over:
                msg = receive_until(ws, turn_or_end)
                if msg["moves"]:
                    ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
        wait_for(lambda: rating(c, f"u:{ann_id}") is not None)
        changes = table.settings["seat_changes"]
        assert [(x["event"], x["seat"]) for x in changes] == [("abandoned", 0)]  # Ann's only
        leaver, stayer = rating(c, f"u:{ann_id}"), rating(c, f"u:{bea_id}")
        assert leaver is not None and stayer is not None
        assert leaver.mu < 25 < stayer.mu  # whatever the bot scored for Ann's seat
        assert rating(c, "bot:greedy") is None
        # Against the shared random bot: not rated at all.
        quick = post(
            c, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
        )
        qid = quick.json()["id"]
        with c.websocket_connect(f"/ws/tables/{qid}") as ws:
            while not live(c, qid).state.is_over:
                msg = receive_until(ws, turn_or_end)
                if msg["moves"]:
                    ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
        hooks_settled(c)
        assert rating(c, f"u:{bea_id}").games == 1  # type: ignore[union-attr]
        assert rating(c, "bot:random") is None


# -- 7: a table whose log no longer replays is set aside -----------------------------------------


def test_a_broken_table_is_set_aside_and_the_site_starts(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        register(c, "ann")
        broken = post(c, "/api/quickplay").json()["id"]
        fine = post(c, "/api/quickplay").json()["id"]

        async def damage() -> None:
            async with c.app.state.sessions() as db, db.begin():  # type: ignore[attr-defined]
                seq = 1 + max(
                    (
                        await db.scalars(select(LogEntry.seq).where(LogEntry.table_id == broken))
                    ).all()
                )
                table = c.app.state.tables.live[broken]  # type: ignore[attr-defined]
                db.add(
                    LogEntry(
                        table_id=broken,
                        seq=seq,
                        kind="action",
                        seat=table.state.current_seat,
                        payload={"type": "play", "tile": "9-9", "end": "SPINNER"},
                        created_at=table.last_at,
                    )
                )

        c.portal.call(damage)  # type: ignore[union-attr]
    with TestClient(make_app(db_path)) as c:  # restarts: no exception, the other table lives
        assert metric(metrics_text(c), "boneyard_broken_tables") == 1
        assert c.get(f"/api/tables/{fine}").status_code == 200
        r = c.get(f"/api/tables/{broken}")
        assert r.status_code == 410 and "operator" in r.json()["detail"]

        async def status() -> Any:
            async with c.app.state.sessions() as db:  # type: ignore[attr-defined]
                return await db.get(GameTable, broken)

        row = c.portal.call(status)  # type: ignore[union-attr]
        assert row.status == "broken"
        assert row.settings["broken"]["reason"].startswith("IllegalActionError")
    from typer.testing import CliRunner

    from boneyard.cli.main import app

    out = CliRunner().invoke(app, ["tables", "broken", "--db", db_path])
    assert out.exit_code == 0 and broken in out.stdout and fine not in out.stdout
    out = CliRunner().invoke(app, ["tables", "inspect", broken, "--db", db_path])
    assert out.exit_code == 1 and "9-9" in out.stdout and '"replays_until"' in out.stdout


# -- 8: idempotent actions under races -----------------------------------------------------------


def test_identical_mutes_at_once_all_succeed(db_path: str) -> None:
    app = make_app(db_path)
    with TestClient(app) as c:
        register(c, "bob")
        bob_id = c.get("/api/me").json()["user"]["id"]
        register(c, "ann")
        jar = dict(c.cookies)

        async def race() -> list[int]:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://t", cookies=jar
            ) as h:
                headers = {"X-CSRF-Token": jar["boneyard_csrf"]}
                answers = await asyncio.gather(
                    *(h.post("/api/me/mutes", json={"user_id": bob_id}, headers=headers)
                      for _ in range(50))
                )  # fmt: skip
            return [a.status_code for a in answers]

        assert c.portal.call(race) == [200] * 50  # type: ignore[union-attr]
        assert c.get("/api/me/mutes").json()["muted"] == [{"user_id": bob_id, "name": "bob"}]
        assert metric(metrics_text(c), "boneyard_db_errors_total") == 0


# -- 9: accounts ---------------------------------------------------------------------------------


def test_a_failed_sign_in_takes_as_long_for_a_missing_account(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sign-in that names no account costs what a wrong password costs: one argon2
    verification, against a hash of the same cost (before: 137 ms against 3.4 ms, which told
    who has an account). Counted, not timed: a timing is the machine's load as much as the
    server's work."""
    register(client, "ann")
    use(client, None)
    verified: list[str] = []
    real = auth._hasher

    class Counting:
        def verify(self, hash: str, password: str) -> bool:
            verified.append(hash)
            return real.verify(hash, password)

    monkeypatch.setattr(auth, "_hasher", Counting())

    def attempt(name: str) -> str:
        verified.clear()
        r = post(client, "/api/login", {"username": name, "password": "not the password"})
        assert r.status_code == 400
        assert len(verified) == 1, (name, verified)
        return verified[0]

    stored, dummy = attempt("ann"), attempt("nobody")
    assert dummy != stored
    cost = stored.rsplit("$", 2)[0]  # ($argon2id$v=19$m=…,t=…,p=…: the work a verification does)
    assert dummy.rsplit("$", 2)[0] == cost, (dummy, stored)


def test_passwords_that_are_guessable_are_refused(client: TestClient) -> None:
    for password, why in (
        ("password", "too easy to guess"),
        (" " * 8, "only spaces"),
        ("qwertyuiop", "too easy to guess"),
        ("annabelle", "your name"),
        ("short", "8 characters"),
    ):
        r = post(client, "/api/register", {"username": "annabelle", "password": password})
        assert r.status_code == 400 and why in r.json()["detail"], (password, r.text)
    r = post(client, "/api/register", {"username": "annabelle", "password": "correct horse"})
    assert r.status_code == 200


def test_display_names_are_unique_and_impostors_refused(client: TestClient) -> None:
    register(client, "ann")
    for name, why in (
        ("ANN", "taken"),
        ("ａｎｎ", "taken"),
        ("admin", "reserved"),
        ("Greedy bot 2", "reserved"),
    ):
        client.cookies.clear()
        client.get("/api/me")
        r = post(client, "/api/guest", {"display_name": name})
        assert r.status_code == 400 and why in r.json()["detail"], (name, r.text)
    r = post(client, "/api/register", {"username": "moderator", "password": "correct horse"})
    assert r.status_code == 400 and "reserved" in r.json()["detail"]


def csrf_for(c: TestClient) -> dict[str, str]:
    c.get("/api/me")
    return {"X-CSRF-Token": c.cookies.get("boneyard_csrf") or ""}


def test_the_csrf_token_is_signed_bound_to_the_session_and_renewed_at_sign_in(
    client: TestClient,
) -> None:
    anon = client.cookies.get("boneyard_csrf")
    assert anon and "." in anon
    # A token the attacker made up, matching in cookie and header: refused.
    client.cookies.set("boneyard_csrf", "attacker-chosen")
    r = client.post(
        "/api/guest", json={"display_name": "Eve"}, headers={"X-CSRF-Token": "attacker-chosen"}
    )
    assert r.status_code == 403
    client.cookies.set("boneyard_csrf", anon)
    ann = register(client, "ann")
    assert ann["boneyard_csrf"] != anon  # a new token at sign-in
    # Ann's token with Bob's session: refused.
    bob = register(client, "bob")
    use(client, {**bob, "boneyard_csrf": ann["boneyard_csrf"]})
    r = client.post("/api/quickplay", headers={"X-CSRF-Token": ann["boneyard_csrf"]})
    assert r.status_code == 403
    use(client, bob)
    assert post(client, "/api/quickplay").status_code == 200


def test_sessions_are_listed_and_signing_out_everywhere_ends_them_and_their_sockets(
    db_path: str,
) -> None:
    with TestClient(make_app(db_path)) as c:
        first = register(c, "ann", "correct horse")
        tid = post(c, "/api/quickplay").json()["id"]
        use(c, None)
        r = post(c, "/api/login", {"username": "ann", "password": "correct horse"})
        second = dict(c.cookies)
        sessions = c.get("/api/me/sessions").json()["sessions"]
        assert len(sessions) == 2 and sum(s["current"] for s in sessions) == 1
        use(c, first)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            use(c, second)
            assert post(c, "/api/me/sessions/end-all").json()["ended"] == 2
            with pytest.raises(Exception):  # noqa: B017 (the socket is closed: any receive fails)
                for _ in range(100):
                    ws.receive_json()
        for jar in (first, second):
            use(c, jar)
            assert c.get("/api/me").json()["user"] is None
        assert r.status_code == 200


def test_a_session_is_renewed_by_use_ends_unused_and_never_outlives_its_maximum(
    db_path: str,
) -> None:
    settings = replace(ROOMY, session_days=1.0, session_max_days=2.0)
    with TestClient(make_app(db_path, settings=settings)) as c:
        register(c, "ann")
        key = auth.token_hash(c.cookies["boneyard_session"])

        async def age(hours: float) -> Session:
            """Move the session ``hours`` into the past; returns it as stored."""
            async with c.app.state.sessions() as db, db.begin():  # type: ignore[attr-defined]
                row = await db.get(Session, key)
                assert row is not None
                back = timedelta(hours=hours)
                row.created_at -= back
                row.expires_at -= back
                row.last_seen_at = (row.last_seen_at or row.created_at) - back
                return row

        async def stored() -> Session:
            async with c.app.state.sessions() as db:  # type: ignore[attr-defined]
                row = await db.get(Session, key)
                assert row is not None
                return row

        call = c.portal.call  # type: ignore[union-attr]
        call(age, 20.0)  # used 20 hours ago: still valid, renewed by this use
        assert c.get("/api/me").json()["user"] is not None
        renewed = call(stored)
        assert aware(renewed.expires_at) > datetime.now(UTC) + timedelta(hours=23)
        call(age, 30.0)  # 30 hours unused: over
        assert c.get("/api/me").json()["user"] is None
        register(c, "bea")
        key = auth.token_hash(c.cookies["boneyard_session"])
        for _ in range(3):  # used every 20 hours, but never past the two-day maximum
            call(age, 20.0)
            c.get("/api/me")
        assert c.get("/api/me").json()["user"] is None


# -- 10: headers, CSV, /metrics --------------------------------------------------------------


def test_security_headers_on_every_answer(client: TestClient) -> None:
    page = client.get("/")  # the same policy, and the digest of the page's one inline script
    import_map = re.search(r'<script type="importmap">(.*?)</script>', page.text)
    assert import_map is not None
    digest = base64.b64encode(hashlib.sha256(import_map[1].encode()).digest()).decode()
    allowed = f"script-src 'self' 'sha256-{digest}';"
    assert page.headers["content-security-policy"].replace(allowed, "script-src 'self';") == CSP
    for r in (
        client.get("/api/me"),
        client.get("/static/style.css"),
        client.post("/api/logout"),  # refused (no CSRF header): headers all the same
        client.get("/api/tables/nope"),
    ):
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"
        assert "strict-transport-security" not in r.headers  # plain HTTP
    https = client.get("/api/me", headers={"X-Forwarded-Proto": "https"})
    assert https.status_code == 200


def test_metrics_need_the_token_or_this_machine(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        assert c.get("/metrics").status_code == 403
        assert c.get("/metrics", headers={"Authorization": "Bearer nope"}).status_code == 403
        assert "boneyard_live_tables" in metrics_text(c)
    no_token = replace(ROOMY, metrics_token=None)
    with TestClient(make_app(db_path, settings=no_token)) as c:
        assert c.get("/metrics").status_code == 403  # "testclient" is not this machine
    with TestClient(make_app(db_path, settings=no_token), client=("127.0.0.1", 5000)) as c:
        assert c.get("/metrics").status_code == 200


def test_score_card_csv_cells_cannot_be_formulas(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        director = register(c, "tom")
        eid = post(
            c, "/api/tournaments", {"name": "@Club", "mode": "otb", "schedule": "bo1"}
        ).json()["id"]
        jars = []
        for username, display in (("cara", '=HYPERLINK("http://x","prize")'), ("dan", "+1 Dan")):
            c.cookies.clear()
            c.get("/api/me")
            body = {"username": username, "password": "correct horse", "display_name": display}
            assert post(c, "/api/register", body).status_code == 200
            jars.append(dict(c.cookies))
            assert post(c, f"/api/tournaments/{eid}/register").status_code == 200
            assert post(c, f"/api/tournaments/{eid}/checkin").status_code == 200
        use(c, director)
        assert post(c, f"/api/tournaments/{eid}/start").status_code == 200
        use(c, jars[0])
        r = post(c, f"/api/tournaments/{eid}/matches/R1M1/report", {"score_a": 150, "score_b": 90})
        assert r.status_code == 200, r.text
        text = c.get(f"/api/tournaments/{eid}/scorecards.csv").text
        cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
        assert '\'=HYPERLINK("http://x","prize")' in cells and "'+1 Dan" in cells
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)


@needs_redis
def test_limits_hold_across_processes_that_share_redis(tmp_path: Any) -> None:
    """Two processes (apps) on one database and one Redis: a limit of 3 failed sign-ins to an
    account from one address allows 3 in all, not 3 per process (before: N processes, N times
    looser)."""
    db = str(tmp_path / "shared.db")
    name = f"ann{secrets.token_hex(4)}"  # (the Redis counters outlive the test)
    kw: dict[str, Any] = {"broadcast": redis_url(), "limits": {"login_pair": "3/minute"}}
    with TestClient(make_app(db, **kw)) as a, TestClient(make_app(db, **kw)) as b:
        register(a, name)
        codes = []
        for c in (a, b, a, b, a):
            use(c, None)
            codes.append(
                post(c, "/api/login", {"username": name, "password": "a wrong one"}).status_code
            )
        assert codes == [400, 400, 400, 429, 429]
