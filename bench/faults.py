"""Fault drills for several `boneyard serve` processes on one PostgreSQL and one Redis.

Loopback only, bounded. Scenarios (all by default; pick with --only):

* ``kill``: two servers; two people play High Five tables, one socket on each server; every few
  moves one server is killed with SIGKILL and restarted, its client reconnects to the other server
  and plays on. At the end every move a client saw acknowledged must be in the log (same seq,
  seat and event), and every table must finish.
* ``postgres``: PostgreSQL restarts mid-game: HTTP requests answer 503 with a clear message (no
  traceback page), a move gets an error message over the socket, then everything recovers.
* ``redis``: Redis stops mid-game: moves still commit, the other server's client catches up on
  resync; after Redis comes back, updates flow again. Nothing accepted is lost.

    .venv/bin/python bench/faults.py --postgres URL [--kills 50] [--only kill]

``URL`` is a PostgreSQL URL of a superuser database (a scratch database is created and dropped).
Restarting PostgreSQL needs root (``runuser -u postgres pg_ctl restart`` on its data directory);
``Postgres`` makes a throwaway cluster for that (tests/server/ops/test_fault_postgres.py). The
servers get their own throwaway ``redis-server`` on a free port. The helpers here are also used by
tests/server/ops/test_multiprocess.py and tests/server/ops/test_nginx.py.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from boneyard.server.ratelimit import DEFAULT_LIMITS

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# -- services ---------------------------------------------------------------------------------


@dataclass
class Redis:
    """A throwaway ``redis-server`` on a free port (no persistence)."""

    port: int = field(default_factory=free_port)
    workdir: str = field(default_factory=lambda: tempfile.mkdtemp(prefix="boneyard-redis-"))

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        subprocess.run(
            [
                shutil.which("redis-server") or "/usr/bin/redis-server",
                "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly",
                "no", "--daemonize", "yes", "--pidfile", f"{self.workdir}/redis.pid",
                "--logfile", f"{self.workdir}/redis.log", "--dir", self.workdir,
            ],
            check=True,
        )  # fmt: skip
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        pidfile = Path(self.workdir) / "redis.pid"
        if pidfile.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pidfile.read_text().strip()), signal.SIGTERM)
            for _ in range(50):
                if not pidfile.exists():
                    break
                time.sleep(0.05)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


def postgres_bin() -> Path | None:
    """The bin directory of the newest PostgreSQL installed (Debian: /usr/lib/postgresql/N/bin),
    else the one of the ``initdb`` on PATH; None without one."""
    found = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "initdb").exists()]
    if found:
        return max(found, key=lambda p: [int(x) for x in p.parent.name.split(".") if x.isdigit()])
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


@dataclass
class Postgres:
    """A throwaway PostgreSQL cluster on a free port of 127.0.0.1 (trust auth, fsync off), for a
    drill that restarts it (:func:`restart_postgres`) without touching anyone else's cluster.

    Needs root: the server runs as user ``postgres`` (``runuser``) in a directory under /tmp that
    it owns. ``url`` is a superuser URL, what the scenarios take as ``admin_url``.
    """

    port: int = field(default_factory=free_port)
    # Under /tmp (not $TMPDIR): user postgres must reach it.
    workdir: str = field(
        default_factory=lambda: tempfile.mkdtemp(prefix="boneyard-pg-", dir="/tmp")
    )
    bindir: Path | None = field(default_factory=postgres_bin)

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    @property
    def data(self) -> Path:
        return Path(self.workdir) / "pg"

    def _run(self, tool: str, *args: str, check: bool = True) -> None:
        if self.bindir is None:
            raise RuntimeError("PostgreSQL is not installed (no initdb found)")
        cmd = ["runuser", "-u", "postgres", "--", str(self.bindir / tool), *args]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if check and out.returncode:
            log = Path(self.workdir) / "pg.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{tool} failed: {out.stdout}{out.stderr}{tail}")

    def start(self) -> None:
        """initdb on the first start, then start the server and wait until it accepts."""
        if not (self.data / "PG_VERSION").exists():
            shutil.chown(self.workdir, "postgres", "postgres")
            self._run(
                "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                "--locale=C.UTF-8", "--no-sync",
            )  # fmt: skip
        opts = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.workdir} -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off"
        )
        log = f"{self.workdir}/pg.log"
        self._run("pg_ctl", "-D", str(self.data), "-l", log, "-w", "-o", opts, "start")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


def _plain(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


async def create_database(admin_url: str) -> str:
    """A fresh scratch database next to ``admin_url``'s; returns its URL."""
    import asyncpg

    name = "boneyard_fault_" + secrets.token_hex(4)
    conn = await asyncpg.connect(_plain(admin_url))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base = admin_url.rsplit("/", 1)[0]
    return f"{base}/{name}"


