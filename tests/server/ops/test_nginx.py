"""docs/nginx/boneyard.conf in front of two ``boneyard serve`` processes, end to end (issue 8).

The operator's file itself is used: only its upstream ``server 127.0.0.1:…`` ports and its
``listen`` line are replaced (free loopback ports), inside a minimal main ``nginx.conf`` written to
a temporary directory. Two people sign in and play a High Five table through nginx only (HTTP and
WebSocket, with a browser's ``Origin``); mid-game a process holding a socket is killed with
SIGKILL, its sockets reconnect through nginx to the live process and the game is played to the
end; every acknowledged move is in the log. ``/metrics`` answers 127.0.0.1 and refuses the
others. Needs ``nginx``, ``redis-server`` (the drill starts its own) and
``BONEYARD_TEST_POSTGRES_URL`` (a superuser URL: a scratch database is made and dropped). A
process's 503 (its database is down) reaches the client as it is: that one needs only nginx.
"""

from __future__ import annotations

import asyncio
import contextlib
import grp
import json
import os
import pwd
import random
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from bench.faults import (
    ROOT,
    Player,
    Server,
    check_log,
    drill_services,
    free_port,
    guest,
    servers,
    two_player_table,
)
from bench.hall import hall
from tests.server.conftest import metric
from tests.services import needs, postgres_url, program

SITE_CONF = ROOT / "docs" / "nginx" / "boneyard.conf"

needs_nginx = needs("nginx")
needs_services = needs("nginx", "redis-server", "postgres")
"""The drill starts its own nginx and redis-server, on a scratch database."""


def ipv6_loopback() -> bool:
    """Whether ::1 can be listened on (containers sometimes have no IPv6)."""
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


def site_config(text: str, backends: list[int], port: int, ipv6: bool) -> str:
    """The operator's file with its upstream ports and its ``listen`` line replaced."""
    upstream = re.compile(r"^(\s*server 127\.0\.0\.1:)\d+\b", re.M)
    assert len(upstream.findall(text)) == len(backends), "one upstream line per process"
    ports = iter(backends)
    text = upstream.sub(lambda m: f"{m.group(1)}{next(ports)}", text)
    listen = f"listen 127.0.0.1:{port};" + (f" listen [::1]:{port};" if ipv6 else "")
    text, n = re.subn(r"^(\s*)listen 80;", lambda m: m.group(1) + listen, text, flags=re.M)
    assert n == 1, "one `listen 80;` line"
    return text


