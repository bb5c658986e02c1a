"""Load test: N concurrent clients over real WebSockets against one `boneyard serve` instance.

The script starts the server itself on 127.0.0.1 (bots move at once, rate limits off), opens N
quick-play tables (a client against the greedy bot) and lets every client play a random legal move
after a think time, for ``--seconds``. It reports live tables, actions committed per second, the
p50/p99 latency from a client's move to the view that acknowledges it, the server's own action
latency histogram, and memory per table (server RSS growth / tables).

    .venv/bin/python bench/load.py --tables 1000 --db sqlite
    .venv/bin/python bench/load.py --tables 1000 --db postgresql://postgres@127.0.0.1:5432/x

A PostgreSQL URL gets a scratch database next to it (created and dropped). ``--profile FILE``
runs the server under cProfile and writes its stats (the event-loop thread only). Loopback only;
the client shares the CPU with the server, so figures on a small machine are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.faults import create_database, drop_database, free_port
from bench.stalls import LoopWatch
from boneyard.server.middleware.gcpace import GcPacer

SERVER = """
import asyncio, json, signal, sys, uvicorn
from boneyard.server.app import create_app
db, port, prof, gc_on, stalls = sys.argv[1:6]
port, gc_on = int(port), gc_on == "1"
from boneyard.server.ratelimit import DEFAULT_LIMITS
from boneyard.server.settings import SiteSettings
unlimited = dict.fromkeys(DEFAULT_LIMITS, "1000000/second")
roomy = SiteSettings(open_tables_per_person=10**6, bot_tables="everyone")
app = create_app(db, bot_delay=0, bot_pace=0, gc_pacing=gc_on, settings=roomy, limits=unlimited)
served = app
if stalls:  # watch the loop from a thread (bench/stalls.py): SIGUSR1 starts, SIGUSR2 ends
    sys.path.insert(0, sys.argv[6])
    from bench.stalls import LoopWatch
    watch = LoopWatch()
    watch.measuring = False
    def measure(on):
        if on:
            watch.reset()
        watch.measuring = on
    signal.signal(signal.SIGUSR1, lambda *_: measure(True))
    signal.signal(signal.SIGUSR2, lambda *_: measure(False))
    async def served(scope, receive, send):
        if scope["type"] == "lifespan":
            watch.start(asyncio.get_running_loop())
        await app(scope, receive, send)
if prof:
    import cProfile
    p = cProfile.Profile()
    p.enable()
try:
    uvicorn.run(served, host="127.0.0.1", port=port, log_level="warning", ws_max_queue=64)
finally:
    if prof:
        p.disable()
        p.dump_stats(prof)
    if stalls:
        watch.stop()
        with open(stalls, "w") as f:
            json.dump(watch.report(), f)
"""


def rss_kb(pid: int) -> int:
    """Resident memory of a process in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bucket_quantile(m0: str, m1: str, name: str, q: float) -> float | None:
    """The upper bound of the histogram bucket holding quantile ``q`` between two scrapes."""
    counts: list[tuple[float, float]] = []
    for line in m1.splitlines():
        if line.startswith(name + '_bucket{le="'):
            le = line.split('"')[1]
            label = line.rsplit(" ", 1)[0]
            before = next((x for x in m0.splitlines() if x.startswith(label + " ")), None)
            n = float(line.rsplit(" ", 1)[1]) - (float(before.rsplit(" ", 1)[1]) if before else 0)
            counts.append((float("inf") if le == "+Inf" else float(le), n))
    if not counts or counts[-1][1] <= 0:
        return None
    total = counts[-1][1]
    return next(le for le, n in counts if n >= q * total)


def metric(text: str, name: str) -> float:
    """One sample of a /metrics text."""
    for line in text.splitlines():
        if line.startswith((name + " ", name + "{")):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(1000 * seconds, 1)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.error_messages: collections.Counter[str] = collections.Counter()
        self.games_over = 0
        self.measuring = False


