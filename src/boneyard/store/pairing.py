"""The quick-pairing queries (boneyard.server.lobby.pairing): pools, waits and their counts.

Every change to a pool's waits runs in one transaction that first locks the pool's row
(:func:`lock_pool`: ``SELECT … FOR UPDATE`` on PostgreSQL; SQLite has one writer at a time), so
the transactions of several processes on one pool run one after the other. A person has one
wait at most (the primary key), whatever the pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.models import PairingPool, PairingWait, User
from boneyard.store.upsert import insert_ignore


async def lock_pool(db: AsyncSession, pool: str) -> None:
    """Lock ``pool``'s row (made on first use) until the transaction ends."""
    await insert_ignore(db, PairingPool, [{"pool": pool, "paired": 0}])
    await db.execute(select(PairingPool.pool).where(PairingPool.pool == pool).with_for_update())


async def wait_of(db: AsyncSession, user_id: int, *, lock: bool = False) -> PairingWait | None:
    """``user_id``'s wait (or the table they were just paired at), locked with ``lock``."""
    q = select(PairingWait).where(PairingWait.user_id == user_id)
    found: PairingWait | None = await db.scalar(q.with_for_update() if lock else q)
    return found


async def waiting(db: AsyncSession, pool: str, fresh_since: datetime) -> Sequence[PairingWait]:
    """The waits of ``pool`` not yet paired and seen since ``fresh_since``, first come first,
    locked (the caller holds the pool's lock)."""
    rows = await db.scalars(
        select(PairingWait)
        .where(
            PairingWait.pool == pool,
            PairingWait.table_id.is_(None),
            PairingWait.seen_at >= fresh_since,
        )
        .order_by(PairingWait.created_at, PairingWait.user_id)
        .with_for_update()
    )
    return rows.all()


async def drop_stale(
    db: AsyncSession, pool: str, fresh_since: datetime, kept_since: datetime
) -> None:
    """Forget ``pool``'s waits whose page stopped asking before ``fresh_since``, and its paired
    ones not asked about since ``kept_since`` (their page went to the table long ago)."""
    stale = PairingWait.table_id.is_(None) & (PairingWait.seen_at < fresh_since)
    done = PairingWait.table_id.is_not(None) & (PairingWait.seen_at < kept_since)
    await db.execute(delete(PairingWait).where(PairingWait.pool == pool, stale | done))


async def from_address(db: AsyncSession, address: str, fresh_since: datetime, user_id: int) -> int:
    """Waits of other people from ``address`` that still count (a cap per address)."""
    q = select(func.count()).where(
        PairingWait.address == address,
        PairingWait.user_id != user_id,
        PairingWait.table_id.is_(None),
        PairingWait.seen_at >= fresh_since,
    )
    return int(await db.scalar(q) or 0)


async def counts(
    db: AsyncSession, fresh_since: datetime, pool: str | None = None
) -> dict[str, int]:
    """People waiting per pool (only the pools someone waits in; only ``pool`` if given)."""
    q = select(PairingWait.pool, func.count()).where(
        PairingWait.table_id.is_(None), PairingWait.seen_at >= fresh_since
    )
    if pool is not None:
        q = q.where(PairingWait.pool == pool)
    rows = await db.execute(q.group_by(PairingWait.pool))
    return {pool: int(n) for pool, n in rows.all()}


async def mark_paired(
    db: AsyncSession, pool: str, user_ids: Sequence[int], table_id: str, at: datetime
) -> None:
    """The people ``user_ids`` of ``pool`` are seated at ``table_id`` (their pages read it)."""
    await db.execute(
        update(PairingWait)
        .where(PairingWait.user_id.in_(list(user_ids)))
        .values(table_id=table_id, seen_at=at)
    )
    await db.execute(
        update(PairingPool).where(PairingPool.pool == pool).values(paired=PairingPool.paired + 1)
    )


async def touch(
    db: AsyncSession, user_id: int, at: datetime, *, waiting_only: bool = False
) -> None:
    """``user_id``'s page was last seen ``at`` (``waiting_only``: unless they are paired)."""
    q = update(PairingWait).where(PairingWait.user_id == user_id)
    if waiting_only:
        q = q.where(PairingWait.table_id.is_(None))
    await db.execute(q.values(seen_at=at))


async def names_of(db: AsyncSession, user_ids: Sequence[int]) -> dict[int, str]:
    """The display names of ``user_ids`` now (a paired table's seats take them)."""
    rows = await db.execute(select(User.id, User.display_name).where(User.id.in_(list(user_ids))))
    return {int(uid): str(name) for uid, name in rows.all()}
