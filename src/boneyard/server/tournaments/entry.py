"""Entrants at work: registration, withdrawal, check-in (by the entrant in its window, by the
director at any time), bots, late entrants, removal before the start and seeding by hand. (The
routes are :mod:`~boneyard.server.tournaments.entrants`.)"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.server.accounts.service import Me
from boneyard.server.errors import NotAllowed, NotFound, Refused
from boneyard.server.tables.clock import now
from boneyard.server.tournaments import start as starting
from boneyard.server.tournaments.service import LIVE, RUNNING, Tournaments
from boneyard.server.tournaments.settings import checkin_open, setting
from boneyard.store import tournament_people, unit
from boneyard.store.db import AsyncSession
from boneyard.store.models import User
from boneyard.store.statuses import EntrantStatus, TournamentStatus
from boneyard.store.tournaments import Entrant, TournamentRow
from boneyard.tournament import Swiss, TournamentError, tournament_from_json


async def count_entrants(db: AsyncSession, event_id: str) -> int:
    """How many entrants the event has (those dropped before the start, not in the draw,
    free their place)."""
    ev = await unit.get(db, TournamentRow, event_id)
    registering = ev is not None and ev.status == TournamentStatus.REGISTRATION
    return await tournament_people.entrant_count(db, event_id, withdrawn=not registering)


async def entrant_of(db: AsyncSession, event_id: str, user_id: int) -> Entrant | None:
    """The person's entrant row in the event (``None``: not entered)."""
    return await tournament_people.entrant_of(db, event_id, user_id)


def late_entry(ev: TournamentRow) -> bool:
    """Whether the event takes entrants now that it has started (Swiss with late entry, before
    its last round is paired)."""
    if ev.status not in RUNNING or ev.format != "swiss" or not setting(ev, "late_entry"):
        return False
    t = tournament_from_json(ev.bracket or {})
    return isinstance(t, Swiss) and len(t.rounds) < t.num_rounds


async def enter_person(
    db: AsyncSession, ev: TournamentRow, person: Me | User, checked_in: bool
) -> Entrant:
    """``person`` (a signed-in account) entered into ``ev`` as a new entrant (:func:`enter`)."""
    e = Entrant(
        event_id=ev.id,
        user_id=person.id,
        name=person.display_name,
        checked_in=checked_in,
        status=EntrantStatus.REGISTERED,
        created_at=now(),
    )
    await enter(db, ev, e)
    return e


async def enter(db: AsyncSession, ev: TournamentRow, e: Entrant) -> None:
    """Add entrant ``e`` to ``ev``: before the start, or into a running Swiss event (late
    entry: paired from the next round on, checked in)."""
    if await count_entrants(db, ev.id) >= ev.cap:
        raise Refused(f"the event is full ({ev.cap} entrants)")
    unit.add(db, e)
    if ev.status == TournamentStatus.REGISTRATION:
        return
    if not late_entry(ev):
        raise Refused("registration is closed: the event has started")
    await unit.flush(db)
    t = tournament_from_json(ev.bracket or {})
    assert isinstance(t, Swiss)
    try:
        t = t.add_entrant(str(e.id))
    except TournamentError as exc:
        raise Refused(str(exc)) from None
    e.status, e.checked_in, e.seed = EntrantStatus.PLAYING, True, t.seed_of(str(e.id))
    late = [*(ev.settings or {}).get("late", []), [str(e.id), t.first_round(str(e.id))]]
    ev.settings = {**ev.settings, "late": late}
    ev.bracket = t.to_json()
    Tournaments.action(db, ev, None, "late_entry", {"entrant": e.id, "round": late[-1][1]}, None)


async def need_entrant(db: AsyncSession, ev: TournamentRow, entrant_id: int) -> Entrant:
    e = await unit.get(db, Entrant, entrant_id)
    if e is None or e.event_id != ev.id:
        raise NotFound("no such entrant")
    return e


async def present(
    db: AsyncSession, ev: TournamentRow, e: Entrant, here: bool, by: int | None, note: str | None
) -> None:
    """Check ``e`` in or out. Checking in puts back an entrant who was gone: one dropped
    before the start (if the event has room), a no-show, or one who withdrew (a director's
    check-in; their next match is played)."""
    if not here and ev.status != TournamentStatus.REGISTRATION and e.bot:
        raise Refused("a bot is always there")
    started = ev.status != TournamentStatus.REGISTRATION
    if here and e.status == EntrantStatus.WITHDRAWN:
        if started and str(e.id) not in ((ev.settings or {}).get("draw") or []):
            raise Refused(f"{e.name} was dropped before the start and is not in the draw")
        if not started and await count_entrants(db, ev.id) >= ev.cap:
            raise Refused(f"the event is full ({ev.cap} entrants): {e.name} cannot come back")
        e.status = EntrantStatus.PLAYING if started else EntrantStatus.REGISTERED
    e.checked_in = here
    if here and e.status == EntrantStatus.NO_SHOW:
        e.status = EntrantStatus.PLAYING
    Tournaments.action(db, ev, by, "checkin" if here else "checkout", {"entrant": e.id}, note)


def may_enter(ev: TournamentRow, is_bot: bool) -> None:
    """HTTP 403 when a bot account would enter an event whose director does not allow them."""
    if is_bot and not setting(ev, "bot_accounts"):
        raise NotAllowed("this event's director does not allow bot accounts")


