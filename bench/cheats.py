"""Issue 28's cheats against a live ``boneyard serve`` with the site's default settings: locking
an account out, farming a rating with a second account, flooding the lobby, stalling a game,
and an absent opponent at a table with a clock (issue 27).

Each prints one line of figures through ``bench/abuse.py --attacks NAME``; traffic goes to
127.0.0.1 only (other addresses are named in ``X-Forwarded-For``, which the server trusts from
the loopback as it would from nginx), every attack bounded in count and time.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

from bench.attacks import next_view
from bench.faults import Http, Server
from bench.flood import metric_value

OPEN = {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}]}


async def person(srv: Server, address: str, name: str, password: str | None = None) -> Http:
    """A guest (no ``password``) or a new account ``name``, signed in from ``address``."""
    h = Http(srv.base)
    h.client.headers["X-Forwarded-For"] = address
    if password is None:
        r = await h.post("/api/guest", {"display_name": name})
    else:
        r = await h.post("/api/register", {"username": name, "password": password})
    r.raise_for_status()
    return h


def tally(codes: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for code in codes:
        out[code] = out.get(code, 0) + 1
    return out


async def lockout(srv: Server) -> dict[str, Any]:
    """2: five wrong passwords for one account from each of 8 addresses; then its owner, from
    an address that has not failed."""
    owner = await person(srv, "198.51.100.7", "owner", "correct horse battery")
    await owner.close()
    quiet_ms, _ = await owner_signs_in(srv)  # before the attack: the peer figure
    codes: list[int] = []
    started = time.perf_counter()
    for i in range(8):
        bad = Http(srv.base)
        bad.client.headers["X-Forwarded-For"] = f"203.0.113.{i}"
        for _ in range(5):
            r = await bad.post("/api/login", {"username": "owner", "password": "guess"})
            codes.append(r.status_code)
        again = (
            await bad.post("/api/login", {"username": "owner", "password": "guess"})
        ).status_code
        await bad.close()
    attack_s = time.perf_counter() - started
    slowed = await metric(srv, "boneyard_login_slowed_total")
    ms, r = await owner_signs_in(srv)
    return {
        "attempts": tally(codes),
        "a_sixth_from_a_failed_address": again,
        "attack_s": round(attack_s, 1),
        "attempts_slowed": slowed,
        "owner": r.status_code,
        "owner_ms_before_the_attack": round(quiet_ms, 1),
        "owner_ms": round(ms, 1),
        "owner_slowed": await metric(srv, "boneyard_login_slowed_total") - slowed,
        "owner_told": (r.json().get("failed_sign_ins") or {}).get("count"),
    }


async def owner_signs_in(srv: Server) -> tuple[float, Any]:
    """The owner signs in from an address that never failed: the time (ms) and the answer."""
    mine = Http(srv.base)
    mine.client.headers["X-Forwarded-For"] = "198.51.100.8"
    t0 = time.perf_counter()
    r = await mine.post("/api/login", {"username": "owner", "password": "correct horse battery"})
    ms = (time.perf_counter() - t0) * 1000
    await mine.close()
    return ms, r


async def metric(srv: Server, name: str) -> float:
    """The sample ``name`` of the server's /metrics."""
    async with httpx.AsyncClient(base_url=srv.base, timeout=30) as h:
        return metric_value((await h.get("/metrics")).text, name)


async def play_two_moves_each(players: dict[int, Http], tid: str) -> None:
    """Both seats make two moves (their first legal move each time), through their sockets."""
    made = dict.fromkeys(players, 0)
    base = str(players[0].client.base_url).replace("http", "ws", 1)
    sockets = {
        seat: await connect(
            f"{base}/ws/tables/{tid}", additional_headers={"Cookie": h.cookie_header()}
        )
        for seat, h in players.items()
    }
    try:
        views = {seat: await next_view(ws) for seat, ws in sockets.items()}
        while min(made.values()) < 2:
            seat = next(s for s, v in views.items() if v["moves"])
            move = {"seq": views[seat]["version"], "action": views[seat]["moves"][0]["event"]}
            await sockets[seat].send(json.dumps(move))
            made[seat] += 1
            views = {s: await next_view(ws) for s, ws in sockets.items()}
    finally:
        for ws in sockets.values():
            await ws.close()


