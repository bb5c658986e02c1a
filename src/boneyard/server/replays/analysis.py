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
searched for anyone.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cachetools import LRUCache
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from boneyard.core.protocol import JSON
from boneyard.server.replays.service import MAX_EVENTS, count_events
from boneyard.server.validation import encodable
from boneyard.server.workers import Busy, TooSlow, encode

if TYPE_CHECKING:
    from boneyard.server.lobby.service import Lobby
    from boneyard.server.ratelimit import Limits
    from boneyard.server.workers import Workers

log = logging.getLogger("boneyard.server.replays.analysis")
CHUNK = 4
"""Decisions one job values (a few seconds of search at the default worlds)."""
KEPT = 64
"""Analyses kept in memory (the least recently asked for go first)."""
BUSY_WAIT = 0.5
"""Seconds between tries while the workers are busy with other jobs."""
BUSY_GIVE_UP = 120.0


class AnalysisIn(BaseModel):
    """Which seat to analyse (0-based, as in records)."""

    seat: int = Field(ge=0, le=7)


class RecordAnalysisIn(AnalysisIn):
    """An uploaded record and the seat to analyse."""

    record: dict[str, Any]


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


def digest(record: dict[str, Any], seat: int, worlds: int) -> str:
    """The key of an analysis: the record's canonical JSON, the seat and the search budget."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{seat}/{worlds}/{text}".encode()).hexdigest()[:32]


class Analyses:
    """The analyses of this server process (see the module docstring)."""

    def __init__(self, workers: Workers, worlds: int) -> None:
        self.workers = workers
        self.worlds = worlds
        self.kept: LRUCache[str, Analysis] = LRUCache(maxsize=KEPT)
        self.tasks: set[asyncio.Task[None]] = set()

    def get(self, key: str) -> Analysis | None:
        """A kept analysis by key."""
        return self.kept.get(key)

    def start(self, record: dict[str, Any], seat: int) -> tuple[Analysis, bool]:
        """The analysis of ``seat`` in ``record``: the kept one, or a new one started (then
        True). One that stopped on an error is started again."""
        key = digest(record, seat, self.worlds)
        found = self.kept.get(key)
        if found is not None and found.error is None:
            return found, False
        analysis = self.kept[key] = Analysis(key, seat, self.worlds)
        task = asyncio.create_task(self._run(analysis, record))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return analysis, True

    async def _run(self, analysis: Analysis, record: dict[str, Any]) -> None:
        try:
            await self._parts(analysis, record)
        finally:
            await analysis.bump()

    async def _parts(self, analysis: Analysis, record: dict[str, Any]) -> None:
        from boneyard.server.replays import jobs  # (jobs import the replays: the workers run them)

        waited = 0.0
        while analysis.total is None or len(analysis.decisions) < analysis.total:
            first = len(analysis.decisions)
            try:
                args = (record, analysis.seat, first, CHUNK, analysis.worlds)
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


def add_routes(
    app: FastAPI,
    lobby: Lobby,
    workers: Workers,
    limits: Limits,
    errors: dict[int | str, Any],
) -> Analyses:
    """The analysis endpoints (docs/server.md)."""
    from boneyard.server.accounts.service import address

    analyses = Analyses(workers, lobby.settings.analysis_worlds)

    async def begin(record: dict[str, Any], seat: int, request: Request) -> StreamingResponse:
        if seat >= len(record.get("seats") or []):
            raise HTTPException(400, f"there is no seat {seat + 1} at this table")
        found = analyses.get(digest(record, seat, analyses.worlds))
        if found is None or found.error is not None:
            await limits.check("uploads", address(request), "too many analyses from your address")
        analysis, _new = analyses.start(record, seat)

        async def lines() -> AsyncIterator[bytes]:
            async for doc in analysis.updates():
                yield encode(doc) + b"\n"

        headers = {"X-Accel-Buffering": "no", "Cache-Control": "no-store"}
        return StreamingResponse(lines(), media_type="application/x-ndjson", headers=headers)

    @app.post("/api/tables/{table_id}/analysis", responses=errors)
    async def table_analysis(
        table_id: str, body: AnalysisIn, request: Request
    ) -> StreamingResponse:
        """The expert's analysis of one seat of a finished game, as JSON lines: its progress
        after each part, the last line with every decision (docs/server.md)."""
        table = await lobby.visible_table(table_id, request)
        if table.state is None or not table.state.is_over:
            raise HTTPException(400, "the analysis is available once the game is over")
        return await begin(table.record(), body.seat, request)

    @app.post("/api/analysis", responses=errors)
    async def record_analysis(body: RecordAnalysisIn, request: Request) -> StreamingResponse:
        """The same for an uploaded record of a finished game."""
        if not encodable(body.record):
            raise HTTPException(400, "the record is not valid UTF-8 text (a lone surrogate)")
        if count_events(body.record) > MAX_EVENTS:
            raise HTTPException(400, f"the record is too long to view (over {MAX_EVENTS} events)")
        return await begin(body.record, body.seat, request)

    return analyses
