"""The events domain put together: the service, notifications, the scheduler, the table hooks
and every route (each module of this package adds its own)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, HTTPException
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from boneyard.server import ratings_store, validation
from boneyard.server.accounts import Accounts
from boneyard.server.events import admin, cards, console, entrants, exports, offers, pages
from boneyard.server.events.notify import Notes
from boneyard.server.events.scheduler import Scheduler
from boneyard.server.events.service import Events
from boneyard.server.events.timeouts import on_timeout
from boneyard.server.events.views import event_json
from boneyard.server.tables import LiveTable, TableManager
from boneyard.store.events import Event, EventDirector, EventGame

log = logging.getLogger("boneyard.events")


class EventSite:
    """Everything the event routes share; ``router`` holds them, ``start``/``close`` run the
    background work (the scheduler and the mailer) with the app."""

    def __init__(
        self,
        tables: TableManager,
        sessions: async_sessionmaker[AsyncSession],
        accounts: Accounts,
        errors: dict[int | str, dict[str, Any]],
    ) -> None:
        self.tables = tables
        self.sessions = sessions
        self.accounts = accounts
        self.errors = errors
        self.cfg = accounts.settings
        self.notes = Notes(sessions, self.cfg)
        self.svc = Events(tables, sessions, self.notes)
        self.scheduler = Scheduler(self.svc)
        self.router = APIRouter()
        tables.on_game_over.extend([self._game_over, self._rate])
        if tables.clock is not None:
            svc = self.svc

            async def timeout(table: LiveTable, seat: int, version: int) -> bool:
                return await on_timeout(svc, table, seat, version)

            tables.clock.on_timeout = timeout
        for module in (admin, entrants, offers, console, cards, exports, pages):
            module.add_routes(self)
        self.notes.add_routes(self.router, accounts.need_user, errors)

    def start(self) -> None:
        """Start the scheduler and the mailer (in the app's lifespan)."""
        self.scheduler.start()
        self.notes.start()

    async def close(self) -> None:
        """Stop them."""
        await self.scheduler.close()
        await self.notes.close()

    # -- hooks -----------------------------------------------------------------------------------

    async def _game_over(self, table: LiveTable) -> None:
        try:
            await self.svc.on_game_over(table)
        except Exception:
            log.exception("event hook of table %s failed", table.id)

    async def _rate(self, table: LiveTable) -> None:
        try:
            async with self.sessions() as db:
                rated = await db.scalar(
                    select(Event.rated)
                    .join(EventGame, EventGame.event_id == Event.id)
                    .where(EventGame.table_id == table.id)
                )
            if rated is False:  # a table of an unrated event
                return
            await ratings_store.rate_table(self.sessions, table, self.cfg.rate_bot_games)
        except Exception:
            log.exception("rating table %s failed", table.id)

    # -- shared checks ---------------------------------------------------------------------------

    async def need_event(self, db: AsyncSession, event_id: str) -> Event:
        """The event, or 404."""
        ok = len(event_id) <= 32 and validation.storable(event_id)
        ev = await db.get(Event, event_id) if ok else None
        if ev is None:
            raise HTTPException(404, "no such event")
        return ev

    @staticmethod
    async def is_director(db: AsyncSession, ev: Event, user_id: int | None) -> bool:
        """Whether ``user_id`` runs ``ev`` (its owner or a co-director)."""
        if user_id is None:
            return False
        if ev.director_id == user_id:
            return True
        return await db.get(EventDirector, (ev.id, user_id)) is not None

    async def need_director(self, db: AsyncSession, ev: Event, user: Any) -> None:
        """403 unless ``user`` runs ``ev``."""
        if not await self.is_director(db, ev, user.id):
            raise HTTPException(403, "only the event's directors may do that")

    async def event_json(self, event_id: str, user: Any) -> dict[str, Any]:
        """The event page's JSON, as ``user`` sees it."""
        async with self.sessions() as db:
            ev = await self.need_event(db, event_id)
            return await event_json(db, ev, user)
