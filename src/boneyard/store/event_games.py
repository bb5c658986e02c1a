"""The events' queries on their games and the director's actions: the final results in order,
the games of a match or a table, the games under way, the cards a rating counts.

Each function runs on a session the caller opened (and began, to write); a row comes back
attached to it, so the caller changes its fields and commits (``boneyard.server.events``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Select, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.events import Event, EventAction, EventGame
from boneyard.store.statuses import MatchGameStatus


async def final_games(db: AsyncSession, event_id: str) -> Sequence[EventGame]:
    """The event's final results, in the order they were made final (``final_seq``)."""
    return (
        await db.scalars(
            select(EventGame)
            .where(EventGame.event_id == event_id, EventGame.final_seq.is_not(None))
            .order_by(EventGame.final_seq)
        )
    ).all()


async def last_final_seq(db: AsyncSession, event_id: str) -> int:
    """The highest ``final_seq`` of the event's games (0: none is final yet)."""
    top = await db.scalar(
        select(func.max(EventGame.final_seq)).where(EventGame.event_id == event_id)
    )
    return int(top or 0)


async def games_not_void(db: AsyncSession, event_id: str) -> Sequence[EventGame]:
    """The event's games, void ones left out."""
    return (
        await db.scalars(
            select(EventGame).where(
                EventGame.event_id == event_id, EventGame.status != MatchGameStatus.VOID
            )
        )
    ).all()


async def games_in(db: AsyncSession, event_id: str, statuses: Sequence[str]) -> Sequence[EventGame]:
    """The event's games in one of ``statuses``."""
    return (
        await db.scalars(
            select(EventGame).where(EventGame.event_id == event_id, EventGame.status.in_(statuses))
        )
    ).all()


def _match_games_in(event_id: str, match_id: str, statuses: Sequence[str]) -> Select[EventGame]:
    return select(EventGame).where(
        EventGame.event_id == event_id,
        EventGame.match_id == match_id,
        EventGame.status.in_(statuses),
    )


async def match_games_in(
    db: AsyncSession, event_id: str, match_id: str, statuses: Sequence[str]
) -> Sequence[EventGame]:
    """The match's games in one of ``statuses``."""
    return (await db.scalars(_match_games_in(event_id, match_id, statuses))).all()


async def match_game_in(
    db: AsyncSession, event_id: str, match_id: str, statuses: Sequence[str]
) -> EventGame | None:
    """One game of the match in one of ``statuses`` (the first the database finds)."""
    found: EventGame | None = await db.scalar(_match_games_in(event_id, match_id, statuses))
    return found


async def numbers_taken(db: AsyncSession, event_id: str, match_id: str) -> Sequence[int]:
    """The numbers of the match's games (kind ``game``) that are not void."""
    return (
        await db.scalars(
            select(EventGame.number).where(
                EventGame.event_id == event_id,
                EventGame.match_id == match_id,
                EventGame.kind == "game",
                EventGame.status != MatchGameStatus.VOID,
            )
        )
    ).all()


async def game_at(db: AsyncSession, table_id: str) -> EventGame | None:
    """The event game table ``table_id`` plays (or played)."""
    found: EventGame | None = await db.scalar(
        select(EventGame).where(EventGame.table_id == table_id)
    )
    return found


async def game_playing_at(db: AsyncSession, table_id: str) -> EventGame | None:
    """The event game in play at table ``table_id``."""
    found: EventGame | None = await db.scalar(
        select(EventGame).where(
            EventGame.table_id == table_id, EventGame.status == MatchGameStatus.PLAYING
        )
    )
    return found


async def tables_in_play(db: AsyncSession, event_id: str) -> Sequence[str | None]:
    """The tables of the event's games in play."""
    return (
        await db.scalars(
            select(EventGame.table_id).where(
                EventGame.event_id == event_id, EventGame.status == MatchGameStatus.PLAYING
            )
        )
    ).all()


async def others_in_play(
    db: AsyncSession, event_id: str, game_id: int, sides: Sequence[int | None]
) -> Sequence[EventGame]:
    """The event's games in play other than ``game_id`` in which one of the entrants
    ``sides`` plays, oldest first."""
    return (
        await db.scalars(
            select(EventGame)
            .where(
                EventGame.event_id == event_id,
                EventGame.status == MatchGameStatus.PLAYING,
                EventGame.id != game_id,
                or_(EventGame.side_a.in_(sides), EventGame.side_b.in_(sides)),
            )
            .order_by(EventGame.id)
        )
    ).all()


async def games_in_order(db: AsyncSession, event_id: str) -> Sequence[EventGame]:
    """Every game of the event, by match, oldest first within one."""
    return (
        await db.scalars(
            select(EventGame)
            .where(EventGame.event_id == event_id)
            .order_by(EventGame.match_id, EventGame.id)
        )
    ).all()


async def rated_cards(db: AsyncSession, entrant_id: int) -> Sequence[EventGame]:
    """The entrant's confirmed final games, in the order they were made final."""
    return (
        await db.scalars(
            select(EventGame)
            .where(
                or_(EventGame.side_a == entrant_id, EventGame.side_b == entrant_id),
                EventGame.status == MatchGameStatus.CONFIRMED,
                EventGame.final_seq.is_not(None),
            )
            .order_by(EventGame.final_seq)
        )
    ).all()


async def rated_event_of_table(db: AsyncSession, table_id: str) -> bool | None:
    """Whether the event whose game table ``table_id`` plays is rated (``None``: the table is
    no event's)."""
    rated: bool | None = await db.scalar(
        select(Event.rated)
        .join(EventGame, EventGame.event_id == Event.id)
        .where(EventGame.table_id == table_id)
    )
    return rated


async def actions(
    db: AsyncSession, event_id: str, kind: str | None = None
) -> Sequence[EventAction]:
    """The event's actions (only those of ``kind``, if given), oldest first."""
    where = [EventAction.event_id == event_id]
    if kind is not None:
        where.append(EventAction.kind == kind)
    return (await db.scalars(select(EventAction).where(*where).order_by(EventAction.id))).all()
