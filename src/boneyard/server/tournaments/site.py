"""The tournaments domain put together: the shared context, the table hooks and the background
work (its routes are gathered in :mod:`~boneyard.server.tournaments.router`)."""

from __future__ import annotations

import logging

from boneyard.server.accounts.service import Accounts
from boneyard.server.middleware.connections import Gate
from boneyard.server.ratings import store as ratings_store
from boneyard.server.tables.live import LiveTable
from boneyard.server.tables.manager import TableManager
from boneyard.server.tournaments.context import Context
from boneyard.server.tournaments.timeouts import on_timeout
from boneyard.store import tournament_games
from boneyard.store.db import AsyncSession, async_sessionmaker

log = logging.getLogger("boneyard.tournaments")


class TournamentSite(Context):
    """The tournaments domain of an app (the app keeps it in ``app.state.tournaments`` for the
    routes); ``start``/``close`` run the scheduler and the mailer with the app."""

    def __init__(
        self,
        tables: TableManager,
        sessions: async_sessionmaker[AsyncSession],
        accounts: Accounts,
        connections: Gate | None = None,
    ) -> None:
        super().__init__(tables, sessions, accounts, connections)
        tables.on_game_over.extend([self._game_over, self._rate])
        if tables.clock is not None:
            tables.clock.on_timeout = self._timeout

    def start(self) -> None:
        """Start the scheduler and the mailer (in the app's lifespan)."""
        self.scheduler.start()
        self.notes.start()

    async def close(self) -> None:
        """Stop them."""
        await self.scheduler.close()
        await self.notes.close()

    async def _timeout(self, table: LiveTable, seat: int, version: int) -> bool:
        return await on_timeout(self.svc, table, seat, version)

    async def _game_over(self, table: LiveTable) -> None:
        try:
            await self.svc.on_game_over(table)
        except Exception:
            log.exception("event hook of table %s failed", table.id)

    async def _rate(self, table: LiveTable) -> None:
        try:
            async with self.sessions() as db:
                rated = await tournament_games.rated_event_of_table(db, table.id)
            if rated is False:  # a table of an unrated event
                return
            await ratings_store.rate_table(self.sessions, table, self.cfg.rate_bot_games)
        except Exception:
            log.exception("rating table %s failed", table.id)
