"""The bot accounts' routes (the upgrade, API tokens, the event stream, challenges; see
:mod:`boneyard.server.botapi.service` and docs/bots.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from starlette.requests import HTTPConnection

from boneyard.core.protocol import JSON
from boneyard.server.accounts import apitokens
from boneyard.server.accounts.service import Me
from boneyard.server.botapi.schemas import TokenIn
from boneyard.server.botapi.service import BotApi
from boneyard.server.deps import LimitsDep, MaybeUser, NeedUser
from boneyard.server.errors import ERRORS, NotAllowed, NotSignedIn

router = APIRouter(responses=ERRORS)


def botapi_of(conn: HTTPConnection) -> BotApi:
    """The app's bot API service."""
    found: BotApi = conn.app.state.botapi
    return found


async def browser_user(me: NeedUser) -> Me:
    """The signed-in person of a browser session (a bot's token may not manage tokens)."""
    if me.by_token:
        raise NotAllowed("tokens are managed from your profile page, not with a token")
    return me


async def bot_user(me: MaybeUser) -> Me:
    """The bot account of a request that carries its API token (401 otherwise)."""
    if me is None or not me.by_token:
        raise NotSignedIn("send a bot account's token: Authorization: Bearer <token>")
    return me


Api = Annotated[BotApi, Depends(botapi_of)]
Browser = Annotated[Me, Depends(browser_user)]
Bot = Annotated[Me, Depends(bot_user)]


@router.post("/api/me/bot")
async def upgrade(me: Browser, api: Api) -> JSON:
    """Make your account a bot account (for good; only with no game played)."""
    return await api.upgrade(me)


@router.get("/api/me/tokens")
async def tokens(me: Browser, api: Api) -> JSON:
    """Your bot account's API tokens (never the tokens themselves)."""
    return {"tokens": await api.list_tokens(me)}


@router.post("/api/me/tokens")
async def new_token(body: TokenIn, me: Browser, api: Api) -> JSON:
    """A new API token: the answer's ``token`` is shown this once."""
    return await api.new_token(me, body.name)


@router.delete("/api/me/tokens/{token_id}")
async def revoke(token_id: int, me: Browser, api: Api) -> JSON:
    """Revoke a token: refused from now on, its sockets and streams closed."""
    return await api.revoke(me, token_id)


@router.get("/api/bot/stream")
async def stream(request: Request, me: Bot, api: Api, limits: LimitsDep) -> StreamingResponse:
    """Your bot's events as JSON lines (challenges, seats, games starting), kept open."""
    await limits.check("bot_stream", str(me.id), "too many streams opened")
    token = apitokens.bearer(request.headers.get("authorization")) or ""
    return StreamingResponse(api.stream(me, token), media_type="application/x-ndjson")


@router.post("/api/bot/challenges/{table_id}/accept")
async def accept(table_id: str, me: Bot, api: Api) -> JSON:
    """Take the seat a table keeps for your bot (it starts once every seat is taken)."""
    return await api.answer(me, table_id, True)


@router.post("/api/bot/challenges/{table_id}/decline")
async def decline(table_id: str, me: Bot, api: Api) -> JSON:
    """Refuse a challenge (its table is closed)."""
    return await api.answer(me, table_id, False)
