"""Issue 28's connection flood: one client address opens thousands of idle connections and
spectator sockets while an honest client on another address plays and reads the lobby.

The attacker runs in a process of its own at the lowest priority (its thousands of sockets never
slow the honest client's event loop, and its CPU, which a real attacker brings along, is not
taken from the server's), from ``127.0.0.2``; the honest client from ``127.0.0.3`` (Linux routes all
of 127/8 to the loopback). Every idle connection sends ``GET / HTTP/1.1`` and then a header line
every 2 s, as in the finding; every spectator socket completes its WebSocket handshake to the
honest player's table and reads what it is sent. Traffic stays on the loopback, bounded in count
and time. Run by ``bench/abuse.py --attacks connection_flood`` (8,000 + 8,000) and, smaller, by
tests/server/ops/test_hardening_live.py.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import resource
import statistics
import sys
import time
from typing import Any

import httpx

from bench.attacks import honest_moves, percentile, rss_mb
from bench.faults import ROOT, Server

Pair = tuple[asyncio.StreamReader, asyncio.StreamWriter]
ATTACKER = "127.0.0.2"
HONEST = "127.0.0.3"
BASELINE_S = 8.0
"""Seconds the honest client plays and reads before the attack (the figures to compare with)."""


def raise_fd_limit() -> int:
    """This process may open as many files as the system lets it (the soft limit to the hard)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


class Tally:
    """What became of the attacker's connections of one kind."""

    def __init__(self) -> None:
        self.tried = 0  # connects attempted (done)
        self.refused = 0  # the connect itself failed
        self.cut = 0  # closed by the server before the end (or its handshake refused)
        self.upgraded = 0  # spectator sockets whose handshake completed
        self.open: set[asyncio.StreamWriter] = set()
        self.most = 0  # the most held open at once

    def figures(self) -> dict[str, int]:
        return {
            "tried": self.tried,
            "refused_or_cut": self.refused + self.cut,
            "most_open_seen_by_the_attacker": self.most,
            **({"upgraded": self.upgraded} if self.upgraded else {}),
        }


