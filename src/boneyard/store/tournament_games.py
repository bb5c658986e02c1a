"""The tournaments' queries on their games and the director's actions: the final results in order,
the games of a match or a table, the games under way, the cards a rating counts.

Each function runs on a session the caller opened (and began, to write); a row comes back
attached to it, so the caller changes its fields and commits (``boneyard.server.tournaments``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Select, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.statuses import MatchGameStatus
from boneyard.store.tournaments import TournamentAction, TournamentGame, TournamentRow


async def final_games(db: AsyncSession, event_id: str) -> Sequence[TournamentGame]:
    """The event's final results, in the order they were made final (``final_seq``)."""
    return (
        await db.scalars(
            select(TournamentGame)
            .where(TournamentGame.event_id == event_id, TournamentGame.final_seq.is_not(None))
            .order_by(TournamentGame.final_seq)
        )
    ).all()


async def last_final_seq(db: AsyncSession, event_id: str) -> int:
    """The highest ``final_seq`` of the event's games (0: none is final yet)."""
    top = await db.scalar(
        select(func.max(TournamentGame.final_seq)).where(TournamentGame.event_id == event_id)
    )
    return int(top or 0)


async def games_not_void(db: AsyncSession, event_id: str) -> Sequence[TournamentGame]:
    """The event's games, void ones left out."""
    return (
        await db.scalars(
            select(TournamentGame).where(
                TournamentGame.event_id == event_id, TournamentGame.status != MatchGameStatus.VOID
            )
        )
    ).all()


async def games_in(
    db: AsyncSession, event_id: str, statuses: Sequence[str]
) -> Sequence[TournamentGame]:
    """The event's games in one of ``statuses``."""
    return (
        await db.scalars(
            select(TournamentGame).where(
                TournamentGame.event_id == event_id, TournamentGame.status.in_(statuses)
            )
        )
    ).all()


def _match_games_in(
    event_id: str, match_id: str, statuses: Sequence[str]
) -> Select[TournamentGame]:
    return select(TournamentGame).where(
        TournamentGame.event_id == event_id,
        TournamentGame.match_id == match_id,
        TournamentGame.status.in_(statuses),
    )


async def match_games_in(
    db: AsyncSession, event_id: str, match_id: str, statuses: Sequence[str]
) -> Sequence[TournamentGame]:
    """The match's games in one of ``statuses``."""
    return (await db.scalars(_match_games_in(event_id, match_id, statuses))).all()


async def match_game_in(
    db: AsyncSession, event_id: str, match_id: str, statuses: Sequence[str]
) -> TournamentGame | None:
    """One game of the match in one of ``statuses`` (the first the database finds)."""
    found: TournamentGame | None = await db.scalar(_match_games_in(event_id, match_id, statuses))
    return found


async def numbers_taken(db: AsyncSession, event_id: str, match_id: str) -> Sequence[int]:
    """The numbers of the match's games (kind ``game``) that are not void."""
    return (
        await db.scalars(
            select(TournamentGame.number).where(
                TournamentGame.event_id == event_id,
                TournamentGame.match_id == match_id,
                TournamentGame.kind == "game",
                TournamentGame.status != MatchGameStatus.VOID,
            )
        )
    ).all()


async def game_at(db: AsyncSession, table_id: str) -> TournamentGame | None:
    """The event game table ``table_id`` plays (or played)."""
    found: TournamentGame | None = await db.scalar(
        select(TournamentGame).where(TournamentGame.table_id == table_id)
    )
    return found


async def game_playing_at(db: AsyncSession, table_id: str) -> TournamentGame | None:
    """The event game in play at table ``table_id``."""
    found: TournamentGame | None = await db.scalar(
        select(TournamentGame).where(
            TournamentGame.table_id == table_id, TournamentGame.status == MatchGameStatus.PLAYING
        )
    )
    return found


async def tables_in_play(db: AsyncSession, event_id: str) -> Sequence[str | None]:
    """The tables of the event's games in play."""
    return (
        await db.scalars(
            select(TournamentGame.table_id).where(
                TournamentGame.event_id == event_id,
                TournamentGame.status == MatchGameStatus.PLAYING,
            )
        )
    ).all()


async def others_in_play(
    db: AsyncSession, event_id: str, game_id: int, sides: Sequence[int | None]
) -> Sequence[TournamentGame]:
    """The event's games in play other than ``game_id`` in which one of the entrants
    ``sides`` plays, oldest first."""
    return (
        await db.scalars(
            select(TournamentGame)
            .where(
                TournamentGame.event_id == event_id,
                TournamentGame.status == MatchGameStatus.PLAYING,
                TournamentGame.id != game_id,
                or_(TournamentGame.side_a.in_(sides), TournamentGame.side_b.in_(sides)),
            )
            .order_by(TournamentGame.id)
        )
    ).all()


async def games_in_order(db: AsyncSession, event_id: str) -> Sequence[TournamentGame]:
    """Every game of the event, by match, oldest first within one."""
    return (
        await db.scalars(
            select(TournamentGame)
            .where(TournamentGame.event_id == event_id)
            .order_by(TournamentGame.match_id, TournamentGame.id)
        )
    ).all()


async def rated_cards(db: AsyncSession, entrant_id: int) -> Sequence[TournamentGame]:
    """The entrant's confirmed final games, in the order they were made final."""
    return (
        await db.scalars(
            select(TournamentGame)
            .where(
                or_(TournamentGame.side_a == entrant_id, TournamentGame.side_b == entrant_id),
                TournamentGame.status == MatchGameStatus.CONFIRMED,
                TournamentGame.final_seq.is_not(None),
            )
            .order_by(TournamentGame.final_seq)
        )
    ).all()


async def rated_event_of_table(db: AsyncSession, table_id: str) -> bool | None:
    """Whether the event whose game table ``table_id`` plays is rated (``None``: the table is
    no event's)."""
    rated: bool | None = await db.scalar(
        select(TournamentRow.rated)
        .join(TournamentGame, TournamentGame.event_id == TournamentRow.id)
        .where(TournamentGame.table_id == table_id)
    )
    return rated


async def actions(
    db: AsyncSession, event_id: str, kind: str | None = None
) -> Sequence[TournamentAction]:
    """The event's actions (only those of ``kind``, if given), oldest first."""
    where = [TournamentAction.event_id == event_id]
    if kind is not None:
        where.append(TournamentAction.kind == kind)
    return (
        await db.scalars(select(TournamentAction).where(*where).order_by(TournamentAction.id))
    ).all()