async def drop_database(admin_url: str, url: str) -> None:
    """Drop a database made by :func:`create_database`."""
    import asyncpg

    name = url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(_plain(admin_url))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def read_log(url: str, table_id: str) -> dict[int, tuple[str, int | None, Any]]:
    """The table's log: seq -> (kind, seat, payload)."""
    import asyncpg

    conn = await asyncpg.connect(_plain(url))
    try:
        rows = await conn.fetch(
            "SELECT seq, kind, seat, payload FROM table_log WHERE table_id = $1", table_id
        )
    finally:
        await conn.close()
    return {r["seq"]: (r["kind"], r["seat"], json.loads(r["payload"])) for r in rows}


def restart_postgres(url: str, down: float = 1.0) -> None:
    """Stop PostgreSQL (fast), wait ``down`` seconds, start it again (needs root).

    The cluster is the one serving ``url``: its data directory comes from the server, and it is
    started again as it was started last (the binary and options of its ``postmaster.opts``), so
    a cluster on another port, socket directory or PostgreSQL version (:class:`Postgres`, the CI's
    throwaway one) comes back the same.
    """
    import asyncpg

    async def data_dir() -> str:
        conn = await asyncpg.connect(_plain(url))
        try:
            return str(await conn.fetchval("SHOW data_directory"))
        finally:
            await conn.close()

    pgdata = asyncio.run(data_dir())
    # e.g. /usr/lib/postgresql/15/bin/postgres "-D" "/tmp/…/pg" "-c" "listen_addresses=…" "-p" "…"
    argv = shlex.split((Path(pgdata) / "postmaster.opts").read_text())
    ctl = ["runuser", "-u", "postgres", "--", str(Path(argv[0]).parent / "pg_ctl"), "-D", pgdata]
    subprocess.run([*ctl, "-m", "fast", "-w", "stop"], check=True, capture_output=True)
    time.sleep(down)
    opts = shlex.join(_drop_data_dir(argv[1:]))
    cmd = [*ctl, "-w", "-l", f"{pgdata}/restart.log", "-o", opts, "start"]
    subprocess.run(cmd, check=True, capture_output=True)


