"""A hall's players follow their over-the-board event on their phones, all behind the hall's
one address, as a venue's Wi-Fi shows them to the site.

    .venv/bin/python -m bench.hall [--phones 128] [--polls 10] [--no-director]

Starts one ``boneyard serve`` on 127.0.0.1 (SQLite in a temporary folder, the server's own
connection caps) and, from ``127.0.0.5`` (the hall; Linux routes all of 127/8 to the loopback):
a director makes an over-the-board event and enters ``--phones`` walk-ins, and follows it as the
console does (``--no-director``: nobody on the event's staff looks at it from the hall). Then
each phone, with a browser's six connections to the site, loads the event's page with what it
loads and asks for the event every 3 s, ``--polls`` times. Prints the answers by status (or the
error that ended a request: a connection refused at once by the per-address cap reads as
``RemoteProtocolError`` or ``ReadError``), the load average. Method and figures:
docs/operations.md, "Connections".
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

import httpx

from bench.faults import Http, Server

HALL = "127.0.0.5"
PAGE = ("/static/tournament.js", "/static/style.css", "/static/tournaments.css",
        "/static/api.js", "/static/who.js", "/static/tournamentpage.js")  # fmt: skip
"""What the event's page loads with it (the rest comes from the same cache)."""


def from_the_hall(base: str, connections: int = 6) -> httpx.AsyncClient:
    """An HTTP client on the hall's address, with a browser's ``connections`` to the site."""
    limits = httpx.Limits(max_connections=connections)
    hall = httpx.AsyncHTTPTransport(local_address=HALL, limits=limits)
    return httpx.AsyncClient(base_url=base, transport=hall, timeout=30)


async def the_event(base: str, walk_ins: int, director: bool) -> str:
    """An over-the-board event with ``walk_ins`` entrants, made from the hall by its director,
    who then follows it there (unless not ``director``); its id."""
    d = Http(base, from_the_hall(base))

    async def post(path: str, body: Any) -> Any:
        r = await d.post(path, body)
        assert r.status_code == 200, r.text
        return r.json()

    try:
        name = f"director-{secrets.token_hex(4)}"
        await post("/api/register", {"username": name, "password": "a good password"})
        event = await post("/api/tournaments", {"name": "Hall", "mode": "otb", "cap": walk_ins})
        names = "\n".join(f"Player {i + 1}" for i in range(walk_ins))
        await post(f"/api/tournaments/{event['id']}/walk-ins", {"text": names})
        if director:
            assert (await d.client.get(f"/api/tournaments/{event['id']}")).status_code == 200
        return str(event["id"])
    finally:
        await d.close()


async def hall(base: str, phones: int, polls: int, director: bool, every: float = 3.0) -> Any:
    """Every answer the phones had, by status or error (see the module docstring)."""
    eid = await the_event(base, phones, director)
    answers: collections.Counter[str] = collections.Counter()
    loaded = asyncio.Barrier(phones)

    async def phone() -> None:
        async with from_the_hall(base) as c:

            async def get(path: str) -> None:
                try:
                    answers[str((await c.get(path)).status_code)] += 1
                except httpx.HTTPError as e:
                    answers[type(e).__name__] += 1

            await asyncio.gather(get(f"/tournaments/{eid}"), *(get(p) for p in PAGE))
            await loaded.wait()  # (every phone holds its connections at once)
            for _ in range(polls):
                await get(f"/api/tournaments/{eid}")
                await asyncio.sleep(every)

    await asyncio.gather(*(phone() for _ in range(phones)))
    return dict(answers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phones", type=int, default=128)
    ap.add_argument("--polls", type=int, default=10)
    ap.add_argument("--no-director", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(db=str(Path(tmp) / "site.db"))
        server.start()
        try:
            found = asyncio.run(hall(server.base, args.phones, args.polls, not args.no_director))
        finally:
            server.stop()
    looked = "no one on its staff looks" if args.no_director else "its director follows it"
    print(f"{args.phones} phones, one address, {looked}: {found}")
    print(f"(load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
