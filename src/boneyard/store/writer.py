"""Group commit: the log writes of many tables committed together, in one transaction.

Every accepted action must be committed before anyone sees it (docs/server.md). Committing each
one in its own ORM session costs a session, two flushes, a ``SELECT`` and a commit, each a round
trip through the async driver. :class:`LogWriter` instead queues each table's write (its log rows,
new hand seeds and, when it changes, the table's status and record) and one task commits
everything queued so far in one transaction (on SQLite one Core ``INSERT`` per kind of row, on
PostgreSQL a single statement): while one transaction commits, the next batch gathers. Each
writer is told when its own write is durable; a table never has two writes in flight (its actor
awaits each one).

A batch that fails (for example one table's ``(table_id, seq)`` taken by another process) is
written again one write per transaction, so only the guilty write fails and with its own error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, Executable, create_engine, insert, text, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from boneyard.store.db import sqlite_pragmas
from boneyard.store.models import GameTable, HandSeed, LogEntry

MAX_BATCH = 500
"""Writes committed in one transaction at most."""
LOCK_WAIT = 10.0
"""Seconds the SQLite writer retries while another connection holds the write lock."""
CHECKPOINT_EVERY = 1.0
"""Seconds between two SQLite checkpoints (in a worker thread) while writes come."""

log = logging.getLogger("boneyard.store")


Row = dict[str, Any]
"""A row to insert, by column name."""


@dataclass
class Write:
    """One table's write: rows to insert and, if it changed, its status (and final record)."""

    table_id: str
    entries: list[Row] = field(default_factory=list)
    seeds: list[Row] = field(default_factory=list)
    status: str | None = None
    record: dict[str, object] | None = None


