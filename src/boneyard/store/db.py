"""The async engine, sessions and migrations.

``sqlite+aiosqlite:///path`` is the default; PostgreSQL is ``postgresql+asyncpg://...``.
Plain ``postgresql://`` and ``sqlite:///`` URLs are given their async driver.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, event
from sqlalchemy.exc import DataError as DataError
from sqlalchemy.exc import IntegrityError as IntegrityError
from sqlalchemy.exc import SQLAlchemyError as SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine as AsyncEngine
from sqlalchemy.ext.asyncio import AsyncSession as AsyncSession
from sqlalchemy.ext.asyncio import async_sessionmaker as async_sessionmaker
from sqlalchemy.ext.asyncio import create_async_engine

# The session's type and the database's errors are re-exported (the redundant ``as``): the server
# holds sessions and answers a unique key's 409 or a value's 400 without importing SQLAlchemy,
# whose queries live in the store (tests/server/site/test_no_sql.py).

MIGRATIONS = Path(__file__).with_name("migrations")


def async_url(url: str) -> str:
    """The URL with its async driver.

    >>> async_url("postgresql://u@h/db")
    'postgresql+asyncpg://u@h/db'
    >>> async_url("sqlite:///x.db")
    'sqlite+aiosqlite:///x.db'
    """
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def sqlite_url(path: str | Path) -> str:
    """The async URL of an SQLite file."""
    return f"sqlite+aiosqlite:///{Path(path)}"


def make_engine(url: str) -> AsyncEngine:
    """An async engine; SQLite gets foreign keys on."""
    # pre_ping: a pooled connection that died (a database restart) is replaced, not used.
    engine = create_async_engine(async_url(url), pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        sqlite_pragmas(engine.sync_engine, busy_ms=10_000)
    return engine


def sqlite_pragmas(engine: Engine, busy_ms: int, autocheckpoint: bool = True) -> None:
    """Set the pragmas every SQLite connection of ``engine`` runs with.

    Foreign keys on. WAL: readers never wait for the writer and a commit needs no fsync of the
    main file (synchronous=NORMAL keeps it consistent; the last commits may be lost on a power
    cut, not on a process crash). ``busy_ms``: how long a writer waits for the write lock before
    it fails (the async sessions queue for 10 s; the log writer, which runs on the event loop,
    does not wait at all and retries without blocking; boneyard.store.writer).
    ``autocheckpoint=False``: a commit never copies the WAL back into the database file (with
    its fsyncs) itself; the log writer does that in a worker thread instead.
    """

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: object, _record: object) -> None:
        cursor = dbapi_conn.cursor()  # type: ignore[attr-defined]
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        if not autocheckpoint:
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()


def _upgrade(connection: Connection) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


def _foreign_keys_hold(connection: Connection) -> None:
    bad = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if bad:
        raise RuntimeError(f"the migration broke foreign keys: {bad[:5]}")


async def migrate(engine: AsyncEngine) -> None:
    """Apply every migration not yet applied (Alembic ``upgrade head``).

    SQLite changes a table by copying it into a new one (Alembic's batch mode) and dropping the
    old: with foreign keys on, the drop would delete (cascade) or refuse over the rows that refer
    to it. They are off for the migration (SQLite's own procedure for altering a table, which
    only takes effect outside a transaction), and checked before the commit."""
    async with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            await conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            await conn.commit()
        try:
            async with conn.begin():
                await conn.run_sync(_upgrade)
                if sqlite:
                    await conn.run_sync(_foreign_keys_hold)
        finally:
            if sqlite:
                await conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                await conn.commit()


def sessionmaker(engine: AsyncEngine) -> async_sessionmaker:  # type: ignore[type-arg]
    """Sessions that keep loaded values after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
