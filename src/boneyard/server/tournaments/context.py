"""What every event route shares (the service, the sessions, notifications, the checks), and
the dependencies that hand it to a route: ``Ctx`` (the app's :class:`Context`), ``Me`` (the
signed-in person, 401 otherwise) and ``MaybeMe``. A service's domain error
(:mod:`boneyard.server.errors`) is answered by the app's one handler
(:mod:`boneyard.server.handlers`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from boneyard.server.accounts.service import Accounts
from boneyard.server.accounts.service import Me as Person
from boneyard.server.middleware.connections import VENUE_PER_PERSON, Gate
from boneyard.server.tables.manager import TableManager
from boneyard.server.tournaments.notify import Notes
from boneyard.server.tournaments.scheduler import Scheduler
from boneyard.server.tournaments.service import Tournaments
from boneyard.server.tournaments.views import event_json
from boneyard.server.tournaments.viewtypes import TournamentView
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.statuses import TournamentStatus
from boneyard.store.tournaments import TournamentRow


class Context:
    """The tournaments domain of one app (``app.state.tournaments``)."""

    def __init__(
        self,
        tables: TableManager,
        sessions: async_sessionmaker[AsyncSession],
        accounts: Accounts,
        connections: Gate | None = None,
    ) -> None:
        self.tables = tables
        self.connections = connections
        self.sessions = sessions
        self.accounts = accounts
        self.cfg = accounts.settings
        self.notes = Notes(sessions, self.cfg)
        self.svc = Tournaments(tables, sessions, self.notes)
        self.scheduler = Scheduler(self.svc)

    async def need_event(self, db: AsyncSession, event_id: str) -> TournamentRow:
        """The event, or 404."""
        return await self.svc.need_event(db, event_id)

    async def need_director(self, db: AsyncSession, ev: TournamentRow, user: Person) -> None:
        """403 unless ``user`` runs ``ev``."""
        await self.svc.need_director(db, ev, user.id)

    async def director_event(self, db: AsyncSession, event_id: str, user: Person) -> TournamentRow:
        """The event, which ``user`` runs (404, 403)."""
        ev = await self.need_event(db, event_id)
        await self.need_director(db, ev, user)
        return ev

    async def event_json(
        self, event_id: str, user: Person | None, seen_from: str | None = None
    ) -> TournamentView:
        """The event page's JSON, as ``user`` sees it (from the address ``seen_from``: where
        the staff of an over-the-board event follow it is the venue, :func:`venue_people`)."""
        async with self.sessions() as db:
            ev = await self.need_event(db, event_id)
            view = await event_json(db, ev, user)
        people = venue_people(view)
        if seen_from is not None and people and self.connections is not None:
            self.connections.allow(seen_from, VENUE_PER_PERSON * people)
        return view


def venue_people(view: TournamentView) -> int:
    """The people entered in an over-the-board event not over, when its viewer is on its staff
    (a director or a scorekeeper): they play in one hall, and their phones share the address
    the staff follow the event from; 0 otherwise."""
    staff = view["me"]["director"] or view["me"]["scorekeeper"]
    if not staff or view["mode"] != "otb" or view["status"] not in LIVE:
        return 0
    return len(view["entrants"])


LIVE = (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING, TournamentStatus.PAUSED)


def context_of(request: Request) -> Context:
    """The tournaments domain of the app serving ``request``."""
    found: Context = request.app.state.tournaments
    return found


async def need_user(request: Request) -> Person:
    """The signed-in person (401 otherwise)."""
    return await context_of(request).accounts.need_user(request)


async def maybe_user(request: Request) -> Person | None:
    """The signed-in person, or ``None``."""
    return await context_of(request).accounts.current_user(request)


Ctx = Annotated[Context, Depends(context_of)]
Me = Annotated[Person, Depends(need_user)]
MaybeMe = Annotated[Person | None, Depends(maybe_user)]
