"""Replays of finished tables and uploaded records, computed by the worker processes.

A finished table's replay is kept in memory (at most :data:`CACHE_BYTES` of encoded JSON, the
least recently read going first: ``cachetools``), and so are its hands' ends per version. An
upload's body is parsed in the worker too: a large one costs the event loop nothing. Refusals
are the domain errors of boneyard.server.errors (routes: :mod:`.router`).
"""

from __future__ import annotations

from typing import Any

from cachetools import LRUCache

from boneyard.core.protocol import JSON
from boneyard.server.errors import Busy, Refused
from boneyard.server.metrics import Metrics
from boneyard.server.ratelimit import Limits
from boneyard.server.replays import jobs
from boneyard.server.replays.steps import hand_ends
from boneyard.server.tables import tableview
from boneyard.server.tables.commands import Inspect
from boneyard.server.tables.live import LiveTable
from boneyard.server.workers import Busy as WorkersBusy
from boneyard.server.workers import TooSlow, Workers

CACHE_BYTES = 64_000_000
"""Bytes of finished tables' replays kept in memory."""
ENDS_KEPT = 256
"""Tables whose hands' ends are kept in memory."""


async def run_job(workers: Workers, metrics: Metrics, function: Any, *args: object) -> Any:
    """The value of a job in the worker processes, counted by outcome; :class:`Busy` when
    the queue is full, :class:`Refused` with the job's reason otherwise."""
    try:
        status, value = await workers.run(function, *args)
    except WorkersBusy as exc:
        metrics.jobs.labels("busy").inc()
        raise Busy(str(exc)) from None
    except TooSlow as exc:
        metrics.jobs.labels("timeout").inc()
        raise Refused(f"the record could not be replayed: {exc}") from None
    metrics.jobs.labels(status).inc()
    if status != "ok":
        raise Refused(str(value))
    return value


class Replays:
    """The replays of one app (see the module docstring)."""

    def __init__(self, workers: Workers, limits: Limits, metrics: Metrics) -> None:
        self.workers = workers
        self.limits = limits
        self.metrics = metrics
        self.cache: LRUCache[str, bytes] = LRUCache(maxsize=CACHE_BYTES, getsizeof=len)
        self.ends: LRUCache[tuple[str, int], list[JSON]] = LRUCache(maxsize=ENDS_KEPT)

    async def of_table(self, table: LiveTable) -> bytes:
        """Every step of a finished table's game, as encoded JSON."""
        if table.state is None or not table.ended:
            raise Refused("the replay is available once the game is over")
        body = self.cache.get(table.id)
        if body is None:
            body = await run_job(
                self.workers, self.metrics, jobs.replay, tableview.record(table), table.id
            )
            assert isinstance(body, bytes)
            self.cache[table.id] = body
        return body

    async def hands(self, table: LiveTable) -> list[JSON]:
        """The ends (winner, award, scores) of the hands ``table`` has finished."""
        key = (table.id, table.version)
        if key not in self.ends:
            self.ends[key] = await table.ask(Inspect(hand_ends))  # (not mid-commit)
        return self.ends[key]

    async def upload(self, body: bytes, address: str) -> bytes:
        """Every step of an uploaded record (the request ``body``, ``{"record": {...}}``)."""
        await self.limits.check("uploads", address, "too many uploads from your address")
        steps = await run_job(self.workers, self.metrics, jobs.upload, body)
        assert isinstance(steps, bytes)
        return steps
