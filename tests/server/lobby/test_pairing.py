"""Quick pairing (boneyard.server.lobby.pairing): people who choose the same game, number of
players and clock are seated together and their table starts; the pools' counts; a wait whose
page went away pairs nobody; the bot offered after the site's time, or taken at once; bad pools
refused in words; rate limits and the cap per address; and under races — many people joining
at once, through two server processes on one PostgreSQL — nobody is seated twice and nobody is
left waiting beside another in the same pool."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import select, update
from starlette.testclient import TestClient

from boneyard.server.accounts.service import Me
from boneyard.server.lobby import pairing
from boneyard.store.models import GameTable, PairingWait
from tests.server.conftest import ROOMY, make_app, post, register, use
from tests.services import needs_postgres, redis_url, scratch_postgres

HIGH_FIVE = {"game": "highfive", "players": 2, "clock": 60}


def join(c: TestClient, pool: dict[str, Any] = HIGH_FIVE) -> Any:
    r = post(c, "/api/pairing", pool)
    assert r.status_code == 200, r.text
    return r.json()


def test_two_people_who_choose_the_same_game_are_seated_together(client: TestClient) -> None:
    ann = register(client, "ann")
    waiting = join(client)
    assert waiting["table"] is None
    assert waiting["waiting"]["pool"]["key"] == "highfive/2/60"
    assert waiting["waiting"]["here"] == 1 and not waiting["waiting"]["bot_offered"]
    pools = client.get("/api/pairing/pools").json()
    assert pools["clocks"] == [30, 60, 120]
    assert [(p["key"], p["waiting"]) for p in pools["pools"]] == [("highfive/2/60", 1)]
    # Someone waiting for another clock or player count is not paired with Ann.
    register(client, "cid")
    assert join(client, {**HIGH_FIVE, "clock": 30})["table"] is None
    register(client, "bob")
    tid = join(client)["table"]
    assert tid is not None
    use(client, ann)
    assert client.get("/api/pairing").json() == {"waiting": None, "table": tid}
    t = client.get(f"/api/tables/{tid}").json()
    assert sorted(s["name"] for s in t["seats"]) == ["ann", "bob"]
    assert t["status"] == "playing"  # full: started (the tests' seed window is 0)
    assert client.app.state.tables.live[tid].settings["clock"]["per_move"] == 60  # type: ignore[attr-defined]
    left = client.get("/api/pairing/pools").json()["pools"]
    assert [(p["key"], p["waiting"]) for p in left] == [("highfive/2/30", 1)]


def test_a_pool_of_three_waits_for_its_third(client: TestClient) -> None:
    pool = {"game": "highrise", "players": 3, "clock": 120}
    jars = []
    for name in ("ann", "bob"):
        jars.append(register(client, name))
        assert join(client, pool)["table"] is None
    assert join(client, pool)["waiting"]["here"] == 2  # (asking again keeps her place)
    register(client, "cid")
    tid = join(client, pool)["table"]
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert sorted(s["name"] for s in seats) == ["ann", "bob", "cid"]
    for jar in jars:
        use(client, jar)
        assert client.get("/api/pairing").json()["table"] == tid


def test_bad_pools_are_refused_in_words_and_change_nothing(client: TestClient) -> None:
    register(client, "ann")
    for body, words in (
        ({"game": "chess", "players": 2, "clock": 60}, "there is no game 'chess'"),
        ({"game": "highfive", "players": 9, "clock": 60}, "High Five is for 2 to 4 players"),
        ({"game": "highfive", "players": 2, "clock": 45}, "quick pairing plays with 30 s, 60 s"),
    ):
        r = post(client, "/api/pairing", body)
        assert r.status_code == 400 and words in r.json()["detail"], r.text
    assert client.get("/api/pairing").json() == {"waiting": None, "table": None}
    assert client.get("/api/pairing/pools").json()["pools"] == []
    client.cookies.clear()
    client.get("/api/me")
    assert post(client, "/api/pairing", HIGH_FIVE).status_code == 401


def test_leaving_and_a_bot_instead(db_path: str) -> None:
    settings = replace(ROOMY, pairing_bot_after=0.3)
    with TestClient(make_app(db_path, settings=settings)) as c:
        register(c, "ann")
        join(c)
        r = c.request(
            "DELETE", "/api/pairing", headers={"X-CSRF-Token": c.cookies["boneyard_csrf"]}
        )
        assert r.json() == {"waiting": None, "table": None}
        assert c.get("/api/pairing/pools").json()["pools"] == []
        assert join(c, {"game": "high-fives", "players": 3, "clock": 30})["table"] is None
        # The held question comes back when the bot is offered (0.3 s here), not after 20 s.
        offered = c.get("/api/pairing?hold=1").json()["waiting"]
        assert offered["bot_offered"] and offered["waited"] >= 0.3
        tid = post(c, "/api/pairing/bot").json()["table"]
        t = c.get(f"/api/tables/{tid}").json()
        assert t["game"] == "high-fives" and [s["kind"] for s in t["seats"]] == [
            "person",
            "bot",
            "bot",
        ]
        assert c.get("/api/pairing").json() == {"waiting": None, "table": None}
        r = post(c, "/api/pairing/bot")
        assert r.status_code == 400 and r.json()["detail"] == "you are not waiting for a game"


def test_a_wait_whose_page_went_away_pairs_nobody(client: TestClient) -> None:
    ann = register(client, "ann")
    join(client)
    sessions = client.app.state.sessions  # type: ignore[attr-defined]

    async def gone() -> None:  # her page stopped asking a while ago
        async with sessions() as db, db.begin():
            long_ago = pairing.now() - timedelta(seconds=pairing.STALE + 1)
            await db.execute(update(PairingWait).values(seen_at=long_ago))

    client.portal.call(gone)  # type: ignore[union-attr]
    assert client.get("/api/pairing/pools").json()["pools"] == []
    register(client, "bob")
    assert join(client)["table"] is None  # Bob waits: he is not seated with a closed tab
    assert client.get("/api/pairing/pools").json()["pools"][0]["waiting"] == 1
    use(client, ann)  # Ann's page comes back: she is no longer waiting, and may join again
    assert client.get("/api/pairing").json() == {"waiting": None, "table": None}
    assert join(client)["table"] is not None


def test_a_held_question_hears_of_the_table_at_once(client: TestClient) -> None:
    """Ann's page asks with ``hold``; Bob's joining seats her, and her answer comes then (the
    database is looked at again only every 600 s here: it is the news that wakes her)."""
    pools = client.app.state.pairing  # type: ignore[attr-defined]
    pools.slice = pools.hold = 600.0  # (only the news can end the wait)
    ann = register(client, "ann")
    join(client)
    heard: list[Any] = []
    asking = threading.Thread(target=lambda: heard.append(client.get("/api/pairing?hold=1").json()))
    asking.start()  # (Ann's cookies are read before her question is held)
    held = pools.held
    end = pairing.time.monotonic() + 30
    while not held and pairing.time.monotonic() < end:
        pairing.time.sleep(0.01)
    assert held, "the question was never held"
    register(client, "bob")
    tid = join(client)["table"]
    asking.join(30)
    assert heard == [{"waiting": None, "table": tid}]
    use(client, ann)


def test_a_held_question_whose_page_went_away_ends(client: TestClient) -> None:
    """The question of a tab that was closed stops at its next look (5 s; 0.05 s here) and its
    wait stops counting: a closed tab pairs nobody."""
    pools = client.app.state.pairing  # type: ignore[attr-defined]
    pools.hold, pools.slice = 600.0, 0.05
    register(client, "ann")
    join(client)
    me = client.get("/api/me").json()["user"]
    ann = Me(me["id"], me["display_name"], me["username"], False)

    async def closed_tab() -> bool:
        return True

    answers: list[Any] = []
    asking = threading.Thread(
        target=lambda: answers.append(client.portal.call(pools.status, ann, True, closed_tab))  # type: ignore[union-attr]
    )
    asking.start()
    asking.join(30)
    assert answers and answers[0]["waiting"]["pool"]["key"] == "highfive/2/60"
    assert client.get("/api/pairing/pools").json()["pools"] == []  # stale at once
    register(client, "bob")
    assert join(client)["table"] is None  # not seated with Ann's closed tab


def test_pairing_is_rate_limited_and_capped_per_address(db_path: str) -> None:
    settings = replace(ROOMY, pairing_per_address=1)
    with TestClient(make_app(db_path, settings=settings, limits={"pairing": "2/minute"})) as c:
        register(c, "ann")
        join(c)
        join(c)
        r = post(c, "/api/pairing", HIGH_FIVE)
        assert r.status_code == 429 and "too many quick pairings" in r.json()["detail"]
        assert int(r.headers["Retry-After"]) >= 1
        register(c, "bob")  # (the same address as Ann)
        r = post(c, "/api/pairing", {**HIGH_FIVE, "clock": 120})
        assert r.status_code == 429, r.text
        assert r.json()["detail"] == "too many people wait for a game from your address just now"
        assert c.get("/api/pairing").json()["waiting"] is None


# -- races: many people at once, through one process or two ------------------------------------


@contextlib.asynccontextmanager
async def sites(url: str, n: int, broadcast: str | None = None) -> AsyncIterator[list[Any]]:
    """``n`` apps on one database (as ``n`` server processes), started."""
    apps = [make_app(url, broadcast=broadcast) for _ in range(n)]
    async with contextlib.AsyncExitStack() as stack:
        for app in apps:
            await stack.enter_async_context(app.router.lifespan_context(app))
        yield apps


async def guest(app: Any, name: str) -> httpx.AsyncClient:
    """A client of ``app`` signed in as the guest ``name``."""
    h = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")
    await h.get("/api/me")
    h.headers["X-CSRF-Token"] = h.cookies["boneyard_csrf"]
    r = await h.post("/api/guest", json={"display_name": name})
    assert r.status_code == 200, r.text
    h.headers["X-CSRF-Token"] = h.cookies["boneyard_csrf"]
    return h


async def crowd(apps: list[Any], pools: list[dict[str, Any]], rounds: int = 2) -> None:
    """People spread over ``apps`` join ``pools`` all at once (each asks ``rounds`` times,
    through different processes); then nobody is seated twice, every table is full with
    distinct people of its pool, and fewer people wait in each pool than it seats."""
    people = [await guest(apps[i % len(apps)], f"p{i}") for i in range(len(pools))]
    me = [(await h.get("/api/me")).json()["user"]["id"] for h in people]
    through = [
        [twin(h, apps[(i + r) % len(apps)]) for r in range(rounds)] for i, h in enumerate(people)
    ]
    asks = [
        c.post("/api/pairing", json=pools[i])
        for r in range(rounds)
        for i, cs in enumerate(through)
        for c in cs[r : r + 1]
    ]
    answers = await asyncio.gather(*asks)
    for cs in through:
        for c in cs:
            await c.aclose()
    assert {a.status_code for a in answers} <= {200}, [a.text for a in answers if a.is_error]
    async with apps[0].state.sessions() as db:
        tables = (await db.scalars(select(GameTable))).all()
        waits = (await db.scalars(select(PairingWait))).all()
    seated = Counter(s.user_id for t in tables for s in t.seats)
    assert seated and max(seated.values()) == 1, seated  # nobody twice
    for t in tables:
        key = t.settings["paired"]
        assert len(t.seats) == int(key.split("/")[1]) and t.game == key.split("/")[0]
        assert all(s.kind == "person" for s in t.seats)
    waiting = Counter(w.pool for w in waits if w.table_id is None)
    for key, n in waiting.items():
        assert n < int(key.split("/")[1]), waiting  # a full pool would have been seated
    assert sum(waiting.values()) + sum(seated.values()) == len(people)
    paired = {w.user_id: w.table_id for w in waits if w.table_id is not None}
    for t in tables:
        assert all(paired[s.user_id] == t.id for s in t.seats)
    assert set(paired) | {w.user_id for w in waits if w.table_id is None} == set(me)
    for h in people:
        await h.aclose()


def twin(h: httpx.AsyncClient, app: Any) -> httpx.AsyncClient:
    """The same person (cookies, CSRF header) through another process."""
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://testserver",
        cookies=h.cookies,
        headers=dict(h.headers),
    )


MIXED = [HIGH_FIVE] * 9 + [{"game": "highrise", "players": 3, "clock": 30}] * 7


def test_many_people_at_once_on_sqlite(db_path: str) -> None:
    async def run() -> None:
        async with sites(db_path, 1) as apps:
            await crowd(apps, MIXED)

    asyncio.run(run())


@needs_postgres
def test_many_people_at_once_through_two_processes_on_postgresql() -> None:
    with scratch_postgres() as url:

        async def run() -> None:
            async with sites(url, 2, redis_url()) as apps:
                await crowd(apps, MIXED + [{"game": "highfive", "players": 4, "clock": 120}] * 10)

        asyncio.run(run())
