"""Getting a friend to the table: a guest made on the way (the site picks a name, changed
later), a table made to start when full that deals as soon as its last seat is taken (with the
players' seeds for hand 0, or at once without a seed window), and the last seat taken by two
people at once — through two server processes on one PostgreSQL — given to one of them."""

from __future__ import annotations

import asyncio
import re

from sqlalchemy import select
from starlette.testclient import TestClient

from boneyard.store.models import TablePlayer
from tests.server.conftest import make_app, post, register, use, wait_for
from tests.server.lobby.test_pairing import guest, sites
from tests.services import needs_postgres, redis_url, scratch_postgres

OPEN_SEAT = [{"kind": "me"}, {"kind": "open"}]


def test_a_guest_without_a_name_gets_one_and_may_choose_another(client: TestClient) -> None:
    r = post(client, "/api/guest", {})
    assert r.status_code == 200, r.text
    user = r.json()["user"]
    assert user["guest"] and re.fullmatch(r"Guest \d{5}", user["display_name"])
    for name, status, words in (
        ("admin", 400, "that name is reserved"),
        ("", 400, "a display name has 1 to 30 characters"),
    ):
        r = post(client, "/api/me/name", {"display_name": name})
        assert (r.status_code, r.json()["detail"]) == (status, words)
    r = post(client, "/api/me/name", {"display_name": "  Zed  "})
    assert r.json()["user"]["display_name"] == "Zed"
    assert client.get("/api/me").json()["user"]["display_name"] == "Zed"
    register(client, "zoe")  # an account keeps its name here
    r = post(client, "/api/me/name", {"display_name": "Zed2"})
    assert r.status_code == 403 and r.json()["detail"] == "only a guest changes their name here"
    post(client, "/api/logout")
    post(client, "/api/guest", {})
    r = post(client, "/api/me/name", {"display_name": "ZED"})  # (Zed's, whatever its case)
    assert r.status_code == 400 and "taken" in r.json()["detail"]


def test_an_invited_friend_takes_the_free_seat_and_the_table_starts(client: TestClient) -> None:
    ann = register(client, "ann")
    body = {"seats": OPEN_SEAT, "private": True, "start_when_full": True}
    t = post(client, "/api/tables", body).json()
    tid, token = t["id"], t["invite"]
    assert t["status"] == "open"
    register(client, "bob")
    r = post(client, f"/api/tables/{tid}/join", {"seat": 1, "invite": token})
    assert r.status_code == 200, r.text
    shown = r.json()
    assert shown["status"] == "playing"  # full: started, nobody pressed Start
    assert [(s["seat"], s["name"]) for s in shown["seats"]] == [(0, "ann"), (1, "bob")]
    use(client, ann)
    assert post(client, f"/api/tables/{tid}/start").status_code == 400  # (started already)


def test_with_a_seed_window_the_full_table_waits_for_its_seeds(db_path: str) -> None:
    with TestClient(make_app(db_path, seed_window=30)) as c:
        c.get("/api/me")
        ann = register(c, "ann")
        t = post(c, "/api/tables", {"seats": OPEN_SEAT, "start_when_full": True}).json()
        bob = register(c, "bob")
        joined = post(c, f"/api/tables/{t['id']}/join", {"seat": 1}).json()
        assert joined["status"] == "open" and "start_by" in joined  # dealt once seeded
        for jar, seat in ((ann, 0), (bob, 1)):
            use(c, jar)
            with c.websocket_connect(f"/ws/tables/{t['id']}") as ws:
                ws.receive_json()
                ws.send_json({"type": "seed", "hand": 0, "seed": f"seed {seat}"})
                assert ws.receive_json()["type"] == "seed"
        wait_for(lambda: c.get(f"/api/tables/{t['id']}").json()["status"] == "playing", 30)


def test_a_table_not_made_to_start_when_full_still_waits_for_start(client: TestClient) -> None:
    register(client, "ann")
    t = post(client, "/api/tables", {"seats": OPEN_SEAT}).json()
    register(client, "bob")
    assert post(client, f"/api/tables/{t['id']}/join", {"seat": 1}).json()["status"] == "open"


@needs_postgres
def test_the_last_seat_taken_at_once_through_two_processes_goes_to_one() -> None:
    with scratch_postgres() as url:

        async def run() -> None:
            async with sites(url, 2, redis_url()) as apps:
                host = await guest(apps[0], "host")
                body = {"seats": OPEN_SEAT, "start_when_full": True, "clock": None}
                tid = (await host.post("/api/tables", json=body)).json()["id"]
                crowd = [await guest(apps[i % 2], f"g{i}") for i in range(8)]
                answers = await asyncio.gather(
                    *(h.post(f"/api/tables/{tid}/join", json={"seat": 1}) for h in crowd)
                )
                won = [a for a in answers if a.status_code == 200]
                assert len(won) == 1, [a.text for a in answers]
                for a in answers:
                    if a.status_code != 200:
                        assert a.status_code == 400, a.text
                        detail = a.json()["detail"]
                        assert detail in (
                            "that seat was just taken: look at the table again",
                            "that seat is not free",
                            "the game has already started",
                        ), detail
                seats = won[0].json()["seats"]
                for app in apps:  # both processes agree on who sits there
                    h = await guest(app, f"watcher{id(app)}")
                    shown = (await h.get(f"/api/tables/{tid}")).json()
                    assert shown["seats"] == seats
                    await h.aclose()
                async with apps[0].state.sessions() as db:
                    sat = await db.scalars(
                        select(TablePlayer.user_id).where(TablePlayer.table_id == tid)
                    )
                    assert len(sat.all()) == 2  # the host and the one seated
                for h in [host, *crowd]:
                    await h.aclose()

        asyncio.run(run())