def _drop_data_dir(args: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-D":
            skip = True
            continue
        if a.startswith("-D"):
            continue
        out.append(a)
    return out


# -- servers ----------------------------------------------------------------------------------

ROOMY_ENV = {
    "BONEYARD_BOT_TABLES": "everyone",
    "BONEYARD_BOT_TABLES_PER_PERSON": "10000",
    "BONEYARD_BOT_TABLES_TOTAL": "10000",
    "BONEYARD_OPEN_TABLES_PER_PERSON": "10000",
    "BONEYARD_OPEN_TABLES_PER_GUEST": "10000",
    "BONEYARD_OPEN_TABLES_PER_ADDRESS": "10000",
    "BONEYARD_PAIRING_PER_ADDRESS": "10000",
    **{f"BONEYARD_LIMIT_{name.upper()}": "1000000/second" for name in DEFAULT_LIMITS},
}
"""Settings of the served sites of drills and browser tests: caps and rate limits no drill
reaches (a drill signs many people up from one address) unless it sets its own."""


@dataclass
class Server:
    """One ``boneyard serve`` process on 127.0.0.1 (its output in ``log``)."""

    db: str
    broadcast: str | None = None
    bot_delay: float = 0.0
    port: int = field(default_factory=free_port)
    log: Path = field(default_factory=lambda: Path(tempfile.mkstemp(prefix="boneyard-serve-")[1]))
    proc: subprocess.Popen[bytes] | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    roomy: bool = True  # ROOMY_ENV's caps and limits (false: the site's defaults)
    args: tuple[str, ...] = ()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> None:
        cmd = [
            sys.executable, "-c", "from boneyard.cli.main import main; main()", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--db", self.db,
            "--bot-delay", str(self.bot_delay),
        ]  # fmt: skip
        if self.broadcast:
            cmd += ["--broadcast", self.broadcast]
        cmd += list(self.args)
        env = {**os.environ, **(ROOMY_ENV if self.roomy else {}), **self.extra_env}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown at all."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@contextlib.contextmanager
def servers(
    n: int, db: str, broadcast: str | None, bot_delay: float = 0.0, args: tuple[str, ...] = ()
) -> Iterator[list[Server]]:
    """``n`` servers started one after the other (migrations run on the first), each with the
    extra ``boneyard serve`` arguments ``args``."""
    started: list[Server] = []
    try:
        for _ in range(n):
            s = Server(db, broadcast, bot_delay, args=args)
            s.start()
            started.append(s)
        yield started
    except BaseException:
        for s in started:  # what the servers said, for the failure's report
            with contextlib.suppress(OSError):
                tail = s.log.read_text(errors="replace").splitlines()[-40:]
                print(f"--- the last lines of {s.log}:", *tail, sep="\n", file=sys.stderr)
        raise
    finally:
        for s in started:
            s.stop()
            if os.environ.get("BONEYARD_FAULTS_KEEP_LOGS"):
                print(f"server log kept: {s.log}", file=sys.stderr)
            else:
                with contextlib.suppress(OSError):
                    s.log.unlink()


class Http:
    """A signed-in person's HTTP client (cookies and the CSRF header)."""

    def __init__(self, base: str, client: httpx.AsyncClient | None = None) -> None:
        self.client = client or httpx.AsyncClient(base_url=base, timeout=10)

    async def post(self, path: str, body: Any = None) -> httpx.Response:
        if "boneyard_csrf" not in self.client.cookies:
            await self.client.get("/api/me")
        token = self.client.cookies.get("boneyard_csrf") or ""
        return await self.client.post(path, json=body, headers={"X-CSRF-Token": token})

    def use(self, base: str) -> None:
        """The same cookies against another server."""
        self.client.base_url = httpx.URL(base)

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.client.cookies.jar)

    async def close(self) -> None:
        await self.client.aclose()


async def guest(base: str, name: str) -> Http:
    """A guest signed in on ``base``."""
    h = Http(base)
    r = await h.post("/api/guest", {"display_name": name})
    r.raise_for_status()
    return h


async def two_player_table(a: Http, b: Http) -> str:
    """``a`` opens a High Five table, ``b`` joins, ``a`` starts it; returns its id."""
    r = await a.post("/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]})
    r.raise_for_status()
    tid: str = r.json()["id"]
    (await b.post(f"/api/tables/{tid}/join", {"seat": 1})).raise_for_status()
    (await a.post(f"/api/tables/{tid}/start")).raise_for_status()
    return tid


@dataclass
class Player:
    """A client at one table that plays random legal moves and remembers what was acknowledged."""

    name: str
    http: Http
    table: str
    rng: random.Random
    acked: dict[int, Any] = field(default_factory=dict)  # seq of the entry -> event
    versions: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0
    last: dict[str, Any] | None = None
    # Versions at which a move was sent whose outcome this client could not tell (a drop, a
    # resync, a catch-up view first): a later move sent at the same version is not counted.
    unresolved: set[int] = field(default_factory=set)
    # The Origin header a browser on the site would send (e.g. ``http://127.0.0.1:8080`` behind
    # nginx); None: none, as a non-browser client.
    origin: str | None = None

    @property
    def over(self) -> bool:
        return bool(self.last and self.last.get("view") and self.last["view"].get("is_over"))

    async def play(
        self, ws_base: str, stop_after: int | None = None, resync_every: float = 0
    ) -> str:
        """Play on ``ws_base`` until the game is over (``"over"``), the connection drops
        (``"dropped"``) or ``stop_after`` own moves were acknowledged (``"paused"``)."""
        headers = {"Cookie": self.http.cookie_header()}
        pending: tuple[int, Any, bool] | None = None
        moved = 0
        continued = None  # the hand whose end this player pressed Continue at
        try:
            async with connect(
                f"{ws_base}/ws/tables/{self.table}",
                additional_headers=headers,
                open_timeout=5,
                origin=Origin(self.origin) if self.origin else None,
            ) as ws:
                while True:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), resync_every or None)
                    except TimeoutError:
                        await ws.send(json.dumps({"type": "resync"}))
                        continue
                    msg = json.loads(raw)
                    if msg["type"] == "error":
                        self.errors.append(msg["message"])
                        if pending is not None:
                            self.unresolved.add(pending[0])
                        pending = None
                        # Never answer an error at once: the socket's rate limit (30 messages
                        # per 5 s) would refuse the resync too, and so on forever.
                        await asyncio.sleep(5.0 if "slow down" in msg["message"] else 0.2)
                        await ws.send(json.dumps({"type": "resync"}))
                        continue
                    if "view" not in msg:
                        continue  # another kind of event (chat, clock…)
                    if self.versions and msg["version"] < self.versions[-1]:
                        raise AssertionError(f"{self.name}: version went back {msg['version']}")
                    self.versions.append(msg["version"])
                    self.last = msg
                    if pending is not None:
                        if not pending[2] and acknowledges(msg, pending[0], pending[1]):
                            self.acked[pending[0] + 1] = pending[1]
                            moved += 1
                        else:
                            self.unresolved.add(pending[0])
                    pending = None
                    if self.over:
                        return "over"
                    if stop_after is not None and moved >= stop_after:
                        return "paused"
                    end = msg.get("hand_end")
                    if end and end.get("waiting") and end["hand"] != continued:
                        # As a person does at a hand's end: Continue (else the pause runs out).
                        continued = end["hand"]
                        await ws.send(json.dumps({"type": "continue", "hand": continued}))
                        continue
                    if msg["moves"]:
                        event = self.rng.choice(msg["moves"])["event"]
                        pending = (msg["version"], event, msg["version"] in self.unresolved)
                        await ws.send(json.dumps({"seq": msg["version"], "action": event}))
        except (ConnectionClosed, OSError, InvalidStatus, TimeoutError):
            if pending is not None:
                self.unresolved.add(pending[0])
            self.reconnects += 1
            return "dropped"
        except asyncio.CancelledError:
            if pending is not None:
                self.unresolved.add(pending[0])
            raise


