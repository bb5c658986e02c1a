"""The accounts' queries: people, their sessions, bot accounts' API tokens, site secrets.

Each function runs on a session the caller opened (and began, to write), so a service chooses
its transactions; every filter, order and limit is the database's.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.models import ApiToken, Session, SiteSecret, TablePlayer, User, name_key
from boneyard.store.tournaments import Entrant


async def user_by_username(db: AsyncSession, username: str) -> User | None:
    """The account of ``username``."""
    found: User | None = await db.scalar(select(User).where(User.username == username))
    return found


async def user_by_name(db: AsyncSession, name: str) -> User | None:
    """The account whose username is ``name``, or whose display name is (in name_key form)."""
    found: User | None = await db.scalar(
        select(User).where(or_(User.username == name, User.display_key == name_key(name)))
    )
    return found


async def display_name_taken(db: AsyncSession, display: str) -> bool:
    """Whether a person already has ``display`` (compared in :func:`name_key` form)."""
    found = await db.scalar(select(User.id).where(User.display_key == name_key(display)))
    return found is not None


async def username_taken(db: AsyncSession, username: str) -> bool:
    """Whether ``username`` is somebody's."""
    return await db.scalar(select(User.id).where(User.username == username)) is not None


async def live_sessions(db: AsyncSession, user_id: int, at: datetime, limit: int) -> list[Session]:
    """``user_id``'s sessions not expired at ``at``, newest first, at most ``limit``."""
    rows = await db.scalars(
        select(Session)
        .where(Session.user_id == user_id, Session.expires_at >= at)
        .order_by(Session.created_at.desc())
        .limit(limit)
    )
    return list(rows.all())


async def session_keys(
    db: AsyncSession, user_id: int, keys: Sequence[str] | None = None, prefix: str | None = None
) -> list[str]:
    """The session hashes of ``user_id``: all, those among ``keys``, or starting with ``prefix``."""
    q = select(Session.token_hash).where(Session.user_id == user_id)
    if keys is not None:
        q = q.where(Session.token_hash.in_(keys))
    if prefix is not None:
        q = q.where(Session.token_hash.startswith(prefix))
    return list((await db.scalars(q)).all())


async def delete_sessions(db: AsyncSession, keys: Sequence[str]) -> None:
    """Remove the sessions ``keys``."""
    if keys:
        await db.execute(delete(Session).where(Session.token_hash.in_(keys)))


async def site_secret(db: AsyncSession, name: str) -> str | None:
    """The hex value of the site secret ``name``, if it was made."""
    row = await db.get(SiteSecret, name)
    return row.value if row is not None else None


async def has_played(db: AsyncSession, user_id: int) -> bool:
    """Whether ``user_id`` has sat at a table or entered an event."""
    seated = select(TablePlayer.user_id).where(TablePlayer.user_id == user_id).limit(1)
    entered = select(Entrant.user_id).where(Entrant.user_id == user_id).limit(1)
    return await db.scalar(seated) is not None or await db.scalar(entered) is not None


async def api_tokens(db: AsyncSession, user_id: int, limit: int) -> list[ApiToken]:
    """``user_id``'s API tokens, newest first (revoked ones too), at most ``limit``."""
    rows = await db.scalars(
        select(ApiToken)
        .where(ApiToken.user_id == user_id)
        .order_by(ApiToken.id.desc())
        .limit(limit)
    )
    return list(rows.all())


async def api_token(db: AsyncSession, key: str) -> ApiToken | None:
    """The API token whose sha256 is ``key``, revoked or not."""
    return await db.scalar(select(ApiToken).where(ApiToken.token_hash == key))


async def live_token_count(db: AsyncSession, user_id: int) -> int:
    """How many of ``user_id``'s API tokens are not revoked."""
    count = await db.scalar(
        select(func.count())
        .select_from(ApiToken)
        .where(ApiToken.user_id == user_id, ApiToken.revoked_at.is_(None))
    )
    return int(count or 0)


async def note_failed_sign_in(db: AsyncSession, user_id: int, at: datetime) -> None:
    """Count one failed sign-in to ``user_id`` (since ``at`` if it is the first unreported)."""
    await db.execute(
        update(User)
        .where(User.id == user_id)
        .values(
            failed_sign_ins=User.failed_sign_ins + 1,
            failed_sign_ins_since=func.coalesce(User.failed_sign_ins_since, at),
        )
    )


async def take_failed_sign_ins(db: AsyncSession, user_id: int) -> tuple[int, datetime | None]:
    """The failed sign-ins to ``user_id`` not yet reported and since when; counted anew."""
    row = (
        await db.execute(
            select(User.failed_sign_ins, User.failed_sign_ins_since).where(User.id == user_id)
        )
    ).first()
    if row is None or not row[0]:
        return 0, None
    await db.execute(
        update(User).where(User.id == user_id).values(failed_sign_ins=0, failed_sign_ins_since=None)
    )
    return int(row[0]), row[1]
