"""The expert's analysis of a finished game, for the replay viewer (like an analysis board).

A person picks a seat; the server values, at each of that seat's decisions with a choice, every
legal action by the expert's search (:mod:`boneyard.bots.analysis`, from what that seat knew
then) and how much the move played lost against the best. The viewer marks the moves that lost
more than the threshold its reader sets.

The search never runs on the event loop: an analysis is a series of jobs in the worker
processes (:mod:`boneyard.server.workers`, which bound each job's time and the queue), each job
a few decisions, so no job comes near the time limit and the answer streams its progress: one
JSON line after each job, the last with every decision (one request, so several server
processes behind a proxy without sticky sessions need nothing shared). Each analysis is kept per
record and seat (a digest of the record: a second reader, or the same one coming back to this
process, gets it at once) in memory, at most :data:`KEPT`; one whose reader leaves is finished
and kept all the same. Only finished games are analysed: a live table's hidden tiles are never
searched for anyone. An uploaded record is parsed and checked in a worker too; the event loop
only ever holds a record's text. Refusals are the domain errors of boneyard.server.errors
(routes: :mod:`.router`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from cachetools import LRUCache

from boneyard.core.protocol import JSON
from boneyard.server.errors import Refused
from boneyard.server.metrics import Metrics
from boneyard.server.ratelimit import Limits
from boneyard.server.replays import jobs
from boneyard.server.replays.service import run_job
from boneyard.server.tables import tableview
from boneyard.server.tables.live import LiveTable
from boneyard.server.workers import Busy, TooSlow, Workers, encode

log = logging.getLogger("boneyard.server.replays.analysis")
CHUNK = 4
"""Decisions one job values (a few seconds of search at the default worlds)."""
KEPT = 64
"""Analyses kept in memory (the least recently asked for go first)."""
BUSY_WAIT = 0.5
"""Seconds between tries while the workers are busy with other jobs."""
BUSY_GIVE_UP = 120.0


@dataclass
class Analysis:
    """One analysis, running or done (``error``: why it stopped)."""

    key: str
    seat: int
    worlds: int
    total: int | None = None
    decisions: list[JSON] = field(default_factory=list)
    error: str | None = None
    finished: bool = False
    version: int = 0
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def bump(self) -> None:
        """Wake every reader: a part came in, or the analysis ended."""
        async with self.changed:
            self.version += 1
            self.changed.notify_all()

    async def updates(self) -> AsyncIterator[JSON]:
        """Its state now, then after every change, to its end."""
        seen = -1
        while True:
            async with self.changed:
                while self.version == seen:
                    await self.changed.wait()
                seen = self.version
                doc = self.to_json()
            yield doc
            if doc["status"] != "running":
                return

    def to_json(self) -> JSON:
        """One line of the answer: status, progress and, once done, every decision."""
        status = "error" if self.error else "done" if self.finished else "running"
        doc: JSON = {
            "key": self.key,
            "seat": self.seat,
            "worlds": self.worlds,
            "status": status,
            "done": len(self.decisions),
            "total": self.total,
        }
        if self.error:
            doc["error"] = self.error
        if self.finished:
            doc["decisions"] = self.decisions
        return doc


def digest(text: str, seat: int, worlds: int) -> str:
    """The key of an analysis: the record's canonical JSON text (jobs.canonical), the seat and
    the search budget."""
    return hashlib.sha256(f"{seat}/{worlds}/{text}".encode()).hexdigest()[:32]


class Analyses:
    """The analyses of this server process (see the module docstring)."""

    def __init__(self, workers: Workers, worlds: int, limits: Limits, metrics: Metrics) -> None:
        self.workers = workers
        self.worlds = worlds
        self.limits = limits
        self.metrics = metrics
        self.kept: LRUCache[str, Analysis] = LRUCache(maxsize=KEPT)
        self.tasks: set[asyncio.Task[None]] = set()

    def get(self, key: str) -> Analysis | None:
        """A kept analysis by key."""
        return self.kept.get(key)

    async def of_table(self, table: LiveTable, seat: int, address: str) -> AsyncIterator[bytes]:
        """The analysis of ``seat`` at a finished table, as JSON lines (see :meth:`lines`)."""
        if table.state is None or not table.state.is_over:
            raise Refused("the analysis is available once the game is over")
        record = tableview.record(table)
        if seat >= len(record.get("seats") or []):
            raise Refused(f"there is no seat {seat + 1} at this table")
        return await self.lines(jobs.canonical(record), seat, address)

    async def of_upload(self, body: bytes, address: str) -> AsyncIterator[bytes]:
        """The analysis an uploaded request body asks for (``{"record", "seat"}``, parsed and
        checked in a worker), as JSON lines."""
        text, seat = await run_job(self.workers, self.metrics, jobs.analysis_upload, body)
        return await self.lines(text, seat, address)

    async def lines(self, text: str, seat: int, address: str) -> AsyncIterator[bytes]:
        """The kept or a new analysis of ``seat`` in the record ``text``, as JSON lines: its
        state now and after every part (a new one counts against ``address``'s uploads)."""
        found = self.get(digest(text, seat, self.worlds))
        if found is None or found.error is not None:
            await self.limits.check("uploads", address, "too many analyses from your address")
        analysis, _new = self.start(text, seat)

        async def lines() -> AsyncIterator[bytes]:
            async for doc in analysis.updates():
                yield encode(doc) + b"\n"

        return lines()

    def start(self, text: str, seat: int) -> tuple[Analysis, bool]:
        """The analysis of ``seat`` in the record ``text``: the kept one, or a new one started
        (then True). One that stopped on an error is started again."""
        key = digest(text, seat, self.worlds)
        found = self.kept.get(key)
        if found is not None and found.error is None:
            return found, False
        analysis = self.kept[key] = Analysis(key, seat, self.worlds)
        task = asyncio.create_task(self._run(analysis, text))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return analysis, True

    async def _run(self, analysis: Analysis, text: str) -> None:
        try:
            await self._parts(analysis, text)
        finally:
            await analysis.bump()

    async def _parts(self, analysis: Analysis, text: str) -> None:
        waited = 0.0
        while analysis.total is None or len(analysis.decisions) < analysis.total:
            first = len(analysis.decisions)
            try:
                args = (text, analysis.seat, first, CHUNK, analysis.worlds)
                status, value = await self.workers.run(jobs.analyse, *args)
            except Busy:
                waited += BUSY_WAIT
                if waited > BUSY_GIVE_UP:
                    analysis.error = "the server is busy: try again in a while"
                    return
                await asyncio.sleep(BUSY_WAIT)
                continue
            except TooSlow as exc:
                analysis.error = str(exc)
                return
            if status != "ok":
                analysis.error = str(value)
                return
            part = json.loads(value)
            analysis.total = int(part["total"])
            analysis.decisions.extend(part["decisions"])
            if not part["decisions"] and len(analysis.decisions) < analysis.total:
                analysis.error = "the analysis stopped short"  # pragma: no cover - a bug
                return
            await analysis.bump()
        analysis.finished = True

    async def close(self) -> None:
        """Stop the analyses running (on shutdown)."""
        for task in list(self.tasks):
            task.cancel()