async def play_a_little(
    players: list[Player], srv: list[Server], moves: int, resync_every: float = 0
) -> None:
    """Each player on its server until one has ``moves`` more acknowledged plays."""
    tasks = [
        asyncio.create_task(p.play(s.ws_base, stop_after=moves, resync_every=resync_every))
        for p, s in zip(players, srv, strict=True)
    ]
    await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def acknowledges(msg: dict[str, Any], seq: int, event: Any) -> bool:
    """Whether view ``msg`` (the first after a move sent at ``seq``) shows that move done.

    A newer version alone is not proof: another socket of the table may have brought a catch-up
    view (say, this player's own move sent just before a server died) and the move itself then
    gets a resync. So only plays are counted, and only when the tile left the hand.
    """
    if msg["type"] != "view" or msg["version"] <= seq or not isinstance(event, dict):
        return False
    hand = (msg.get("view") or {}).get("hand")
    return "play" in event and isinstance(hand, list) and event["play"] not in hand


async def check_log(url: str, table_id: str, players: list[Player]) -> int:
    """Every acknowledged move is in the log (same seq and event); returns how many."""
    entries = await read_log(url, table_id)
    n = 0
    for p in players:
        for seq, event in p.acked.items():
            kind, _seat, payload = entries.get(seq, ("missing", None, None))
            assert kind == "action" and payload == event, (p.name, seq, event, kind, payload)
            n += 1
    return n


@contextlib.asynccontextmanager
async def scratch_database(admin_url: str) -> AsyncIterator[str]:
    """A scratch database dropped on exit."""
    url = await create_database(admin_url)
    try:
        yield url
    finally:
        await drop_database(admin_url, url)


@contextlib.asynccontextmanager
async def drill_services(admin_url: str) -> AsyncIterator[tuple[str, Redis]]:
    """A scratch database and a throwaway Redis for one drill, both removed on exit."""
    redis = Redis()
    redis.start()
    try:
        async with scratch_database(admin_url) as url:
            yield url, redis
    finally:
        redis.cleanup()


async def seat_two(srv: Sequence[Any], rng: random.Random) -> tuple[Http, Http, str, list[Player]]:
    """Ann on the first server and Bob on the second, at one new two-player table."""
    ann = await guest(srv[0].base, "Ann")
    bob = await guest(srv[1].base, "Bob")
    tid = await two_player_table(ann, bob)
    return ann, bob, tid, [Player("ann", ann, tid, rng), Player("bob", bob, tid, rng)]


