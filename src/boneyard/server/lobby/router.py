"""The lobby routes: the games, creating, listing, joining and starting tables, play a bot
now, quick pairing, a person's games, a table's information and its record (docs/server.md,
HTTP API)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from boneyard.core.protocol import JSON
from boneyard.server.deps import (
    LobbyDep,
    MaybeUser,
    NeedUser,
    PairingDep,
    TableDep,
    VisibleTable,
    address,
)
from boneyard.server.errors import ERRORS, NotAllowed, Refused
from boneyard.server.lobby.pairing import check_pool
from boneyard.server.lobby.schemas import JoinIn, PairIn, QuickIn, SeatIn, TableIn
from boneyard.server.tables import access, tableview

router = APIRouter(responses=ERRORS)


@router.get("/api/games")
async def games(lobby: LobbyDep) -> JSON:
    """The games, their player counts and the bots."""
    return lobby.games()


@router.post("/api/tables")
async def new_table(body: TableIn, user: NeedUser, lobby: LobbyDep, request: Request) -> JSON:
    """Create a table (started at once when no seat is open and ``start`` is true); an
    ``account`` seat challenges a bot account, which accepts or declines (docs/bots.md)."""
    return await lobby.new_table(body, user, address(request))


@router.post("/api/quickplay")
async def quickplay(
    user: NeedUser, lobby: LobbyDep, request: Request, body: QuickIn | None = None
) -> JSON:
    """Play a bot now: a started two-player High Five table against the greedy bot
    (``{"guide": true}``: the guided first hand, with a hint at each step)."""
    guide = body is not None and body.guide
    table = TableIn(game="highfive", seats=[SeatIn(kind="me"), SeatIn(kind="bot")], guide=guide)
    return (await lobby.create(table, user, address=address(request))).public_json()


@router.get("/api/me/games")
async def my_games(user: NeedUser, lobby: LobbyDep) -> JSON:
    """The signed-in person's tables, newest first (finished ones with their result)."""
    return {"games": await lobby.my_games(user)}


@router.get("/api/tables")
async def list_tables(
    lobby: LobbyDep, user: MaybeUser, page: Annotated[int, Query(ge=1, le=10_000)] = 1
) -> JSON:
    """A page of the tables to join or watch (waiting with a seated person connected first,
    then in play, waiting with nobody there, bots only), and ``mine``: your own tables and
    the seats kept for you."""
    return await lobby.listing(user, page)


@router.get("/api/tables/{table_id}")
async def table_info(table: VisibleTable) -> JSON:
    """A table's public information (a private table: with ``?invite=TOKEN`` or a seat)."""
    return table.public_json()


@router.post("/api/tables/{table_id}/join")
async def join(user: NeedUser, table: TableDep, body: JoinIn, lobby: LobbyDep) -> JSON:
    """Take an open seat (a private table's needs ``invite``, its token)."""
    access.check_access(table, user.id, body.invite)
    await lobby.take_seat(table, body.seat, user)
    return table.public_json()


@router.post("/api/tables/{table_id}/start")
async def start(user: NeedUser, table: TableDep, lobby: LobbyDep) -> JSON:
    """Start a table whose seats are all taken (anyone seated may start it)."""
    if not any(s.user_id == user.id for s in table.seats):
        raise NotAllowed("only a seated player can start the table")
    await lobby.start(table)
    return table.public_json()


@router.get("/api/tables/{table_id}/record")
async def record(table: VisibleTable) -> JSONResponse:
    """The record (RECORDS.md) of a finished game, with its revealed seeds."""
    if table.state is None or not table.ended:
        raise Refused("the record is available once the game is over")
    return JSONResponse(
        tableview.record(table),
        headers={"Content-Disposition": f'attachment; filename="boneyard-{table.id}.json"'},
    )


@router.get("/api/pairing/pools")
async def pairing_pools(pairing: PairingDep) -> JSON:
    """How many people wait in each quick-pairing pool; the clocks; when a bot is offered."""
    return await pairing.pools()


@router.post("/api/pairing")
async def pairing_join(body: PairIn, request: Request, user: NeedUser, pairing: PairingDep) -> JSON:
    """Wait for people to play ``game`` with (``players`` in all, ``clock`` seconds a move):
    ``{"waiting": {...}}``, or ``{"table": id}`` once seated."""
    pool = check_pool(body.game, body.players, body.clock)
    return await pairing.join(user, pool, address(request))


@router.get("/api/pairing")
async def pairing_status(
    request: Request, user: NeedUser, pairing: PairingDep, hold: bool = False
) -> JSON:
    """Your wait, or your table once paired (``hold``: the answer waits up to 20 s for news)."""
    return await pairing.status(user, hold, gone=request.is_disconnected)


@router.delete("/api/pairing")
async def pairing_leave(user: NeedUser, pairing: PairingDep) -> JSON:
    """Stop waiting (``{"table": id}`` if the pool filled just before)."""
    return await pairing.leave(user)


@router.post("/api/pairing/bot")
async def pairing_bot(user: NeedUser, pairing: PairingDep) -> JSON:
    """Stop waiting and play the game against bots now: ``{"table": id}``."""
    return await pairing.bot_instead(user)
