"""Statuses are StrEnums the database enforces (migration 0008): a value outside its enum is
refused by a CHECK constraint on SQLite and PostgreSQL, and by the model before any SQL."""

from __future__ import annotations

import asyncio
import importlib.util
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from boneyard.store.db import MIGRATIONS, make_engine, migrate, sessionmaker, sqlite_url
from boneyard.store.models import GameTable
from boneyard.store.statuses import CHECKED, TableStatus
from tests.services import needs_postgres, scratch_postgres
from tests.store.helpers import migrate_to, on_scratch_postgres

AT = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def test_the_migration_checks_exactly_the_enums_values() -> None:
    path = next((MIGRATIONS / "versions").glob("0008_*.py"))
    spec = importlib.util.spec_from_file_location("m0008", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert {k: set(v) for k, v in module.ALLOWED.items()} == {
        k: {m.value for m in enum} for k, enum in CHECKED.items()
    }


async def refused(engine: AsyncEngine) -> list[str]:
    """Insert rows with a bad status or kind straight in SQL: what the database says."""
    await migrate(engine)
    table = sa.table("game_tables", *(sa.column(c) for c in ("id", "game", "status",
                     "created_at")), sa.column("options", sa.JSON), sa.column("seats", sa.JSON))  # fmt: skip
    row = {"id": "t1", "game": "highfive", "options": {}, "seats": [], "created_at": AT}
    said = []
    async with engine.begin() as conn:
        await conn.execute(table.insert().values(**row, status="over"))  # an allowed one
    for bad in ("finishd", "OVER", ""):
        try:
            async with engine.begin() as conn:
                await conn.execute(table.insert().values(**row | {"id": "t2"}, status=bad))
        except IntegrityError as exc:
            said.append(str(exc.orig))
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.text("UPDATE table_log SET kind = 'move'"))
            await conn.execute(sa.text("INSERT INTO table_log (table_id, seq, kind, payload, "
                                       "created_at) VALUES ('t1', 0, 'move', '{}', :at)"), {"at": AT})  # fmt: skip
    except IntegrityError as exc:
        said.append(str(exc.orig))
    # Through the model, a stray string never reaches SQL; a member does.
    async with sessionmaker(engine)() as db:
        row = await db.get(GameTable, "t1")
        assert row is not None and row.status is TableStatus.OVER
        row.status = "finishd"  # type: ignore[assignment]
        with pytest.raises(StatementError, match="finishd"):
            await db.commit()
    await engine.dispose()
    return said


def test_sqlite_refuses_a_status_outside_its_enum(tmp_path: Path) -> None:
    said = asyncio.run(refused(make_engine(sqlite_url(tmp_path / "s.db"))))
    assert len(said) == 4 and all("CHECK constraint failed" in s for s in said), said
    assert "ck_game_tables_status" in said[0] and "ck_table_log_kind" in said[3]


@needs_postgres
def test_postgresql_refuses_a_status_outside_its_enum() -> None:
    with scratch_postgres() as url:
        said = asyncio.run(refused(create_async_engine(url)))
    assert len(said) == 4 and all("violates check constraint" in s for s in said), said
    assert "ck_game_tables_status" in said[0] and "ck_table_log_kind" in said[3]


def checks_up_down_up(conn: sa.Connection) -> list[set[str]]:
    seen = []
    for up, revision in ((True, "head"), (False, "0007"), (True, "head")):
        migrate_to(conn, up, revision)
        inspector = sa.inspect(conn)
        seen.append({c["name"] for t, _ in CHECKED for c in inspector.get_check_constraints(t)})
    return seen


WANTED = {f"ck_{t}_{c}" for t, c in CHECKED}


def test_the_checks_go_and_come_back_with_the_migration_on_sqlite(tmp_path: Path) -> None:
    with sa.create_engine(f"sqlite:///{tmp_path / 'm.db'}").begin() as conn:
        assert checks_up_down_up(conn) == [WANTED, set(), WANTED]


@needs_postgres
def test_the_checks_go_and_come_back_with_the_migration_on_postgresql() -> None:
    assert on_scratch_postgres(checks_up_down_up) == [WANTED, set(), WANTED]
