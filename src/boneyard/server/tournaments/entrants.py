"""Entrants, their routes: registration, withdrawal, check-in (by the entrant in its window, by
the director at any time), bots, late entrants, removal before the start, seeding by hand, and
the start (docs/tournaments-site.md). The work is :mod:`~boneyard.server.tournaments.entry`
(the start: :mod:`~boneyard.server.tournaments.start`); each answer is the page's JSON."""

from typing import Any

from fastapi import APIRouter

from boneyard.server.lobby.sitebots import check_site_bot
from boneyard.server.tournaments import entry
from boneyard.server.tournaments import start as starting
from boneyard.server.tournaments.context import Ctx, Me
from boneyard.server.tournaments.schemas import BotsIn, CheckIn, CheckinWindow, RowId, SeedsIn
from boneyard.server.tournaments.viewtypes import TournamentView

router = APIRouter()


@router.post("/api/tournaments/{event_id}/register", response_model=Any)
async def register(event_id: str, user: Me, ctx: Ctx) -> TournamentView:
    """Enter the event (before the start; a Swiss event with late entry: until its last
    round is paired)."""
    await entry.register(ctx.svc, event_id, user)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/withdraw", response_model=Any)
async def withdraw(event_id: str, user: Me, ctx: Ctx) -> TournamentView:
    """Leave the event (after the start: every remaining match is forfeited)."""
    await entry.withdraw(ctx.svc, event_id, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/checkin", response_model=Any)
async def checkin(event_id: str, user: Me, ctx: Ctx) -> TournamentView:
    """Check in: before the start while check-in is open; after it, a late arrival checks
    in before the grace of their match runs out (and plays)."""
    await entry.check_in(ctx.svc, event_id, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/entrants/{entrant_id}/checkin", response_model=Any)
async def director_checkin(
    event_id: str, entrant_id: RowId, body: CheckIn, user: Me, ctx: Ctx
) -> TournamentView:
    """Check an entrant in or out (directors), whatever the window says."""
    await entry.set_present(ctx.svc, event_id, entrant_id, body.present, body.note, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/checkin-window", response_model=Any)
async def checkin_window(event_id: str, body: CheckinWindow, user: Me, ctx: Ctx) -> TournamentView:
    """Open or close check-in by hand (directors), or go back to the set times."""
    await entry.set_window(ctx.svc, event_id, body.state, body.note, user.id)
    return await ctx.event_json(event_id, user)


@router.delete("/api/tournaments/{event_id}/entrants/{entrant_id}", response_model=Any)
async def remove_entrant(event_id: str, entrant_id: RowId, user: Me, ctx: Ctx) -> TournamentView:
    """Remove an entrant before the start (directors)."""
    await entry.remove(ctx.svc, event_id, entrant_id, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/bots", response_model=Any)
async def add_bots(event_id: str, body: BotsIn, user: Me, ctx: Ctx) -> TournamentView:
    """Add bot entrants (directors; online tournaments; a bot is always checked in)."""
    check_site_bot(body.bot, None, ctx.cfg)
    await entry.add_bots(ctx.svc, event_id, body.bot, body.count, ctx.cfg.event_bots, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/seeds", response_model=Any)
async def seeds(event_id: str, body: SeedsIn, user: Me, ctx: Ctx) -> TournamentView:
    """Seed by hand (directors, before the start): ``order`` lists every entrant, seed 1
    first; ``by="rating"`` fills the order from the ratings, to adjust afterwards."""
    await entry.seed(ctx.svc, event_id, body.by == "rating", body.order, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/start", response_model=Any)
async def start(event_id: str, user: Me, ctx: Ctx) -> TournamentView:
    """Start the event now (directors): the draw is seeded and the first matches begin;
    an entrant not checked in gets the grace period when their match is ready."""
    async with ctx.sessions() as db:
        await ctx.director_event(db, event_id, user)
    await starting.start(ctx.svc, event_id, user.id)
    return await ctx.event_json(event_id, user)
