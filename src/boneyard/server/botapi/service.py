"""Bot accounts on the site (as lichess's BOT API): the upgrade, API tokens, the event stream,
challenges, and the ``act`` messages a bot's seat gets over the table's socket.

* ``POST /api/me/bot``: the signed-in account becomes a bot account — for good, and only while it
  has played no game and entered no event (its games so far were a person's).
* ``GET/POST /api/me/tokens``, ``DELETE /api/me/tokens/{id}``: a bot account's API tokens
  (accounts.apitokens), managed from a signed-in browser only: a token never makes or
  revokes tokens. A new token is in the answer once; a revoked one is refused at once, and the
  sockets and streams opened with it are closed.
* ``GET /api/bot/stream``: a bot program's events, one JSON object per line (ndjson), as long as
  it stays open: ``challenge`` (a seat kept for it), ``seat`` (it holds a seat at a table waiting
  for players), ``game_start`` (a game it plays has started, or was under way when the stream
  opened), ``challenge_gone``; a ``ping`` every :data:`HEARTBEAT` seconds.
* ``POST /api/bot/challenges/{table}/accept`` and ``…/decline``: take the kept seat (the table
  starts once every seat is taken) or refuse it (the table is closed, its creator told why).

At the table a bot plays through the same socket, clock, rate limits and seat view as a person;
whenever its seat is to act it also gets ``{"type": "act", "version", "table", "observation",
"legal_actions"}``, the ``boneyard-bot/1`` form (docs/bots.md) built from that seat's own view.
"""

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field
from sqlalchemy import func, select

from boneyard.core.protocol import JSON
from boneyard.server.accounts import apitokens
from boneyard.server.accounts.service import Accounts, Me
from boneyard.server.lobby.service import Lobby
from boneyard.server.validation import storable
from boneyard.store.events import Entrant
from boneyard.store.models import ApiToken, GameTable, TablePlayer, User
from boneyard.store.statuses import TableStatus

HEARTBEAT = 10.0
"""Seconds between two ``ping`` lines of an idle stream (a proxy keeps it open)."""
POLL = 1.0
"""Seconds between two looks at the database for a stream's news."""
MAX_TOKENS = 20
"""Live tokens one bot account may hold."""
CHALLENGE_SCAN = 500
"""Newest tables waiting for players scanned for a bot's challenges on each look."""


class TokenIn(BaseModel):
    """A new API token's name (what it is for)."""

    name: str = Field(default="bot", min_length=1, max_length=60)


def act_message(msg: JSON) -> JSON | None:
    """The ``act`` message of a bot seat's view, when that seat is to act (``None``: it is not).

    Built from the seat's own view only, so it shows nothing the seat may not see.

    >>> view = {"type": "view", "version": 4, "seat": 1, "table": {"id": "t", "status": "playing"},
    ...         "view": {"game": "highfive", "hand": ["5-5"], "legal_actions": [{"play": "5-5"}]}}
    >>> act_message(view)["legal_actions"], act_message(view)["observation"]
    ([{'play': '5-5'}], {'game': 'highfive', 'hand': ['5-5']})
    >>> act_message({**view, "seat": None}) is None
    True
    """
    if msg.get("type") not in ("view", "resync") or msg.get("seat") is None:
        return None
    obs = msg.get("view")
    if not isinstance(obs, dict) or not obs.get("legal_actions"):
        return None
    if (msg.get("table") or {}).get("status") != "playing":
        return None
    return {
        "type": "act",
        "protocol": "boneyard-bot/1",
        "version": msg.get("version"),
        "table": (msg.get("table") or {}).get("id"),
        "observation": {k: v for k, v in obs.items() if k != "legal_actions"},
        "legal_actions": obs["legal_actions"],
    }


def bot_sender(send: Callable[[JSON], Awaitable[None]]) -> Callable[[JSON], Awaitable[None]]:
    """A bot seat's socket sender: every message as a person's seat gets it, then its ``act``
    message when it is to act."""

    async def relay(msg: JSON) -> None:
        await send(msg)
        act = act_message(msg)
        if act is not None:
            await send(act)

    return relay


async def played_anything(accounts: Accounts, user_id: int) -> bool:
    """Whether the account has sat at a table or entered an event."""
    async with accounts.sessions() as db:
        seated = await db.scalar(
            select(func.count()).select_from(TablePlayer).where(TablePlayer.user_id == user_id)
        )
        entered = await db.scalar(
            select(func.count()).select_from(Entrant).where(Entrant.user_id == user_id)
        )
    return bool(seated) or bool(entered)


