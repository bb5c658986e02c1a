"""The tournaments' queries on people: entrants, directors and scorekeepers, the accounts' names,
the places offered, how many tournaments a person runs.

Each function runs on a session the caller opened (and began, to write); a row comes back
attached to it, so the caller changes its fields and commits (``boneyard.server.tournaments``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import Row, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.models import User
from boneyard.store.statuses import EntrantStatus, OfferStatus
from boneyard.store.tournaments import Entrant, TournamentDirector, TournamentOffer, TournamentRow


async def entrants(db: AsyncSession, event_id: str) -> Sequence[Entrant]:
    """The event's entrants, in the order they entered (withdrawn ones too)."""
    return (
        await db.scalars(select(Entrant).where(Entrant.event_id == event_id).order_by(Entrant.id))
    ).all()


async def entrants_not_withdrawn(db: AsyncSession, event_id: str) -> Sequence[Entrant]:
    """The event's entrants who have not withdrawn (those in the draw), in the order they
    entered."""
    return (
        await db.scalars(
            select(Entrant)
            .where(Entrant.event_id == event_id, Entrant.status != EntrantStatus.WITHDRAWN)
            .order_by(Entrant.id)
        )
    ).all()


async def entrants_not_checked_in(db: AsyncSession, event_id: str) -> Sequence[Entrant]:
    """The event's registered entrants who have not checked in, in the order they entered."""
    return (
        await db.scalars(
            select(Entrant)
            .where(
                Entrant.event_id == event_id,
                Entrant.checked_in.is_(False),
                Entrant.status == EntrantStatus.REGISTERED,
            )
            .order_by(Entrant.id)
        )
    ).all()


async def entrant_count(db: AsyncSession, event_id: str, withdrawn: bool) -> int:
    """How many entrants the event has (``withdrawn``: those who withdrew counted too)."""
    query = select(func.count(Entrant.id)).where(Entrant.event_id == event_id)
    if not withdrawn:
        query = query.where(Entrant.status != EntrantStatus.WITHDRAWN)
    return int(await db.scalar(query) or 0)


async def bot_entrant_count(db: AsyncSession, event_id: str) -> int:
    """How many of the event's entrants are bots."""
    found = await db.scalar(
        select(func.count(Entrant.id)).where(Entrant.event_id == event_id, Entrant.bot.is_not(None))
    )
    return int(found or 0)


async def entrant_of(db: AsyncSession, event_id: str, user_id: int) -> Entrant | None:
    """The person's entrant row in the event (``None``: not entered)."""
    found: Entrant | None = await db.scalar(
        select(Entrant).where(Entrant.event_id == event_id, Entrant.user_id == user_id)
    )
    return found


async def entrant_id_of(db: AsyncSession, event_id: str, user_id: int) -> int | None:
    """The id of the person's entrant row in the event (``None``: not entered)."""
    found: int | None = await db.scalar(
        select(Entrant.id).where(Entrant.event_id == event_id, Entrant.user_id == user_id)
    )
    return found


async def entrant_by_code(db: AsyncSession, code: str) -> Entrant | None:
    """The entrant whose walk-in claim code is ``code``."""
    return (await db.scalars(select(Entrant).where(Entrant.claim_code == code))).first()


async def entrant_names(db: AsyncSession, event_id: str) -> dict[int, str]:
    """The event's entrants' names by id."""
    rows = (
        await db.execute(select(Entrant.id, Entrant.name).where(Entrant.event_id == event_id))
    ).all()
    return {int(i): str(name) for i, name in rows}


async def accounts_of_entrants(
    db: AsyncSession, entrant_ids: Iterable[int]
) -> Sequence[int | None]:
    """The accounts of the entrants ``entrant_ids`` that have one."""
    return (
        await db.scalars(
            select(Entrant.user_id).where(
                Entrant.id.in_(list(entrant_ids)), Entrant.user_id.is_not(None)
            )
        )
    ).all()


async def accounts_entered(db: AsyncSession, event_id: str) -> Sequence[int | None]:
    """The accounts of the event's entrants that have one."""
    return (
        await db.scalars(
            select(Entrant.user_id).where(
                Entrant.event_id == event_id, Entrant.user_id.is_not(None)
            )
        )
    ).all()


async def staff_ids(db: AsyncSession, event_id: str, role: str) -> Sequence[int]:
    """The accounts named to the event in ``role`` (its owner is not among them)."""
    return (
        await db.scalars(
            select(TournamentDirector.user_id).where(
                TournamentDirector.event_id == event_id, TournamentDirector.role == role
            )
        )
    ).all()


async def staff(db: AsyncSession, event_id: str) -> Sequence[Row[int, str, str]]:
    """``(user id, display name, role)`` of everyone named to the event, in the order they
    were named."""
    return (
        await db.execute(
            select(User.id, User.display_name, TournamentDirector.role)
            .join(TournamentDirector, TournamentDirector.user_id == User.id)
            .where(TournamentDirector.event_id == event_id)
            .order_by(TournamentDirector.created_at, User.id)
        )
    ).all()


async def display_names(db: AsyncSession, ids: Iterable[int | None]) -> dict[int, str]:
    """The display names of the accounts ``ids`` (``None`` and unknown ids left out)."""
    wanted = [i for i in ids if i]
    if not wanted:
        return {}
    rows = await db.execute(select(User.id, User.display_name).where(User.id.in_(wanted)))
    return {int(i): str(name) for i, name in rows.all()}


async def pending_offers(
    db: AsyncSession, username: str, limit: int
) -> Sequence[Row[TournamentOffer, str, str]]:
    """The newest ``limit`` places and invitations offered to ``username`` and not answered:
    ``(offer, event name, the offered entrant's name or None)``."""
    return (
        await db.execute(
            select(TournamentOffer, TournamentRow.name, Entrant.name)
            .join(TournamentRow, TournamentRow.id == TournamentOffer.event_id)
            .outerjoin(Entrant, Entrant.id == TournamentOffer.entrant_id)
            .where(
                TournamentOffer.username == username, TournamentOffer.status == OfferStatus.PENDING
            )
            .order_by(TournamentOffer.id.desc())
            .limit(limit)
        )
    ).all()


async def tournaments_run_by(db: AsyncSession, user_id: int, statuses: Sequence[str]) -> int:
    """How many tournaments ``user_id`` owns in one of ``statuses``."""
    n = await db.scalar(
        select(func.count())
        .select_from(TournamentRow)
        .where(TournamentRow.director_id == user_id, TournamentRow.status.in_(statuses))
    )
    return int(n or 0)
