"""The tables' queries a person's history and profile read (boneyard.store.tables): games won
counted by the database from the stored results (partners share a win), the tables whose
result was never stored, and a private table's game only for someone who sat at it — the same
on SQLite and PostgreSQL (a scratch database, with ``BONEYARD_TEST_POSTGRES_URL``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from boneyard.store import tables as repo
from boneyard.store.db import make_engine, migrate, sessionmaker, sqlite_url
from boneyard.store.models import GameTable, TablePlayer, User
from tests.services import needs_postgres, scratch_postgres

TABLES: list[tuple[str, dict[str, Any] | None, int, bool]] = [
    # id, settings, the person's seat, private
    ("won", {"result": {"winner": 1, "partnerships": False}}, 1, False),
    ("lost", {"result": {"winner": 0, "partnerships": False}}, 1, False),
    ("partner", {"result": {"winner": 3, "partnerships": True}}, 1, False),
    ("nobody", {"result": {"winner": None, "partnerships": False}}, 1, False),
    ("old", None, 0, False),
    ("clock", {"clock": {"per_move": 60}}, 0, False),
    ("secret", {"result": {"winner": 0, "partnerships": False}}, 0, True),
]


async def check(url: str) -> None:
    engine = make_engine(url)
    await migrate(engine)
    sessions = sessionmaker(engine)
    t = datetime.now(UTC)
    async with sessions() as db, db.begin():
        user = User(display_name="Ann", display_key="ann", is_guest=True, created_at=t)
        db.add(user)
        await db.flush()
        for i, (tid, settings, seat, private) in enumerate(TABLES):
            at = t + timedelta(seconds=i)
            db.add(
                GameTable(
                    id=tid, game="highfive", options={}, seats=[], status="over",
                    created_by=user.id, created_at=at, settings=settings, private=private,
                )
            )  # fmt: skip
            await db.flush()
            db.add(TablePlayer(table_id=tid, user_id=user.id, seat=seat, created_at=at))
        uid = user.id
    async with sessions() as db:
        assert await repo.won_per_game(db, uid, uid) == {"highfive": 3}
        assert await repo.won_per_game(db, uid, None) == {"highfive": 2}
        assert await repo.played_per_game(db, uid, None) == {"highfive": 6}
        assert sorted(await repo.without_result(db, uid, 10)) == ["clock", "old"]
        mine = [row.id for row, _seat in await repo.history(db, uid, 3, uid)]
        assert mine == ["secret", "clock", "old"]  # newest first, cut by the database
        seen = [row.id for row, _seat in await repo.history(db, uid, 3, None)]
        assert seen == ["clock", "old", "nobody"]
    await engine.dispose()


def test_the_history_queries_on_sqlite(tmp_path: Path) -> None:
    asyncio.run(check(sqlite_url(str(tmp_path / "db.sqlite"))))


@needs_postgres
def test_the_history_queries_on_postgresql() -> None:
    with scratch_postgres() as url:
        asyncio.run(check(url))
