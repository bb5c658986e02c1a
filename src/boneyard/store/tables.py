"""The tables' queries the lobby, a person's history, profiles and bot accounts read.

Each runs on a session the caller opened; the database filters, orders, counts and cuts (a
person's games come from the per-person index ``table_players``, so they cost the same however
many tables the site has).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Integer, and_, case, func, or_, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer

from boneyard.store.models import GameTable, TablePlayer
from boneyard.store.statuses import SeatKind, TableStatus

RUNNING = ("open", "playing")
"""The statuses of a table not yet over."""


async def status_of(db: AsyncSession, table_id: str) -> str | None:
    """The status of table ``table_id`` (``None``: no such table)."""
    found: str | None = await db.scalar(select(GameTable.status).where(GameTable.id == table_id))
    return found


async def by_invite(db: AsyncSession, token: str) -> str | None:
    """The id of the private table whose invite token is ``token`` (``None``: none)."""
    found: str | None = await db.scalar(select(GameTable.id).where(GameTable.invite_token == token))
    return found


def lobby_rank() -> ColumnElement[int]:
    """The lobby's order, first to last: tables waiting for players with a seated person
    connected (``attended``), tables in play with people, tables waiting with nobody connected,
    tables of bots only. Newest first within each."""
    return case(
        (and_(GameTable.status == TableStatus.OPEN, GameTable.attended.is_(True)), 0),
        (and_(GameTable.status == TableStatus.PLAYING, GameTable.bot_only.is_(False)), 1),
        (GameTable.status == TableStatus.OPEN, 2),
        else_=3,
    )


async def listed(db: AsyncSession, limit: int, offset: int = 0) -> tuple[list[str], int]:
    """The ids of the public tables not yet over in the lobby's order (:func:`lobby_rank`), at
    most ``limit`` from ``offset``, and how many there are in all."""
    public = (GameTable.status.in_(RUNNING), GameTable.private.is_(False))
    rows = await db.scalars(
        select(GameTable.id)
        .where(*public)
        .order_by(lobby_rank(), GameTable.created_at.desc(), GameTable.id)
        .offset(offset)
        .limit(limit)
    )
    total = await db.scalar(select(func.count()).select_from(GameTable).where(*public))
    return list(rows.all()), int(total or 0)


async def own_running(db: AsyncSession, user_id: int, limit: int) -> list[str]:
    """The ids of the tables not yet over that ``user_id`` sits at or made (private ones too:
    they are theirs), newest first, at most ``limit``."""
    theirs = select(TablePlayer.table_id).where(TablePlayer.user_id == user_id)
    rows = await db.scalars(
        select(GameTable.id)
        .where(
            GameTable.status.in_(RUNNING),
            or_(GameTable.id.in_(theirs), GameTable.created_by == user_id),
        )
        .order_by(GameTable.created_at.desc())
        .limit(limit)
    )
    return list(rows.all())


async def set_attended(db: AsyncSession, table_id: str, attended: bool) -> None:
    """Whether a person seated at the waiting table ``table_id`` is connected (the lobby's
    order)."""
    await db.execute(
        update(GameTable)
        .where(GameTable.id == table_id, GameTable.status == TableStatus.OPEN)
        .values(attended=attended)
    )


async def count_from(db: AsyncSession, address: str) -> int:
    """Tables waiting for players created from ``address``."""
    q = select(func.count()).select_from(GameTable)
    q = q.where(GameTable.created_from == address, GameTable.status == TableStatus.OPEN)
    return int(await db.scalar(q) or 0)


async def count_created(db: AsyncSession, user_id: int, *, bot_only: bool) -> int:
    """Tables ``user_id`` created that still count against their caps: bot-only ones not yet
    over (``bot_only``), else the ones waiting for players."""
    q = select(func.count()).select_from(GameTable).where(GameTable.created_by == user_id)
    if bot_only:
        q = q.where(GameTable.status.in_(RUNNING), GameTable.bot_only.is_(True))
    else:
        q = q.where(GameTable.status == TableStatus.OPEN)
    return int(await db.scalar(q) or 0)


async def count_bot_only(db: AsyncSession) -> int:
    """Bot-only tables not yet over, on the whole site."""
    running = GameTable.status.in_(RUNNING) & GameTable.bot_only.is_(True)
    return int(await db.scalar(select(func.count()).select_from(GameTable).where(running)) or 0)


def _visible(user_id: int, viewer: int | None) -> ColumnElement[bool]:
    """The tables of ``user_id`` that ``viewer`` may see listed: a private table's only to
    someone who sat at it."""
    if viewer == user_id:
        return true()
    theirs = select(TablePlayer.table_id).where(TablePlayer.user_id == (viewer or 0))
    return GameTable.private.is_(False) | GameTable.id.in_(theirs)


async def history(
    db: AsyncSession,
    user_id: int,
    limit: int,
    viewer: int | None,
    *,
    broken: bool = True,
) -> Sequence[Any]:
    """``(table, seat)`` of the tables ``user_id`` sat at, newest first, at most ``limit``
    (records not loaded): as ``viewer`` (``None``: signed out) may see them, with or without
    the ``broken`` ones."""
    where = [TablePlayer.user_id == user_id, _visible(user_id, viewer)]
    if not broken:
        where.append(GameTable.status != TableStatus.BROKEN)
    rows = await db.execute(
        select(GameTable, TablePlayer.seat)
        .options(defer(GameTable.record))  # (large; read only when needed)
        .join(TablePlayer, TablePlayer.table_id == GameTable.id)
        .where(*where)
        .order_by(TablePlayer.created_at.desc())
        .limit(limit)
    )
    return rows.all()


async def played_per_game(db: AsyncSession, user_id: int, viewer: int | None) -> dict[str, int]:
    """Finished games ``user_id`` played, per game, of the tables ``viewer`` may see."""
    return await _per_game(db, user_id, viewer, func.count())


async def won_per_game(db: AsyncSession, user_id: int, viewer: int | None) -> dict[str, int]:
    """Finished games ``user_id`` won, per game, counted from the results stored with the
    tables (``settings.result``: the winner's seat, and whether partners share it)."""
    result = GameTable.settings["result"]
    winner = result["winner"].as_integer()
    partners = result["partnerships"].as_boolean()
    seat = TablePlayer.seat
    won = or_(winner == seat, and_(partners.is_(True), winner % 2 == seat % 2))
    return await _per_game(db, user_id, viewer, func.sum(case((won, 1), else_=0).cast(Integer)))


async def _per_game(
    db: AsyncSession, user_id: int, viewer: int | None, counted: Any
) -> dict[str, int]:
    """``counted`` (an aggregate) over the finished tables of ``user_id`` that ``viewer`` may
    see, per game."""
    rows = await db.execute(
        select(GameTable.game, counted)
        .join(TablePlayer, TablePlayer.table_id == GameTable.id)
        .where(
            TablePlayer.user_id == user_id,
            _visible(user_id, viewer),
            GameTable.status == TableStatus.OVER,
        )
        .group_by(GameTable.game)
    )
    return {game: int(n or 0) for game, n in rows.all()}


async def without_result(db: AsyncSession, user_id: int, limit: int) -> list[str]:
    """Finished tables of ``user_id`` whose result was never stored with them (finished before
    results were), at most ``limit``: their results are worked out once from their records."""
    rows = await db.scalars(
        select(GameTable.id)
        .join(TablePlayer, TablePlayer.table_id == GameTable.id)
        .where(
            TablePlayer.user_id == user_id,
            GameTable.status == TableStatus.OVER,
            GameTable.settings["result"].as_string().is_(None),
        )
        .limit(limit)
    )
    return list(rows.all())


async def record_of(db: AsyncSession, table_id: str) -> dict[str, Any] | None:
    """The stored record of a finished table."""
    found: dict[str, Any] | None = await db.scalar(
        select(GameTable.record).where(GameTable.id == table_id)
    )
    return found


async def running_seats(db: AsyncSession, user_id: int) -> Sequence[Any]:
    """``(id, status, game, seat)`` of the tables not yet over where ``user_id`` holds a seat
    (not one a bot took over when they left: they sat there, but do not play it now)."""
    rows = await db.execute(
        select(GameTable.id, GameTable.status, GameTable.game, TablePlayer.seat, GameTable.seats)
        .join(TablePlayer, TablePlayer.table_id == GameTable.id)
        .where(TablePlayer.user_id == user_id, GameTable.status.in_(RUNNING))
    )
    return [
        (tid, status, game, seat)
        for tid, status, game, seat, seats in rows.all()
        if seat < len(seats)
        and seats[seat].kind == SeatKind.PERSON
        and seats[seat].user_id == user_id
    ]


async def ended_seats(db: AsyncSession, user_id: int, ids: Sequence[str]) -> Sequence[Any]:
    """``(id, status, game, seat)`` of the tables among ``ids`` where ``user_id`` sat (or sits)
    that are no longer running: over, aborted, closed."""
    if not ids:
        return []
    rows = await db.execute(
        select(GameTable.id, GameTable.status, GameTable.game, TablePlayer.seat)
        .join(TablePlayer, TablePlayer.table_id == GameTable.id)
        .where(
            TablePlayer.user_id == user_id,
            GameTable.id.in_(list(ids)),
            GameTable.status.not_in(RUNNING),
        )
    )
    return rows.all()


async def waiting(db: AsyncSession, since: datetime, limit: int) -> Sequence[Any]:
    """``(id, game, seats, created_by)`` of the tables waiting for players made after
    ``since``, newest first, at most ``limit``."""
    rows = await db.execute(
        select(GameTable.id, GameTable.game, GameTable.seats, GameTable.created_by)
        .where(GameTable.status == TableStatus.OPEN, GameTable.created_at > since)
        .order_by(GameTable.created_at.desc())
        .limit(limit)
    )
    return rows.all()
