"""The attacks of issue 14, against a live ``boneyard serve`` with the site's default settings.

Each attack is what a determined vandal did before the hardening; each prints one line of figures
(what got through, what was refused, how the honest player fared). Run through
``bench/abuse.py --attacks``; figures in docs/operations.md. Traffic goes to 127.0.0.1 only, and
every attack is bounded in count and time.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
import statistics
import struct
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from bench.faults import Http, Server, guest
from boneyard.bots import GreedyBot
from boneyard.games.registry import get_spec, play_out

Attack = Callable[[Server], Awaitable[dict[str, Any]]]


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def long_record(target: int = 500) -> dict[str, Any]:
    """A long Merry-Go-Round game (4 players): about 800 events at 500."""
    state = get_spec("merry-go-round").new_game(4, {"target": target})
    play_out(state, [GreedyBot(random.Random(i)).choose for i in range(4)], random.Random(3))
    return state.record()


async def next_view(ws: Any) -> dict[str, Any]:
    """The next view (or resync) a socket receives, once the game has started."""
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if msg.get("type") in ("view", "resync") and msg.get("view") is not None:
            return msg


def percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0-1) of ``values``, nearest rank (``None`` for none).

    >>> percentile([float(x) for x in range(1, 101)], 0.95)
    95.0
    """
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * len(ordered)) - 1))]


async def guest_from(base: str, name: str, address: str | None) -> Http:
    """A guest signed in from the loopback ``address`` (``None``: the default, 127.0.0.1)."""
    h = Http(base)
    if address is not None:
        await h.client.aclose()
        transport = httpx.AsyncHTTPTransport(local_address=address)
        h.client = httpx.AsyncClient(base_url=base, timeout=30, transport=transport)
    (await h.post("/api/guest", {"display_name": name})).raise_for_status()
    return h


async def honest_moves(
    srv: Server,
    during: Callable[[str], Awaitable[Any]],
    address: str | None = None,
    raw: bool = False,
) -> dict[str, Any]:
    """A person (from ``address``) plays a bot while ``during(table)`` runs (given the person's
    table); the round trip of each of their moves (``raw``: also each move's send time and
    milliseconds, ``moves_at``)."""
    me = await guest_from(srv.base, f"Honest{random.randrange(10**6)}", address)
    tid = (await me.post("/api/quickplay")).json()["id"]
    latencies: list[float] = []
    sent_at: list[float] = []
    bind = {"local_addr": (address, 0)} if address else {}
    async with connect(
        f"{srv.ws_base}/ws/tables/{tid}",
        additional_headers={"Cookie": me.cookie_header()},
        **bind,  # type: ignore[arg-type]
    ) as ws:
        # As a browser does: its seed for hand 0, so that the table deals at once.
        await ws.send(json.dumps({"type": "seed", "hand": 0, "seed": "honest player's seed"}))
        view = await next_view(ws)
        task = asyncio.create_task(during(tid))
        while not task.done() and not view["view"]["is_over"]:
            end = view.get("hand_end") or {}
            if end.get("waiting") and view["seat"] not in end.get("continued", []):
                # A hand's end: Continue, as a person does, so that moves go on through the attack.
                await ws.send(json.dumps({"type": "continue", "hand": end["hand"]}))
                view = await next_view(ws)
            elif view["moves"]:
                await asyncio.sleep(0.05)  # a person's pace
                sent = time.perf_counter()
                move = {"seq": view["version"], "action": view["moves"][0]["event"]}
                await ws.send(json.dumps(move))
                view = await next_view(ws)  # the answer to the move
                latencies.append(time.perf_counter() - sent)
                sent_at.append(sent)
            else:
                view = await next_view(ws)
        result = await task
    await me.close()
    ms = [x * 1000 for x in latencies]
    return {
        "moves": len(ms),
        "move_ms_p50": round(statistics.median(ms), 1) if ms else None,
        "move_ms_p95": round(percentile(ms, 0.95) or 0, 1) if ms else None,
        "move_ms_max": round(max(ms), 1) if ms else None,
        "during": result,
        **({"moves_at": list(zip(sent_at, ms, strict=True))} if raw else {}),
    }