class BotApi:
    """The routes of the module docstring on one app."""

    def __init__(self, accounts: Accounts, lobby: Lobby) -> None:
        self.accounts = accounts
        self.lobby = lobby
        self.tables = lobby.tables

    async def browser_user(self, request: Request) -> Me:
        """The signed-in person of a browser session (a bot's token may not manage tokens)."""
        me = await self.accounts.need_user(request)
        if me.by_token:
            raise HTTPException(403, "tokens are managed from your profile page, not with a token")
        return me

    async def bot_user(self, request: Request) -> Me:
        """The bot account of a request that carries its API token (401 otherwise)."""
        me = await self.accounts.current_user(request)
        if me is None or not me.by_token:
            raise HTTPException(401, "send a bot account's token: Authorization: Bearer <token>")
        return me

    async def upgrade(self, me: Me) -> JSON:
        """Make ``me`` a bot account (see the module docstring)."""
        if me.is_guest:
            raise HTTPException(400, "a guest cannot become a bot account: sign up first")
        if me.is_bot:
            raise HTTPException(400, "this account is already a bot account")
        if await played_anything(self.accounts, me.id):
            raise HTTPException(
                400,
                "only an account that has played no game can become a bot account: make a new "
                "account for your bot",
            )
        async with self.accounts.sessions() as db, db.begin():
            user = await db.get(User, me.id)
            assert user is not None
            user.is_bot = True
        me.is_bot = True
        return {"user": me.to_json()}

    async def list_tokens(self, me: Me) -> list[JSON]:
        """``me``'s tokens, newest first (revoked ones too)."""
        async with self.accounts.sessions() as db:
            rows = (
                await db.scalars(
                    select(ApiToken)
                    .where(ApiToken.user_id == me.id)
                    .order_by(ApiToken.id.desc())
                    .limit(100)
                )
            ).all()
        return [apitokens.token_json(r) for r in rows]

    async def new_token(self, me: Me, name: str) -> JSON:
        """A new token of bot account ``me``: the token itself, shown this once."""
        if not me.is_bot:
            raise HTTPException(403, "only a bot account has API tokens: make this one a bot")
        if not storable(name) or not name.strip():
            raise HTTPException(400, "give the token a name you will recognise")
        await self.accounts.limits.check("api_tokens", str(me.id), "too many new tokens")
        token = apitokens.new_token()
        async with self.accounts.sessions() as db, db.begin():
            live = await db.scalar(
                select(func.count())
                .select_from(ApiToken)
                .where(ApiToken.user_id == me.id, ApiToken.revoked_at.is_(None))
            )
            if (live or 0) >= MAX_TOKENS:
                raise HTTPException(429, f"at most {MAX_TOKENS} tokens: revoke one first")
            row = ApiToken(
                user_id=me.id,
                token_hash=apitokens.token_hash(token),
                prefix=apitokens.prefix(token),
                name=name.strip(),
                created_at=apitokens.now(),
            )
            db.add(row)
            await db.flush()
            shown = apitokens.token_json(row)
        return {**shown, "token": token}

    async def revoke(self, me: Me, token_id: int) -> JSON:
        """Revoke one of ``me``'s tokens; its sockets close."""
        async with self.accounts.sessions() as db, db.begin():
            row = await db.get(ApiToken, token_id)
            if row is None or row.user_id != me.id:
                raise HTTPException(404, "no such token")
            key = row.token_hash
            if row.revoked_at is None:
                row.revoked_at = apitokens.now()
        if self.accounts.ended is not None:
            await self.accounts.ended([f"token:{key}"])
        return {"tokens": await self.list_tokens(me)}

    # -- the stream ----------------------------------------------------------------------------

    async def news(self, me: Me, seen: dict[str, str]) -> list[JSON]:
        """What changed for ``me`` since ``seen`` (table id -> what was said of it)."""
        out: list[JSON] = []
        async with self.accounts.sessions() as db:
            mine = (
                await db.execute(
                    select(GameTable.id, GameTable.status, GameTable.game, TablePlayer.seat)
                    .join(TablePlayer, TablePlayer.table_id == GameTable.id)
                    .where(
                        TablePlayer.user_id == me.id,
                        GameTable.status.in_((TableStatus.OPEN, TableStatus.PLAYING)),
                    )
                )
            ).all()
            cut = apitokens.now() - timedelta(minutes=self.accounts.settings.open_table_minutes)
            waiting = (
                await db.execute(
                    select(GameTable.id, GameTable.game, GameTable.seats, GameTable.created_by)
                    .where(GameTable.status == TableStatus.OPEN, GameTable.created_at > cut)
                    .order_by(GameTable.created_at.desc())
                    .limit(CHALLENGE_SCAN)
                )
            ).all()
        for tid, status, game, seat in mine:
            said = "game_start" if status == TableStatus.PLAYING else "seat"
            if seen.get(tid) != said:
                seen[tid] = said
                out.append(_table_event(said, tid, game, seat))
        invited = {tid: (game, seats, by) for tid, game, seats, by in waiting}
        for tid, (game, seats, by) in invited.items():
            for i, s in enumerate(seats):
                if (s.invited.user_id if s.invited else None) == me.id and tid not in seen:
                    seen[tid] = "challenge"
                    event = _table_event("challenge", tid, game, i)
                    event["players"] = len(seats)
                    event["by"] = next((x.name for x in seats if x.user_id == by), None)
                    out.append(event)
        for tid, said in list(seen.items()):
            if said == "challenge" and tid not in invited:
                del seen[tid]
                out.append({"type": "challenge_gone", "table": tid})
        return out

    async def stream(self, me: Me, token: str) -> AsyncIterator[bytes]:
        """The event stream's lines (ends when the token is revoked)."""
        seen: dict[str, str] = {}
        quiet = time.monotonic()
        yield _line({"type": "hello", "user": me.to_json(), "heartbeat": HEARTBEAT})
        while True:
            if await apitokens.lookup(self.accounts.sessions, token) is None:
                yield _line({"type": "bye", "reason": "this token was revoked"})
                return
            for event in await self.news(me, seen):
                quiet = time.monotonic()
                yield _line(event)
            if time.monotonic() - quiet >= HEARTBEAT:
                quiet = time.monotonic()
                yield _line({"type": "ping"})
            await asyncio.sleep(POLL)

    async def answer(self, me: Me, table_id: str, accept: bool) -> JSON:
        """Accept or decline the challenge of table ``table_id``."""
        table = await self.lobby.need_table(table_id)
        seat = next(
            (
                i
                for i, s in enumerate(table.seats)
                if s.kind == "open" and (s.invited.user_id if s.invited else None) == me.id
            ),
            None,
        )
        if seat is None or table.status != TableStatus.OPEN:
            raise HTTPException(404, "no such challenge (taken back, or the table went on)")
        if not accept:
            await self.tables.halt(table.id, f"{me.display_name} declined the challenge")
            return table.public_json()
        await self.lobby.take_seat(table, seat, me)
        if not any(s.kind == "open" for s in table.seats):
            await self.lobby.start(table)
        return table.public_json()