async def rating_of(h: Http, name: str) -> int | None:
    """``name``'s High Five two-player rating as /api/ratings shows it."""
    board = (await h.client.get("/api/ratings?game=highfive&category=2p")).json()["ratings"]
    return next((r["rating"] for r in board if r["name"] == name), None)


async def duel(host: Http, other: Http, body: dict[str, Any] = OPEN) -> str:
    """``host`` opens a table, ``other`` joins, ``host`` starts it (waiting out the limit on
    new tables, as a farmer would); its id."""
    r = await host.post("/api/tables", body)
    while r.status_code == 429:
        await asyncio.sleep(int(r.headers.get("Retry-After", "5")))
        r = await host.post("/api/tables", body)
    tid: str = r.json()["id"]
    (await other.post(f"/api/tables/{tid}/join", {"seat": 1})).raise_for_status()
    (await host.post(f"/api/tables/{tid}/start")).raise_for_status()
    return tid


async def settle(h: Http, tid: str) -> None:
    """Wait until ``tid`` is over (its rating hook runs right after)."""
    for _ in range(100):
        if (await h.client.get(f"/api/tables/{tid}")).json()["status"] == "over":
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)


async def rating_farm(srv: Server) -> dict[str, Any]:
    """3: a second account joins, the game starts, it resigns before moving (10 times); then
    four real games (two moves each, then a resignation) between the same two."""
    farmer = await person(srv, "198.51.100.20", "farmer", "correct horse battery")
    sock = await person(srv, "198.51.100.21", "sockpuppet", "correct horse battery")
    started = time.perf_counter()
    for _ in range(10):
        tid = await duel(farmer, sock)
        async with connect(
            f"{srv.ws_base}/ws/tables/{tid}", additional_headers={"Cookie": sock.cookie_header()}
        ) as ws:
            await ws.send(json.dumps({"type": "resign"}))
            await next_view(ws)
        await settle(farmer, tid)
    farm_s = time.perf_counter() - started
    after_farm = await rating_of(farmer, "farmer")
    real = []
    for _ in range(4):
        tid = await duel(farmer, sock)
        await play_two_moves_each({0: farmer, 1: sock}, tid)
        async with connect(
            f"{srv.ws_base}/ws/tables/{tid}", additional_headers={"Cookie": sock.cookie_header()}
        ) as ws:
            await ws.send(json.dumps({"type": "resign"}))
            await next_view(ws)
        await settle(farmer, tid)
        real.append(await rating_of(farmer, "farmer"))
    board = (await farmer.client.get("/api/leaderboard?game=highfive&category=2p")).json()
    await farmer.close()
    await sock.close()
    return {
        "farm_games": 10,
        "farm_s": round(farm_s, 1),
        "farmer_rating_after_farm": after_farm,
        "farmer_rating_after_each_real_game": real,
        "leaderboard_lists": [r["name"] for r in board["ratings"]],
        "not_listed_yet": board["unranked"],
    }


async def lobby_flood(srv: Server) -> dict[str, Any]:
    """4: 60 guests (20 from each of 3 addresses: the guest limit), 3 tables each; then 60
    accounts from 60 addresses, 3 each (180 tables: no cap per address sees them) beside a
    person waiting at hers."""
    one: list[int] = []
    for i in range(60):
        g = await person(srv, f"192.0.2.{i % 3}", f"Flood{i}")
        one += [(await g.post("/api/tables", OPEN)).status_code for _ in range(3)]
        await g.close()
    honest = await person(srv, "198.51.100.30", "waiting", "correct horse battery")
    mine = (await honest.post("/api/tables", OPEN)).json()["id"]
    many: list[int] = []
    started = time.perf_counter()
    for i in range(60):
        a = await person(srv, f"10.60.{i}.1", f"spam{i}", "correct horse battery")
        many += [(await a.post("/api/tables", OPEN)).status_code for _ in range(3)]
        await a.close()
    flood_s = time.perf_counter() - started
    async with connect(
        f"{srv.ws_base}/ws/tables/{mine}", additional_headers={"Cookie": honest.cookie_header()}
    ):
        await asyncio.sleep(0.5)
        t0 = time.perf_counter()
        first = (await Http(srv.base).client.get("/api/tables")).json()
        list_ms = (time.perf_counter() - t0) * 1000
    place = (
        [t["id"] for t in first["tables"]].index(mine)
        if any(t["id"] == mine for t in first["tables"])
        else None
    )
    await honest.close()
    return {
        "three_addresses": tally(one),
        "sixty_addresses": tally(many),
        "flood_s": round(flood_s, 1),
        "listed_tables": first["total"],
        "pages": first["pages"],
        "honest_place_on_page_1": None if place is None else place + 1,
        "list_ms": round(list_ms, 1),
    }


