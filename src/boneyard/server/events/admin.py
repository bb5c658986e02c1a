"""Running an event's administration: create it, edit every setting, cancel it, delete it
before it starts, and name co-directors. Only signed-in accounts (not guests) create events, a
few at a time each; the list shows who runs each one."""

import secrets
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, HTTPException
from sqlalchemy import delete, func, select

from boneyard.core.errors import BoneyardError
from boneyard.games.registry import get_spec
from boneyard.server.events.context import Ctx, Me
from boneyard.server.events.schemas import EventEdit, EventIn, NoteIn, RowId, UsernameIn
from boneyard.server.events.service import ACTIVE, Events
from boneyard.server.events.settings import (
    BEFORE_START_ONLY,
    DEFAULTS,
    TIMES,
    default_schedule,
    setting,
)
from boneyard.server.tables.clock import now
from boneyard.store.events import Entrant, Event, EventDirector, EventGame, Notification
from boneyard.store.models import User
from boneyard.store.statuses import EventStatus
from boneyard.tournament import Schedule, TournamentError

COLUMNS = ("name", "game", "format", "mode", "schedule", "cap", "starts_at", "rated")
LIVE = (EventStatus.REGISTRATION, EventStatus.RUNNING, EventStatus.PAUSED)


def aware(t: datetime | None) -> datetime | None:
    """A time from a form with a zone (UTC when none was given)."""
    return t.replace(tzinfo=UTC) if t is not None and t.tzinfo is None else t


def current(ev: Event, key: str) -> Any:
    """The event's value of an editable field."""
    if key in COLUMNS:
        return getattr(ev, key)
    if key == "preset":
        return (ev.options or {}).get("preset")
    if key == "options":
        return {k: v for k, v in (ev.options or {}).items() if k != "preset"}
    if key in TIMES:
        raw = (ev.settings or {}).get(key)
        return datetime.fromisoformat(raw) if raw else None
    return setting(ev, key)


def same(a: Any, b: Any) -> bool:
    """Equal values (times compared as instants)."""
    if isinstance(a, datetime) and isinstance(b, datetime):
        return aware(a) == aware(b)
    return bool(a == b)


def game_options(game: str, preset: str | None, options: dict[str, Any]) -> dict[str, Any]:
    """The checked options of a two-player ``game`` (400 with the reason otherwise)."""
    try:
        spec = get_spec(game)
    except BoneyardError as exc:
        raise HTTPException(400, str(exc)) from None
    if not spec.min_players <= 2 <= spec.max_players:
        raise HTTPException(400, f"{spec.title} is not a two-player game")
    out = {k: v for k, v in options.items() if k != "preset"}
    if preset:
        out["preset"] = preset
    try:
        spec.new_game(2, out)
    except BoneyardError as exc:
        raise HTTPException(400, str(exc)) from None
    return out


def apply_settings(ev: Event, given: dict[str, Any], started: bool) -> None:
    """Write the fields of ``given`` into ``ev``, after checking them (400: nothing changed)."""
    given = {k: (aware(v) if isinstance(v, datetime) else v) for k, v in given.items()}
    if started:
        for key, value in given.items():
            if key in BEFORE_START_ONLY and not same(value, current(ev, key)):
                raise HTTPException(400, f"{key} cannot change once the event has started")
    game = given.get("game") or ev.game
    preset = given["preset"] if "preset" in given else current(ev, "preset")
    options = given["options"] if given.get("options") is not None else current(ev, "options")
    ev.game, ev.options = game, game_options(game, preset or None, options)
    fmt = given.get("format") or ev.format
    keep = ev.schedule and fmt == ev.format
    schedule = given.get("schedule") or (ev.schedule if keep else default_schedule(fmt, preset))
    for text in (schedule, given.get("bracket_schedule")):
        try:
            Schedule.parse(text) if text else None
        except (TournamentError, ValueError) as exc:
            raise HTTPException(400, str(exc)) from None
    ev.format, ev.schedule = fmt, schedule
    for key in ("name", "mode", "cap", "starts_at", "rated"):
        if given.get(key) is not None or (key == "starts_at" and key in given):
            setattr(ev, key, given[key].strip() if key == "name" else given[key])
    settings = dict(ev.settings or {})
    for key in DEFAULTS:
        if key in given and key != "checkin":
            value = given[key]
            settings[key] = value.isoformat() if isinstance(value, datetime) else value
    ev.settings = settings


router = APIRouter()


