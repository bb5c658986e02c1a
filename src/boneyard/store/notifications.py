"""The notifications' queries: a person's bell (newest, unread, marked read), the e-mails
queued for the mailer and their outcome, an event's notes removed with it.

Each function runs on a session the caller opened (and began, to write).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Row, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.tournaments import Notification, NotifyPrefs


async def newest(db: AsyncSession, user_id: int, after: int, limit: int) -> Sequence[Notification]:
    """The person's newest ``limit`` notifications with an id above ``after``, newest first."""
    return (
        await db.scalars(
            select(Notification)
            .where(Notification.user_id == user_id, Notification.id > after)
            .order_by(Notification.id.desc())
            .limit(limit)
        )
    ).all()


async def unread(db: AsyncSession, user_id: int) -> int:
    """How many of the person's notifications are not read."""
    n = await db.scalar(
        select(func.count(Notification.id)).where(
            Notification.user_id == user_id, Notification.read_at.is_(None)
        )
    )
    return int(n or 0)


async def mark_read(db: AsyncSession, user_id: int, upto: int, at: datetime) -> None:
    """Mark the person's unread notifications with an id up to ``upto`` read at ``at``."""
    await db.execute(
        update(Notification)
        .where(
            Notification.user_id == user_id,
            Notification.id <= upto,
            Notification.read_at.is_(None),
        )
        .values(read_at=at)
    )


async def queued_mails(db: AsyncSession, batch: int) -> Sequence[Row[Notification, NotifyPrefs]]:
    """The oldest ``batch`` notifications whose e-mail is queued, each with its person's
    preferences (``None``: never set)."""
    return (
        await db.execute(
            select(Notification, NotifyPrefs)
            .outerjoin(NotifyPrefs, NotifyPrefs.user_id == Notification.user_id)
            .where(Notification.mail == "queued")
            .order_by(Notification.id)
            .limit(batch)
        )
    ).all()


async def note_mail(db: AsyncSession, note_id: int, mail: str | None, error: str | None) -> None:
    """Store what became of a notification's e-mail (and the error, if it failed)."""
    await db.execute(
        update(Notification).where(Notification.id == note_id).values(mail=mail, mail_error=error)
    )


async def delete_of_event(db: AsyncSession, event_id: str) -> None:
    """Remove the notifications about event ``event_id``."""
    await db.execute(delete(Notification).where(Notification.event_id == event_id))
