"""Places offered by a director: a bot takes an entrant's place at once; a person takes one
(or a new place: a late entrant) only by accepting the offer. A director never plays: their
offer to themselves cannot be accepted, and their socket at a table never holds a hand."""

from typing import Any

from fastapi import APIRouter, HTTPException
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.server import validation
from boneyard.server.events.context import Context, Ctx, Me
from boneyard.server.events.entrants import enter, entrant_of, late_entry, may_enter
from boneyard.server.events.schemas import NoteIn, ReplaceIn, RowId, UsernameIn
from boneyard.server.events.service import Events, seat_of
from boneyard.server.lobby.sitebots import check_site_bot
from boneyard.server.tables.clock import now
from boneyard.store.events import Entrant, Event, EventGame, EventOffer
from boneyard.store.models import User
from boneyard.store.seats import Seat
from boneyard.store.statuses import EntrantStatus, EventStatus, MatchGameStatus, OfferStatus

Moves = list[tuple[str | None, int]]


class InviteIn(UsernameIn, NoteIn):
    """A late entrant invited by username: they take a new place by accepting."""


router = APIRouter()


def offered(db: AsyncSession, ev: Event, entrant: int | None, username: str, note: str) -> None:
    if not validation.storable(username):
        raise HTTPException(400, "that is not a username")
    db.add(
        EventOffer(
            event_id=ev.id,
            entrant_id=entrant,
            username=username,
            status="pending",
            note=note or None,
            created_at=now(),
        )
    )


@router.post("/api/events/{event_id}/entrants/{entrant_id}/replace")
async def replace(
    event_id: str, entrant_id: RowId, body: ReplaceIn, user: Me, ctx: Ctx
) -> dict[str, Any]:
    """Put a bot in an entrant's place (at its tables too), or offer the place to a person
    by username: they take it only by accepting (``/offers/{id}/accept``). The answer is the
    same whether an account has that username or not."""
    if (body.username is None) == (body.bot is None):
        raise HTTPException(400, "give either a username or a bot")
    if body.bot is not None:
        check_site_bot(body.bot, None, ctx.cfg)
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            ev = await ctx.need_event(db, event_id)
            await ctx.need_director(db, ev, user)
            e = await db.get(Entrant, entrant_id)
            if e is None or e.event_id != event_id:
                raise HTTPException(404, "no such entrant")
            moves: Moves = []
            if body.username is not None:
                offered(db, ev, e.id, body.username, body.note)
                Events.action(
                    db,
                    ev,
                    user.id,
                    "offer",
                    {"entrant": e.id, "was": e.name, "to": body.username},
                    body.note,
                )
            else:
                assert body.bot is not None
                moves = await take_place(db, ev, e, None, body.bot, user.id, body.note)
        await apply_moves(ctx, event_id, e.id, moves)
    out = await ctx.event_json(event_id, user)
    if body.username is not None:
        out["message"] = (
            f"offered: if {body.username} has an account, they take the place when they accept it"
        )
    return out


