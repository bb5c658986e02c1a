"""The tournaments' read queries that filter, order and cut in SQL (the list of tournaments, one
match's games, an entrant's tables in play, the tournaments the scheduler watches), so what they
cost does not grow with what they leave out."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Row, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.models import User
from boneyard.store.statuses import MatchGameStatus, TournamentStatus
from boneyard.store.tournaments import Entrant, TournamentGame, TournamentRow

LISTED = 200
"""The longest list of tournaments (the newest ones)."""


async def newest_tournaments(
    db: AsyncSession, limit: int = LISTED
) -> Sequence[Row[TournamentRow, str, int]]:
    """The newest ``limit`` tournaments (every event is public), each with the display name of who
    runs it and its entrant count: ``(event, director, entrants)``."""
    entrants = (
        select(func.count(Entrant.id))
        .where(Entrant.event_id == TournamentRow.id)
        .correlate(TournamentRow)
        .scalar_subquery()
    )
    return (
        await db.execute(
            select(TournamentRow, User.display_name, entrants)
            .join(User, User.id == TournamentRow.director_id)
            .order_by(TournamentRow.created_at.desc(), TournamentRow.id)
            .limit(limit)
        )
    ).all()


async def match_games(db: AsyncSession, event_id: str, match_id: str) -> Sequence[TournamentGame]:
    """The game rows of one match, oldest first (void ones too)."""
    return (
        await db.scalars(
            select(TournamentGame)
            .where(TournamentGame.event_id == event_id, TournamentGame.match_id == match_id)
            .order_by(TournamentGame.id)
        )
    ).all()


async def entrant_games_in_play(
    db: AsyncSession, event_id: str, entrant_id: int
) -> Sequence[TournamentGame]:
    """The games at a live table in which the entrant plays now."""
    return (
        await db.scalars(
            select(TournamentGame).where(
                TournamentGame.event_id == event_id,
                TournamentGame.status == MatchGameStatus.PLAYING,
                TournamentGame.table_id.is_not(None),
                or_(TournamentGame.side_a == entrant_id, TournamentGame.side_b == entrant_id),
            )
        )
    ).all()


async def matches_with_games(
    db: AsyncSession, event_id: str, statuses: Sequence[str]
) -> Sequence[str]:
    """The matches of the event that have a game in one of ``statuses`` (each once)."""
    return (
        await db.scalars(
            select(TournamentGame.match_id)
            .where(TournamentGame.event_id == event_id, TournamentGame.status.in_(statuses))
            .distinct()
        )
    ).all()


async def tournaments_to_watch(db: AsyncSession, running: Sequence[str]) -> Sequence[TournamentRow]:
    """The tournaments the scheduler looks after: those in ``running`` statuses, and those in
    registration with a start time (only these may start by themselves)."""
    return (
        await db.scalars(
            select(TournamentRow).where(
                or_(
                    TournamentRow.status.in_(running),
                    (TournamentRow.status == TournamentStatus.REGISTRATION)
                    & TournamentRow.starts_at.is_not(None),
                )
            )
        )
    ).all()
