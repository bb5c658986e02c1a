"""What the store tests share: Alembic on a connection, and a function run on a PostgreSQL
database (a scratch one made and dropped around it)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import create_async_engine

from boneyard.store.db import MIGRATIONS
from tests.services import scratch_postgres

T = TypeVar("T")


def migrate_to(conn: sa.Connection, up: bool, revision: str) -> None:
    """Upgrade (``up``) or downgrade the database of ``conn`` to ``revision``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    (command.upgrade if up else command.downgrade)(cfg, revision)


def run_sync(url: str, work: Callable[[sa.Connection], T]) -> T:
    """``work`` on a connection to the PostgreSQL database ``url``, in one transaction."""

    async def run() -> T:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                return await conn.run_sync(work)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def on_scratch_postgres(work: Callable[[sa.Connection], T]) -> T:
    """``work`` on a fresh scratch PostgreSQL database, dropped afterwards."""
    with scratch_postgres() as url:
        return run_sync(url, work)