@router.post("/api/events/{event_id}/invite")
async def invite(event_id: str, body: InviteIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Invite a late entrant by username (directors): they enter by accepting (checked
    in). Before the start, or into a Swiss event with late entry. The same answer whether
    an account has that username or not."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.need_event(db, event_id)
        await ctx.need_director(db, ev, user)
        if ev.status != EventStatus.REGISTRATION and not late_entry(ev):
            raise HTTPException(400, "the event has started: it takes no new entrants")
        offered(db, ev, None, body.username, body.note)
        Events.action(db, ev, user.id, "invite", {"to": body.username}, body.note)
    out = await ctx.event_json(event_id, user)
    out["message"] = f"invited: if {body.username} has an account, they enter by accepting"
    return out


async def take_place(
    db: AsyncSession,
    ev: Event,
    e: Entrant,
    person: User | None,
    bot: str | None,
    by: int | None,
    note: str | None,
) -> Moves:
    """Put ``person`` (or ``bot``) in entrant ``e``'s place; returns the live tables and
    seats where the entrant plays now (the caller reseats them after the commit). A bot is
    there: checked in; so is a person who takes a place after the start."""
    old = e.name
    if person is not None:
        e.user_id, e.bot, e.name = person.id, None, person.display_name
    else:
        assert bot is not None
        e.user_id, e.bot = None, bot
        e.name = f"{bot.capitalize()} bot ({old})"[:40]
        e.checked_in = True
    if ev.status != EventStatus.REGISTRATION:
        e.status, e.checked_in = EntrantStatus.PLAYING, True
    rows = (
        await db.scalars(
            select(EventGame).where(
                EventGame.event_id == ev.id,
                EventGame.status == MatchGameStatus.PLAYING,
                EventGame.table_id.is_not(None),
            )
        )
    ).all()
    Events.action(db, ev, by, "replace", {"entrant": e.id, "was": old, "now": e.name}, note)
    return [
        (g.table_id, g.seat_a if g.side_a == e.id else 1 - g.seat_a)
        for g in rows
        if e.id in (g.side_a, g.side_b)
    ]


async def apply_moves(ctx: Context, event_id: str, entrant_id: int, moves: Moves) -> None:
    """Reseat the entrant's live tables (after the commit), then advance the event."""
    if moves:
        async with ctx.sessions() as db:
            e = await db.get(Entrant, entrant_id)
        for tid, seat_no in moves:
            if tid is not None and e is not None:
                await reseat(ctx, tid, seat_no, seat_of(e))
    await ctx.svc.advance_locked(event_id)


async def reseat(ctx: Context, table_id: str, seat_no: int, seat: Seat) -> None:
    table = await ctx.tables.get(table_id)
    if table is None:
        return
    async with table.lock:
        await ctx.tables.refresh_shared(table)
        seats = list(table.seats)
        seats[seat_no] = seat
        await ctx.tables.save_seats(table, seats)
        table.make_bots()
        await table.broadcast()
    ctx.tables.schedule_bots(table)


@router.get("/api/me/offers")
async def my_offers(user: Me, ctx: Ctx) -> dict[str, Any]:
    """Places in events that directors offered you, and invitations (pending ones)."""
    if user.username is None:
        return {"offers": []}
    async with ctx.sessions() as db:
        rows = (
            await db.execute(
                select(EventOffer, Event.name, Entrant.name)
                .join(Event, Event.id == EventOffer.event_id)
                .outerjoin(Entrant, Entrant.id == EventOffer.entrant_id)
                .where(
                    EventOffer.username == user.username, EventOffer.status == OfferStatus.PENDING
                )
                .order_by(EventOffer.id.desc())
                .limit(50)
            )
        ).all()
    return {
        "offers": [
            {
                "id": o.id,
                "event": o.event_id,
                "event_name": name,
                "place_of": place,
                "note": o.note,
                "at": o.created_at.isoformat(),
            }
            for o, name, place in rows
        ]
    }


async def need_offer(db: AsyncSession, event_id: str, offer_id: int, user: Any) -> EventOffer:
    offer = await db.get(EventOffer, offer_id)
    mine = offer is not None and user.username is not None and offer.username == user.username
    if (
        offer is None
        or offer.event_id != event_id
        or not mine
        or offer.status != OfferStatus.PENDING
    ):
        raise HTTPException(404, "no such offer")
    return offer


@router.post("/api/events/{event_id}/offers/{offer_id}/accept")
async def accept_offer(event_id: str, offer_id: RowId, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Take the place a director offered you (or enter, if you were invited)."""
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            offer = await need_offer(db, event_id, offer_id, user)
            ev = await ctx.need_event(db, event_id)
            if await ctx.is_director(db, ev, user.id):
                raise HTTPException(400, "a director runs the event and does not play in it")
            if ev.status not in (EventStatus.REGISTRATION, EventStatus.RUNNING, EventStatus.PAUSED):
                raise HTTPException(400, f"the event is {ev.status}")
            if await entrant_of(db, event_id, user.id) is not None:
                raise HTTPException(400, "you are already an entrant of this event")
            person = await db.get(User, user.id)
            if person is None:
                raise HTTPException(404, "no such offer")
            may_enter(ev, person.is_bot)
            offer.status = OfferStatus.ACCEPTED
            if offer.entrant_id is None:
                e = Entrant(
                    event_id=event_id,
                    user_id=person.id,
                    name=person.display_name,
                    checked_in=True,
                    status="registered",
                    created_at=now(),
                )
                await enter(db, ev, e)
                moves: Moves = []
            else:
                found = await db.get(Entrant, offer.entrant_id)
                if found is None:
                    raise HTTPException(404, "no such offer")
                e = found
                moves = await take_place(db, ev, e, person, None, user.id, offer.note)
            await db.flush()
        await apply_moves(ctx, event_id, e.id, moves)
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/offers/{offer_id}/decline")
async def decline_offer(event_id: str, offer_id: RowId, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Turn down the place a director offered you."""
    async with ctx.sessions() as db, db.begin():
        offer = await need_offer(db, event_id, offer_id, user)
        offer.status = OfferStatus.DECLINED
    return {"offers": (await my_offers(user, ctx))["offers"]}