async def uploads(srv: Server) -> dict[str, Any]:
    """1: a 19,500-event record, and long records uploaded six at once beside a live game."""
    record = long_record()
    big = dict(record, hands=record["hands"] * 24)  # ~20,000 events
    async with httpx.AsyncClient(base_url=srv.base, timeout=120) as h:
        await h.get("/api/me")
        started = time.perf_counter()
        r = await h.post(
            "/api/replays",
            json={"record": big},
            headers={"X-CSRF-Token": h.cookies["boneyard_csrf"]},
        )
        refused_ms = round((time.perf_counter() - started) * 1000, 1)
        refused = {
            "status": r.status_code,
            "ms": refused_ms,
            "events": 24 * sum(len(x["events"]) for x in record["hands"]),
        }

    async def six(_table: str) -> dict[str, Any]:
        async def one(i: int) -> int:
            async with httpx.AsyncClient(base_url=srv.base, timeout=120) as u:
                await u.get("/api/me")
                headers = {
                    "X-CSRF-Token": u.cookies["boneyard_csrf"],
                    "X-Forwarded-For": f"10.9.0.{i}",
                }
                return (
                    await u.post("/api/replays", json={"record": record}, headers=headers)
                ).status_code

        started = time.perf_counter()
        codes = await asyncio.gather(*(one(i) for i in range(6)))
        return {"answers": sorted(codes), "seconds": round(time.perf_counter() - started, 2)}

    beside = await honest_moves(srv, six)
    return {"oversized_record": refused, "six_long_uploads": beside}


async def chunked_body(srv: Server) -> dict[str, Any]:
    """1: a 100 MB chunked body (no Content-Length)."""
    assert srv.proc is not None
    before = rss_mb(srv.proc.pid)

    async def chunks() -> Any:
        yield b'{"record": {"x": "'
        for _ in range(100):
            yield b"x" * 1_000_000
        yield b'"}}'

    async with httpx.AsyncClient(base_url=srv.base, timeout=60) as h:
        await h.get("/api/me")
        started = time.perf_counter()
        try:
            r = await h.post(
                "/api/replays",
                content=chunks(),
                headers={
                    "X-CSRF-Token": h.cookies["boneyard_csrf"],
                    "Content-Type": "application/json",
                },
            )
            status = r.status_code
        except httpx.HTTPError:  # refused (413) and closed: the client's send fails midway
            status = "closed by the server while sending"
    return {
        "status": status,
        "seconds": round(time.perf_counter() - started, 2),
        "rss_growth_mb": round(rss_mb(srv.proc.pid) - before, 1),
    }


async def from_address(srv: Server, name: str, address: str) -> Http:
    """A guest signed in from ``address`` (as nginx forwards it)."""
    h = Http(srv.base)
    h.client.headers["X-Forwarded-For"] = address
    (await h.post("/api/guest", {"display_name": name})).raise_for_status()
    return h


async def bot_tables(srv: Server) -> dict[str, Any]:
    """2: guests (from 40 addresses) starting tables of four expert bots, 160 of them."""
    codes: dict[int, int] = {}
    for i in range(40):
        g = await from_address(srv, f"Bots{i}", f"10.7.0.{i}")
        for _ in range(4):
            r = await g.post(
                "/api/tables", {"seats": [{"kind": "bot", "bot": "expert"}] * 4, "game": "highfive"}
            )
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
        await g.close()
    return {"answers": codes}


