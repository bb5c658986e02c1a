"""Queries a socket's end must not cut, and that the app's end waits for.

A WebSocket's handler is cancelled when its socket goes at the wrong moment (a test client's
end, a server's shutdown). A database call cancelled mid-flight leaves SQLAlchemy's aiosqlite
connection half-closed ("terminate_force_close() not implemented"), its thread still running
the query; when the query returns after the event loop has closed, the thread dies on "Event
loop is closed", and a write it held is lost (a table left listed as attended). So the socket
paths' queries run as tasks shielded from their handler (:meth:`Shielded.run`), and the app's
end waits for those still running (:meth:`Shielded.close`) before it closes the database."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class Shielded:
    """The shielded queries of one app that are still running."""

    def __init__(self) -> None:
        self.running: set[asyncio.Task[Any]] = set()

    async def run(self, query: Coroutine[Any, Any, T]) -> T:
        """``query``'s result; cancelling the caller leaves the query running to its end."""
        task = asyncio.ensure_future(query)
        self.running.add(task)
        task.add_done_callback(self._done)
        return await asyncio.shield(task)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.running.discard(task)
        if not task.cancelled():
            task.exception()  # (retrieved: a caller cancelled meanwhile had no answer to raise)

    async def close(self) -> None:
        """Wait until no shielded query is running."""
        while self.running:
            await asyncio.wait(set(self.running))
