"""Entrants: registration, withdrawal, check-in (by the entrant in its window, by the
director at any time), bots, late entrants, removal before the start, seeding by hand, and the
start (docs/events.md)."""

from typing import Any

from fastapi import APIRouter, HTTPException
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.server.events import start as starting
from boneyard.server.events.context import Ctx, Me
from boneyard.server.events.schemas import BotsIn, CheckIn, CheckinWindow, RowId, SeedsIn
from boneyard.server.events.service import RUNNING, Events
from boneyard.server.events.settings import checkin_open, setting
from boneyard.server.lobby.sitebots import check_site_bot
from boneyard.server.tables.clock import now
from boneyard.store.events import Entrant, Event
from boneyard.store.statuses import EntrantStatus, EventStatus
from boneyard.tournament import Swiss, TournamentError, event_from_json


async def count_entrants(db: AsyncSession, event_id: str) -> int:
    """How many entrants the event has."""
    n = await db.scalar(select(func.count(Entrant.id)).where(Entrant.event_id == event_id))
    return int(n or 0)


async def entrant_of(db: AsyncSession, event_id: str, user_id: int) -> Entrant | None:
    """The person's entrant row in the event (``None``: not entered)."""
    return await db.scalar(
        select(Entrant).where(Entrant.event_id == event_id, Entrant.user_id == user_id)
    )


def late_entry(ev: Event) -> bool:
    """Whether the event takes entrants now that it has started (Swiss with late entry, before
    its last round is paired)."""
    if ev.status not in RUNNING or ev.format != "swiss" or not setting(ev, "late_entry"):
        return False
    t = event_from_json(ev.bracket or {})
    return isinstance(t, Swiss) and len(t.rounds) < t.num_rounds


async def enter(db: AsyncSession, ev: Event, e: Entrant) -> None:
    """Add entrant ``e`` to ``ev``: before the start, or into a running Swiss event (late
    entry: paired from the next round on, checked in)."""
    if await count_entrants(db, ev.id) >= ev.cap:
        raise HTTPException(400, f"the event is full ({ev.cap} entrants)")
    db.add(e)
    if ev.status == EventStatus.REGISTRATION:
        return
    if not late_entry(ev):
        raise HTTPException(400, "registration is closed: the event has started")
    await db.flush()
    t = event_from_json(ev.bracket or {})
    assert isinstance(t, Swiss)
    try:
        t = t.add_entrant(str(e.id))
    except TournamentError as exc:
        raise HTTPException(400, str(exc)) from None
    e.status, e.checked_in, e.seed = EntrantStatus.PLAYING, True, t.seed_of(str(e.id))
    late = [*(ev.settings or {}).get("late", []), [str(e.id), t.first_round(str(e.id))]]
    ev.settings = {**ev.settings, "late": late}
    ev.bracket = t.to_json()
    Events.action(db, ev, None, "late_entry", {"entrant": e.id, "round": late[-1][1]}, None)


router = APIRouter()


async def need_entrant(db: AsyncSession, ev: Event, entrant_id: int) -> Entrant:
    e = await db.get(Entrant, entrant_id)
    if e is None or e.event_id != ev.id:
        raise HTTPException(404, "no such entrant")
    return e