async def register(svc: Tournaments, event_id: str, user: Me) -> None:
    """``user`` enters the event (before the start; a Swiss event with late entry: until its
    last round is paired)."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_event(db, event_id)
        role = await svc.role_of(db, ev, user.id)
        if role is not None:
            raise Refused(f"you are a {role} of this event, so you cannot play in it")
        if ev.status != TournamentStatus.REGISTRATION and not late_entry(ev):
            raise Refused("registration is closed: the event has started")
        if await entrant_of(db, event_id, user.id) is not None:
            raise Refused("you are already registered")
        may_enter(ev, user.is_bot)
        await enter_person(db, ev, user, checked_in=False)


async def withdraw(svc: Tournaments, event_id: str, by: int) -> None:
    """``by`` leaves the event (after the start: every remaining match is forfeited)."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await svc.need_event(db, event_id)
            e = await entrant_of(db, event_id, by)
            if e is None:
                raise Refused("you are not registered")
            if ev.status == TournamentStatus.REGISTRATION:
                await unit.delete(db, e)
            elif ev.status not in RUNNING:
                raise Refused(f"the event is {ev.status}")
            else:
                e.status = EntrantStatus.WITHDRAWN
                Tournaments.action(db, ev, by, "withdraw", {"entrant": e.id}, None)
        await svc.advance_locked(event_id)


async def check_in(svc: Tournaments, event_id: str, by: int) -> None:
    """``by`` checks in: before the start while check-in is open; after it, before the grace
    of their match runs out."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await svc.need_event(db, event_id)
            e = await entrant_of(db, event_id, by)
            if e is None:
                raise Refused("register first")
            if ev.status == TournamentStatus.REGISTRATION:
                ok, why = checkin_open(ev)
                if not ok:
                    raise Refused(why)
            elif ev.status not in RUNNING or e.status == EntrantStatus.WITHDRAWN:
                raise Refused("you cannot check in now")
            await present(db, ev, e, True, by, None)
        await svc.advance_locked(event_id)


async def director_event(
    svc: Tournaments, db: AsyncSession, event_id: str, by: int
) -> TournamentRow:
    """The event, which ``by`` runs (404, 403)."""
    ev = await svc.need_event(db, event_id)
    await svc.need_director(db, ev, by)
    return ev


async def set_present(
    svc: Tournaments, event_id: str, entrant_id: int, here: bool, note: str, by: int
) -> None:
    """A director (or scorekeeper) checks an entrant in or out, whatever the window says."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await svc.need_event(db, event_id)
            await svc.need_scorekeeper(db, ev, by)
            if ev.status not in LIVE:
                raise Refused(f"the event is {ev.status}")
            e = await need_entrant(db, ev, entrant_id)
            await present(db, ev, e, here, by, note)
        await svc.advance_locked(event_id)


async def set_window(svc: Tournaments, event_id: str, state: str, note: str, by: int) -> None:
    """Open or close check-in by hand, or go back to the set times (``state="times"``)."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await director_event(svc, db, event_id, by)
        if ev.status != TournamentStatus.REGISTRATION:
            raise Refused("the event has started: check-in is by the director")
        ev.settings = {**ev.settings, "checkin": None if state == "times" else state}
        Tournaments.action(db, ev, by, "checkin_window", {"state": state}, note)


async def remove(svc: Tournaments, event_id: str, entrant_id: int, by: int) -> None:
    """A director removes an entrant before the start."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await director_event(svc, db, event_id, by)
        if ev.status != TournamentStatus.REGISTRATION:
            raise Refused("the event has started: withdraw the entrant instead")
        e = await need_entrant(db, ev, entrant_id)
        Tournaments.action(db, ev, by, "remove", {"entrant": e.id, "name": e.name}, None)
        await unit.delete(db, e)


async def add_bots(
    svc: Tournaments, event_id: str, bot: str, count: int, most: int, by: int
) -> None:
    """A director adds ``count`` bot entrants (online tournaments; at most ``most`` bots in an
    event; a bot is always checked in)."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await director_event(svc, db, event_id, by)
        if ev.status != TournamentStatus.REGISTRATION:
            raise Refused("registration is closed: the event has started")
        if ev.mode != "online":
            raise Refused("bots play online tournaments only")
        have = await count_entrants(db, event_id)
        if have + count > ev.cap:
            raise Refused(f"the event is full ({ev.cap} entrants)")
        bots = await tournament_people.bot_entrant_count(db, event_id)
        if bots + count > most:
            raise Refused(f"an event takes at most {most} bots on this site")
        for k in range(count):
            unit.add(
                db,
                Entrant(
                    event_id=event_id,
                    bot=bot,
                    name=f"{bot.capitalize()} bot {have + k + 1}",
                    checked_in=True,
                    status=EntrantStatus.REGISTERED,
                    created_at=now(),
                ),
            )


async def seed(
    svc: Tournaments, event_id: str, by_rating: bool, given: Sequence[int], by: int
) -> None:
    """A director seeds by hand before the start: ``given`` lists every entrant, seed 1
    first; ``by_rating`` fills the order from the ratings instead."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await director_event(svc, db, event_id, by)
        if ev.status != TournamentStatus.REGISTRATION:
            raise Refused("the draw is made: seeds are fixed")
        rows = await tournament_people.entrants_not_withdrawn(db, event_id)
        if by_rating:
            order = [e.id for e in await starting.by_rating(svc.sessions, ev, rows)]
        else:
            order = list(given)
            if sorted(order) != sorted(e.id for e in rows):
                raise Refused("list every entrant once, in seed order")
        seeds = {eid: i + 1 for i, eid in enumerate(order)}
        for e in rows:
            e.seed = seeds[e.id]
        ev.settings = {**ev.settings, "seeding": "manual"}
        Tournaments.action(db, ev, by, "seeds", {"order": order}, None)