async def stall_claim(srv: Server) -> dict[str, Any]:
    """5: at a table without a clock, the player to act stays connected and never moves; the
    other claims (the server runs with --stall-after 5)."""
    a = await person(srv, "198.51.100.40", "StallA")
    b = await person(srv, "198.51.100.41", "StallB")
    tid = await duel_without_clock(a, b)
    who = {0: a, 1: b}
    sockets = {
        s: await connect(
            f"{srv.ws_base}/ws/tables/{tid}", additional_headers={"Cookie": h.cookie_header()}
        )
        for s, h in who.items()
    }
    first = await next_view(sockets[0])
    staller = first["stall"]["seat"]
    other = sockets[1 - staller]
    started = time.perf_counter()
    first = refused = await claim(other, staller)
    while "has not moved" in (refused or ""):
        await asyncio.sleep(0.5)
        refused = await claim(other, staller)
    waited = time.perf_counter() - started
    for ws in sockets.values():
        await ws.close()
    await a.close()
    await b.close()
    return {
        "first_answer": first,
        "claimed_after_s": round(waited, 1),
        "answer": refused or "claimed",
    }


async def duel_without_clock(host: Http, other: Http) -> str:
    return await duel(host, other, {**OPEN, "clock": None})


async def claim(ws: Any, seat: int) -> str | None:
    """Claim the win over ``seat``: ``None`` when the game ended, else the refusal."""
    await ws.send(json.dumps({"type": "claim", "seat": seat, "how": "win"}))
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if msg.get("type") == "error":
            return str(msg["message"])
        if msg.get("type") in ("view", "resync") and msg.get("ending"):
            return None


async def absent_claim(srv: Server) -> dict[str, Any]:
    """Issue 27: at a table with the default clock, the opponent closes the page; the other
    claims (the server runs with --claim-after 5)."""
    a = await person(srv, "198.51.100.50", "StayA")
    b = await person(srv, "198.51.100.51", "GoneB")
    tid = await duel(a, b)
    async with connect(
        f"{srv.ws_base}/ws/tables/{tid}", additional_headers={"Cookie": b.cookie_header()}
    ) as gone:
        await next_view(gone)
    started = time.perf_counter()
    async with connect(
        f"{srv.ws_base}/ws/tables/{tid}", additional_headers={"Cookie": a.cookie_header()}
    ) as ws:
        view = await next_view(ws)
        answer = await claim(ws, 1)
        first = answer
        while answer is not None and ("may claim after" in answer or "at the table" in answer):
            await asyncio.sleep(0.5)
            answer = await claim(ws, 1)
    await a.close()
    await b.close()
    return {
        "clock_per_move": (view.get("clock") or {}).get("per_move"),
        "first_answer": first,
        "claimed_after_s": round(time.perf_counter() - started, 1),
        "answer": answer or "claimed",
    }


CHEATS = {
    "lockout": lockout,
    "rating_farm": rating_farm,
    "lobby_flood": lobby_flood,
    "stall": stall_claim,
    "absent_claim": absent_claim,
}
ARGS = {"stall": ("--stall-after", "5"), "absent_claim": ("--claim-after", "5")}
"""Server options an attack sets (the waits, shortened)."""
