"""The seat writer: a live table's seats, committed before anyone hears of them.

Every seat change (someone sat down, a bot took a person's seat over, its person took it back, a
director's replacement) is written to ``game_tables.seats`` with the per-person index
(``table_players``) and, for a substitution, ``settings["seat_changes"]`` (the record's
``meta.substitutions``); only then does the table take it in memory, and its actor tell the
sockets and the other processes.
"""

from __future__ import annotations

import random
import secrets

from boneyard.bots import make_bot
from boneyard.core.protocol import JSON
from boneyard.server.tables.hub import Hub, SeatsChanged
from boneyard.server.tables.live import LiveTable, now
from boneyard.store import livetables
from boneyard.store.players import bot_accounts
from boneyard.store.seats import BotSeat, Seat, Someone
from boneyard.store.statuses import SeatChange


class SeatWriter:
    """Commits the seat changes of the tables of a :class:`Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def save_seats(
        self,
        table: LiveTable,
        seats: list[Seat],
        settings: JSON | None = None,
        expected: list[Seat] | None = None,
    ) -> None:
        """Commit new ``seats`` (and ``settings``) of ``table``, take them in memory and reseat
        its sockets (a command's handler: the actor tells the sockets and the other processes).

        With several processes the caller first refreshes the table (another process may have
        changed the seats since). With ``expected`` the row is locked and its seats must still
        be those (:class:`SeatsChanged` otherwise, nothing written): two processes seating
        people at once never both take the same seat."""
        async with self.hub.sessions() as db, db.begin():
            if not await livetables.save_seats(db, table.id, seats, settings, expected):
                raise SeatsChanged("that seat was just taken: look at the table again")
            table.bot_users = await bot_accounts(db, seats)
        table.seats = seats
        if settings is not None:
            table.settings = settings
            if table.state is not None:
                table.log().note_changes(settings, table.version)
        table.reseat_clients()

    async def bot_takes_seat(
        self,
        table: LiveTable,
        seat: int,
        level: str,
        event: SeatChange,
        resigned: bool = False,
        **more: bool,
    ) -> None:
        """A ``level`` bot plays ``seat`` in its person's place from now on (``event``:
        abandoned, resigned, handed; ``resigned``: the bot plays it out, placed last), written
        in the table's ``seat_changes`` and committed by :meth:`save_seats` (a command's
        handler; ``more``: noted with the change, e.g. ``stalled``)."""
        old = table.seats[seat]
        name = str(old.name or f"Seat {seat + 1}")
        seats = list(table.seats)
        replaced = Someone(user_id=old.user_id, name=name)
        seats[seat] = BotSeat(bot=level, name=old.name, replaced=replaced, resigned=resigned)
        settings = table.noting_seat_change(event, seat, name, now(), bot=level, **more)
        await self.save_seats(table, seats, settings)
        table.bots[seat] = make_bot(level, random.Random(secrets.randbits(64)))
