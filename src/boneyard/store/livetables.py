"""The queries of the live tables (boneyard.server.tables): loading a table and its log, catching
up with what other processes committed, client seeds, seats, endings, expiry.

Each runs on a session the caller opened (and, for a write, a transaction the caller began): the
live table decides, this module only reads and writes rows. The log itself is appended through
the group-commit writer (boneyard.store.writer).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.models import GameTable, HandSeed, LogEntry
from boneyard.store.players import add_players
from boneyard.store.seats import Seat
from boneyard.store.statuses import TableStatus


async def table_row(db: AsyncSession, table_id: str) -> GameTable | None:
    """The row of table ``table_id`` (``None``: no such table)."""
    return await db.get(GameTable, table_id)


async def unfinished_ids(db: AsyncSession) -> list[str]:
    """The tables still open or in play (a starting server rebuilds them)."""
    running = (TableStatus.OPEN, TableStatus.PLAYING)
    return list((await db.scalars(select(GameTable.id).where(GameTable.status.in_(running)))).all())


async def count_broken(db: AsyncSession) -> int:
    """How many tables were set aside because their log does not replay."""
    found = await db.scalar(
        select(func.count()).select_from(GameTable).where(GameTable.status == TableStatus.BROKEN)
    )
    return int(found or 0)


async def set_aside(db: AsyncSession, table_id: str, reason: str, at: str) -> bool:
    """Mark the table broken, keeping ``reason`` and its former status in its settings;
    whether it was marked now (``False``: no such table, or broken already)."""
    row = await db.get(GameTable, table_id)
    if row is None or row.status == TableStatus.BROKEN:
        return False
    settings = dict(row.settings or {})
    settings["broken"] = {"reason": reason, "status": row.status, "at": at}
    row.settings, row.status = settings, TableStatus.BROKEN
    return True


async def log_rows(
    db: AsyncSession, table_id: str
) -> tuple[Sequence[HandSeed], Sequence[LogEntry]]:
    """A table's stored hand seeds and its log entries in order: what rebuilds it."""
    seeds = await hand_seeds(db, table_id)
    return seeds, await entries_after(db, table_id, 0)


async def entries_after(db: AsyncSession, table_id: str, seq: int) -> Sequence[LogEntry]:
    """The log entries of a table after sequence number ``seq``, in order."""
    q = select(LogEntry).where(LogEntry.table_id == table_id, LogEntry.seq > seq)
    return (await db.scalars(q.order_by(LogEntry.seq))).all()


async def hand_seeds(db: AsyncSession, table_id: str) -> Sequence[HandSeed]:
    """Every stored hand seed of a table (dealt hands and the committed next one)."""
    return (await db.scalars(select(HandSeed).where(HandSeed.table_id == table_id))).all()


async def hand_seed(db: AsyncSession, table_id: str, hand: int) -> HandSeed | None:
    """The seed row of hand ``hand`` of a table."""
    return await db.scalar(
        select(HandSeed).where(HandSeed.table_id == table_id, HandSeed.hand == hand)
    )


async def add_client_seed(
    db: AsyncSession, table_id: str, hand: int, seat: int, seed: str
) -> dict[str, Any] | None:
    """Add ``seat``'s client seed to hand ``hand``'s row; the row's client seeds now (those other
    processes took too), or ``None`` if the hand has no committed seed."""
    row = await hand_seed(db, table_id, hand)
    if row is None:
        return None
    merged = {str(k): v for k, v in (row.client_seeds or {}).items()}
    merged[str(seat)] = seed
    row.client_seeds = merged
    return merged


async def last_logged_playing(db: AsyncSession) -> list[tuple[str, datetime | None]]:
    """Per table in play: the time of its last log entry."""
    rows = await db.execute(
        select(LogEntry.table_id, func.max(LogEntry.created_at))
        .join(GameTable, GameTable.id == LogEntry.table_id)
        .where(GameTable.status == TableStatus.PLAYING)
        .group_by(LogEntry.table_id)
    )
    return [(tid, last) for tid, last in rows.all()]


async def close_stale(db: AsyncSession, open_cut: datetime, idle_cut: datetime) -> list[str]:
    """Close every table waiting for players since before ``open_cut`` and every bot-only table
    whose last entry (or creation) is before ``idle_cut``; their ids."""
    last = (
        select(func.max(LogEntry.created_at))
        .where(LogEntry.table_id == GameTable.id)
        .scalar_subquery()
    )
    stale = select(GameTable.id).where(
        or_(
            and_(
                GameTable.status == TableStatus.OPEN,
                GameTable.bot_only.is_(False),
                GameTable.created_at < open_cut,
            ),
            and_(
                GameTable.status.in_((TableStatus.OPEN, TableStatus.PLAYING)),
                GameTable.bot_only.is_(True),
                func.coalesce(last, GameTable.created_at) < idle_cut,
            ),
        )
    )
    ids = list((await db.scalars(stale)).all())
    if ids:
        await db.execute(
            update(GameTable).where(GameTable.id.in_(ids)).values(status=TableStatus.CLOSED)
        )
    return ids


async def merge_settings(
    db: AsyncSession, table_id: str, status: TableStatus | None = None, **values: object
) -> bool:
    """Add ``values`` to the table's settings (and set its ``status``); whether it exists."""
    row = await db.get(GameTable, table_id)
    if row is None:
        return False
    row.settings = {**(row.settings or {}), **values}
    if status is not None:
        row.status = status
    return True


async def set_settings(db: AsyncSession, table_id: str, settings: dict[str, object]) -> None:
    """Replace the table's settings."""
    row = await db.get(GameTable, table_id)
    if row is not None:
        row.settings = settings


async def finish(
    db: AsyncSession,
    table_id: str,
    settings: dict[str, object],
    status: TableStatus,
    record: dict[str, object] | None,
) -> bool:
    """Write a game's early ending: settings, status and record; whether the table exists."""
    row = await db.get(GameTable, table_id)
    if row is None:
        return False
    row.settings, row.status, row.record = settings, status, record
    return True


async def save_seats(
    db: AsyncSession,
    table_id: str,
    seats: list[Seat],
    settings: dict[str, object] | None,
    expected: list[Seat] | None,
) -> bool:
    """Write the table's ``seats`` (and ``settings``) and index its people; with ``expected``
    the row is locked and written only if its seats are still those (returns ``False``)."""
    row = await db.get(GameTable, table_id, with_for_update=expected is not None)
    if row is not None and expected is not None and list(row.seats) != expected:
        return False
    if row is not None:
        row.seats = seats
        if settings is not None:
            row.settings = settings
        await add_players(db, table_id, seats, row.created_at)
    return True
