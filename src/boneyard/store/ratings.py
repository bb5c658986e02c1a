"""The ratings' queries: OpenSkill rating rows, the leaderboard's order and counts, the rated
pairs of accounts (how often two met lately, how many opponents each met) and a table's moves by
seat (which games are rated: ``boneyard.server.ratings``).

Each function runs on a session the caller opened (and began, to write).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, String, cast, func, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.models import LogEntry, User
from boneyard.store.statuses import LogKind
from boneyard.store.tournaments import PlayerRating, RatedPair


async def rating_rows(
    db: AsyncSession, game: str, category: str, players: Sequence[str]
) -> dict[str, PlayerRating]:
    """The stored rating rows of ``players`` (missing ones are absent)."""
    if not players:
        return {}
    rows = (
        await db.scalars(
            select(PlayerRating).where(
                PlayerRating.game == game,
                PlayerRating.category == category,
                PlayerRating.player.in_(list(players)),
            )
        )
    ).all()
    return {r.player: r for r in rows}


def ranked(min_opponents: int) -> ColumnElement[bool]:
    """Whether a rating is listed on the people's leaderboard: its player has met
    ``min_opponents`` different opponents (or was rated before opponents were counted)."""
    return or_(PlayerRating.opponents.is_(None), PlayerRating.opponents >= min_opponents)


def bot_player() -> ColumnElement[bool]:
    """Whether a rating's player is a bot, built in (``bot:<name>``) or a bot account."""
    robots = select(literal("u:").concat(cast(User.id, String))).where(User.is_bot.is_(True))
    return or_(PlayerRating.player.like("bot:%"), PlayerRating.player.in_(robots))


async def best_ratings(
    db: AsyncSession,
    game: str,
    category: str,
    limit: int,
    bots: bool,
    min_opponents: int | None,
) -> list[PlayerRating]:
    """The best ``limit`` ratings of a game and category by ordinal (mu - 3 sigma), then
    player: the people's, or with ``bots`` the bot accounts'; with ``min_opponents``, people
    who met fewer different opponents left out."""
    ordinal = PlayerRating.mu - 3 * PlayerRating.sigma  # (Rating.ordinal, in SQL)
    where = [
        PlayerRating.game == game,
        PlayerRating.category == category,
        bot_player() if bots else ~bot_player(),
    ]
    if min_opponents is not None:
        where.append(ranked(min_opponents))
    query = select(PlayerRating).where(*where).order_by(ordinal.desc(), PlayerRating.player)
    return list((await db.scalars(query.limit(limit))).all())


async def people_rated(
    db: AsyncSession, game: str, category: str, unranked_below: int | None
) -> int:
    """How many people (not bots, not bot accounts) have a rating in a game and category (with
    ``unranked_below``: of them, how many met fewer different opponents)."""
    where = [PlayerRating.game == game, PlayerRating.category == category, ~bot_player()]
    if unranked_below is not None:
        where.append(~ranked(unranked_below))
    found = await db.scalar(select(func.count()).select_from(PlayerRating).where(*where))
    return int(found or 0)


async def action_seats(db: AsyncSession, table_id: str) -> list[tuple[int, int]]:
    """``(seq, seat)`` of every action in table ``table_id``'s log that has a seat."""
    rows = await db.execute(
        select(LogEntry.seq, LogEntry.seat).where(
            LogEntry.table_id == table_id, LogEntry.kind == LogKind.ACTION
        )
    )
    return [(int(seq), int(seat)) for seq, seat in rows.all() if seat is not None]


async def rated_since(db: AsyncSession, player: str, opponent: str, since: datetime) -> int:
    """How many games of ``player`` against ``opponent`` were rated after ``since``."""
    found = await db.scalar(
        select(func.count())
        .select_from(RatedPair)
        .where(
            RatedPair.player == player, RatedPair.opponent == opponent, RatedPair.rated_at > since
        )
    )
    return int(found or 0)


async def opponents_met(
    db: AsyncSession, game: str, category: str, accounts: Sequence[str]
) -> dict[str, int]:
    """The distinct opponents each of ``accounts`` has met in rated games of ``game`` and
    ``category`` (its pairs noted: ``RatedPair``)."""
    rows = await db.execute(
        select(RatedPair.player, func.count(func.distinct(RatedPair.opponent)))
        .where(
            RatedPair.game == game,
            RatedPair.category == category,
            RatedPair.player.in_(accounts),
        )
        .group_by(RatedPair.player)
    )
    found = {player: int(n) for player, n in rows.all()}
    return {a: found.get(a, 0) for a in accounts}
