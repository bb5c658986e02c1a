"""The event pages and what they read: an event, a match, the event of a table (its game-over
screen links the match and the next game)."""

from typing import Any

from fastapi import APIRouter, Request

from boneyard.server import validation, webfiles
from boneyard.server.accounts.service import Me
from boneyard.server.errors import NotFound
from boneyard.server.tournaments.context import Ctx, MaybeMe
from boneyard.server.tournaments.views import match_page_json
from boneyard.server.tournaments.viewtypes import (
    MatchPageView,
    NextGameView,
    TableEventView,
    TournamentView,
)
from boneyard.store import tournament_games, tournament_people, unit
from boneyard.store.db import AsyncSession
from boneyard.store.tournaments import TournamentGame, TournamentRow

router = APIRouter()


@router.get("/api/tournaments/{event_id}", response_model=Any)
async def get_event(event_id: str, user: MaybeMe, ctx: Ctx, request: Request) -> TournamentView:
    """An event: settings, entrants, rounds with every match and game, standings with
    their labels, crosstables, the champion, the log."""
    return await ctx.event_json(event_id, user, request.client.host if request.client else None)


@router.get("/api/tournaments/{event_id}/matches/{match_id}", response_model=Any)
async def get_match(event_id: str, match_id: str, user: MaybeMe, ctx: Ctx) -> MatchPageView:
    """One match with its games (each with its table for the replay) and, while a side
    is awaited, when its grace period ends."""
    async with ctx.sessions() as db:
        ev = await ctx.need_event(db, event_id)
        found = await match_page_json(db, ev, match_id, user)
    if found is None:
        raise NotFound("no such match")
    return found


@router.get("/api/tables/{table_id}/event", response_model=Any)
async def table_event(table_id: str, user: MaybeMe, ctx: Ctx) -> TableEventView:
    """The event game a table plays, and where to go next: the match's next game, or
    (for a player of it) their next game in the event."""
    if len(table_id) > 32 or not validation.storable(table_id):
        raise NotFound("no such event game")
    async with ctx.sessions() as db:
        g = await tournament_games.game_at(db, table_id)
        if g is None:
            raise NotFound("this table is not an event's")
        ev = await unit.get(db, TournamentRow, g.event_id)
        assert ev is not None
        nxt = await next_game(db, g, user)
    return {
        "event": {"id": ev.id, "name": ev.name, "status": ev.status},
        "match": {"id": g.match_id, "url": f"/tournaments/{ev.id}/matches/{g.match_id}"},
        "game": {"number": g.number, "status": g.status, "note": g.note},
        "next": nxt,
    }


async def next_game(db: AsyncSession, g: TournamentGame, user: Me | None) -> NextGameView | None:
    """The next table: the same match's, else the viewer's own next one."""
    mine = None
    if user is not None:
        mine = await tournament_people.entrant_id_of(db, g.event_id, user.id)
    sides: list[int | None] = [mine] if mine is not None else [g.side_a, g.side_b]
    rows = await tournament_games.others_in_play(db, g.event_id, g.id, sides)
    same = [r for r in rows if r.match_id == g.match_id]
    found = same or (list(rows) if mine is not None else [])
    pick = found[0] if found else None
    if pick is None or pick.table_id is None:
        return None
    return {"table_id": pick.table_id, "match": pick.match_id, "number": pick.number}


def page(path: str, name: str) -> None:
    async def serve() -> webfiles.Page:
        return webfiles.page(name)

    router.add_api_route(path, serve, methods=["GET"], include_in_schema=False)


for path in (
    "/tournaments",
    "/tournaments/{event_id}",
    "/tournaments/{event_id}/matches/{match_id}",
):
    page(path, "tournaments.html")
page("/tournaments/{event_id}/scorecard", "scorecard.html")
page("/tournaments/{event_id}/pairings", "scorecard.html")
page("/tournaments/{event_id}/print/{kind}", "scorecard.html")
