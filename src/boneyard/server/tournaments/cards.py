"""Over-the-board score cards, their routes. A game's final score is entered by a player of
the match, or a whole paper card is typed in by a director or scorekeeper: signed on paper by
both players (PDA rule 11) it counts at once; otherwise both players sign it on screen and only
then does it count. Scores are checked against the game's rules
(the winner reached the target, the loser did not, nothing above what a game allows): a card
that fails is refused with the reason, and only a director's ruling overrides. A disputed card
goes to the directors; every entry, signature and dispute stays in its history and in the
exports. Signed cards are rated like games at a table. The work is
:mod:`~boneyard.server.tournaments.scorecards`; each answer is the event page's JSON."""

from typing import Any

from fastapi import APIRouter

from boneyard.server.tournaments import scorecards
from boneyard.server.tournaments.context import Ctx, Me
from boneyard.server.tournaments.schemas import CardIn, NoteIn, ReportIn, RowId
from boneyard.server.tournaments.viewtypes import TournamentView

router = APIRouter()


@router.post("/api/tournaments/{event_id}/matches/{match_id}/report", response_model=Any)
async def report(
    event_id: str, match_id: str, body: ReportIn, user: Me, ctx: Ctx
) -> TournamentView:
    """Enter a game's final score (a player of the match: this signs it for your side);
    the opponent signs too, or disputes."""
    await scorecards.report(ctx.svc, event_id, match_id, body, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/matches/{match_id}/card", response_model=Any)
async def director_card(
    event_id: str, match_id: str, body: CardIn, user: Me, ctx: Ctx
) -> TournamentView:
    """Type in a match's paper card (directors and scorekeepers): its games in order, each
    with its scores, how it ended and who won. ``paper``: both players signed it on paper
    (PDA rule 11): it counts at once, is rated, and is marked entered from the paper card by
    you. Without it (or where the event asks for signatures on screen) its one game waits
    for both players to sign on screen. Checked against the game's rules, whole."""
    await scorecards.enter_card(ctx.svc, event_id, match_id, body, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/games/{game_id}/sign", response_model=Any)
async def sign_card(event_id: str, game_id: RowId, user: Me, ctx: Ctx) -> TournamentView:
    """Sign a game's card for your side (PDA rule 11): it counts once both sides signed."""
    await scorecards.sign_card(ctx.svc, event_id, game_id, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/games/{game_id}/confirm", response_model=Any)
async def confirm(event_id: str, game_id: RowId, user: Me, ctx: Ctx) -> TournamentView:
    """Sign the score the opponent entered (the same as ``/sign``)."""
    await scorecards.sign_card(ctx.svc, event_id, game_id, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/tournaments/{event_id}/games/{game_id}/dispute", response_model=Any)
async def dispute(
    event_id: str, game_id: RowId, body: NoteIn, user: Me, ctx: Ctx
) -> TournamentView:
    """Dispute a card instead of signing it: the directors rule (the entry is kept)."""
    await scorecards.dispute(ctx.svc, event_id, game_id, body.note, user.id)
    return await ctx.event_json(event_id, user)