def _table_event(kind: str, table_id: str, game: str, seat: int) -> JSON:
    return {
        "type": kind,
        "table": table_id,
        "game": game,
        "seat": seat,
        "socket": f"/ws/tables/{table_id}",
    }


def _line(event: JSON) -> bytes:
    return (json.dumps(event, separators=(",", ":")) + "\n").encode()


def add_routes(
    app: FastAPI, accounts: Accounts, lobby: Lobby, errors: dict[int | str, Any]
) -> BotApi:
    """The bot account routes of the module docstring."""
    api = BotApi(accounts, lobby)
    r = APIRouter()
    Browser = Annotated[Me, Depends(api.browser_user)]
    Bot = Annotated[Me, Depends(api.bot_user)]

    @r.post("/api/me/bot", responses=errors)
    async def upgrade(me: Browser) -> JSON:
        """Make your account a bot account (for good; only with no game played)."""
        return await api.upgrade(me)

    @r.get("/api/me/tokens", responses=errors)
    async def tokens(me: Browser) -> JSON:
        """Your bot account's API tokens (never the tokens themselves)."""
        return {"tokens": await api.list_tokens(me)}

    @r.post("/api/me/tokens", responses=errors)
    async def new_token(body: TokenIn, me: Browser) -> JSON:
        """A new API token: the answer's ``token`` is shown this once."""
        return await api.new_token(me, body.name)

    @r.delete("/api/me/tokens/{token_id}", responses=errors)
    async def revoke(token_id: int, me: Browser) -> JSON:
        """Revoke a token: refused from now on, its sockets and streams closed."""
        return await api.revoke(me, token_id)

    @r.get("/api/bot/stream", responses=errors)
    async def stream(request: Request, me: Bot) -> StreamingResponse:
        """Your bot's events as JSON lines (challenges, seats, games starting), kept open."""
        await accounts.limits.check("bot_stream", str(me.id), "too many streams opened")
        token = apitokens.bearer(request.headers.get("authorization")) or ""
        return StreamingResponse(api.stream(me, token), media_type="application/x-ndjson")

    @r.post("/api/bot/challenges/{table_id}/accept", responses=errors)
    async def accept(table_id: str, me: Bot) -> JSON:
        """Take the seat a table keeps for your bot (it starts once every seat is taken)."""
        return await api.answer(me, table_id, True)

    @r.post("/api/bot/challenges/{table_id}/decline", responses=errors)
    async def decline(table_id: str, me: Bot) -> JSON:
        """Refuse a challenge (its table is closed)."""
        return await api.answer(me, table_id, False)

    app.include_router(r)
    return api