class Attack:
    """One flood from :data:`ATTACKER`: at most ``parallel`` connects under way at once."""

    def __init__(self, port: int, parallel: int = 200) -> None:
        self.port = port
        self.gate = asyncio.Semaphore(parallel)
        self.stop = asyncio.Event()

    async def connect(self, tally: Tally) -> Pair | None:
        async with self.gate:
            try:
                pair = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(ATTACKER, 0)
                )
            except OSError:
                tally.refused += 1
                pair = None
            tally.tried += 1
            return pair

    async def idle(self, tally: Tally) -> None:
        """An idle connection: a request line, then a header line every 2 s, never finished."""
        pair = await self.connect(tally)
        if pair is not None:
            await self.hold(*pair, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", tally, b"X-A: b\r\n")

    async def spectator(self, table: str, tally: Tally) -> None:
        """An anonymous spectator's socket at ``table``, kept open and read."""
        pair = await self.connect(tally)
        if pair is None:
            return
        key = base64.b64encode(os.urandom(16)).decode()
        hello = (
            f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
        await self.hold(*pair, hello, tally, None)

    async def hold(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        first: bytes,
        tally: Tally,
        every: bytes | None,
    ) -> None:
        """Send ``first``, then ``every`` each 2 s (or nothing), reading what comes, until the
        server closes the connection or the attack stops."""
        tally.open.add(writer)
        tally.most = max(tally.most, len(tally.open))
        upgraded = False
        try:
            writer.write(first)
            while not self.stop.is_set():
                try:
                    data = await asyncio.wait_for(reader.read(65536), 2.0)
                except TimeoutError:
                    if every is not None:
                        writer.write(every)
                    continue
                if not data:
                    tally.cut += 1
                    return
                if not upgraded and data.startswith(b"HTTP/1.1 101"):
                    upgraded = True
                    tally.upgraded += 1
        except OSError:
            tally.cut += 1
        finally:
            tally.open.discard(writer)
            writer.close()


async def flood(port: int, table: str, idle: int, sockets: int, hold_s: float) -> dict[str, Any]:
    """The attack: ``idle`` idle connections and ``sockets`` spectator sockets at ``table``;
    everything held ``hold_s`` seconds after the last connect, then closed."""
    raise_fd_limit()
    attack = Attack(port)
    idle_t, sock_t = Tally(), Tally()
    started = time.monotonic()
    tasks = []
    for i in range(max(idle, sockets)):  # the two kinds in turn
        if i < sockets:
            tasks.append(asyncio.create_task(attack.spectator(table, sock_t)))
        if i < idle:
            tasks.append(asyncio.create_task(attack.idle(idle_t)))
    while idle_t.tried + sock_t.tried < idle + sockets:
        await asyncio.sleep(0.05)
    opened_in = time.monotonic() - started
    await asyncio.sleep(hold_s)
    held = {"idle": len(idle_t.open), "sockets": len(sock_t.open)}
    attack.stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "idle": idle_t.figures(),
        "sockets": sock_t.figures(),
        "held_at_end": held,
        "connect_phase_s": round(opened_in, 1),
        "attack_s": round(time.monotonic() - started, 1),
    }


def attacker_argv(port: int, table: str, idle: int, sockets: int, hold_s: float) -> list[str]:
    """The command of the attacker's process (its figures: one JSON line on its output)."""
    args = [str(port), table, str(idle), str(sockets), str(hold_s)]
    return [sys.executable, "-m", "bench.flood", *args]


async def honest_gets(base: str, stop: asyncio.Event, seconds: float = 1e9) -> dict[str, Any]:
    """The lobby's list read every 100 ms from :data:`HONEST` until ``stop`` (or for
    ``seconds``): its answers and round trips."""
    transport = httpx.AsyncHTTPTransport(local_address=HONEST)
    times: list[float] = []
    codes: dict[str, int] = {}
    until = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as h:
        while not stop.is_set() and time.monotonic() < until:
            started = time.perf_counter()
            try:
                code = str((await h.get("/api/tables")).status_code)
            except httpx.HTTPError as exc:
                code = type(exc).__name__
            times.append((time.perf_counter() - started) * 1000)
            codes[code] = codes.get(code, 0) + 1
            await asyncio.sleep(0.1)
    return {
        "gets": len(times),
        "answers": codes,
        "get_ms_p50": round(statistics.median(times), 1) if times else None,
        "get_ms_p95": round(percentile(times, 0.95) or 0, 1),
        "get_ms_max": round(max(times), 1) if times else None,
    }


async def server_connections(base: str, stop: asyncio.Event) -> int:
    """The most connections the server held (its /metrics, read every 200 ms until ``stop``)."""
    most = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as h:
        while not stop.is_set():
            with contextlib.suppress(httpx.HTTPError):
                text = (await h.get("/metrics")).text
                most = max(most, int(metric_value(text, "boneyard_connections")))
            await asyncio.sleep(0.2)
    return most


def metric_value(text: str, name: str) -> float:
    """The value of the sample ``name`` in Prometheus text (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def flood_size() -> tuple[int, int]:
    """Idle connections and spectator sockets of the flood: ``BONEYARD_FLOOD`` ("8000,8000")."""
    idle, sockets = os.environ.get("BONEYARD_FLOOD", "8000,8000").split(",")
    return int(idle), int(sockets)


async def connection_flood(
    srv: Server,
    idle: int | None = None,
    sockets: int | None = None,
    hold_s: float = 10.0,
    baseline_s: float = BASELINE_S,
) -> dict[str, Any]:
    """Issue 28, 1: ``idle`` idle connections and ``sockets`` spectator sockets from one address
    while an honest person on another plays a bot and reads the lobby (see the module
    docstring)."""
    assert srv.proc is not None
    idle, sockets = (idle or flood_size()[0]), (sockets or flood_size()[1])
    before_mb = rss_mb(srv.proc.pid)
    figures: dict[str, Any] = {}

    async def during(table: str) -> dict[str, Any]:
        stop = asyncio.Event()
        quiet = await honest_gets(srv.base, stop, baseline_s)  # before: the peer figures
        figures["attack_from"] = time.perf_counter()
        reads = asyncio.create_task(honest_gets(srv.base, stop))
        peak = asyncio.create_task(server_connections(srv.base, stop))
        proc = await asyncio.create_subprocess_exec(
            *attacker_argv(srv.port, table, idle, sockets, hold_s),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
        )
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), 600)
        finally:
            stop.set()
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        figures["rss_mb"] = round(rss_mb(srv.proc.pid), 1)  # type: ignore[union-attr]
        return {
            "attacker": json.loads(out.decode().strip().splitlines()[-1]),
            "server_connections_peak": await peak,
            "before_the_attack": quiet,
            **await reads,
        }

    played = await honest_moves(srv, during, address=HONEST, raw=True)
    async with httpx.AsyncClient(base_url=srv.base, timeout=10) as h:
        text = (await h.get("/metrics")).text
    refused = {
        line.split('"')[1]: int(float(line.rsplit(" ", 1)[1]))
        for line in text.splitlines()
        if line.startswith('boneyard_refused_total{limit="connections')
    }
    moves = played.pop("moves_at")
    during_attack = [ms for at, ms in moves if at >= figures.get("attack_from", 0.0)]
    before = [ms for at, ms in moves if at < figures.get("attack_from", 0.0)]
    found = played.pop("during")
    found["before_the_attack"].update(move_figures(before))
    return {
        **found,
        "honest_moves": move_figures(during_attack),
        "server_refusals": refused,
        "rss_mb_before": round(before_mb, 1),
        "rss_mb_during": figures.get("rss_mb"),
    }


def move_figures(ms: list[float]) -> dict[str, Any]:
    """The count, p50, p95 and the slowest of some moves' round trips (ms)."""
    return {
        "moves": len(ms),
        "move_ms_p50": round(statistics.median(ms), 1) if ms else None,
        "move_ms_p95": round(percentile(ms, 0.95) or 0, 1) if ms else None,
        "move_ms_max": round(max(ms), 1) if ms else None,
    }


FLOODS = {"connection_flood": connection_flood}


if __name__ == "__main__":  # the attacker's process (attacker_argv)
    # At the lowest priority: on one machine the attacker's own work would otherwise be counted
    # as the server's slowness (an attacker's CPU is not the site's).
    os.nice(19)
    port, table, idle, sockets, hold_s = sys.argv[1:6]
    found = asyncio.run(flood(int(port), table, int(idle), int(sockets), float(hold_s)))
    print(json.dumps(found), flush=True)
