"""The director's console, its routes: pause and resume, forfeits, rulings (a score, a PDA
bogus play), the PDA 9b hand penalty, reopening a decided game, and undoing a ruling while the
next round has not started. The work is :mod:`~boneyard.server.tournaments.rulings` (forfeits: the
service); each answer is the event page's JSON."""

from typing import Any

from fastapi import APIRouter

from boneyard.server.tournaments import rulings
from boneyard.server.tournaments.context import Ctx, Me
from boneyard.server.tournaments.schemas import ForfeitIn, NoteIn, PenaltyIn, RowId, RulingIn
from boneyard.server.tournaments.viewtypes import TournamentView
from boneyard.store.statuses import TournamentStatus

router = APIRouter()


@router.post("/api/tournaments/{event_id}/pause", response_model=Any)
async def pause(event_id: str, body: NoteIn, user: Me, ctx: Ctx) -> TournamentView:
    """Pause (directors): games in play finish, no new table starts."""
    await rulings.set_status(ctx.svc, event_id, user.id, TournamentStatus.PAUSED, body.note)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/resume", response_model=Any)
async def resume(event_id: str, body: NoteIn, user: Me, ctx: Ctx) -> TournamentView:
    """Resume a paused event (directors)."""
    await rulings.set_status(ctx.svc, event_id, user.id, TournamentStatus.RUNNING, body.note)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/matches/{match_id}/forfeit", response_model=Any)
async def forfeit(
    event_id: str, match_id: str, body: ForfeitIn, user: Me, ctx: Ctx
) -> TournamentView:
    """Rule that an entrant forfeits a match (directors; the page asks first)."""
    async with ctx.sessions() as db:
        await ctx.need_director(db, await ctx.need_event(db, event_id), user)
    await ctx.svc.forfeit(event_id, match_id, body.loser, body.note, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/matches/{match_id}/ruling", response_model=Any)
async def ruling(
    event_id: str, match_id: str, body: RulingIn, user: Me, ctx: Ctx
) -> TournamentView:
    """A director's ruling on a game: a PDA bogus play (150-100) or a score, with a note.
    A ruling is not checked against the game's scores: it is how a director overrides."""
    await rulings.rule(ctx.svc, event_id, match_id, body, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/matches/{match_id}/penalty", response_model=Any)
async def penalty(
    event_id: str, match_id: str, body: PenaltyIn, user: Me, ctx: Ctx
) -> TournamentView:
    """PDA 9b (over the board): the hand ends at once and the other player scores
    ``points`` (at least 50). Recorded as a ruling on the game in play, in the log and on
    its card; the players' final card includes the points."""
    await rulings.penalize(ctx.svc, event_id, match_id, body, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/games/{game_id}/reopen", response_model=Any)
async def reopen(event_id: str, game_id: RowId, body: NoteIn, user: Me, ctx: Ctx) -> TournamentView:
    """Reopen a decided game (directors): its result no longer counts and it is played (or
    entered) again. Not once the next round has started on it."""
    told = await rulings.reopen(ctx.svc, event_id, game_id, body.note, user.id)
    return {**await ctx.event_json(event_id, user), "message": told}


@router.post("/api/tournaments/{event_id}/actions/{action_id}/undo", response_model=Any)
async def undo(event_id: str, action_id: RowId, body: NoteIn, user: Me, ctx: Ctx) -> TournamentView:
    """Undo a ruling, a forfeit, a time-out or a penalty (directors) while the next round
    has not started: a ruled card goes back to what it was (a disputed card is disputed
    again), a game ruled or forfeited at a table is played again."""
    told = await rulings.undo(ctx.svc, event_id, action_id, body.note, user.id)
    return {**await ctx.event_json(event_id, user), "message": told}
