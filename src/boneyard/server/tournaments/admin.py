"""Running an event's administration, its routes: create it, edit every setting, cancel it,
delete it before it starts, and name co-directors. Only signed-in accounts (not guests) create
tournaments, a few at a time each; the list shows who runs each one. The work is
:mod:`~boneyard.server.tournaments.manage`; each answer is the event page's JSON."""

from typing import Any

from fastapi import APIRouter, HTTPException

from boneyard.server.errors import NotAllowed
from boneyard.server.tournaments import manage
from boneyard.server.tournaments.context import Ctx, Me
from boneyard.server.tournaments.schemas import (
    NoteIn,
    RowId,
    TournamentEdit,
    TournamentIn,
    UsernameIn,
)
from boneyard.server.tournaments.service import SCOREKEEPER
from boneyard.server.tournaments.views import listed_json
from boneyard.server.tournaments.viewtypes import TournamentList, TournamentView
from boneyard.store.tournament_queries import newest_tournaments

router = APIRouter()


@router.post("/api/tournaments", response_model=Any)
async def create_event(body: TournamentIn, user: Me, ctx: Ctx) -> TournamentView:
    """Create an event (you direct it; signed-in accounts only, a few at a time)."""
    if user.is_guest:
        raise NotAllowed("sign up to run an event (guests cannot)")
    # The rate limit, the cap's setting and the metric's label keep the name "events": operators
    # configure and watch them by it (docs/operations.md).
    await ctx.accounts.limits.check("events", str(user.id), "too many new tournaments")
    running = await manage.live_tournaments(ctx.svc, user.id)
    if running >= ctx.cfg.events_per_person:
        ctx.tables.metrics.refused.labels("events").inc()
        raise HTTPException(
            429,
            f"you already run {running} tournaments (at most {ctx.cfg.events_per_person} at once): "
            "finish one first",
        )
    eid = await manage.create(ctx.svc, body.model_dump(exclude_none=True), user.id)
    return await ctx.event_json(eid, user)


@router.patch("/api/tournaments/{event_id}", response_model=Any)
async def edit_event(event_id: str, body: TournamentEdit, user: Me, ctx: Ctx) -> TournamentView:
    """Change an event's settings (directors). What shapes the draw (game, format, best-of,
    size, seeding …) is fixed once the event has started; the rest may change any time."""
    await manage.edit(ctx.svc, event_id, body.model_dump(exclude_unset=True), user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/cancel", response_model=Any)
async def cancel_event(event_id: str, body: NoteIn, user: Me, ctx: Ctx) -> TournamentView:
    """Cancel the event (directors): games under way are void and their tables stop."""
    await manage.cancel(ctx.svc, event_id, body.note, user.id)
    return await ctx.event_json(event_id, user)


@router.delete("/api/tournaments/{event_id}")
async def delete_event(event_id: str, user: Me, ctx: Ctx) -> dict[str, str]:
    """Delete an event that never started (its owner): it and its entrants are gone."""
    await manage.remove(ctx.svc, event_id, user.id)
    return {"deleted": event_id}


@router.post("/api/tournaments/{event_id}/directors", response_model=Any)
async def add_director(event_id: str, body: UsernameIn, user: Me, ctx: Ctx) -> TournamentView:
    """Name a co-director (the owner): they run the event too, and so cannot play in it."""
    await manage.add_director(ctx.svc, event_id, body.username, user.id)
    return await ctx.event_json(event_id, user)


@router.delete("/api/tournaments/{event_id}/directors/{user_id}", response_model=Any)
async def remove_director(event_id: str, user_id: RowId, user: Me, ctx: Ctx) -> TournamentView:
    """Remove a co-director (the owner)."""
    await manage.remove_director(ctx.svc, event_id, user_id, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/scorekeepers", response_model=Any)
async def add_scorekeeper(event_id: str, body: UsernameIn, user: Me, ctx: Ctx) -> TournamentView:
    """Name a scorekeeper (directors): they enter paper cards and check entrants in, and
    cannot play in the event."""
    await manage.add_director(ctx.svc, event_id, body.username, user.id, SCOREKEEPER)
    return await ctx.event_json(event_id, user)


@router.delete("/api/tournaments/{event_id}/scorekeepers/{user_id}", response_model=Any)
async def remove_scorekeeper(event_id: str, user_id: RowId, user: Me, ctx: Ctx) -> TournamentView:
    """Remove a scorekeeper (directors)."""
    await manage.remove_director(ctx.svc, event_id, user_id, user.id, SCOREKEEPER)
    return await ctx.event_json(event_id, user)


@router.get("/api/tournaments", response_model=Any)
async def list_tournaments(ctx: Ctx) -> TournamentList:
    """The newest tournaments (at most 200), each with its entrant count and who runs it (under
    ``events``: the API's field names stay as they were, docs/tournaments-site.md)."""
    async with ctx.sessions() as db:
        rows = await newest_tournaments(db)
    return {"events": [listed_json(e, director, n) for e, director, n in rows]}
