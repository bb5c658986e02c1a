"""Places offered by a director, at work: a bot takes an entrant's place at once (at its live
tables too); a person takes one (or a new place: a late entrant) only by accepting the offer.
A director never plays. (The routes are :mod:`~boneyard.server.tournaments.offers`.)"""

from __future__ import annotations

import logging
from typing import Any

from boneyard.server import validation
from boneyard.server.accounts.service import Me
from boneyard.server.errors import NotFound, Refused
from boneyard.server.tables.clock import now
from boneyard.server.tables.commands import Reseat
from boneyard.server.tournaments.entry import enter_person, entrant_of, late_entry, may_enter
from boneyard.server.tournaments.service import LIVE, Tournaments, seat_of
from boneyard.store import unit
from boneyard.store.db import AsyncSession
from boneyard.store.models import User
from boneyard.store.seats import Seat
from boneyard.store.statuses import EntrantStatus, OfferStatus, TournamentStatus
from boneyard.store.tournament_queries import entrant_games_in_play
from boneyard.store.tournaments import Entrant, TournamentOffer, TournamentRow

log = logging.getLogger("boneyard.tournaments")

Moves = list[tuple[str | None, int]]
"""The live tables and seats where a replaced entrant plays."""


def offered(
    db: AsyncSession, ev: TournamentRow, entrant: int | None, username: str, note: str
) -> None:
    """Add a pending offer to ``username`` (of entrant ``entrant``'s place, or a new one)."""
    if not validation.storable(username):
        raise Refused("that is not a username")
    unit.add(
        db,
        TournamentOffer(
            event_id=ev.id,
            entrant_id=entrant,
            username=username,
            status=OfferStatus.PENDING,
            note=note or None,
            created_at=now(),
        ),
    )


async def replace(
    svc: Tournaments,
    event_id: str,
    entrant_id: int,
    username: str | None,
    bot: str | None,
    note: str,
    by: int,
) -> None:
    """A director puts ``bot`` in an entrant's place, or offers it to ``username``."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await svc.need_event(db, event_id)
            await svc.need_director(db, ev, by)
            e = await unit.get(db, Entrant, entrant_id)
            if e is None or e.event_id != event_id:
                raise NotFound("no such entrant")
            moves: Moves = []
            if username is not None:
                await seats_free(svc, db, ev, e)
                offered(db, ev, e.id, username, note)
                payload = {"entrant": e.id, "was": e.name, "to": username}
                Tournaments.action(db, ev, by, "offer", payload, note)
            else:
                moves = await take_place(svc, db, ev, e, None, bot, by, note)
        await apply_moves(svc, event_id, e.id, moves)


def started(table: Any) -> bool:
    """Whether a live table's game has had its first move (a hand finished counts too)."""
    st = table.state if table is not None else None
    return st is not None and (len(st.events) > 0 or len(st.ends) > 0)


async def seats_free(svc: Tournaments, db: AsyncSession, ev: TournamentRow, e: Entrant) -> None:
    """Refuse (400) a person in ``e``'s place while a game of theirs is in play past its first
    move: nobody takes a seat another person holds in a game under way (a bot may, or the
    director rules a forfeit)."""
    for g in await entrant_games_in_play(db, ev.id, e.id):
        table = await svc.tables.get(g.table_id) if g.table_id else None
        if started(table):
            raise Refused(
                f"{e.name} is playing game {g.number} of {g.match_id}: a person can take a "
                "place only before its game's first move. Put a bot in the seat (bot:greedy) "
                "or rule a forfeit"
            )


