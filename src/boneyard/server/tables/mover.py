"""The mover: one action at a table, checked, applied on a copy, committed, then taken.

A player's move arrives as the ``Act`` command (``{"seq": V, "action": {...}}`` from a socket,
the seq already a whole number: boneyard.server.tables.protocol) and a bot's as ``BotMove``
through the bot driver; both end here. The action is applied to a copy of the state and
committed with the next sequence number (and the deal it may lead to: the dealer) before the
live state moves on, so memory never runs ahead of the database: a commit that fails takes the
table back (:meth:`LiveTable.roll_back`) and the player hears why (nothing changed).
"""

from __future__ import annotations

import contextlib
import logging

from boneyard.core.errors import IllegalActionError
from boneyard.core.protocol import Action
from boneyard.games.registry import get_spec
from boneyard.server.tables import commands as cmd
from boneyard.server.tables.hub import DB_ERRORS, Hub, StaleError, UnavailableError
from boneyard.server.tables.live import LiveTable, now
from boneyard.server.tables.movelog import hands_of
from boneyard.store.db import IntegrityError
from boneyard.store.statuses import TableStatus
from boneyard.store.writer import entry_row

log = logging.getLogger("boneyard.server")


class Mover:
    """Moves at the tables of a :class:`Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        hub.handle(cmd.Act, self.act)

    async def act(self, table: LiveTable, c: cmd.Act) -> None:
        """The ``Act`` command: ``c.seat`` plays ``c.event`` on version ``c.seq``.

        Raises :class:`StaleError` (answer: resync) or :class:`IllegalActionError` (answer: the
        reason); in both cases nothing changed."""
        st = table.state
        if st is None:
            raise IllegalActionError("the game has not started yet")
        if table.status == TableStatus.CLOSED:
            halted = table.settings.get("halted")
            raise IllegalActionError(
                f"this game was stopped: {halted}"
                if halted
                else "this table was closed: nobody played at it for too long"
            )
        if c.seq != table.version:
            raise StaleError()
        if c.seat is None:
            raise IllegalActionError("you are watching this table, not playing at it")
        if table.ended:
            raise IllegalActionError("the game is over")
        if st.current_seat != c.seat:
            raise IllegalActionError("it is not your turn")
        if not isinstance(c.event, dict):
            raise IllegalActionError('"action" must be an object of record event fields')
        await self.apply(table, c.seat, get_spec(table.game).action_from_move(st, c.event))

    async def apply(self, table: LiveTable, seat: int, action: Action) -> None:
        """Apply on a copy, commit, then move the live state (a command's handler, in the actor)."""
        before = table.checkpoint()
        st = before.state
        assert st is not None  # (act: the game has started)
        new = st.copy()
        new.apply(action)
        entry = entry_row(table.id, table.version + 1, "action", seat, action.to_event(), now())
        table.log().take(new, lambda: hands_of(st))  # (st: the hands before this action)
        # A hand's end waits for the people to see it (boneyard.server.tables.between).
        pause = new.awaiting_deal and not new.is_over and self.hub.breaks.wanted(table)
        table.state = new
        try:
            await self.hub.dealer.advance(table, [entry], [], deal=not pause)
        except BaseException as exc:  # also a cancel (shutdown) mid-commit
            table.roll_back(before)  # (memory never runs ahead of the database)
            await self._refused(table, exc)
            raise
        if new.is_over:
            table.status = TableStatus.OVER  # (the actor's event runs the game-over hooks)
        elif pause:
            self.hub.breaks.begin(table)

    async def _refused(self, table: LiveTable, exc: BaseException) -> None:
        """A commit that failed (the table is already taken back): a lost race catches up and
        raises :class:`StaleError`, an outage :class:`UnavailableError`; anything else as is."""
        if isinstance(exc, IntegrityError):
            # Another process wrote this sequence number first: catch up from the log.
            with contextlib.suppress(*DB_ERRORS):
                await self.hub.loader.refresh(table)
            raise StaleError() from None
        if isinstance(exc, DB_ERRORS):
            self.hub.metrics.db_errors.inc()
            log.warning("table %s: the database refused a commit: %s", table.id, exc)
            raise UnavailableError(
                "the server could not save that move (database unavailable): nothing changed, "
                "try again in a moment"
            ) from None