@router.post("/api/events")
async def create_event(body: EventIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Create an event (you direct it; signed-in accounts only, a few at a time)."""
    if user.is_guest:
        raise HTTPException(403, "sign up to run an event (guests cannot)")
    await ctx.accounts.limits.check("events", str(user.id), "too many new events")
    async with ctx.sessions() as db:
        running = await db.scalar(
            select(func.count())
            .select_from(Event)
            .where(Event.director_id == user.id, Event.status.in_(LIVE))
        )
    if (running or 0) >= ctx.cfg.events_per_person:
        ctx.tables.metrics.refused.labels("events").inc()
        raise HTTPException(
            429,
            f"you already run {running} events (at most {ctx.cfg.events_per_person} at once): "
            "finish one first",
        )
    eid = secrets.token_hex(6)
    ev = Event(
        id=eid,
        name=body.name.strip(),
        game=body.game,
        format=body.format,
        mode=body.mode,
        options={},
        schedule="",
        settings={},
        cap=64,
        status="registration",
        director_id=user.id,
        rated=True,
        created_at=now(),
    )
    apply_settings(ev, body.model_dump(exclude_none=True), started=False)
    async with ctx.sessions() as db, db.begin():
        db.add(ev)
        await db.flush()
        Events.action(db, ev, user.id, "create", {"name": ev.name}, None)
    ctx.scheduler.wake()  # (its start time may be the next thing due)
    return await ctx.event_json(eid, user)


@router.patch("/api/events/{event_id}")
async def edit_event(event_id: str, body: EventEdit, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Change an event's settings (directors). What shapes the draw (game, format, best-of,
    size, seeding …) is fixed once the event has started; the rest may change any time."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.need_event(db, event_id)
        await ctx.need_director(db, ev, user)
        if ev.status not in LIVE:
            raise HTTPException(400, f"the event is {ev.status}: nothing to change")
        given = body.model_dump(exclude_unset=True)
        apply_settings(ev, given, started=ev.status != EventStatus.REGISTRATION)
        Events.action(db, ev, user.id, "edit", {"fields": sorted(given)}, None)
    ctx.scheduler.wake()
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/cancel")
async def cancel_event(event_id: str, body: NoteIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Cancel the event (directors): games under way are void and their tables stop."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.need_event(db, event_id)
        await ctx.need_director(db, ev, user)
        if ev.status not in LIVE:
            raise HTTPException(400, f"the event is {ev.status}")
        active = (
            await db.scalars(
                select(EventGame.match_id).where(
                    EventGame.event_id == event_id, EventGame.status.in_(ACTIVE)
                )
            )
        ).all()
        for mid in set(active):
            await ctx.svc.void_active(db, ev, mid, "the event was cancelled")
        ev.status, ev.finished_at = EventStatus.CANCELLED, now()
        Events.action(db, ev, user.id, "cancel", {}, body.note)
        people = (
            await db.scalars(
                select(Entrant.user_id).where(
                    Entrant.event_id == event_id, Entrant.user_id.is_not(None)
                )
            )
        ).all()
        text = "The event was cancelled" + (f": {body.note}" if body.note else "")
        await ctx.notes.add(
            db, [p for p in people if p], "cancelled", text, ev.name, f"/events/{ev.id}", ev.id
        )
    return await ctx.event_json(event_id, user)


@router.delete("/api/events/{event_id}")
async def delete_event(event_id: str, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Delete an event that never started (its owner): it and its entrants are gone."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.need_event(db, event_id)
        if ev.director_id != user.id:
            raise HTTPException(403, "only the event's owner may delete it")
        if ev.bracket is not None:
            raise HTTPException(400, "the event has started: cancel it instead")
        await db.execute(delete(Notification).where(Notification.event_id == event_id))
        await db.delete(ev)
    return {"deleted": event_id}


@router.post("/api/events/{event_id}/directors")
async def add_director(event_id: str, body: UsernameIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Name a co-director (the owner): they run the event too, and so cannot play in it."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.need_event(db, event_id)
        if ev.director_id != user.id:
            raise HTTPException(403, "only the event's owner names co-directors")
        who = await db.scalar(select(User).where(User.username == body.username))
        if who is None or who.is_guest:
            raise HTTPException(404, "no account has that username")
        if await ctx.is_director(db, ev, who.id):
            raise HTTPException(400, f"{who.display_name} already runs this event")
        entered = await db.scalar(
            select(Entrant.id).where(Entrant.event_id == event_id, Entrant.user_id == who.id)
        )
        if entered is not None:
            raise HTTPException(400, f"{who.display_name} plays in this event: a director cannot")
        db.add(EventDirector(event_id=event_id, user_id=who.id, created_at=now()))
        Events.action(db, ev, user.id, "director", {"added": who.display_name}, None)
        await ctx.notes.add(
            db,
            [who.id],
            "director",
            f"You are now a director of {ev.name}",
            None,
            f"/events/{ev.id}",
            ev.id,
        )
    return await ctx.event_json(event_id, user)


@router.delete("/api/events/{event_id}/directors/{user_id}")
async def remove_director(event_id: str, user_id: RowId, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Remove a co-director (the owner)."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.need_event(db, event_id)
        if ev.director_id != user.id:
            raise HTTPException(403, "only the event's owner removes co-directors")
        row = await db.get(EventDirector, (event_id, user_id))
        if row is None:
            raise HTTPException(404, "no such co-director")
        await db.delete(row)
        Events.action(db, ev, user.id, "director", {"removed": user_id}, None)
    return await ctx.event_json(event_id, user)


@router.get("/api/events")
async def list_events(ctx: Ctx) -> dict[str, Any]:
    """Every event, newest first, with its entrant count and who runs it."""
    async with ctx.sessions() as db:
        rows = (
            await db.execute(
                select(Event, User.display_name)
                .join(User, User.id == Event.director_id)
                .order_by(Event.created_at.desc())
                .limit(200)
            )
        ).all()
        counts = dict(
            (
                await db.execute(
                    select(Entrant.event_id, func.count(Entrant.id)).group_by(Entrant.event_id)
                )
            ).all()
        )
    return {
        "events": [
            {
                "id": e.id,
                "name": e.name,
                "game": e.game,
                "format": e.format,
                "mode": e.mode,
                "schedule": e.schedule,
                "status": e.status,
                "cap": e.cap,
                "entrants": int(counts.get(e.id, 0)),
                "starts_at": e.starts_at.isoformat() if e.starts_at else None,
                "director": director,
            }
            for e, director in rows
        ]
    }
