"""The venue's routes (docs/tournaments-site.md, "At the venue"): walk-ins entered by name, one or a
pasted list or a CSV file; a walk-in's claim by an account (with its code, or linked by a
director); dropping everyone not checked in when check-in closes; and the event's join code,
with which people make an account at the venue and enter at once (counted per event and per
minute, not per address: the hall's players share one). The work is
:mod:`~boneyard.server.tournaments.walkins`; each answer is the event page's JSON."""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from boneyard.server.accounts.cookies import sign_in
from boneyard.server.accounts.schemas import Registration
from boneyard.server.accounts.service import Me as Person
from boneyard.server.deps import address
from boneyard.server.errors import NotAllowed, NotFound, Refused
from boneyard.server.tournaments import walkins
from boneyard.server.tournaments.context import Context, Ctx, Me
from boneyard.server.tournaments.entry import count_entrants, enter_person, late_entry
from boneyard.server.tournaments.schemas import Clean, NoteIn, RowId, UsernameIn
from boneyard.server.tournaments.settings import checkin_open, setting
from boneyard.server.tournaments.viewtypes import TournamentView
from boneyard.store import accounts
from boneyard.store.models import User
from boneyard.store.statuses import TournamentStatus

router = APIRouter()


class WalkInsIn(Clean):
    """Walk-ins: one (``name``, ``club``, ``seed``), or a list (``text``: a name a line, or
    a spreadsheet's lines, tab-separated name, club, seed; ``csv``: the text of a CSV file with
    columns name, club, seed). ``here``: they are checked in now."""

    name: str | None = Field(default=None, max_length=200)
    club: str | None = Field(default=None, max_length=200)
    seed: str | None = Field(default=None, max_length=10)
    text: str | None = Field(default=None, max_length=100_000)
    csv: bool = False
    here: bool = False


class ClaimIn(Clean):
    """A walk-in's claim code, as the director wrote it down."""

    code: str = Field(min_length=1, max_length=20)


class JoinIn(Registration):
    """A new account made at the venue with the event's join code."""

    code: str = Field(min_length=1, max_length=20)


class JoinCodeIn(BaseModel):
    """Turn the venue sign-up on (a new code) or off."""

    on: bool = True


@router.post("/api/tournaments/{event_id}/walk-ins", response_model=Any)
async def add_walk_ins(event_id: str, body: WalkInsIn, user: Me, ctx: Ctx) -> TournamentView:
    """Enter people by name, without accounts (directors and scorekeepers; over the board,
    before the start): one, a pasted list or a CSV file of names, clubs and seeds. All or
    nothing: a refusal names the line."""
    if body.text is not None:
        items = walkins.parse_list(body.text, body.csv)
    elif body.name is not None:
        items = [walkins.one(0, body.name, body.club, body.seed)]
    else:
        raise Refused("type a name, or paste a list")
    added = await walkins.add(ctx.svc, event_id, items, body.here, user.id)
    out = await ctx.event_json(event_id, user)
    out["message"] = (
        f"{added[0].name} is entered" if len(added) == 1 else f"{len(added)} entrants are entered"
    ) + (" and checked in" if body.here else "")
    return out


@router.post("/api/tournaments/{event_id}/drop-absent", response_model=Any)
async def drop_absent(event_id: str, body: NoteIn, user: Me, ctx: Ctx) -> TournamentView:
    """Close check-in and drop everyone not checked in (directors, before the start): they
    are not in the draw, and keep their entry (listed as dropped)."""
    n = await walkins.drop_absent(ctx.svc, event_id, body.note, user.id)
    out = await ctx.event_json(event_id, user)
    out["message"] = (
        f"check-in is closed; {n} not checked in {'was' if n == 1 else 'were'} dropped: the "
        "draw is made of the others when you start"
    )
    return out


@router.post("/api/tournaments/claim", response_model=Any)
async def claim(body: ClaimIn, user: Me, ctx: Ctx) -> TournamentView:
    """Claim a walk-in entry with the code the director gave you: its games (and rating) are
    your account's from now on."""
    if user.is_guest:
        raise NotAllowed("sign up first: a guest cannot keep an entry or a rating")
    await ctx.accounts.limits.check("claims", str(user.id), "too many claim codes tried")
    event_id, entrant_id = await walkins.claim(ctx.svc, user, code=body.code)
    await moved(ctx, event_id, entrant_id, user)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/entrants/{entrant_id}/link", response_model=Any)
async def link(
    event_id: str, entrant_id: RowId, body: UsernameIn, user: Me, ctx: Ctx
) -> TournamentView:
    """Link a walk-in to a person's account (directors): its games and rating move there."""
    async with ctx.sessions() as db:
        await ctx.director_event(db, event_id, user)
        person = await accounts.user_by_username(db, body.username)
    if person is None or person.is_guest:
        raise NotFound("no account has that username")
    found = await walkins.claim(
        ctx.svc, person, event_id=event_id, entrant_id=entrant_id, by=user.id
    )
    await moved(ctx, event_id, found[1], person)
    return await ctx.event_json(event_id, user)


async def moved(ctx: Context, event_id: str, entrant_id: int, person: Person | User) -> None:
    """Move the claimed walk-in's rating to the account (after the claim's commit)."""
    async with ctx.sessions() as db:
        ev = await ctx.need_event(db, event_id)
    await walkins.move_rating(ctx.svc, ev.game, entrant_id, person)


@router.post("/api/tournaments/{event_id}/join-code", response_model=Any)
async def join_code(event_id: str, body: JoinCodeIn, user: Me, ctx: Ctx) -> TournamentView:
    """Turn on (a new code) or off the venue sign-up (directors): with the code, people make
    an account on the event's page and are entered at once."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.director_event(db, event_id, user)
        code = walkins.new_code() if body.on else None
        ev.settings = {**ev.settings, "join_code": code}
        ctx.svc.action(db, ev, user.id, "join_code", {"on": body.on}, None)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/join", response_model=Any)
async def join(
    event_id: str, body: JoinIn, request: Request, response: Response, ctx: Ctx
) -> TournamentView:
    """Make an account at the venue with the event's join code, sign in and enter the event
    (checked in while check-in is open). Not counted against the address's sign-ups; counted
    per event and per minute (``venue_signups``)."""
    async with ctx.sessions() as db:
        ev = await ctx.need_event(db, event_id)
        code = setting(ev, "join_code")
        given = walkins.normal_code(body.code)
        if not code or not hmac.compare_digest(given.encode(), str(code).encode()):
            raise Refused("that join code is not this event's: check it on the sign at the desk")
        if ev.status != TournamentStatus.REGISTRATION and not late_entry(ev):
            raise Refused("the event has started: it takes no new entrants")
        if await count_entrants(db, event_id) >= ev.cap:
            raise Refused(f"the event is full ({ev.cap} entrants)")
    me = await ctx.accounts.register(
        body.username, body.password, body.display_name, address(request), venue=event_id
    )
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.need_event(db, event_id)
        here = ev.status == TournamentStatus.REGISTRATION and checkin_open(ev)[0]
        await enter_person(db, ev, me, checked_in=here)
    await sign_in(ctx.accounts, request, response, me)
    return await ctx.event_json(event_id, me)
