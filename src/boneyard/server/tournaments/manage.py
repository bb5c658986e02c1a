"""An event's administration at work: create it, edit every setting (checked: 400 with the
reason, nothing changed), cancel it, delete it before it starts, and name co-directors. (The
routes are :mod:`~boneyard.server.tournaments.admin`.)"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from boneyard.core.errors import BoneyardError
from boneyard.games.registry import get_spec
from boneyard.server.errors import NotAllowed, NotFound, Refused
from boneyard.server.tables.clock import now
from boneyard.server.tournaments.notify import Notes
from boneyard.server.tournaments.service import ACTIVE, DIRECTOR, LIVE, Tournaments
from boneyard.server.tournaments.settings import (
    BEFORE_START_ONLY,
    DEFAULTS,
    TIMES,
    default_schedule,
    setting,
)
from boneyard.store import accounts, notifications, tournament_people, unit
from boneyard.store.db import AsyncSession
from boneyard.store.statuses import TournamentStatus
from boneyard.store.tournament_queries import matches_with_games
from boneyard.store.tournaments import TournamentDirector, TournamentRow
from boneyard.tournament import Schedule, TournamentError

COLUMNS = ("name", "game", "format", "mode", "schedule", "cap", "starts_at", "rated")


def aware(t: datetime | None) -> datetime | None:
    """A time from a form with a zone (UTC when none was given)."""
    return t.replace(tzinfo=UTC) if t is not None and t.tzinfo is None else t


def current(ev: TournamentRow, key: str) -> Any:
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


def same(a: object, b: object) -> bool:
    """Equal values (times compared as instants)."""
    if isinstance(a, datetime) and isinstance(b, datetime):
        return aware(a) == aware(b)
    return bool(a == b)


def game_options(game: str, preset: str | None, options: dict[str, object]) -> dict[str, object]:
    """The checked options of a two-player ``game`` (400 with the reason otherwise)."""
    try:
        spec = get_spec(game)
    except BoneyardError as exc:
        raise Refused(str(exc)) from None
    if not spec.min_players <= 2 <= spec.max_players:
        raise Refused(f"{spec.title} is not a two-player game")
    out = {k: v for k, v in options.items() if k != "preset"}
    if preset:
        out["preset"] = preset
    try:
        spec.new_game(2, out)
    except BoneyardError as exc:
        raise Refused(str(exc)) from None
    return out


def apply_settings(ev: TournamentRow, given: dict[str, Any], started: bool) -> None:
    """Write the fields of ``given`` into ``ev``, after checking them (400: nothing changed)."""
    given = {k: (aware(v) if isinstance(v, datetime) else v) for k, v in given.items()}
    if started:
        for key, value in given.items():
            if key in BEFORE_START_ONLY and not same(value, current(ev, key)):
                raise Refused(f"{key} cannot change once the event has started")
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
            raise Refused(str(exc)) from None
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


async def live_tournaments(svc: Tournaments, user_id: int) -> int:
    """How many tournaments ``user_id`` runs that are not over."""
    async with svc.sessions() as db:
        return await tournament_people.tournaments_run_by(db, user_id, LIVE)


async def create(svc: Tournaments, given: dict[str, Any], by: int) -> str:
    """A new event directed by ``by``, with the settings ``given`` (checked); its id."""
    ev = TournamentRow(
        id=secrets.token_hex(6),
        name=given["name"].strip(),
        game=given["game"],
        format=given["format"],
        mode=given["mode"],
        options={},
        schedule="",
        settings={},
        cap=64,
        status=TournamentStatus.REGISTRATION,
        director_id=by,
        rated=True,
        created_at=now(),
    )
    apply_settings(ev, given, started=False)
    async with svc.sessions() as db, db.begin():
        unit.add(db, ev)
        await unit.flush(db)
        Tournaments.action(db, ev, by, "create", {"name": ev.name}, None)
    svc.wake_scheduler.set()  # (its start time may be the next thing due)
    return ev.id


async def edit(svc: Tournaments, event_id: str, given: dict[str, object], by: int) -> None:
    """Change the settings ``given`` (directors); what shapes the draw is fixed once the
    event has started."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_event(db, event_id)
        await svc.need_director(db, ev, by)
        if ev.status not in LIVE:
            raise Refused(f"the event is {ev.status}: nothing to change")
        apply_settings(ev, given, started=ev.status != TournamentStatus.REGISTRATION)
        Tournaments.action(db, ev, by, "edit", {"fields": sorted(given)}, None)
    svc.wake_scheduler.set()


