"""What the site's pages and client files cost to serve, gzipped against as they are, in one run.

    .venv/bin/python -m bench.pages [--seconds 5] [--clients 8]

Starts one ``boneyard serve`` on 127.0.0.1 (SQLite in a temporary folder) and, for each way of
asking (``Accept-Encoding: gzip``, then ``identity``, then gzip again so that a warming server
does not favour either), fetches a page load's files (the home page and everything it loads, the
files of a table and of the tournaments page) in turns from ``--clients`` concurrent clients
for ``--seconds``. Prints the bytes a page load takes on the wire, the requests a second the
server answered, its CPU seconds per thousand requests (from ``/proc``) and the load average.
Method and figures: docs/performance.md, "Pages on the wire".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

import httpx

from bench.faults import Server

FILES = (
    "/", "/static/style.css", "/static/home.css", "/static/lobby.js", "/static/api.js",
    "/static/nav.js", "/static/theme.js", "/table/x", "/static/table.js", "/static/table.css",
    "/static/board.js", "/static/tiles.js", "/tournaments", "/static/tournaments.css",
    "/static/tournament.js", "/rules/highfive",
)  # fmt: skip
"""A page load's worth of the site's text: three pages and what they load, a rules page."""


def cpu_seconds(pid: int) -> float:
    """User and system CPU of process ``pid`` so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def load(base: str, encoding: str, clients: int, seconds: float) -> tuple[int, int]:
    """Requests answered and bytes received on the wire in ``seconds`` of ``clients`` clients
    fetching :data:`FILES` in turn with ``Accept-Encoding: encoding``."""
    end = time.monotonic() + seconds
    done = [0, 0]

    async def client() -> None:
        async with httpx.AsyncClient(base_url=base, headers={"Accept-Encoding": encoding}) as c:
            while time.monotonic() < end:
                for path in FILES:
                    async with c.stream("GET", path) as r:
                        wire = sum([len(chunk) async for chunk in r.aiter_raw()])
                    assert r.status_code == 200, (path, r.status_code)
                    done[0] += 1
                    done[1] += wire

    await asyncio.gather(*(client() for _ in range(clients)))
    return done[0], done[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--clients", type=int, default=8)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(db=str(Path(tmp) / "site.db"))
        server.start()
        try:
            assert server.proc is not None
            pid = server.proc.pid
            for encoding in ("gzip", "identity", "gzip"):
                before = cpu_seconds(pid)
                start = time.monotonic()
                run = load(server.base, encoding, args.clients, args.seconds)
                requests, wire = asyncio.run(run)
                wall = time.monotonic() - start
                cpu = cpu_seconds(pid) - before
                per_load = wire / (requests / len(FILES))
                print(
                    f"{encoding:8}  {per_load / 1024:7.1f} KB a page load on the wire  "
                    f"{requests / wall:7.0f} requests/s  {1000 * cpu / requests:5.2f} CPU s "
                    f"per 1,000 requests  (load {os.getloadavg()[0]:.2f})"
                )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
