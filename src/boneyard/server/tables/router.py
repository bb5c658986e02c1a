"""The live tables' routes: the socket ``/ws/tables/{id}``, reclaiming a seat, playing again,
mutes and invite links. Thin: each parses, calls the service that owns the job (the socket
handler, the clock, the endings, the chat), and shapes the answer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Depends, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.server.accounts.service import Me
from boneyard.server.tables.access import MAX_TOKEN, invite_json
from boneyard.server.tables.chat import Chat, ChatError
from boneyard.server.tables.commands import Reclaim
from boneyard.server.tables.endings import Endings, people
from boneyard.server.tables.manager import TableManager
from boneyard.server.tables.ws import TableSocket
from boneyard.store import tables as tables_repo

NOT_VALID = (
    "<!doctype html><title>Boneyard</title><p>This invite link is not valid (any more). "
    '<a href="/">To the lobby</a></p>'
)


class MuteIn(BaseModel):
    """Whom to mute."""

    user_id: int = Field(ge=1)


def router(
    tables: TableManager,
    socket: TableSocket,
    chat: Chat,
    endings: Endings,
    need_user: Callable[[Request], Awaitable[Me]],
    errors: dict[int | str, dict[str, object]],
) -> APIRouter:
    """The routes above, for one app's services (``need_user``: the signed-in person)."""
    r = APIRouter(responses=errors)
    User = Depends(need_user)

    @r.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await socket.serve(websocket, table_id)

    @r.post("/api/tables/{table_id}/reclaim")
    async def reclaim(table_id: str, user: Me = User) -> JSON:
        """Take back the seat a bot took when your clock ran out."""
        table = await tables.get(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise HTTPException(404, "no such table")
        try:
            seat = await table.ask(Reclaim(user.id))
        except BoneyardError as exc:
            raise HTTPException(400, str(exc)) from None
        return {**table.public_json(), "your_seat": seat}

    @r.post("/api/tables/{table_id}/again")
    async def again(table_id: str, user: Me = User) -> JSON:
        """A new table of this finished game's game and options: you, the same bots, the other
        people's seats open for anyone."""
        table = await endings.lobby.need_table(table_id)
        if user.id not in people(table).values():
            raise HTTPException(403, "only the players of this game can play it again")
        if not table.ended:
            raise HTTPException(400, "the game is not over yet")
        if (table.settings or {}).get("event"):
            raise HTTPException(400, "this is a tournament game: the event sets the next one")
        await endings.lobby.check_caps(user, bot_only=False)
        created = await endings.new_table(table, user.id)
        return {**created.public_json(), **invite_json(created)}

    @r.get("/api/me/mutes")
    async def list_mutes(user: Me = User) -> JSON:
        """Whom you muted (their chat is hidden from you on every table)."""
        return {"muted": await chat.muted(user.id)}

    @r.post("/api/me/mutes")
    async def add_mute(body: MuteIn, user: Me = User) -> JSON:
        """Mute a person's chat."""
        try:
            return {"muted": await chat.mute(user.id, body.user_id)}
        except ChatError as exc:
            raise HTTPException(400, str(exc)) from None

    @r.delete("/api/me/mutes/{user_id}")
    async def remove_mute(user_id: int, user: Me = User) -> JSON:
        """Unmute a person."""
        try:
            return {"muted": await chat.mute(user.id, user_id, on=False)}
        except ChatError as exc:
            raise HTTPException(400, str(exc)) from None

    @r.get("/join/{token}", include_in_schema=False, response_model=None)
    async def join_link(token: str) -> Response:
        """The table page of the private table with that invite."""
        row_id: str | None = None
        if 0 < len(token) <= MAX_TOKEN:
            async with tables.sessions() as s:
                row_id = await tables_repo.by_invite(s, token)
        if row_id is None:
            return HTMLResponse(NOT_VALID, status_code=404)
        return RedirectResponse(f"/table/{row_id}?invite={token}", status_code=303)

    return r
