"""Table events between server processes: in memory (one process) or Redis pub/sub (several).

The database orders each table's actions; a broadcaster only says *that* something happened, so
that every process holding sockets of the table can catch up from the log and send fresh views.
Nothing is lost when a message is: a process that missed one catches up on the next message, a
client's resync or reconnect, or the sweep that follows a Redis reconnect.

Every process publishes ``(table_id, message)``; ``message`` is a JSON object with a ``type``:

* ``{"type": "table", "version": v}``: the table's log or seats changed (sent by
  :class:`~tables.manager.TableManager` after each commit); other processes catch up.
* anything else (chat lines, clock or seat changes…): handed to the handler registered with
  ``Hub.on_message(type, handler)``, or else sent as it is to every local socket of the
  table. Use :meth:`Broadcaster.publish`; it is delivered in this process too.

``BONEYARD_BROADCAST_URL`` (or ``boneyard serve --broadcast URL``) picks the implementation:
unset or ``memory://`` is :class:`InMemoryBroadcaster`, ``redis://…`` is
:class:`RedisBroadcaster`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from boneyard.server.waiting import set_within

log = logging.getLogger("boneyard.server.tables.broadcast")

JSONMessage = dict[str, object]
Handler = Callable[[str, JSONMessage], Awaitable[None]]
"""Called with ``(table_id, message)`` for every message (from this process or another)."""

CHANNEL = "boneyard:tables"
QUEUE_LIMIT = 10_000


class Broadcaster:
    """Fan table events out to every server process (this base class: this process only).

    ``start(handler, on_reconnect)`` begins delivery; ``publish`` sends; ``close`` stops.
    ``status`` is ``"memory"``, ``"up"`` or ``"down"``; ``distributed`` says whether other
    processes may hold the same tables.
    """

    distributed = False

    def __init__(self) -> None:
        self.origin = secrets.token_hex(6)
        self.handler: Handler | None = None
        self.on_reconnect: Callable[[], Awaitable[None]] | None = None
        self.lag_observer: Callable[[float], None] | None = None

    @property
    def status(self) -> str:
        """``memory`` (single process), ``up`` or ``down`` (Redis unreachable)."""
        return "memory"

    async def start(
        self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        """Deliver every message to ``handler``; ``on_reconnect`` runs after an outage."""
        self.handler = handler
        self.on_reconnect = on_reconnect

    async def publish(self, table_id: str, message: JSONMessage, *, local: bool = True) -> None:
        """Send ``message`` about ``table_id`` to every process (this one too unless ``local``
        is false). Never raises for a transport fault: it is logged, and others catch up later.
        """
        if local and self.handler is not None:
            await self.handler(table_id, message)
        self._send_remote(table_id, message)

    def _send_remote(self, table_id: str, message: JSONMessage) -> None:
        """Other processes: none here."""

    async def close(self) -> None:
        """Stop delivering."""


class InMemoryBroadcaster(Broadcaster):
    """One process: messages go straight to the handler (the default).

    >>> InMemoryBroadcaster().status
    'memory'
    """


class RedisBroadcaster(Broadcaster):
    """Redis pub/sub on one channel: every process subscribes and ignores its own messages.

    Publishing goes through a queue and one sender task, so a slow or absent Redis never delays
    an action (which is committed to the database before it is published).
    """

    distributed = True

    def __init__(self, url: str, channel: str = CHANNEL, retry: float = 1.0) -> None:
        super().__init__()
        self.url = url
        self.channel = channel
        self.retry = retry
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_LIMIT)
        self.tasks: list[asyncio.Task[None]] = []
        self.sub_up = False
        self.pub_up = True
        self.dropped = 0

    @property
    def status(self) -> str:
        """``up`` when subscribed and the last publish worked, else ``down``."""
        return "up" if self.sub_up and self.pub_up else "down"

    def _client(self) -> Any:
        from redis import asyncio as aioredis

        return aioredis.Redis.from_url(
            self.url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10
        )

    async def start(
        self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        """Subscribe and start the sender (a Redis outage at start is only logged)."""
        await super().start(handler, on_reconnect)
        ready = asyncio.Event()
        self.tasks = [
            asyncio.create_task(self._listen(ready)),
            asyncio.create_task(self._sender()),
        ]
        await set_within(ready, 3)

    def _send_remote(self, table_id: str, message: JSONMessage) -> None:
        data = json.dumps(
            {"t": table_id, "o": self.origin, "at": time.time(), "m": message},
            separators=(",", ":"),
        )
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            self.dropped += 1
            if self.dropped % 1000 == 1:
                log.warning("broadcast queue full: %d messages dropped", self.dropped)

    async def _sender(self) -> None:
        client = self._client()
        try:
            while True:
                data = await self.queue.get()
                try:
                    await client.publish(self.channel, data)
                    if not self.pub_up:
                        log.warning("Redis publish works again")
                    self.pub_up = True
                except Exception as exc:
                    if self.pub_up:
                        log.error(
                            "Redis publish failed (%s): other processes' clients get this "
                            "table's updates when they resync or reconnect",
                            exc,
                        )
                    self.pub_up = False
        finally:
            await client.aclose()

    async def _listen(self, ready: asyncio.Event) -> None:
        first = True
        while True:
            client = self._client()
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                if not first:
                    log.warning("Redis subscription restored: catching every live table up")
                self.sub_up = True
                self.pub_up = True
                ready.set()
                if not first and self.on_reconnect is not None:
                    await self.on_reconnect()
                first = False
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
                    if msg is not None and msg.get("type") == "message":
                        await self._deliver(msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.sub_up or first:
                    log.error(
                        "Redis subscription lost (%s): serving local sockets only, retrying", exc
                    )
                self.sub_up = False
                first = False
                ready.set()
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(self.retry)

    async def _deliver(self, data: bytes | str) -> None:
        try:
            item = json.loads(data)
            table_id, origin, message = str(item["t"]), item["o"], item["m"]
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a malformed broadcast message")
            return
        if origin == self.origin or self.handler is None or not isinstance(message, dict):
            return
        if self.lag_observer is not None and isinstance(item.get("at"), int | float):
            self.lag_observer(max(0.0, time.time() - float(item["at"])))
        try:
            await self.handler(table_id, message)
        except Exception:
            log.exception("handling a broadcast message for table %s failed", table_id)

    async def close(self) -> None:
        """Cancel the subscriber and the sender."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks = []


def make_broadcaster(url: str | None = None) -> Broadcaster:
    """The broadcaster for ``url``, else ``BONEYARD_BROADCAST_URL``, else in memory.

    >>> type(make_broadcaster("memory://")).__name__
    'InMemoryBroadcaster'
    >>> type(make_broadcaster("redis://127.0.0.1:6379/0")).__name__
    'RedisBroadcaster'
    """
    chosen = url or os.environ.get("BONEYARD_BROADCAST_URL") or "memory://"
    if chosen.startswith(("redis://", "rediss://", "unix://")):
        return RedisBroadcaster(chosen)
    if chosen.startswith("memory://"):
        return InMemoryBroadcaster()
    raise ValueError(f"unknown broadcast URL {chosen!r}: use memory:// or redis://host:port/db")