async def cancel(svc: Tournaments, event_id: str, note: str, by: int) -> None:
    """Cancel the event: games under way are void, their tables stop, entrants are told."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_event(db, event_id)
        await svc.need_director(db, ev, by)
        if ev.status not in LIVE:
            raise Refused(f"the event is {ev.status}")
        for mid in await matches_with_games(db, event_id, ACTIVE):
            await svc.void_active(db, ev, mid, "the event was cancelled")
        ev.status, ev.finished_at = TournamentStatus.CANCELLED, now()
        Tournaments.action(db, ev, by, "cancel", {}, note)
        people = await tournament_people.accounts_entered(db, event_id)
        text = "The event was cancelled" + (f": {note}" if note else "")
        await svc.notes.add(
            db, [p for p in people if p], "cancelled", text, ev.name, f"/tournaments/{ev.id}", ev.id
        )


async def remove(svc: Tournaments, event_id: str, by: int) -> None:
    """Delete an event that never started (its owner): it and its entrants are gone."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_event(db, event_id)
        if ev.director_id != by:
            raise NotAllowed("only the event's owner may delete it")
        if ev.bracket is not None:
            raise Refused("the event has started: cancel it instead")
        await notifications.delete_of_event(db, event_id)
        await unit.delete(db, ev)


async def add_director(
    svc: Tournaments, event_id: str, username: str, by: int, role: str = DIRECTOR
) -> None:
    """Name a co-director (the owner ``by``) or a scorekeeper (any director); they are told."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_event(db, event_id)
        if role == DIRECTOR and ev.director_id != by:
            raise NotAllowed("only the event's owner names co-directors")
        await svc.need_director(db, ev, by)
        who = await accounts.user_by_username(db, username)
        if who is None or who.is_guest:
            raise NotFound("no account has that username")
        now_role = await svc.role_of(db, ev, who.id)
        if now_role is not None:
            raise Refused(f"{who.display_name} is already a {now_role} of this event")
        entered = await tournament_people.entrant_id_of(db, event_id, who.id)
        if entered is not None:
            raise Refused(f"{who.display_name} plays in this event, so cannot help run it")
        unit.add(
            db, TournamentDirector(event_id=event_id, user_id=who.id, created_at=now(), role=role)
        )
        Tournaments.action(db, ev, by, role, {"added": who.display_name}, None)
        await tell_director(svc.notes, db, ev, who.id, role)


async def tell_director(
    notes: Notes, db: AsyncSession, ev: TournamentRow, user_id: int, role: str = DIRECTOR
) -> None:
    """Tell a new co-director or scorekeeper."""
    text = f"You are now a {role} of {ev.name}"
    await notes.add(db, [user_id], "director", text, None, f"/tournaments/{ev.id}", ev.id)


async def remove_director(
    svc: Tournaments, event_id: str, user_id: int, by: int, role: str = DIRECTOR
) -> None:
    """Remove a co-director (the owner ``by``) or a scorekeeper (any director)."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_event(db, event_id)
        if role == DIRECTOR and ev.director_id != by:
            raise NotAllowed("only the event's owner removes co-directors")
        await svc.need_director(db, ev, by)
        row = await unit.get(db, TournamentDirector, (event_id, user_id))
        if row is None or row.role != role:
            raise NotFound(f"no such {role}")
        await unit.delete(db, row)
        Tournaments.action(db, ev, by, role, {"removed": user_id}, None)
