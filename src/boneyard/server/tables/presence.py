"""Who is at the table: each person seat connected or not, and since when it has not been.

A person seat is *online* while its person has a socket open to the table, in this process or in
another (each process publishes the people it holds sockets of: ``{"type": "presence",
"process", "users"}`` through the broadcaster). A seat that goes offline is *away* from that
moment (server time); a table loaded with a person offline counts them away from the load. Every
view carries ``presence`` (:mod:`boneyard.server.tables.tableview`); a socket opened with
``?presence=1`` also gets ``{"type": "presence", "presence": [...], "server_time"}`` whenever a
seat's person comes or goes. All of it is in memory: no database read.

At a table without a turn clock, a seat away for ``claim_after`` seconds (a minute) may be claimed
by the other people (:mod:`boneyard.server.tables.endings`).
"""

from __future__ import annotations

import contextlib
import secrets
import time

from boneyard.core.protocol import JSON
from boneyard.server.tables.broadcast import Broadcaster
from boneyard.server.tables.live import LiveTable

PROCESS = secrets.token_hex(6)
"""This process, in presence messages."""


def online_users(table: LiveTable) -> set[int]:
    """The people with a socket open to ``table``, here or in another process."""
    users = {c.user_id for c in table.clients if c.user_id is not None}
    for held in table.remote.values():
        users |= held
    return users


def local_users(table: LiveTable) -> list[int]:
    """The people with a socket open to ``table`` in this process."""
    return sorted({c.user_id for c in table.clients if c.user_id is not None})


def presence_json(table: LiveTable) -> list[JSON | None]:
    """Per seat: ``{"online", "away_since"}`` for a person's seat, ``None`` for a bot or an open
    seat."""
    users = online_users(table)
    out: list[JSON | None] = []
    for i, s in enumerate(table.seats):
        if s.kind != "person":
            out.append(None)
            continue
        online = s.user_id in users
        away = None if online else table.away.get(i)
        out.append({"online": online, "away_since": away})
    return out


def sync(table: LiveTable, at: float | None = None) -> bool:
    """Bring ``table.away`` up to date with who is online; returns whether a person seat came
    or went."""
    t = time.time() if at is None else at
    users = online_users(table)
    changed = False
    for i, s in enumerate(table.seats):
        if s.kind != "person":
            changed |= table.away.pop(i, None) is not None
            continue
        if s.user_id in users:
            changed |= table.away.pop(i, None) is not None
        elif i not in table.away:
            table.away[i] = round(t, 3)
            changed = True
    return changed


def attended(table: LiveTable) -> bool:
    """Whether a person seated at ``table`` is connected to it."""
    users = online_users(table)
    return any(s.kind == "person" and s.user_id in users for s in table.seats)


def away_for(table: LiveTable, seat: int, at: float | None = None) -> float:
    """Seconds the person of ``seat`` has been away (0 while online)."""
    since = table.away.get(seat)
    if since is None:
        return 0.0
    return max(0.0, (time.time() if at is None else at) - since)


class Presence:
    """Presence of the live tables (see the module docstring): ``broadcaster`` tells the other
    processes (whose messages of type ``presence`` go to :meth:`on_remote`)."""

    def __init__(self, broadcaster: Broadcaster) -> None:
        self.broadcaster = broadcaster

    async def changed(self, table: LiveTable) -> bool:
        """A socket of ``table`` opened or closed here: tell the other processes, and this
        process's listening sockets if a seat came or went (then true)."""
        came_or_went = sync(table)
        await self.broadcaster.publish(
            table.id,
            {"type": "presence", "process": PROCESS, "users": local_users(table)},
            local=False,
        )
        if came_or_went:
            await self.send(table)
        return came_or_went

    async def on_remote(self, table: LiveTable, message: dict[str, object]) -> None:
        """Another process's people at ``table``."""
        process, users = message.get("process"), message.get("users")
        if not isinstance(process, str) or not isinstance(users, list) or process == PROCESS:
            return
        table.remote[process] = {u for u in users if isinstance(u, int)}
        if sync(table):
            await self.send(table)

    @staticmethod
    async def send(table: LiveTable) -> None:
        """``{"type": "presence"}`` to the sockets that asked for it."""
        message: JSON = {
            "type": "presence",
            "presence": presence_json(table),
            "server_time": round(time.time(), 3),
        }
        for client in list(table.clients):
            if client.presence:
                with contextlib.suppress(Exception):
                    await client.send(message)
