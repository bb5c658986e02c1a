"""Who sits where: the table commands that change a live table's seats.

* ``Join``: a person takes an open seat before the start (a seat kept for a bot account: only
  that account).
* ``Abandon``: the turn clock's grace ran out (boneyard.server.tables.clock): a bot of the
  table's level plays the seat on (``seat_changes`` event ``abandoned``).
* ``Reclaim``: the person a bot replaced takes the seat back; their clock starts afresh.
* ``Reseat``: an event's director gives a seat to someone else (a substitute, a forfeit's bot).

Each change is committed (``game_tables.seats``, and ``settings["seat_changes"]`` for a
substitution) before any socket hears of it; the table's actor then tells everyone.
"""

from __future__ import annotations

import logging

from boneyard.core.errors import BoneyardError
from boneyard.server.errors import Refused
from boneyard.server.tables.commands import Abandon, Join, Reclaim, Reseat
from boneyard.server.tables.live import LiveTable, now
from boneyard.server.tables.manager import TableManager
from boneyard.store.seats import PersonSeat
from boneyard.store.statuses import SeatChange, SeatKind, TableStatus

log = logging.getLogger("boneyard.server.tables.seating")


class Seating:
    """The seat commands of one :class:`TableManager`'s tables (registered with it)."""

    def __init__(self, tables: TableManager) -> None:
        self.tables = tables
        tables.handle(Join, self.join)
        tables.handle(Abandon, self.abandon)
        tables.handle(Reclaim, self.reclaim)
        tables.handle(Reseat, self.reseat)

    async def join(self, table: LiveTable, c: Join) -> None:
        """Seat ``c.user_id`` at open seat ``c.seat``, or the reason they cannot sit there."""
        await self.tables.refresh_shared(table)  # another process may have seated someone
        if table.status != TableStatus.OPEN:
            raise Refused("the game has already started")
        if any(s.user_id == c.user_id for s in table.seats):
            raise Refused("you already have a seat at this table")
        if c.seat >= len(table.seats) or table.seats[c.seat].kind != SeatKind.OPEN:
            raise Refused("that seat is not free")
        kept = table.seats[c.seat].invited
        if kept and kept.user_id != c.user_id:
            raise Refused(f"that seat is kept for the bot {kept.name}")
        seats = list(table.seats)
        seats[c.seat] = PersonSeat(user_id=c.user_id, name=c.name)
        await self.tables.save_seats(table, seats)

    async def abandon(self, table: LiveTable, c: Abandon) -> None:
        """The grace of ``c.seat`` at ``c.version`` is over: a bot takes the seat (unless the
        table moved on meanwhile, here or in another process)."""
        await self.tables.refresh_shared(table)
        p = self.tables.clock.plan(table)
        if p is None or p.phase != "abandon" or (p.seat, p.version) != (c.seat, c.version):
            return
        # (the replaced person's sockets now watch)
        await self.tables.bot_takes_seat(table, c.seat, c.level, SeatChange.ABANDONED)
        log.info("table %s: seat %d abandoned, %s bot plays on", table.id, c.seat, c.level)

    async def reclaim(self, table: LiveTable, c: Reclaim) -> int:
        """Give the replaced person their seat back; returns the seat, or raises
        :class:`BoneyardError` with the reason they cannot."""
        if c.user_id is None:
            raise BoneyardError("sign in to take back a seat")
        await self.tables.refresh_shared(table)
        seat = next(
            (
                i
                for i, s in enumerate(table.seats)
                if s.kind == SeatKind.BOT
                and not s.resigned
                and (s.replaced.user_id if s.replaced else None) == c.user_id
            ),
            None,
        )
        if seat is None:
            raise BoneyardError("a bot plays no seat of yours at this table")
        if table.state is None or table.ended:
            raise BoneyardError("the game is over")
        old = table.seats[seat]
        gone = old.replaced.name if old.replaced else ""
        seats = list(table.seats)
        at = now()
        seats[seat] = PersonSeat(
            user_id=c.user_id, name=old.name or gone, reclaimed_at=at.isoformat()
        )
        settings = table.noting_seat_change(SeatChange.RECLAIMED, seat, gone, at)
        await self.tables.save_seats(table, seats, settings)
        table.bots.pop(seat, None)
        return seat

    async def reseat(self, table: LiveTable, c: Reseat) -> None:
        """Give seat ``c.seat`` to ``c.to`` (its bots and its sockets follow). A person takes a
        seat only before the game's first move: nobody is put in a seat another person holds in
        a game under way (a bot may take it)."""
        await self.tables.refresh_shared(table)
        st = table.state
        if c.to.user_id is not None and st is not None and (st.events or st.ends):
            raise Refused("the game has started: only a bot may take a seat in it now")
        seats = list(table.seats)
        seats[c.seat] = c.to
        await self.tables.save_seats(table, seats)
        table.make_bots()