def entry_row(
    table_id: str, seq: int, kind: str, seat: int | None, payload: object, at: datetime
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
    """The statements that write ``writes`` in one transaction (SQLite; PostgreSQL takes
    :data:`POSTGRES_WRITE`): one ``INSERT`` per kind of row, an ``UPDATE`` per table whose status
    changed."""
    out: list[Statement] = []
    seeds = [s for w in writes for s in w.seeds]
    if seeds:
        out.append((insert(HandSeed), seeds))
    entries = [e for w in writes for e in w.entries]
    if entries:
        out.append((insert(LogEntry), entries))
    for w in writes:
        if w.status is not None:
            values: dict[str, object] = {"status": w.status}
            if w.record is not None:
                values["record"] = w.record
            out.append((update(GameTable).where(GameTable.id == w.table_id).values(values), None))
    return out


POSTGRES_WRITE = text(
    """
WITH seeds AS (
    INSERT INTO hand_seeds (table_id, hand, server_seed, commitment, client_seeds)
    SELECT * FROM unnest(CAST(:seed_table AS VARCHAR[]), CAST(:seed_hand AS INTEGER[]),
        CAST(:seed_server AS VARCHAR[]), CAST(:seed_commitment AS VARCHAR[]),
        CAST(:seed_clients AS JSON[]))
), statuses AS (
    UPDATE game_tables AS g SET status = u.status, record = COALESCE(u.record, g.record)
    FROM unnest(CAST(:status_table AS VARCHAR[]), CAST(:status AS VARCHAR[]),
        CAST(:status_record AS JSON[])) AS u(id, status, record)
    WHERE g.id = u.id
)
INSERT INTO table_log (table_id, seq, kind, seat, payload, created_at)
SELECT * FROM unnest(CAST(:entry_table AS VARCHAR[]), CAST(:entry_seq AS INTEGER[]),
    CAST(:entry_kind AS VARCHAR[]), CAST(:entry_seat AS INTEGER[]),
    CAST(:entry_payload AS JSON[]), CAST(:entry_at AS TIMESTAMPTZ[]))
"""
)
"""Every row of a batch in one PostgreSQL statement (one round trip, atomic on its own)."""


def postgres_params(writes: list[Write]) -> dict[str, list[object]]:
    """The arrays :data:`POSTGRES_WRITE` takes for ``writes`` (JSON as text, as SQLAlchemy's
    ``JSON`` type writes it; a record not given is NULL, which keeps the stored one).

    >>> row = entry_row("t", 3, "action", 1, {"pass": True}, datetime(2026, 1, 1))
    >>> w = Write("t", entries=[row], status="over", record={"game": "highfive"})
    >>> p = postgres_params([w])
    >>> p["entry_seq"], p["entry_payload"], p["status"], p["status_record"], p["seed_table"]
    ([3], ['{"pass": true}'], ['over'], ['{"game": "highfive"}'], [])
    """
    seeds = [s for w in writes for s in w.seeds]
    entries = [e for w in writes for e in w.entries]
    changed = [w for w in writes if w.status is not None]
    return {
        "seed_table": [s["table_id"] for s in seeds],
        "seed_hand": [s["hand"] for s in seeds],
        "seed_server": [s["server_seed"] for s in seeds],
        "seed_commitment": [s["commitment"] for s in seeds],
        "seed_clients": [json.dumps(s["client_seeds"]) for s in seeds],
        "status_table": [w.table_id for w in changed],
        "status": [w.status for w in changed],
        "status_record": [None if w.record is None else json.dumps(w.record) for w in changed],
        "entry_table": [e["table_id"] for e in entries],
        "entry_seq": [e["seq"] for e in entries],
        "entry_kind": [e["kind"] for e in entries],
        "entry_seat": [e["seat"] for e in entries],
        "entry_payload": [json.dumps(e["payload"]) for e in entries],
        "entry_at": [e["created_at"] for e in entries],
    }


class LogWriter:
    """Commits the queued writes of every table in as few transactions as it can.

    On PostgreSQL (asyncpg, natively async) a batch is one statement (:data:`POSTGRES_WRITE`: the
    rows as arrays, ``unnest``-ed into each table) on one held connection in autocommit: one
    round trip and one await, where a transaction of Core statements took four or five, each
    resumed only when the busy event loop came back to it. On SQLite
    the async driver runs each statement in a thread of its own, and under load each hand-off
    waits for the GIL: a batch took about 10 ms of waiting for well under 1 ms of work. So on
    SQLite the writer holds a plain (synchronous) connection and commits each batch right on the
    event loop. It never waits there for the write lock (``busy_timeout=0``): when another
    connection holds it, the batch is rolled back and tried again after an ``await``, which lets
    that connection finish. Nor does it checkpoint there: by default the commit that takes the
    write-ahead log past 1,000 pages copies them into the database file and waits for two
    fsyncs, a stall of the whole loop. The writer's connection has automatic checkpoints off
    and a worker thread runs a passive checkpoint (which never blocks a writer) at most once a
    second while writes come.
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
        self.postgres = engine.dialect.name == "postgresql"
        self.sync_engine: Engine | None = None
        self.sync_conn: Connection | None = None
        if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
            # (a file: the writer's own connection sees the same database)
            self.sync_engine = create_engine(engine.url.set(drivername="sqlite+pysqlite"))
            sqlite_pragmas(self.sync_engine, busy_ms=0, autocheckpoint=False)
        self.max_batch = max_batch
        self.pending: list[tuple[Write, asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None
        self.conn: AsyncConnection | None = None
        self.batches = 0  # transactions committed (the figures in bench/load.py)
        self.writes = 0
        self.checkpointer: asyncio.Task[None] | None = None
        self.checkpoints = 0
        self._checkpointed_at = time.monotonic()

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
            conn = await self.engine.connect()
            if self.postgres:  # one statement, its own transaction: no BEGIN and COMMIT round trips
                conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            self.conn = conn
        try:
            if self.postgres:
                await self.conn.execute(POSTGRES_WRITE, postgres_params(writes))
                return
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
                self._checkpoint_soon(engine)
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

    def _checkpoint_soon(self, engine: Engine) -> None:
        """Start a passive checkpoint in a worker thread unless one ran within the last second
        or is still running."""
        running = self.checkpointer is not None and not self.checkpointer.done()
        if running or time.monotonic() - self._checkpointed_at < CHECKPOINT_EVERY:
            return
        self._checkpointed_at = time.monotonic()
        self.checkpointer = asyncio.create_task(self._checkpoint(engine))

    async def _checkpoint(self, engine: Engine) -> None:
        try:
            await asyncio.to_thread(_checkpoint_passive, engine)
            self.checkpoints += 1
        except Exception as exc:  # the next one tries again; the log itself is committed
            log.warning("SQLite checkpoint failed: %s", exc)

    async def close(self) -> None:
        """Let the queued writes finish (on shutdown), then give the connection back."""
        if self.task is not None and not self.task.done():
            await asyncio.wait([self.task], timeout=10)
        if self.checkpointer is not None:
            await asyncio.wait([self.checkpointer], timeout=10)
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


def _checkpoint_passive(engine: Engine) -> None:
    """Copy what the write-ahead log holds into the database file, as far as no reader needs
    it, without waiting for any lock (run in a worker thread: it fsyncs)."""
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")


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
