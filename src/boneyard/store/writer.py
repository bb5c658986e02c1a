"""Group commit: the log writes of many tables committed together, in one transaction.

Every accepted action must be committed before anyone sees it (docs/server.md). Committing each
one in its own ORM session costs a session, two flushes, a ``SELECT`` and a commit, each a round
trip through the async driver. :class:`LogWriter` instead queues each table's write (its log rows,
new hand seeds and, when it changes, the table's status and record) and one task commits
everything queued so far with one Core ``INSERT`` per kind of row: while one transaction commits,
the next batch gathers. Each writer is told when its own write is durable; a table never has two
writes in flight (its actor awaits each one).

A batch that fails (for example one table's ``(table_id, seq)`` taken by another process) is
written again one write per transaction, so only the guilty write fails and with its own error.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, Executable, create_engine, insert, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from boneyard.store.db import sqlite_pragmas
from boneyard.store.models import GameTable, HandSeed, LogEntry

MAX_BATCH = 500
"""Writes committed in one transaction at most."""
LOCK_WAIT = 10.0
"""Seconds the SQLite writer retries while another connection holds the write lock."""


Row = dict[str, Any]
"""A row to insert, by column name."""


@dataclass
class Write:
    """One table's write: rows to insert and, if it changed, its status (and final record)."""

    table_id: str
    entries: list[Row] = field(default_factory=list)
    seeds: list[Row] = field(default_factory=list)
    status: str | None = None
    record: dict[str, Any] | None = None


def entry_row(
    table_id: str, seq: int, kind: str, seat: int | None, payload: Any, at: datetime
) -> Row:
    """A ``table_log`` row.

    >>> sorted(entry_row("t", 1, "deal", None, {}, datetime(2026, 1, 1)))
    ['created_at', 'kind', 'payload', 'seat', 'seq', 'table_id']
    """
    return {
        "table_id": table_id,
        "seq": seq,
        "kind": kind,
        "seat": seat,
        "payload": payload,
        "created_at": at,
    }


def seed_row(
    table_id: str,
    hand: int,
    server_seed: str,
    commitment: str,
    client_seeds: dict[str, str] | None = None,
) -> Row:
    """A ``hand_seeds`` row.

    >>> sorted(seed_row("t", 0, "s", "c"))
    ['client_seeds', 'commitment', 'hand', 'server_seed', 'table_id']
    """
    return {
        "table_id": table_id,
        "hand": hand,
        "server_seed": server_seed,
        "commitment": commitment,
        "client_seeds": client_seeds,
    }


Statement = tuple[Executable, list[Row] | None]


def statements(writes: list[Write]) -> list[Statement]:
    """The statements that write ``writes``: one ``INSERT`` per kind of row, an ``UPDATE`` per
    table whose status changed."""
    out: list[Statement] = []
    seeds = [s for w in writes for s in w.seeds]
    if seeds:
        out.append((insert(HandSeed), seeds))
    entries = [e for w in writes for e in w.entries]
    if entries:
        out.append((insert(LogEntry), entries))
    for w in writes:
        if w.status is not None:
            values: dict[str, Any] = {"status": w.status}
            if w.record is not None:
                values["record"] = w.record
            out.append((update(GameTable).where(GameTable.id == w.table_id).values(values), None))
    return out


