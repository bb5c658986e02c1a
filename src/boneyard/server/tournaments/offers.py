"""Places offered by a director, their routes: a bot takes an entrant's place at once; a person
takes one (or a new place: a late entrant) only by accepting the offer. A director never plays:
their offer to themselves cannot be accepted, and their socket at a table never holds a hand.
The work is :mod:`~boneyard.server.tournaments.places`."""

from typing import Any

from fastapi import APIRouter

from boneyard.server.errors import Refused
from boneyard.server.lobby.sitebots import check_site_bot
from boneyard.server.tournaments import places
from boneyard.server.tournaments.context import Ctx, Me
from boneyard.server.tournaments.schemas import NoteIn, ReplaceIn, RowId, UsernameIn
from boneyard.server.tournaments.viewtypes import OffersView, TournamentView
from boneyard.store import tournament_people


class InviteIn(UsernameIn, NoteIn):
    """A late entrant invited by username: they take a new place by accepting."""


router = APIRouter()


@router.post("/api/tournaments/{event_id}/entrants/{entrant_id}/replace", response_model=Any)
async def replace(
    event_id: str, entrant_id: RowId, body: ReplaceIn, user: Me, ctx: Ctx
) -> TournamentView:
    """Put a bot in an entrant's place (at its tables too), or offer the place to a person
    by username: they take it only by accepting (``/offers/{id}/accept``). The answer is the
    same whether an account has that username or not."""
    if (body.username is None) == (body.bot is None):
        raise Refused("give either a username or a bot")
    if body.bot is not None:
        check_site_bot(body.bot, None, ctx.cfg)
    await places.replace(ctx.svc, event_id, entrant_id, body.username, body.bot, body.note, user.id)
    out = await ctx.event_json(event_id, user)
    if body.username is not None:
        out["message"] = (
            f"offered: if {body.username} has an account, they take the place when they accept it"
        )
    return out


@router.post("/api/tournaments/{event_id}/invite", response_model=Any)
async def invite(event_id: str, body: InviteIn, user: Me, ctx: Ctx) -> TournamentView:
    """Invite a late entrant by username (directors): they enter by accepting (checked
    in). Before the start, or into a Swiss event with late entry. The same answer whether
    an account has that username or not."""
    await places.invite(ctx.svc, event_id, body.username, body.note, user.id)
    out = await ctx.event_json(event_id, user)
    out["message"] = f"invited: if {body.username} has an account, they enter by accepting"
    return out


@router.get("/api/me/offers", response_model=Any)
async def my_offers(user: Me, ctx: Ctx) -> OffersView:
    """Places in tournaments that directors offered you, and invitations (pending ones)."""
    if user.username is None:
        return {"offers": []}
    async with ctx.sessions() as db:
        rows = await tournament_people.pending_offers(db, user.username, 50)
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


@router.post("/api/tournaments/{event_id}/offers/{offer_id}/accept", response_model=Any)
async def accept_offer(event_id: str, offer_id: RowId, user: Me, ctx: Ctx) -> TournamentView:
    """Take the place a director offered you (or enter, if you were invited)."""
    await places.accept(ctx.svc, event_id, offer_id, user)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/offers/{offer_id}/decline", response_model=Any)
async def decline_offer(event_id: str, offer_id: RowId, user: Me, ctx: Ctx) -> OffersView:
    """Turn down the place a director offered you."""
    await places.decline(ctx.svc, event_id, offer_id, user)
    return {"offers": (await my_offers(user, ctx))["offers"]}