@router.post("/api/events/{event_id}/register")
async def register(event_id: str, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Enter the event (before the start; a Swiss event with late entry: until its last
    round is paired)."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.need_event(db, event_id)
        if await ctx.is_director(db, ev, user.id):
            raise HTTPException(400, "a director runs the event and does not play in it")
        if ev.status != EventStatus.REGISTRATION and not late_entry(ev):
            raise HTTPException(400, "registration is closed: the event has started")
        if await entrant_of(db, event_id, user.id) is not None:
            raise HTTPException(400, "you are already registered")
        may_enter(ev, user.is_bot)
        e = Entrant(
            event_id=event_id,
            user_id=user.id,
            name=user.display_name,
            checked_in=False,
            status="registered",
            created_at=now(),
        )
        await enter(db, ev, e)
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/withdraw")
async def withdraw(event_id: str, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Leave the event (after the start: every remaining match is forfeited)."""
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            ev = await ctx.need_event(db, event_id)
            e = await entrant_of(db, event_id, user.id)
            if e is None:
                raise HTTPException(400, "you are not registered")
            if ev.status == EventStatus.REGISTRATION:
                await db.delete(e)
            elif ev.status not in RUNNING:
                raise HTTPException(400, f"the event is {ev.status}")
            else:
                e.status = EntrantStatus.WITHDRAWN
                Events.action(db, ev, user.id, "withdraw", {"entrant": e.id}, None)
        await ctx.svc.advance_locked(event_id)
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/checkin")
async def checkin(event_id: str, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Check in: before the start while check-in is open; after it, a late arrival checks
    in before the grace of their match runs out (and plays)."""
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            ev = await ctx.need_event(db, event_id)
            e = await entrant_of(db, event_id, user.id)
            if e is None:
                raise HTTPException(400, "register first")
            if ev.status == EventStatus.REGISTRATION:
                ok, why = checkin_open(ev)
                if not ok:
                    raise HTTPException(400, why)
            elif ev.status not in RUNNING or e.status == EntrantStatus.WITHDRAWN:
                raise HTTPException(400, "you cannot check in now")
            await present(db, ev, e, True, user.id, None)
        await ctx.svc.advance_locked(event_id)
    return await ctx.event_json(event_id, user)


async def present(
    db: AsyncSession, ev: Event, e: Entrant, here: bool, by: int | None, note: str | None
) -> None:
    if not here and ev.status != EventStatus.REGISTRATION and e.bot:
        raise HTTPException(400, "a bot is always there")
    e.checked_in = here
    if here and e.status == EntrantStatus.NO_SHOW:
        e.status = EntrantStatus.PLAYING
    Events.action(db, ev, by, "checkin" if here else "checkout", {"entrant": e.id}, note)


@router.post("/api/events/{event_id}/entrants/{entrant_id}/checkin")
async def director_checkin(
    event_id: str, entrant_id: RowId, body: CheckIn, user: Me, ctx: Ctx
) -> dict[str, Any]:
    """Check an entrant in or out (directors), whatever the window says."""
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            ev = await ctx.director_event(db, event_id, user)
            if ev.status not in (EventStatus.REGISTRATION, *RUNNING):
                raise HTTPException(400, f"the event is {ev.status}")
            e = await need_entrant(db, ev, entrant_id)
            await present(db, ev, e, body.present, user.id, body.note)
        await ctx.svc.advance_locked(event_id)
    return await ctx.event_json(event_id, user)


def may_enter(ev: Event, is_bot: bool) -> None:
    """HTTP 403 when a bot account would enter an event whose director does not allow them."""
    if is_bot and not setting(ev, "bot_accounts"):
        raise HTTPException(403, "this event's director does not allow bot accounts")


@router.post("/api/events/{event_id}/checkin-window")
async def checkin_window(event_id: str, body: CheckinWindow, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Open or close check-in by hand (directors), or go back to the set times."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.director_event(db, event_id, user)
        if ev.status != EventStatus.REGISTRATION:
            raise HTTPException(400, "the event has started: check-in is by the director")
        ev.settings = {**ev.settings, "checkin": None if body.state == "times" else body.state}
        Events.action(db, ev, user.id, "checkin_window", {"state": body.state}, body.note)
    return await ctx.event_json(event_id, user)


@router.delete("/api/events/{event_id}/entrants/{entrant_id}")
async def remove_entrant(event_id: str, entrant_id: RowId, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Remove an entrant before the start (directors)."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.director_event(db, event_id, user)
        if ev.status != EventStatus.REGISTRATION:
            raise HTTPException(400, "the event has started: withdraw the entrant instead")
        e = await need_entrant(db, ev, entrant_id)
        Events.action(db, ev, user.id, "remove", {"entrant": e.id, "name": e.name}, None)
        await db.delete(e)
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/bots")
async def add_bots(event_id: str, body: BotsIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Add bot entrants (directors; online events; a bot is always checked in)."""
    check_site_bot(body.bot, None, ctx.cfg)
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.director_event(db, event_id, user)
        if ev.status != EventStatus.REGISTRATION:
            raise HTTPException(400, "registration is closed: the event has started")
        if ev.mode != "online":
            raise HTTPException(400, "bots play online events only")
        have = await count_entrants(db, event_id)
        if have + body.count > ev.cap:
            raise HTTPException(400, f"the event is full ({ev.cap} entrants)")
        bots = await db.scalar(
            select(func.count(Entrant.id)).where(
                Entrant.event_id == event_id, Entrant.bot.is_not(None)
            )
        )
        if (bots or 0) + body.count > ctx.cfg.event_bots:
            raise HTTPException(
                400, f"an event takes at most {ctx.cfg.event_bots} bots on this site"
            )
        for k in range(body.count):
            db.add(
                Entrant(
                    event_id=event_id,
                    bot=body.bot,
                    name=f"{body.bot.capitalize()} bot {have + k + 1}",
                    checked_in=True,
                    status="registered",
                    created_at=now(),
                )
            )
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/seeds")
async def seeds(event_id: str, body: SeedsIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Seed by hand (directors, before the start): ``order`` lists every entrant, seed 1
    first; ``by="rating"`` fills the order from the ratings, to adjust afterwards."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.director_event(db, event_id, user)
        if ev.status != EventStatus.REGISTRATION:
            raise HTTPException(400, "the draw is made: seeds are fixed")
        rows = (await db.scalars(select(Entrant).where(Entrant.event_id == event_id))).all()
        if body.by == "rating":
            order = [e.id for e in await starting.by_rating(ctx.sessions, ev, rows)]
        else:
            order = list(body.order)
            if sorted(order) != sorted(e.id for e in rows):
                raise HTTPException(400, "list every entrant once, in seed order")
        seed = {eid: i + 1 for i, eid in enumerate(order)}
        for e in rows:
            e.seed = seed[e.id]
        ev.settings = {**ev.settings, "seeding": "manual"}
        Events.action(db, ev, user.id, "seeds", {"order": order}, None)
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/start")
async def start(event_id: str, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Start the event now (directors): the draw is seeded and the first matches begin;
    an entrant not checked in gets the grace period when their match is ready."""
    async with ctx.sessions() as db:
        await ctx.director_event(db, event_id, user)
    await starting.start(ctx.svc, event_id, user.id)
    return await ctx.event_json(event_id, user)
