"""``INSERT … ON CONFLICT DO NOTHING`` on SQLite and PostgreSQL alike.

For writes that are idempotent by nature (a mute, an index row): two identical requests at the
same moment both succeed, and the row exists once, instead of one of them failing on the
unique key.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import DeclarativeBase


async def insert_ignore(
    db: AsyncSession, model: type[DeclarativeBase], rows: Sequence[dict[str, object]]
) -> None:
    """Insert ``rows`` into ``model``'s table, skipping those whose key is already there."""
    if not rows:
        return
    dialect = db.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    await db.execute(insert(model).values(list(rows)).on_conflict_do_nothing())