class LogWriter:
    """Commits the queued writes of every table in as few transactions as it can.

    On PostgreSQL (asyncpg, natively async) a batch runs on one held async connection. On SQLite
    the async driver runs each statement in a thread of its own, and under load each hand-off
    waits for the GIL: a batch took about 10 ms of waiting for well under 1 ms of work. So on
    SQLite the writer holds a plain (synchronous) connection and commits each batch right on the
    event loop. It never waits there for the write lock (``busy_timeout=0``): when another
    connection holds it, the batch is rolled back and tried again after an ``await``, which lets
    that connection finish.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        max_batch: int = MAX_BATCH,
        observe: Callable[[int, float], None] | None = None,
    ) -> None:
        """``observe(writes, seconds)`` is told of each committed batch (metrics)."""
        self.engine = engine
        self.observe = observe
        self.sync_engine: Engine | None = None
        self.sync_conn: Connection | None = None
        if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
            # (a file: the writer's own connection sees the same database)
            self.sync_engine = create_engine(engine.url.set(drivername="sqlite+pysqlite"))
            sqlite_pragmas(self.sync_engine, busy_ms=0)
        self.max_batch = max_batch
        self.pending: list[tuple[Write, asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None
        self.conn: AsyncConnection | None = None
        self.batches = 0  # transactions committed (the figures in bench/load.py)
        self.writes = 0

    async def write(self, w: Write) -> None:
        """Queue ``w`` and return once it is committed (or raise the database's error).

        A cancelled caller does not take its write back: it may still be committed, as a move
        whose acknowledgement was lost (the table's next write then finds its ``seq`` taken and
        catches up from the log).
        """
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((w, fut))
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())
        await fut

    async def _run(self) -> None:
        while self.pending:
            batch, self.pending = self.pending[: self.max_batch], self.pending[self.max_batch :]
            started = time.perf_counter()
            try:
                await self._commit([w for w, _ in batch])
            except Exception as exc:
                if len(batch) == 1:
                    _settle(batch[0][1], exc)
                    continue
                for w, fut in batch:  # find the write that spoiled the batch
                    try:
                        await self._commit([w])
                    except Exception as one:
                        _settle(fut, one)
                    else:
                        _settle(fut, None)
                continue
            self.batches += 1
            self.writes += len(batch)
            if self.observe is not None:
                self.observe(len(batch), time.perf_counter() - started)
            for _, fut in batch:
                _settle(fut, None)

    async def _commit(self, writes: list[Write]) -> None:
        if self.sync_engine is not None:
            await self._commit_sqlite(self.sync_engine, writes)
            return
        # One connection held between batches: no pool checkout or ping per transaction. After
        # any error it is dropped and the next batch opens a fresh one (the database may have
        # restarted).
        if self.conn is None:
            self.conn = await self.engine.connect()
        try:
            async with self.conn.begin():
                for stmt, params in statements(writes):
                    await self.conn.execute(stmt, params)
        except BaseException:
            conn, self.conn = self.conn, None
            with contextlib.suppress(Exception):
                await conn.invalidate()
            raise

    async def _commit_sqlite(self, engine: Engine, writes: list[Write]) -> None:
        waited = 0.0
        while True:
            try:
                self._commit_now(engine, writes)
                return
            except OperationalError as exc:
                if not _locked(exc) or waited > LOCK_WAIT:
                    raise
            await asyncio.sleep(0.002)  # another connection writes: let it finish
            waited += 0.002

    def _commit_now(self, engine: Engine, writes: list[Write]) -> None:
        if self.sync_conn is None:
            self.sync_conn = engine.connect()
        try:
            with self.sync_conn.begin():
                for stmt, params in statements(writes):
                    self.sync_conn.execute(stmt, params)
        except BaseException:
            conn, self.sync_conn = self.sync_conn, None
            with contextlib.suppress(Exception):
                conn.invalidate()
            raise

    async def close(self) -> None:
        """Let the queued writes finish (on shutdown), then give the connection back."""
        if self.task is not None and not self.task.done():
            await asyncio.wait([self.task], timeout=10)
        if self.conn is not None:
            conn, self.conn = self.conn, None
            with contextlib.suppress(Exception):
                await conn.close()
        if self.sync_conn is not None:
            with contextlib.suppress(Exception):
                self.sync_conn.close()
            self.sync_conn = None
        if self.sync_engine is not None:
            self.sync_engine.dispose()


def _locked(exc: OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the write lock."""
    return "locked" in str(exc.orig) or "busy" in str(exc.orig)


def _settle(fut: asyncio.Future[None], exc: BaseException | None) -> None:
    if fut.done():  # its writer was cancelled
        return
    if exc is None:
        fut.set_result(None)
    else:
        fut.set_exception(exc)
