"""The unit of work's primitives: a row by its primary key, new rows kept, a row deleted, the
pending changes sent.

The server holds a session and the ORM rows it loaded through the store; it changes their
attributes and commits. Anything it asks the database goes through a function here or a named
query of a domain's repository (``store/accounts.py``, ``store/tournaments.py``, ...): no module of
the server builds or runs a statement itself (``tests/server/site/test_no_sql.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.models import Base

R = TypeVar("R", bound=Base)


async def get(
    db: AsyncSession, model: type[R], key: object, *, for_update: bool = False
) -> R | None:
    """The row of ``model`` with primary key ``key`` (the session's copy if it has one), or
    ``None``; ``for_update``: locked until the transaction ends (``SELECT ... FOR UPDATE`` where
    the database has it)."""
    if for_update:
        return await db.get(model, key, with_for_update=True)
    return await db.get(model, key)


def add(db: AsyncSession, row: Base) -> None:
    """Keep ``row``: inserted at the next flush or commit."""
    db.add(row)


async def flush(db: AsyncSession) -> None:
    """Send the pending changes now (a new row gets its id; a unique key is checked here)."""
    await db.flush()


async def delete(db: AsyncSession, row: Base) -> None:
    """Delete ``row`` at the next flush or commit."""
    await db.delete(row)


def after_commit(db: AsyncSession, then: Callable[[], None]) -> None:
    """Call ``then`` once the session's transaction has committed (not if it rolls back)."""
    event.listen(db.sync_session, "after_commit", lambda _session: then(), once=True)
