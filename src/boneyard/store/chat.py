"""The queries of table chat (boneyard.server.tables.chat): lines and mutes.

Each runs on a session the caller opened (and, for a write, a transaction the caller began).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.models import ChatMessage, ChatMute, User
from boneyard.store.upsert import insert_ignore


async def add_line(
    db: AsyncSession, table_id: str, user_id: int, seat: int | None, text: str, at: datetime
) -> ChatMessage | None:
    """Store a line of ``user_id`` (under their display name now); ``None``: no such person."""
    user = await db.get(User, user_id)
    if user is None:
        return None
    row = ChatMessage(
        table_id=table_id, user_id=user.id, seat=seat, name=user.display_name, text=text,
        created_at=at,
    )  # fmt: skip
    db.add(row)
    await db.flush()
    return row


async def muting(db: AsyncSession, sender: int, listeners: Iterable[int]) -> set[int]:
    """Which of ``listeners`` muted ``sender``."""
    q = select(ChatMute.user_id).where(
        ChatMute.muted_user_id == sender, ChatMute.user_id.in_(list(listeners))
    )
    return set((await db.scalars(q)).all())


async def last_lines(
    db: AsyncSession, table_id: str, viewer: int | None, limit: int
) -> Sequence[ChatMessage]:
    """The last ``limit`` lines of a table, newest first, without those ``viewer`` muted."""
    q = select(ChatMessage).where(ChatMessage.table_id == table_id)
    if viewer is not None:
        muted = select(ChatMute.muted_user_id).where(ChatMute.user_id == viewer)
        q = q.where((ChatMessage.user_id.is_(None)) | (ChatMessage.user_id.not_in(muted)))
    return (await db.scalars(q.order_by(ChatMessage.id.desc()).limit(limit))).all()


async def mutes_of(db: AsyncSession, user_id: int) -> list[tuple[int, str]]:
    """Whom ``user_id`` muted, oldest first: ``(user id, display name)``."""
    rows = await db.execute(
        select(User.id, User.display_name)
        .join(ChatMute, ChatMute.muted_user_id == User.id)
        .where(ChatMute.user_id == user_id)
        .order_by(ChatMute.created_at)
    )
    return [(uid, name) for uid, name in rows.all()]


async def person_exists(db: AsyncSession, user_id: int) -> bool:
    """Whether account ``user_id`` exists."""
    return await db.get(User, user_id) is not None


async def set_mute(db: AsyncSession, user_id: int, other: int, on: bool, at: datetime) -> None:
    """``user_id`` mutes (``on``) or unmutes ``other`` (two identical mutes at once: one row)."""
    if on:
        row = {"user_id": user_id, "muted_user_id": other, "created_at": at}
        await insert_ignore(db, ChatMute, [row])
    else:
        await db.execute(
            delete(ChatMute).where(ChatMute.user_id == user_id, ChatMute.muted_user_id == other)
        )
