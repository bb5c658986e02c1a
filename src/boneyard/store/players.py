"""The per-person table index (``table_players``): who sat at which table.

Written whenever a table's seats change; read by a person's history ("Your games", profiles),
which therefore costs the same however many tables the site has.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.store.models import TablePlayer, User
from boneyard.store.seats import Seat
from boneyard.store.upsert import insert_ignore


def seated_people(seats: Sequence[Seat]) -> dict[int, int]:
    """``{user id: seat}`` of the people at a table (a seat a bot took over is still theirs).

    >>> from boneyard.store.seats import BotSeat, PersonSeat, Someone
    >>> ann, bo = PersonSeat(user_id=4, name="Ann"), Someone(user_id=7, name="Bo")
    >>> seated_people([ann, BotSeat(bot="medium", name="Bo", replaced=bo)])
    {4: 0, 7: 1}
    """
    out: dict[int, int] = {}
    for i, seat in enumerate(seats):
        for uid in (seat.user_id, seat.replaced.user_id if seat.replaced else None):
            if uid is not None:
                out.setdefault(uid, i)
    return out


async def add_players(
    db: AsyncSession, table_id: str, seats: Sequence[Seat], created_at: datetime
) -> None:
    """Index every person of ``seats`` at ``table_id`` (rows already there are kept)."""
    rows = [
        {"table_id": table_id, "user_id": uid, "seat": seat, "created_at": created_at}
        for uid, seat in seated_people(seats).items()
    ]
    await insert_ignore(db, TablePlayer, rows)


async def bot_accounts(db: AsyncSession, seats: Sequence[Seat]) -> frozenset[int]:
    """The user ids of ``seats`` that are bot accounts (labelled as bots wherever seats show)."""
    ids = [s.user_id for s in seats if s.user_id is not None]
    if not ids:
        return frozenset()
    found = await db.scalars(select(User.id).where(User.id.in_(ids), User.is_bot.is_(True)))
    return frozenset(found.all())
