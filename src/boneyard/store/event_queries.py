"""The events' read queries that filter, order and cut in SQL (the list of events, one match's
games, an entrant's tables in play, the events the scheduler watches), so what they cost does
not grow with what they leave out."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Row, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.events import Entrant, Event, EventGame
from boneyard.store.models import User
from boneyard.store.statuses import EventStatus, MatchGameStatus

LISTED = 200
"""The longest list of events (the newest ones)."""


async def newest_events(db: AsyncSession, limit: int = LISTED) -> Sequence[Row[Event, str, int]]:
    """The newest ``limit`` events (every event is public), each with the display name of who
    runs it and its entrant count: ``(event, director, entrants)``."""
    entrants = (
        select(func.count(Entrant.id))
        .where(Entrant.event_id == Event.id)
        .correlate(Event)
        .scalar_subquery()
    )
    return (
        await db.execute(
            select(Event, User.display_name, entrants)
            .join(User, User.id == Event.director_id)
            .order_by(Event.created_at.desc(), Event.id)
            .limit(limit)
        )
    ).all()


async def match_games(db: AsyncSession, event_id: str, match_id: str) -> Sequence[EventGame]:
    """The game rows of one match, oldest first (void ones too)."""
    return (
        await db.scalars(
            select(EventGame)
            .where(EventGame.event_id == event_id, EventGame.match_id == match_id)
            .order_by(EventGame.id)
        )
    ).all()


async def entrant_games_in_play(
    db: AsyncSession, event_id: str, entrant_id: int
) -> Sequence[EventGame]:
    """The games at a live table in which the entrant plays now."""
    return (
        await db.scalars(
            select(EventGame).where(
                EventGame.event_id == event_id,
                EventGame.status == MatchGameStatus.PLAYING,
                EventGame.table_id.is_not(None),
                or_(EventGame.side_a == entrant_id, EventGame.side_b == entrant_id),
            )
        )
    ).all()


async def matches_with_games(
    db: AsyncSession, event_id: str, statuses: Sequence[str]
) -> Sequence[str]:
    """The matches of the event that have a game in one of ``statuses`` (each once)."""
    return (
        await db.scalars(
            select(EventGame.match_id)
            .where(EventGame.event_id == event_id, EventGame.status.in_(statuses))
            .distinct()
        )
    ).all()


async def events_to_watch(db: AsyncSession, running: Sequence[str]) -> Sequence[Event]:
    """The events the scheduler looks after: those in ``running`` statuses, and those in
    registration with a start time (only these may start by themselves)."""
    return (
        await db.scalars(
            select(Event).where(
                or_(
                    Event.status.in_(running),
                    (Event.status == EventStatus.REGISTRATION) & Event.starts_at.is_not(None),
                )
            )
        )
    ).all()