async def table_flood(srv: Server) -> dict[str, Any]:
    """3: 120 tables as fast as one guest can, then an honest table and history."""
    honest = await guest(srv.base, "HonestHost")
    mine = (await honest.post("/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]})).json()[
        "id"
    ]
    spam = await guest(srv.base, "Flood")
    started = time.perf_counter()
    codes: dict[int, int] = {}
    for _ in range(120):
        r = await spam.post("/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]})
        codes[r.status_code] = codes.get(r.status_code, 0) + 1
    seconds = round(time.perf_counter() - started, 2)
    listed = mine in [t["id"] for t in (await honest.client.get("/api/tables")).json()["tables"]]
    me = (await honest.client.get("/api/me")).json()["user"]["id"]
    history = [g["table"] for g in (await honest.client.get(f"/api/users/{me}")).json()["games"]]
    await spam.close()
    await honest.close()
    return {
        "answers": codes,
        "seconds": seconds,
        "honest_listed": listed,
        "honest_in_history": mine in history,
    }


async def event_flood(srv: Server) -> dict[str, Any]:
    """3 and 4: 200 events by a guest, then by an account."""
    g = await guest(srv.base, "EventSpam")
    by_guest = (
        await g.post("/api/tournaments", {"name": "Official PDA World Championship"})
    ).status_code
    acct = Http(srv.base)
    await acct.post("/api/register", {"username": "spammer", "password": "correct horse battery"})
    codes: dict[int, int] = {}
    for i in range(200):
        r = await acct.post("/api/tournaments", {"name": f"Spam {i}"})
        codes[r.status_code] = codes.get(r.status_code, 0) + 1
    await g.close()
    await acct.close()
    return {"guest": by_guest, "account_answers": codes}


def ws_handshake(port: int, path: str) -> socket.socket:
    """A raw WebSocket on 127.0.0.1:``port`` after its opening handshake."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def closed_with(s: socket.socket, seconds: float = 10.0) -> int | None:
    """Read until the server closes; the close code of its close frame (``None``: none)."""
    s.settimeout(seconds)
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    else:
        raise AssertionError("the server kept the socket open")
    at = data.rfind(b"\x88")  # a close frame: opcode 8, FIN
    if at < 0 or len(data) < at + 4:
        return None
    return int(struct.unpack("!H", data[at + 2 : at + 4])[0])


def big_frame() -> bytes:
    """The start of a text frame that announces 16 MiB (masked, as from a client)."""
    return (
        bytes([0x81, 0x80 | 127]) + struct.pack("!Q", 16 << 20) + os.urandom(4) + os.urandom(1024)
    )


async def big_frames(srv: Server) -> dict[str, Any]:
    """5: 20 anonymous sockets each announcing a 16 MiB frame."""
    assert srv.proc is not None
    host = await guest(srv.base, "FrameHost")
    tid = (await host.post("/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]})).json()[
        "id"
    ]
    before = rss_mb(srv.proc.pid)
    started = time.perf_counter()
    closed = 0
    sockets = []
    for _ in range(20):
        s = ws_handshake(srv.port, f"/ws/tables/{tid}")
        s.sendall(big_frame())
        sockets.append(s)
    for s in sockets:
        closed += closed_with(s) == 1009  # "message too big", its payload never read
        s.close()
    get_ms = (await _timed_get(srv.base)) * 1000
    await host.close()
    return {
        "closed_1009": closed,
        "seconds": round(time.perf_counter() - started, 2),
        "rss_growth_mb": round(rss_mb(srv.proc.pid) - before, 1),
        "honest_get_ms": round(get_ms, 1),
    }


async def _timed_get(base: str) -> float:
    async with httpx.AsyncClient(base_url=base, timeout=30) as h:
        started = time.perf_counter()
        (await h.get("/api/games")).raise_for_status()
        return time.perf_counter() - started


async def slowloris(srv: Server) -> dict[str, Any]:
    """10: 1,000 connections that never finish their headers."""
    sockets = []
    for i in range(1000):
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
        if i % 2:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        sockets.append(s)
    get_ms = (await _timed_get(srv.base)) * 1000
    started = time.perf_counter()
    for s in sockets:
        s.settimeout(30)
        with_data = s.recv(1024)
        assert with_data == b""
        s.close()
    return {
        "connections": 1000,
        "all_closed_after_s": round(time.perf_counter() - started, 1),
        "honest_get_ms": round(get_ms, 1),
    }


async def login_timing(srv: Server) -> dict[str, Any]:
    """9: failed sign-ins, existing against missing accounts (medians of 15 each)."""
    h = Http(srv.base)
    await h.post("/api/register", {"username": "timed", "password": "correct horse battery"})
    times: dict[str, list[float]] = {"existing": [], "missing": []}
    for i in range(15):
        for kind, name in (("existing", "timed"), ("missing", "nobody")):
            async with httpx.AsyncClient(base_url=srv.base, timeout=30) as c:
                await c.get("/api/me")
                started = time.perf_counter()
                await c.post(
                    "/api/login",
                    json={"username": name, "password": f"wrong {i}"},
                    headers={
                        "X-CSRF-Token": c.cookies["boneyard_csrf"],
                        "X-Forwarded-For": f"10.8.{i}.{len(kind)}",
                    },
                )
                times[kind].append(time.perf_counter() - started)
    await h.close()
    return {k: round(statistics.median(v) * 1000, 1) for k, v in times.items()}


async def mute_race(srv: Server) -> dict[str, Any]:
    """8: 50 identical mutes at once."""
    bob = await guest(srv.base, "MuteBob")
    bob_id = (await bob.client.get("/api/me")).json()["user"]["id"]
    ann = await guest(srv.base, "MuteAnn")
    codes = await asyncio.gather(
        *(ann.post("/api/me/mutes", {"user_id": bob_id}) for _ in range(50))
    )
    await bob.close()
    await ann.close()
    out: dict[int, int] = {}
    for r in codes:
        out[r.status_code] = out.get(r.status_code, 0) + 1
    return {"answers": out}


ATTACKS: dict[str, Attack] = {
    "uploads": uploads,
    "chunked_body": chunked_body,
    "bot_tables": bot_tables,
    "table_flood": table_flood,
    "event_flood": event_flood,
    "big_frames": big_frames,
    "slowloris": slowloris,
    "login_timing": login_timing,
    "mute_race": mute_race,
}


ENV = {"login_timing": {"BONEYARD_LIMIT_LOGIN_ACCOUNT": "1000/minute"}}
"""Settings an attack changes from the defaults (timing needs every attempt to reach argon2)."""


def every_attack() -> dict[str, Attack]:
    """The attacks of issue 14 (here) and of issue 28 (bench/flood.py, bench/cheats.py)."""
    from bench.cheats import CHEATS
    from bench.flood import FLOODS

    return {**ATTACKS, **FLOODS, **CHEATS}


def server_args(name: str) -> tuple[str, ...]:
    """The server options attack ``name`` sets (bench/cheats.py shortens some waits)."""
    from bench.cheats import ARGS

    return ARGS.get(name, ())


def run_all(only: list[str] | None = None) -> dict[str, Any]:
    """Each attack on a fresh server (SQLite, the site's defaults); their figures by name."""
    out: dict[str, Any] = {}
    for name, attack in every_attack().items():
        if only and name not in only:
            continue
        db = tempfile.mkdtemp(prefix="boneyard-attack-") + "/site.db"
        srv = Server(
            db,
            roomy=False,
            bot_delay=0.5,
            args=("--request-timeout", "5", *server_args(name)),
            extra_env=ENV.get(name, {}),
        )
        srv.start()
        try:
            started = time.perf_counter()
            out[name] = asyncio.run(attack(srv))
            out[name]["attack_seconds"] = round(time.perf_counter() - started, 1)
        finally:
            srv.stop()
        print(f"{name}: {json.dumps(out[name])}", flush=True)
    return out