# -- scenarios --------------------------------------------------------------------------------


async def scenario_kills(admin_url: str, kills: int, moves_between: int = 3) -> dict[str, Any]:
    """SIGKILL one of two servers every ``moves_between`` acknowledged moves, ``kills`` times;
    the killed one restarts while the clients play on at the other."""
    report: dict[str, Any] = {"kills": 0, "tables": 0, "acked_moves": 0, "reconnects": 0}
    rng = random.Random(8)
    t0 = time.monotonic()
    players: list[Player] = []
    done_acked = 0
    kill_task: asyncio.Task[None] | None = None

    def acked() -> int:
        return done_acked + sum(len(p.acked) for p in players)

    async with drill_services(admin_url) as (url, redis):
        try:
            with servers(2, url, redis.url) as srv:
                up = [True, True]

                async def killer() -> None:
                    while report["kills"] < kills:
                        base = acked()
                        while acked() < base + moves_between:
                            await asyncio.sleep(0.02)
                        victim = rng.randrange(2)
                        up[victim] = False
                        srv[victim].kill()
                        report["kills"] += 1
                        await asyncio.to_thread(srv[victim].start)
                        up[victim] = True

                async def player_loop(p: Player, where: int) -> None:
                    while not p.over:
                        if not up[where]:
                            where = 1 - where
                        result = await p.play(srv[where].ws_base, resync_every=1)
                        if result == "dropped":
                            where = 1 - where
                            await asyncio.sleep(0.05)

                kill_task = asyncio.create_task(killer())
                ann = await guest(srv[0].base, "Ann")
                bob = await guest(srv[1].base, "Bob")
                while not kill_task.done():
                    for _attempt in range(100):
                        h = [ann, bob]
                        for x in h:
                            x.use(srv[0 if up[0] else 1].base)
                        try:
                            tid = await two_player_table(ann, bob)
                            break
                        except httpx.HTTPError:
                            await asyncio.sleep(0.2)
                    else:
                        raise RuntimeError("could not open a table")
                    players = [Player("ann", ann, tid, rng), Player("bob", bob, tid, rng)]
                    await asyncio.gather(player_loop(players[0], 0), player_loop(players[1], 1))
                    report["tables"] += 1
                    report["acked_moves"] += await check_log(url, tid, players)
                    report["reconnects"] += sum(p.reconnects for p in players)
                    ends = {
                        json.dumps(p.last and p.last.get("result"), sort_keys=True) for p in players
                    }
                    assert len(ends) == 1, f"the players saw different results: {ends}"
                    done_acked += sum(len(p.acked) for p in players)
                    players = []
                await kill_task
                await ann.close()
                await bob.close()
                report["tracebacks"] = sum(s.log.read_text().count("Traceback") for s in srv)
        finally:
            if kill_task is not None and not kill_task.done():
                kill_task.cancel()
                with contextlib.suppress(BaseException):
                    await kill_task
    report["seconds"] = round(time.monotonic() - t0, 1)
    return report


