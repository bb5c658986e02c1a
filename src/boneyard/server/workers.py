"""Heavy work a request can trigger, off the event loop: worker processes with a time limit.

Replaying an uploaded record (and any other computation whose cost the requester controls) runs
in a pool of :attr:`SiteSettings.upload_workers` processes (pebble), each job at most
``upload_seconds`` (the worker is killed past that), with at most ``upload_queue`` jobs waiting;
one more is refused at once with "the server is busy". A job returns its answer already encoded
as JSON bytes, so the event loop neither computes nor encodes it: a slow upload never delays a
move at another table.

Workers start from a fork server that has imported the engine once (cheap starts, and no copy of
the server's own threads or sockets), and run at a lower priority than the server.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

from pebble import ProcessExpired, ProcessPool

from boneyard.core.errors import BoneyardError
from boneyard.games import registry
from boneyard.server.settings import SiteSettings

log = logging.getLogger("boneyard.server.workers")
T = TypeVar("T")
PRELOAD = ["boneyard.server.replays.jobs"]


class Busy(BoneyardError):
    """Too many jobs already wait (answer 503: try again shortly)."""


class TooSlow(BoneyardError):
    """A job ran out of time (its worker was stopped)."""


class Workers:
    """The pool (started on first use) and its bounds (see the module docstring)."""

    def __init__(self, settings: SiteSettings) -> None:
        self.settings = settings
        self.pool: ProcessPool | None = None
        self.starting = asyncio.Lock()
        self.running = 0

    async def _pool(self) -> ProcessPool:
        """The pool, started on first use in a thread (starting the fork server and its first
        worker takes about a second: never on the event loop)."""
        async with self.starting:
            if self.pool is None:
                self.pool = await asyncio.to_thread(self._start)
        return self.pool

    def _start(self) -> ProcessPool:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        pool = ProcessPool(
            max_workers=self.settings.upload_workers,
            context=context,
            initializer=start_worker,
            initargs=(registry.registered(),),
        )
        pool.schedule(os.getpid).result()  # (the workers are up: the first job waits for nothing)
        return pool

    async def run(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` in a worker; raises :class:`Busy`, :class:`TooSlow`, or what the
        function raised (a :class:`BoneyardError` keeps its message)."""
        limit = self.settings.upload_workers + self.settings.upload_queue
        if self.running >= limit:
            raise Busy("the server is busy with other uploads: try again in a moment")
        self.running += 1
        try:
            pool = await self._pool()
            future = pool.schedule(function, args=args, timeout=self.settings.upload_seconds)
            return await asyncio.wrap_future(future)
        except FutureTimeout:
            raise TooSlow(
                f"that took too long (over {self.settings.upload_seconds:g} seconds): "
                "nothing was kept"
            ) from None
        except ProcessExpired as exc:
            log.warning("a worker died: %s", exc)
            raise TooSlow("the work could not be finished (its worker stopped)") from None
        finally:
            self.running -= 1

    async def close(self) -> None:
        """Stop the pool (on shutdown); running jobs are abandoned."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.stop()  # type: ignore[no-untyped-call]
            await asyncio.to_thread(pool.join, 10)


def start_worker(games: dict[str, str]) -> None:
    """Run a worker below the server (nice 10): on a busy machine the event loop, and so every
    live table, comes first. It knows the games the server registered beyond the shipped ones
    (``games``: a fresh process has only the registry's own lines)."""
    os.nice(10)
    registry.register_all(games)


def encode(value: object) -> bytes:
    """JSON bytes of a job's answer (encoded in the worker)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
