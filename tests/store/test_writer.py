"""The group-commit log writer: many tables' writes in one transaction, each caller told when its
own write is durable, and one bad write failing alone. On SQLite and, when
``BONEYARD_TEST_POSTGRES_URL`` is set (.ci/run), on a scratch PostgreSQL database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from boneyard.store.db import make_engine, migrate, sqlite_url
from boneyard.store.models import GameTable, HandSeed, LogEntry
from boneyard.store.writer import LogWriter, Write, entry_row, seed_row
from tests.services import needs_postgres, postgres_url

AT = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@asynccontextmanager
async def database(kind: str, tmp: Path) -> AsyncIterator[AsyncEngine]:
    if kind == "sqlite":
        engine = make_engine(sqlite_url(tmp / "w.db"))
        await migrate(engine)
        try:
            yield engine
        finally:
            await engine.dispose()
        return
    from bench.faults import scratch_database

    async with scratch_database(postgres_url()) as url:
        engine = make_engine(url)
        try:
            await migrate(engine)
            yield engine
        finally:
            await engine.dispose()


KINDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=needs_postgres,
    ),
]


def run(kind: str, tmp: Path, body: Callable[[AsyncEngine], Awaitable[None]]) -> None:
    async def main() -> None:
        async with database(kind, tmp) as engine:
            await body(engine)

    asyncio.run(main())


async def make_tables(engine: AsyncEngine, n: int) -> list[str]:
    ids = [f"t{i:03d}" for i in range(n)]
    async with engine.begin() as conn:
        await conn.execute(
            insert(GameTable),
            [
                {"id": t, "game": "highfive", "options": {}, "seats": [], "status": "playing"}
                | {"created_at": AT, "private": False}
                for t in ids
            ],
        )
    return ids


async def count(engine: AsyncEngine, model: Any, **where: Any) -> int:
    async with engine.connect() as conn:
        q = select(func.count()).select_from(model)
        for k, v in where.items():
            q = q.where(getattr(model, k) == v)
        return int((await conn.execute(q)).scalar_one())


def write_for(tid: str, seq: int, **kw: Any) -> Write:
    return Write(tid, entries=[entry_row(tid, seq, "action", 0, {"type": "pass"}, AT)], **kw)


@pytest.mark.parametrize("kind", KINDS)
def test_many_tables_commit_together_and_each_caller_waits_for_its_own(
    kind: str, tmp_path: Path
) -> None:
    async def body(engine: AsyncEngine) -> None:
        ids = await make_tables(engine, 60)
        writer = LogWriter(engine)
        seed = {"table_id": ids[0], "hand": 1, "server_seed": "s" * 64}
        first = write_for(ids[0], 1, seeds=[seed | {"commitment": "c" * 64, "client_seeds": {}}])
        writes = [first] + [write_for(t, 1) for t in ids[1:]]
        await asyncio.gather(*(writer.write(w) for w in writes))
        assert await count(engine, LogEntry) == 60
        assert await count(engine, HandSeed, table_id=ids[0], hand=1) == 1
        # 60 writes queued at once: the first commits alone, the other 59 together.
        assert writer.writes == 60 and writer.batches <= 3
        # The status and the record change only when given.
        rec = {"game": "highfive", "events": []}
        await writer.write(write_for(ids[1], 2, status="over", record=rec))
        async with engine.connect() as conn:
            rows = dict((await conn.execute(select(GameTable.id, GameTable.status))).all())
            stored = (
                await conn.execute(select(GameTable.record).where(GameTable.id == ids[1]))
            ).scalar_one()
        assert rows[ids[1]] == "over" and stored == rec
        assert {s for t, s in rows.items() if t != ids[1]} == {"playing"}
        await writer.close()

    run(kind, tmp_path, body)


@pytest.mark.parametrize("kind", KINDS)
def test_every_value_reads_back_as_written(kind: str, tmp_path: Path) -> None:
    """Log rows (seat or none, nested payloads, times), hand seeds (client seeds or none) and a
    status change without a record (the stored record stays) come back exactly."""

    async def body(engine: AsyncEngine) -> None:
        ids = await make_tables(engine, 2)
        async with engine.begin() as conn:
            await conn.execute(
                update(GameTable).where(GameTable.id == ids[1]).values(record={"kept": [1, 2]})
            )
        writer = LogWriter(engine)
        deal = {"hand": 1, "client_seeds": ["é ☃", None], "next_commitment": "c" * 64}
        play = {"play": "6-5", "on": "5-5", "port": 2}
        seeds = [
            seed_row(ids[0], 1, "s" * 64, "c" * 64, {"0": "é ☃"}),
            seed_row(ids[0], 2, "t" * 64, "d" * 64, None),
        ]
        later = AT + timedelta(seconds=1.5)
        await asyncio.gather(
            writer.write(
                Write(
                    ids[0],
                    entries=[
                        entry_row(ids[0], 1, "deal", None, deal, AT),
                        entry_row(ids[0], 2, "action", 1, play, later),
                    ],
                    seeds=seeds,
                )
            ),
            writer.write(write_for(ids[1], 1, status="over")),
        )
        await writer.close()
        async with engine.connect() as conn:
            log = (
                await conn.execute(
                    select(LogEntry.seq, LogEntry.kind, LogEntry.seat, LogEntry.payload,
                           LogEntry.created_at).where(LogEntry.table_id == ids[0]).order_by(LogEntry.seq)
                )
            ).all()  # fmt: skip
            stored_seeds = (
                await conn.execute(
                    select(HandSeed.hand, HandSeed.server_seed, HandSeed.commitment,
                           HandSeed.client_seeds).order_by(HandSeed.hand)
                )
            ).all()  # fmt: skip
            table = (
                await conn.execute(
                    select(GameTable.status, GameTable.record).where(GameTable.id == ids[1])
                )
            ).one()
        assert [(r.seq, r.kind, r.seat, r.payload) for r in log] == [
            (1, "deal", None, deal),
            (2, "action", 1, play),
        ]
        times = [r.created_at if r.created_at.tzinfo else r.created_at.replace(tzinfo=UTC)
                 for r in log]  # fmt: skip
        assert times == [AT, later]
        assert [tuple(r) for r in stored_seeds] == [
            (1, "s" * 64, "c" * 64, {"0": "é ☃"}),
            (2, "t" * 64, "d" * 64, None),
        ]
        assert (table.status, table.record) == ("over", {"kept": [1, 2]})

    run(kind, tmp_path, body)


@pytest.mark.parametrize("kind", KINDS)
def test_a_taken_sequence_number_fails_only_its_own_write(kind: str, tmp_path: Path) -> None:
    async def body(engine: AsyncEngine) -> None:
        ids = await make_tables(engine, 10)
        writer = LogWriter(engine)
        await writer.write(write_for(ids[3], 1))  # another process wrote table 3's seq 1
        results = await asyncio.gather(
            *(writer.write(write_for(t, 1)) for t in ids), return_exceptions=True
        )
        assert [type(r).__name__ for r in results] == [
            "IntegrityError" if i == 3 else "NoneType" for i in range(10)
        ]
        assert isinstance(results[3], IntegrityError)
        assert await count(engine, LogEntry) == 10  # the first write and the nine others
        # A cancelled caller does not stop the others (nor its own write).
        task = asyncio.ensure_future(writer.write(write_for(ids[0], 2)))
        others = [asyncio.ensure_future(writer.write(write_for(t, 2))) for t in ids[1:]]
        await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(*others)
        await writer.close()
        assert await count(engine, LogEntry, seq=2) == 10

    run(kind, tmp_path, body)


def test_sqlite_writer_waits_for_another_writer_without_blocking_the_loop(tmp_path: Path) -> None:
    """Another connection holds SQLite's write lock: the log writer (which commits on the event
    loop) retries after awaits, so that connection finishes, then the write commits."""

    async def body(engine: AsyncEngine) -> None:
        ids = await make_tables(engine, 2)
        writer = LogWriter(engine)
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        tick_task = asyncio.create_task(ticker())
        async with engine.connect() as other:
            await other.begin()
            await other.execute(insert(LogEntry), [entry_row(ids[1], 1, "action", 0, {}, AT)])
            # The lock is held: the write cannot be committed yet, and the loop still runs.
            pending = asyncio.create_task(writer.write(write_for(ids[0], 1)))
            start = ticks
            for _ in range(1000):  # the loop keeps running while the write waits for the lock
                if ticks >= start + 10:
                    break
                await asyncio.sleep(0.01)
            assert ticks >= start + 10
            assert not pending.done()
            await other.commit()  # (an await: this is what the writer's retries let happen)
        await asyncio.wait_for(pending, 5)
        tick_task.cancel()
        assert await count(engine, LogEntry) == 2
        await writer.close()

    run("sqlite", tmp_path, body)


def test_sqlite_checkpoints_run_in_a_worker_thread_not_on_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit on the loop never copies the write-ahead log into the database file (two fsyncs:
    a stall of every table); a worker thread does, while the writes go on."""
    import threading

    from boneyard.store import writer as writer_module

    threads: list[int] = []
    passive = writer_module._checkpoint_passive

    def spy(engine: Any) -> None:
        threads.append(threading.get_ident())
        passive(engine)

    monkeypatch.setattr(writer_module, "_checkpoint_passive", spy)
    monkeypatch.setattr(writer_module, "CHECKPOINT_EVERY", 0.05)
    db_file = tmp_path / "w.db"

    async def body(engine: AsyncEngine) -> None:
        ids = await make_tables(engine, 50)
        writer = LogWriter(engine)
        size0 = db_file.stat().st_size
        big = {"type": "pass", "pad": "x" * 2000}  # about a page a row
        for seq in range(1, 41):
            rows = [Write(t, entries=[entry_row(t, seq, "action", 0, big, AT)]) for t in ids]
            await asyncio.gather(*(writer.write(w) for w in rows))
            await asyncio.sleep(0.005)
        assert writer.sync_conn is not None
        autocheckpoint = writer.sync_conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        assert autocheckpoint == 0
        await writer.close()
        assert writer.checkpoints >= 2 and threads
        assert threading.get_ident() not in threads
        # The pages reached the database file itself (without a checkpoint they stay in the WAL).
        assert db_file.stat().st_size > size0 + 2000 * 2000
        assert await count(engine, LogEntry) == 2000

    run("sqlite", tmp_path, body)