async def scenario_postgres(admin_url: str) -> dict[str, Any]:
    """Restart PostgreSQL mid-game: clear errors while it is down, then everything recovers."""
    report: dict[str, Any] = {}
    rng = random.Random(9)
    async with drill_services(admin_url) as (url, redis):
        with servers(2, url, redis.url) as srv:
            ann, bob, tid, players = await seat_two(srv, rng)
            await play_a_little(players, srv, 2)
            st = await read_log(url, tid)
            assert st
            for idx, mover in enumerate(players):  # the one whose turn it is
                async with connect(
                    f"{srv[idx].ws_base}/ws/tables/{tid}",
                    additional_headers={"Cookie": mover.http.cookie_header()},
                ) as probe:
                    if json.loads(await probe.recv())["moves"]:
                        break
            async with connect(
                f"{srv[idx].ws_base}/ws/tables/{tid}",
                additional_headers={"Cookie": mover.http.cookie_header()},
            ) as ws:
                first = json.loads(await ws.recv())  # a socket open before the outage
                assert first["moves"], "nobody's turn?"
                loop = asyncio.get_running_loop()
                down = loop.run_in_executor(None, restart_postgres, url, 3.0)
                await asyncio.sleep(1.0)
                r = await ann.post("/api/tables", {"seats": [{"kind": "me"}, {"kind": "bot"}]})
                report["http_while_down"] = (r.status_code, r.json().get("detail"))
                assert r.status_code == 503 and "database" in r.json()["detail"], r.text
                assert "Traceback" not in r.text
                move = {"seq": first["version"], "action": first["moves"][0]["event"]}
                await ws.send(json.dumps(move))
                reply = json.loads(await ws.recv())
                report["ws_move_while_down"] = (reply["type"], reply.get("message"))
                assert reply["type"] == "error" and "database" in reply["message"], reply
                await down
                await asyncio.sleep(0.5)
                await ws.send(json.dumps({"type": "resync"}))  # the same socket carries on
                again = json.loads(await ws.recv())
                report["ws_resync_after"] = (again["type"], again["version"] == first["version"])
                await ws.send(json.dumps(move))
                reply = json.loads(await ws.recv())
                report["ws_move_after"] = reply["type"]
                assert reply["type"] == "view" and reply["version"] > first["version"], reply
            await asyncio.sleep(0.5)
            r = await ann.post("/api/tables", {"seats": [{"kind": "me"}, {"kind": "bot"}]})
            report["http_after"] = r.status_code
            assert r.status_code == 200, r.text
            results = await asyncio.gather(
                *(p.play(s.ws_base, resync_every=1) for p, s in zip(players, srv, strict=True))
            )
            report["finished"] = results
            assert all(p.over for p in players), results
            report["acked_moves_in_log"] = await check_log(url, tid, players)
            await ann.close()
            await bob.close()
            report["tracebacks"] = sum(s.log.read_text().count("Traceback") for s in srv)
    return report


async def scenario_redis(admin_url: str) -> dict[str, Any]:
    """Stop Redis mid-game: moves still commit; the other client catches up on resync.

    The hand-end pause is 2 s: without Redis the two players' Continue, pressed on different
    servers, do not meet, and each hand ended in the outage would wait the whole pause (20 s
    by default: docs/operations.md)."""
    report: dict[str, Any] = {}
    rng = random.Random(10)
    async with drill_services(admin_url) as (url, redis):
        with servers(2, url, redis.url, args=("--hand-pause", "2")) as srv:
            ann, bob, tid, players = await seat_two(srv, rng)
            await play_a_little(players, srv, 2)
            redis.stop()
            await asyncio.sleep(1.5)
            metrics = httpx.get(srv[0].base + "/metrics").text
            report["redis_up_metric_while_down"] = [
                line for line in metrics.splitlines() if line.startswith("boneyard_redis_up")
            ]
            # Without Redis, play on with resyncs (a reconnect or resync catches up from the log).
            await play_a_little(players, srv, 3, resync_every=0.3)
            redis.start()
            await asyncio.sleep(2.0)
            metrics = httpx.get(srv[0].base + "/metrics").text
            report["redis_up_metric_after"] = [
                line for line in metrics.splitlines() if line.startswith("boneyard_redis_up")
            ]
            results = await asyncio.gather(
                *(p.play(s.ws_base) for p, s in zip(players, srv, strict=True))
            )
            report["finished"] = results
            assert all(p.over for p in players), results
            report["acked_moves_in_log"] = await check_log(url, tid, players)
            logs = "".join(s.log.read_text() for s in srv)
            report["logged_outage"] = "Redis subscription lost" in logs
            report["tracebacks"] = logs.count("Traceback")
            await ann.close()
            await bob.close()
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--postgres", default=os.environ.get("BONEYARD_TEST_POSTGRES_URL"))
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--only", choices=["kill", "postgres", "redis"], action="append")
    args = ap.parse_args()
    if not args.postgres:
        sys.exit("give --postgres URL (or set BONEYARD_TEST_POSTGRES_URL)")
    todo = args.only or ["kill", "postgres", "redis"]
    ok = True
    for name in todo:
        t0 = time.monotonic()
        try:
            if name == "kill":
                out = asyncio.run(scenario_kills(args.postgres, args.kills))
            elif name == "postgres":
                out = asyncio.run(scenario_postgres(args.postgres))
            else:
                out = asyncio.run(scenario_redis(args.postgres))
            status = "PASS"
        except Exception as exc:
            out = {"error": f"{type(exc).__name__}: {exc}"}
            status, ok = "FAIL", False
        print(f"{name}: {status} in {time.monotonic() - t0:.1f} s  {json.dumps(out)}", flush=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