async def invite(svc: Tournaments, event_id: str, username: str, note: str, by: int) -> None:
    """A director invites a late entrant by username (before the start, or into a Swiss
    event with late entry)."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_event(db, event_id)
        await svc.need_director(db, ev, by)
        if ev.status != TournamentStatus.REGISTRATION and not late_entry(ev):
            raise Refused("the event has started: it takes no new entrants")
        offered(db, ev, None, username, note)
        Tournaments.action(db, ev, by, "invite", {"to": username}, note)


async def take_place(
    svc: Tournaments,
    db: AsyncSession,
    ev: TournamentRow,
    e: Entrant,
    person: User | None,
    bot: str | None,
    by: int | None,
    note: str | None,
) -> Moves:
    """Put ``person`` (or ``bot``) in entrant ``e``'s place; returns the live tables and
    seats where the entrant plays now (the caller reseats them after the commit). A bot is
    there: checked in; so is a person who takes a place after the start. The person who held
    the place is told."""
    old, held = e.name, e.user_id
    if person is not None:
        e.user_id, e.bot, e.name = person.id, None, person.display_name
    else:
        assert bot is not None
        e.user_id, e.bot = None, bot
        e.name = f"{bot.capitalize()} bot ({old})"[:40]
        e.checked_in = True
    if ev.status != TournamentStatus.REGISTRATION:
        e.status, e.checked_in = EntrantStatus.PLAYING, True
    rows = await entrant_games_in_play(db, ev.id, e.id)
    Tournaments.action(db, ev, by, "replace", {"entrant": e.id, "was": old, "now": e.name}, note)
    if held is not None and held != e.user_id:
        text = f"The director gave your place in {ev.name} to {e.name}" + (
            f": {note}" if note else ""
        )
        await svc.notes.add(db, [held], "director", text, ev.name, f"/tournaments/{ev.id}", ev.id)
    return [(g.table_id, g.seat_a if g.side_a == e.id else 1 - g.seat_a) for g in rows]


async def apply_moves(svc: Tournaments, event_id: str, entrant_id: int, moves: Moves) -> None:
    """Reseat the entrant's live tables (after the commit), then advance the event."""
    if moves:
        async with svc.sessions() as db:
            e = await unit.get(db, Entrant, entrant_id)
        for tid, seat_no in moves:
            if tid is not None and e is not None:
                await reseat(svc, tid, seat_no, seat_of(e))
    await svc.advance_locked(event_id)


async def reseat(svc: Tournaments, table_id: str, seat_no: int, seat: Seat) -> None:
    """Give seat ``seat_no`` of a live table to ``seat`` (its bots and players are told)."""
    table = await svc.tables.get(table_id)
    if table is None:
        return
    try:
        await table.ask(Reseat(seat_no, seat))  # (tables.seating)
    except Refused as exc:  # a move came first: the seat stays with who holds it
        log.warning("table %s: seat %d not given to %s: %s", table_id, seat_no, seat.name, exc)


async def need_offer(db: AsyncSession, event_id: str, offer_id: int, user: Me) -> TournamentOffer:
    """The pending offer to ``user`` (404 otherwise, whoever it is to)."""
    offer = await unit.get(db, TournamentOffer, offer_id)
    mine = offer is not None and user.username is not None and offer.username == user.username
    if (
        offer is None
        or offer.event_id != event_id
        or not mine
        or offer.status != OfferStatus.PENDING
    ):
        raise NotFound("no such offer")
    return offer


async def accept(svc: Tournaments, event_id: str, offer_id: int, user: Me) -> None:
    """``user`` takes the place offered (or enters, if invited)."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            offer = await need_offer(db, event_id, offer_id, user)
            ev = await svc.need_event(db, event_id)
            role = await svc.role_of(db, ev, user.id)
            if role is not None:
                raise Refused(f"you are a {role} of this event, so you cannot play in it")
            if ev.status not in LIVE:
                raise Refused(f"the event is {ev.status}")
            if await entrant_of(db, event_id, user.id) is not None:
                raise Refused("you are already an entrant of this event")
            person = await unit.get(db, User, user.id)
            if person is None:
                raise NotFound("no such offer")
            may_enter(ev, person.is_bot)
            offer.status = OfferStatus.ACCEPTED
            e, moves = await taken(svc, db, ev, offer, person)
            await unit.flush(db)
        await apply_moves(svc, event_id, e.id, moves)


async def taken(
    svc: Tournaments, db: AsyncSession, ev: TournamentRow, offer: TournamentOffer, person: User
) -> tuple[Entrant, Moves]:
    """The entrant ``person`` becomes by accepting ``offer``: a new one (an invitation,
    checked in) or the one whose place was offered."""
    if offer.entrant_id is None:
        return await enter_person(db, ev, person, checked_in=True), []
    found = await unit.get(db, Entrant, offer.entrant_id)
    if found is None:
        raise NotFound("no such offer")
    await seats_free(svc, db, ev, found)
    return found, await take_place(svc, db, ev, found, person, None, person.id, offer.note)


async def decline(svc: Tournaments, event_id: str, offer_id: int, user: Me) -> None:
    """``user`` turns the offer down."""
    async with svc.sessions() as db, db.begin():
        offer = await need_offer(db, event_id, offer_id, user)
        offer.status = OfferStatus.DECLINED