async def client(
    base: str, ws_base: str, cookies: str, tid: str, think: float, stats: Stats, stop: asyncio.Event
) -> None:
    """Play random legal moves at ``tid`` after a think time until ``stop``."""
    rng = random.Random()
    async with connect(
        f"{ws_base}/ws/tables/{tid}", additional_headers={"Cookie": cookies}, max_size=2**22
    ) as ws:
        sent_at: float | None = None
        sent_seq = -1
        seeded = False
        continued = None
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg.get("type") == "error":
                stats.errors += 1
                stats.error_messages[str(msg.get("message"))[:80]] += 1
                sent_at = None
                await ws.send('{"type": "resync"}')
                continue
            if "version" not in msg or "moves" not in msg:
                continue
            if not seeded and (msg.get("table") or {}).get("start_by"):
                # As a browser does: seed the first hand, which deals it at once.
                seeded = True
                seed = {"type": "seed", "hand": 0, "seed": f"load {rng.random()}"}
                await ws.send(json.dumps(seed))
            if sent_at is not None and msg["version"] > sent_seq:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.moves += 1
                sent_at = None
            if msg["view"] and msg["view"].get("is_over"):
                stats.games_over += 1
                return
            end = msg.get("hand_end")
            if end and end.get("waiting") and end.get("hand") != continued:
                # As a person does: look at the hand's end a moment, then press Continue.
                continued = end.get("hand")
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                await ws.send(json.dumps({"type": "continue", "hand": continued}))
                continue
            if msg["moves"] and sent_at is None:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if stop.is_set():
                    return
                event = rng.choice(msg["moves"])["event"]
                sent_seq = msg["version"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"seq": sent_seq, "action": event}))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="boneyard-load-")
    scratch = None
    if args.db == "sqlite":
        db = f"{tmp}/load.db"
    else:
        scratch = await create_database(args.db)
        db = scratch
    port = free_port()
    stalls_file = f"{tmp}/stalls.json" if args.stalls else ""
    root = str(Path(__file__).resolve().parent.parent)
    cmd = [sys.executable, "-c", SERVER, db, str(port), args.profile or ""]
    proc = subprocess.Popen(
        [*cmd, str(int(args.gc_pacing)), stalls_file, root],
        stdout=open(f"{tmp}/server.log", "wb"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
    )
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    out: dict[str, Any] = {"db": "sqlite" if args.db == "sqlite" else "postgresql"}
    stop = asyncio.Event()
    stats = Stats()
    # The client is one Python process with 1,000 sockets: its own full GC pauses would count
    # as server latency, so it paces its collector as the server does.
    pacer = GcPacer()
    pacer.start()
    watch = LoopWatch()  # the client's own loop: its lag is part of every latency it measures
    watch.start(asyncio.get_running_loop())
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/games")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            await http.get("/api/me")
            csrf = {"X-CSRF-Token": http.cookies.get("boneyard_csrf", "")}
            (
                await http.post("/api/guest", json={"display_name": "Load"}, headers=csrf)
            ).raise_for_status()
            # Signing in issues a new CSRF token (bound to the session).
            csrf = {"X-CSRF-Token": http.cookies.get("boneyard_csrf", "")}
            cookies = "; ".join(f"{c.name}={c.value}" for c in http.cookies.jar)
            rss0 = rss_kb(proc.pid)
            t0 = time.monotonic()
            sem = asyncio.Semaphore(16)

            async def open_table() -> str:
                async with sem:
                    r = await http.post("/api/quickplay", headers=csrf)
                    r.raise_for_status()
                    tid: str = r.json()["id"]
                    return tid

            tids = await asyncio.gather(*(open_table() for _ in range(args.tables)))
            out["open_tables_s"] = round(time.monotonic() - t0, 1)
            tasks = []
            for tid in tids:
                tasks.append(
                    asyncio.create_task(
                        client(base, ws_base, cookies, tid, args.think, stats, stop)
                    )
                )
                await asyncio.sleep(args.ramp / max(1, args.tables))
            await asyncio.sleep(args.warmup)
            m0 = (await http.get("/metrics")).text
            cpu0, ccpu0 = cpu_s(proc.pid), time.process_time()
            if args.stalls:
                proc.send_signal(signal.SIGUSR1)
            watch.reset()
            stats.measuring = True
            t1 = time.monotonic()
            await asyncio.sleep(args.seconds)
            stats.measuring = False
            watch.measuring = False
            if args.stalls:
                proc.send_signal(signal.SIGUSR2)
            elapsed = time.monotonic() - t1
            ccpu1 = time.process_time()
            m1 = (await http.get("/metrics")).text
            rss1 = rss_kb(proc.pid)
            cpu1 = cpu_s(proc.pid)
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        lat = sorted(stats.latencies)

        def delta(name: str) -> float:
            return metric(m1, name) - metric(m0, name)

        actions = delta("boneyard_actions_committed_total")
        srv_n = delta("boneyard_action_seconds_count")
        srv_sum = delta("boneyard_action_seconds_sum")
        commits = delta("boneyard_commit_seconds_count")
        commit_s = delta("boneyard_commit_seconds_sum")
        commit_w = delta("boneyard_commit_writes_sum")
        out.update(
            tables=args.tables,
            live_tables=int(metric(m1, "boneyard_live_tables")),
            sockets=int(metric(m1, "boneyard_connected_sockets")),
            think_s=args.think,
            seconds=round(elapsed, 1),
            client_moves=stats.moves,
            actions_committed_per_s=round(actions / elapsed, 1),
            client_moves_per_s=round(stats.moves / elapsed, 1),
            latency_ms_p50=round(1000 * statistics.median(lat), 1) if lat else None,
            latency_ms_p99=round(1000 * lat[int(0.99 * (len(lat) - 1))], 1) if lat else None,
            latency_ms_max=round(1000 * lat[-1], 1) if lat else None,
            server_action_ms_mean=round(1000 * srv_sum / srv_n, 2) if srv_n else None,
            server_action_ms_p99_under=_ms(
                bucket_quantile(m0, m1, "boneyard_action_seconds", 0.99)
            ),
            server_loop_lag_ms_p99_under=_ms(
                bucket_quantile(m0, m1, "boneyard_loop_lag_seconds", 0.99)
            ),
            server_cpu_pct=round(100 * (cpu1 - cpu0) / elapsed, 1),
            client_cpu_pct=round(100 * (ccpu1 - ccpu0) / elapsed, 1),
            commits_per_s=round(commits / elapsed, 1),
            commit_ms_mean=round(1000 * commit_s / commits, 2) if commits else None,
            writes_per_commit=round(commit_w / commits, 1) if commits else None,
            errors=stats.errors,
            error_messages=dict(stats.error_messages.most_common(5)),
            games_finished=stats.games_over,
            rss_mb_before=round(rss0 / 1024, 1),
            rss_mb_after=round(rss1 / 1024, 1),
            kb_per_table=round((rss1 - rss0) / args.tables, 1),
            cpus=os.cpu_count(),
            loadavg_1m=round(os.getloadavg()[0], 2),
        )
        out["client_loop"] = watch.report()
        p99 = out["latency_ms_p99"]
        out["target_met"] = bool(p99 is not None and p99 <= 50 and out["live_tables"] >= 1000)
    finally:
        proc.send_signal(signal.SIGINT)  # uvicorn re-raises it: the profile is written
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        if scratch is not None:
            await drop_database(args.db, scratch)
        await pacer.stop()
        watch.stop()
        if stalls_file and Path(stalls_file).exists():
            out["server_loop"] = json.loads(Path(stalls_file).read_text())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--db", default="sqlite", help="sqlite, or a PostgreSQL URL")
    ap.add_argument("--think", type=float, default=5.0, help="mean seconds before each move")
    ap.add_argument("--seconds", type=float, default=60.0, help="measured time")
    ap.add_argument("--warmup", type=float, default=10.0)
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds to connect every client")
    ap.add_argument("--profile", help="write the server's cProfile stats here")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--stalls",
        action="store_true",
        help="watch the server's event loop from a thread: lag, stalls and their stacks",
    )
    ap.add_argument(
        "--no-gc-pacing",
        dest="gc_pacing",
        action="store_false",
        help="serve without GC pacing (boneyard.server.middleware.gcpace), to compare",
    )
    args = ap.parse_args()
    out = asyncio.run(run(args))
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}  {v}")


if __name__ == "__main__":
    main()
