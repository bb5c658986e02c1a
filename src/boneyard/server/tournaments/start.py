"""Seeding and starting an event: by rating, at random or by the director's hand, then the
draw, the tournament value and the first tables. The director starts it, or the scheduler at
its start time."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from boneyard.server.errors import NotFound, Refused
from boneyard.server.ratings import store as ratings_store
from boneyard.server.tables.clock import now
from boneyard.server.tournaments.service import Tournaments, rating_key
from boneyard.server.tournaments.settings import create_tournament, setting
from boneyard.store import tournament_people, unit
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.statuses import EntrantStatus, TournamentStatus
from boneyard.store.tournaments import Entrant, TournamentRow
from boneyard.tournament import TournamentError, seed_by_rating, seed_random


async def by_rating(
    sessions: async_sessionmaker[AsyncSession], ev: TournamentRow, entrants: Sequence[Entrant]
) -> list[Entrant]:
    """``entrants`` by their ``2p`` ordinal in the event's game (ties: registration order)."""
    keys = [str(e.id) for e in entrants]
    players = [rating_key(e) for e in entrants]
    ords = await ratings_store.ordinals(sessions, ev.game, "2p", players)
    order = seed_by_rating(
        {k: ords[p] - i * 1e-6 for i, (k, p) in enumerate(zip(keys, players, strict=True))}
    )
    by_key = {str(e.id): e for e in entrants}
    return [by_key[k] for k in order]


async def draw_order(
    sessions: async_sessionmaker[AsyncSession], ev: TournamentRow, entrants: Sequence[Entrant]
) -> list[str]:
    """The seed order of the draw: ``rating``, ``random``, or ``manual`` (the director's seeds
    first, anyone they did not place after them by rating)."""
    how = setting(ev, "seeding")
    if how == "random":
        return list(seed_random([str(e.id) for e in entrants], random.Random(secrets.randbits(64))))
    ranked = await by_rating(sessions, ev, entrants)
    if how == "manual":
        placed = sorted((e for e in ranked if e.seed is not None), key=lambda e: e.seed or 0)
        ranked = placed + [e for e in ranked if e.seed is None]
    return [str(e.id) for e in ranked]


async def start(svc: Tournaments, event_id: str, user_id: int | None) -> None:
    """Start the event: seed the draw, build the tournament, start the first tables. Entrants
    dropped at check-in close are not in the draw; others not checked in are: each of their
    matches waits the grace period for them."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            found = len(event_id) <= 32
            ev = await unit.get(db, TournamentRow, event_id, for_update=True) if found else None
            if ev is None:
                raise NotFound("no such event")
            if ev.status != TournamentStatus.REGISTRATION:
                raise Refused(f"the event is {ev.status}: it cannot start")
            # (those who dropped out are not in the draw)
            entrants = await tournament_people.entrants_not_withdrawn(db, event_id)
            if len(entrants) < 2:
                raise Refused("an event needs at least 2 entrants")
            draw = await draw_order(svc.sessions, ev, entrants)
            try:
                t = create_tournament(ev, draw)
            except (TournamentError, ValueError) as exc:
                raise Refused(str(exc)) from None
            for e in entrants:
                e.seed = t.seed_of(str(e.id))
                e.status = EntrantStatus.PLAYING
            ev.settings = {**ev.settings, "draw": draw}
            ev.bracket = t.to_json()
            ev.status, ev.started_at = TournamentStatus.RUNNING, now()
            late = [e.id for e in entrants if not e.checked_in]
            Tournaments.action(db, ev, user_id, "start", {"not_checked_in": late}, None)
        await svc.advance_locked(event_id)
    svc.wake_scheduler.set()