def main_config(workdir: Path, site: Path) -> str:
    """A minimal main configuration: everything nginx writes stays under ``workdir``."""
    user = ""
    if os.geteuid() == 0:  # workers would run as nobody anyway: say so, with its real group
        nobody = pwd.getpwnam("nobody")
        user = f"user nobody {grp.getgrgid(nobody.pw_gid).gr_name};"
    temps = "\n".join(
        f"    {kind}_temp_path {workdir}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""{user}
daemon off;
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    log_format upstream '$remote_addr "$request" $status upstream=$upstream_addr/$upstream_status';
    access_log {workdir}/access.log upstream;
{temps}
    include {site};
}}
"""


@contextlib.contextmanager
def nginx_in_front(backends: list[int]) -> Iterator[tuple[int, bool, Path]]:
    """nginx with docs/nginx/boneyard.conf on a free port: (port, listens on ::1 too, workdir)."""
    nginx = program("nginx")
    workdir = Path(tempfile.mkdtemp(prefix="boneyard-nginx-"))
    workdir.chmod(0o755)  # the workers (user nobody under root) use the temp paths in it
    port, ipv6 = free_port(), ipv6_loopback()
    site = workdir / "boneyard.conf"
    site.write_text(site_config(SITE_CONF.read_text(), backends, port, ipv6))
    conf = workdir / "nginx.conf"
    conf.write_text(main_config(workdir, site))
    cmd = [nginx, "-c", str(conf), "-p", f"{workdir}/", "-e", f"{workdir}/error.log"]
    check = subprocess.run([*cmd, "-t"], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            assert proc.poll() is None, (workdir / "error.log").read_text()
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)
        yield port, ipv6, workdir
    finally:
        proc.terminate()  # fast shutdown
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(workdir, ignore_errors=True)


async def sockets_of(server: Server) -> int:
    """Table sockets open on one process (asked directly, not through nginx)."""
    async with httpx.AsyncClient(timeout=5) as c:
        text = (await c.get(f"{server.base}/metrics")).text
    return int(metric(text, "boneyard_connected_sockets"))


def test_site_config_is_the_documented_one() -> None:
    """docs/operations.md shows the file the test below runs, not a copy that drifted."""
    doc = (ROOT / "docs" / "operations.md").read_text()
    shown = re.search(r"```nginx\n(.*?)```", doc, re.S)
    assert shown, "docs/operations.md shows the nginx configuration"
    assert shown.group(1) == SITE_CONF.read_text()


@needs_services
def test_two_processes_behind_nginx_survive_a_kill_9() -> None:
    admin = postgres_url()
    rng = random.Random(11)

    async def run() -> None:
        async with drill_services(admin) as (url, redis):
            with servers(2, url, redis.url) as srv, nginx_in_front([s.port for s in srv]) as ngx:
                port, ipv6, workdir = ngx
                front, ws_front = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
                try:
                    await play_through_nginx(url, srv, front, ws_front, rng)
                    await metrics_only_from_loopback(front, port, ipv6)
                except BaseException:
                    for name in ("error.log", "access.log"):
                        print(f"--- nginx {name}\n" + (workdir / name).read_text()[-4000:])
                    raise
                if os.environ.get("BONEYARD_NGINX_SHOW_LOG"):
                    print((workdir / "access.log").read_text())
                logs = "".join(s.log.read_text() for s in srv)
                assert logs.count("Traceback") == 0, logs[-3000:]

    t0 = time.monotonic()
    asyncio.run(asyncio.wait_for(run(), 150))
    print(f"nginx end-to-end: {time.monotonic() - t0:.1f} s")


async def play_through_nginx(
    url: str, srv: list[Server], front: str, ws_front: str, rng: random.Random
) -> None:
    ann = await guest(front, "Ann")  # sign in through nginx (cookies and CSRF)
    bob = await guest(front, "Bob")
    tid = await two_player_table(ann, bob)
    path = f"{ws_front}/ws/tables/{tid}"

    # The socket's Origin check sees the Host the browser used: the site's own origin is let
    # in, another is refused (so the check is on, and passes only because Host came through).
    async with connect(
        path, origin=Origin(front), additional_headers={"Cookie": ann.cookie_header()}
    ) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert first["type"] == "view" and first["view"]["hand"], first
    with pytest.raises(InvalidStatus) as refused:
        async with connect(
            path,
            origin=Origin("http://elsewhere.example"),
            additional_headers={"Cookie": ann.cookie_header()},
        ):
            pass
    assert refused.value.response.status_code == 403

    players = [
        Player("ann", ann, tid, rng, origin=front),
        Player("bob", bob, tid, rng, origin=front),
    ]

    async def play(p: Player) -> None:
        while not p.over:  # every connection through nginx; a drop reconnects through it
            if await p.play(ws_front, resync_every=1) == "dropped":
                await asyncio.sleep(0.1)

    games = asyncio.gather(*(play(p) for p in players))
    try:
        # A few acknowledged moves, then SIGKILL the process holding (most of) the sockets.
        while sum(len(p.acked) for p in players) < 4:
            if games.done():
                games.result()  # a player's error, if any
                pytest.fail("the game ended before the kill")
            await asyncio.sleep(0.02)
        held = [await sockets_of(s) for s in srv]
        victim = max(range(2), key=held.__getitem__)
        assert held[victim] >= 1, held
        live = srv[1 - victim]
        srv[victim].kill()
        # The dropped sockets come back through nginx, on the live process.
        deadline = time.monotonic() + 20
        while await sockets_of(live) < 2 and not games.done():
            assert time.monotonic() < deadline, "the sockets did not reconnect to the live process"
            await asyncio.sleep(0.1)
        assert sum(p.reconnects for p in players) >= held[victim]
        # Plain HTTP through nginx keeps working, whichever process it tries first.
        for _ in range(4):
            assert (await ann.client.get(f"/api/tables/{tid}")).status_code == 200
        r = await bob.post("/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]})
        assert r.status_code == 200, r.text
        await asyncio.wait_for(games, 90)
    finally:
        games.cancel()
        with contextlib.suppress(BaseException):
            await games
    assert all(p.over for p in players)
    assert players[0].last and players[1].last
    assert players[0].last["result"] == players[1].last["result"]
    in_log = await check_log(url, tid, players)  # every acknowledged move is in the log
    assert in_log > 0
    reconnects = [p.reconnects for p in players]
    print(f"sockets per process at the kill {held}, reconnects {reconnects}, {in_log} moves")
    await ann.close()
    await bob.close()


async def metrics_only_from_loopback(front: str, port: int, ipv6: bool) -> None:
    """``location /metrics`` lets 127.0.0.1 in and nobody else (``allow 127.0.0.1; deny all;``)."""
    async with httpx.AsyncClient(timeout=5) as c:
        r = await c.get(f"{front}/metrics")
        assert r.status_code == 200 and "boneyard_connected_sockets" in r.text, r.text[:300]
    # Another loopback source address (Linux routes all of 127/8 to lo): refused by nginx.
    other = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(transport=other, timeout=5) as c:
        assert (await c.get(f"{front}/api/games")).status_code == 200
        assert (await c.get(f"{front}/metrics")).status_code == 403
    if ipv6:  # e.g. a Prometheus that scrapes http://localhost/, resolved to ::1
        async with httpx.AsyncClient(timeout=5) as c:
            assert (await c.get(f"http://[::1]:{port}/api/games")).status_code == 200
            assert (await c.get(f"http://[::1]:{port}/metrics")).status_code == 403


class DatabaseDown(BaseHTTPRequestHandler):
    """What every ``boneyard serve`` answers while PostgreSQL is down."""

    BODY = b'{"detail": "the database is unavailable: try again in a moment"}'

    def do_GET(self) -> None:
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.BODY)))
        self.end_headers()
        self.wfile.write(self.BODY)

    do_POST = do_GET

    def log_message(self, *args: object) -> None:
        pass


@needs_nginx
def test_a_503_of_the_processes_reaches_the_client_as_it_is() -> None:
    """The database down is the same for every process: nginx passes their clear 503 on (with
    ``proxy_next_upstream http_503`` and ``max_fails=1`` it marked both processes down and
    answered its own "502 Bad Gateway" page instead, also for a while after the database was
    back)."""
    down = [ThreadingHTTPServer(("127.0.0.1", 0), DatabaseDown) for _ in range(2)]
    for d in down:
        threading.Thread(target=d.serve_forever, daemon=True).start()
    try:
        with nginx_in_front([d.server_address[1] for d in down]) as (port, _ipv6, _workdir):
            for _ in range(6):
                r = httpx.get(f"http://127.0.0.1:{port}/api/me", timeout=5)
                assert r.status_code == 503, r.text
                assert r.json()["detail"] == "the database is unavailable: try again in a moment"
    finally:
        for d in down:
            d.shutdown()
            d.server_close()


@needs_nginx
def test_a_halls_phones_reach_their_event_through_nginx(tmp_path: Path) -> None:
    """Through nginx with the operator's file, 40 phones behind one address (a hall's Wi-Fi),
    six connections each as a browser's, load an over-the-board event's page and follow it,
    its director following it from the hall: every request is answered (nginx's bounds on an
    address leave a hall room; the server, holding an address to 16 connections, lets the
    venue's have 8 a person entered). Before, nginx held the address to 64 connections and 20
    requests a second, and the server to its 16: most were refused."""
    srv = Server(str(tmp_path / "hall.db"), args=("--max-connections-per-address", "16"))
    srv.start()
    try:
        with nginx_in_front([srv.port, srv.port]) as (port, _ipv6, workdir):
            base = f"http://127.0.0.1:{port}"
            found = asyncio.run(hall(base, 40, polls=2, director=True, every=0.5))
            assert found == {"200": 40 * 9}, (found, (workdir / "error.log").read_text()[-2000:])
    finally:
        srv.stop()
