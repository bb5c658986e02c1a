"""What the store tests share: Alembic on a connection, and a function run on a PostgreSQL
database (a scratch one made and dropped around it)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import TypeVar

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import create_async_engine

from bench.faults import create_database, drop_database
from boneyard.store.db import MIGRATIONS

T = TypeVar("T")
POSTGRES = os.environ.get("BONEYARD_TEST_POSTGRES_URL")
needs_postgres = pytest.mark.skipif(
    not POSTGRES, reason="needs BONEYARD_TEST_POSTGRES_URL (.ci/run sets it)"
)


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
    """``work`` on a fresh PostgreSQL database next to ``POSTGRES``, dropped afterwards."""
    assert POSTGRES is not None
    url = asyncio.run(create_database(POSTGRES))
    try:
        return run_sync(url, work)
    finally:
        asyncio.run(drop_database(POSTGRES, url))
