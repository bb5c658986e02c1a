"""The FastAPI application: accounts, lobby, live tables over WebSocket and the static client.

Build one with :func:`create_app`; ``boneyard serve`` runs it with uvicorn. See docs/server.md.
"""

import json
import os
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Request, Response, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy import select
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from boneyard import __version__
from boneyard.bots import BOTS
from boneyard.bots.expert import check_game
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.games.registry import available_games, get_spec
from boneyard.server import access, auth, profiles, replays, rules, validation
from boneyard.server import events as site_events
from boneyard.server.broadcast import make_broadcaster
from boneyard.server.chat import CHAT_RATE, Chat
from boneyard.server.chat import add_routes as add_chat_routes
from boneyard.server.clock import ClockIn, TurnClock, clock_settings
from boneyard.server.clock import add_routes as add_clock_routes
from boneyard.server.gcpace import GcPacer
from boneyard.server.metrics import CONTENT_TYPE_LATEST
from boneyard.server.tables import (
    DB_ERRORS,
    SEED_WINDOW,
    Client,
    LiveTable,
    StaleError,
    TableManager,
    first_commitment,
    now,
)
from boneyard.store.db import make_engine, migrate, sessionmaker, sqlite_url
from boneyard.store.models import GameTable, Session, User

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_WS_MESSAGE = 4096
WS_RATE = (30, 5.0)  # messages per seconds, per socket
DEFAULT_DB = "boneyard.db"


def database_url(db: str | None = None) -> str:
    """``db`` (URL or SQLite path), else ``BONEYARD_DATABASE_URL``, else ``./boneyard.db``."""
    chosen = db or os.environ.get("BONEYARD_DATABASE_URL") or DEFAULT_DB
    return chosen if "://" in chosen else sqlite_url(chosen)


@dataclass
class Me:
    """The signed-in person of a request."""

    id: int
    display_name: str
    username: str | None
    is_guest: bool

    def to_json(self) -> dict[str, Any]:
        """The public form."""
        return {
            "id": self.id,
            "display_name": self.display_name,
            "username": self.username,
            "guest": self.is_guest,
        }


class Credentials(BaseModel):
    """Username and password."""

    username: str = Field(max_length=30)
    password: str = Field(max_length=200)


class Registration(Credentials):
    """A new account."""

    display_name: str | None = Field(default=None, max_length=30)


class GuestIn(BaseModel):
    """A guest's display name."""

    display_name: str = Field(max_length=30)


class SeatIn(BaseModel):
    """One seat of a new table: ``me``, an ``open`` seat for a person, or a ``bot``."""

    kind: Literal["me", "open", "bot"]
    bot: str = Field(default="greedy", max_length=20)


class TableIn(BaseModel):
    """A new table."""

    game: str = Field(default="highfive", max_length=20)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=30)
    seats: list[SeatIn] = Field(min_length=2, max_length=8)
    start: bool = True
    clock: ClockIn | None = None  # the turn clock (docs/server.md); none by default
    private: bool = False  # not listed; reachable with its invite link (docs/server.md)


class JoinIn(BaseModel):
    """Take a seat."""

    seat: int = Field(ge=0, le=7)
    invite: str | None = Field(default=None, max_length=100)  # a private table's token


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "A request the rules or the server refuse, with the reason"},
    401: {"description": "Not signed in"},
    403: {"description": "Not allowed (or a missing CSRF token)"},
    404: {"description": "No such table"},
    429: {"description": "Too many attempts"},
}


def create_app(
    db: str | None = None,
    bot_delay: float = 0.5,
    login_limit: int = auth.LOGIN_LIMIT,
    ws_rate: tuple[int, float] = WS_RATE,
    broadcast: str | None = None,
    clock_scale: float = 1.0,
    chat_rate: tuple[int, float] = CHAT_RATE,
    seed_window: float | None = None,
    gc_pacing: bool = False,
) -> FastAPI:
    """The web application on database ``db`` (URL or SQLite path; see :func:`database_url`).

    ``bot_delay``: seconds a bot waits before moving; ``login_limit``: sign-in attempts per
    address per minute; ``ws_rate``: (messages, seconds) allowed per socket; ``broadcast``:
    ``redis://…`` to share tables with other processes (default ``BONEYARD_BROADCAST_URL``, else
    in memory; docs/operations.md); ``clock_scale``: multiplies every turn-clock duration (tests);
    ``chat_rate``: (chat lines, seconds) allowed per person; ``seed_window``: seconds a table
    created with every seat taken waits for its players' seeds for hand 0 (0: deal at once;
    default ``SEED_WINDOW``); ``gc_pacing``: freeze long-lived objects so that the garbage
    collector never walks them all under load (boneyard.server.gcpace; ``boneyard serve`` turns
    it on, it changes the whole process).
    """
    engine = make_engine(database_url(db))
    sessions = sessionmaker(engine)
    tables = TableManager(
        sessions,
        bot_delay=bot_delay,
        broadcaster=make_broadcaster(broadcast),
        seed_window=SEED_WINDOW if seed_window is None else seed_window,
    )
    login_limiter = auth.RateLimiter(login_limit, auth.LOGIN_WINDOW)
    tables.clock = turn_clock = TurnClock(tables, clock_scale)
    table_chat = Chat(sessions, chat_rate, tables)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await migrate(engine)
        await tables.resume_all()
        turn_clock.resume_all()
        await tables.start_background()
        pacer = GcPacer() if gc_pacing else None
        if pacer is not None:
            pacer.start()
        yield
        if pacer is not None:
            await pacer.stop()
        await turn_clock.close()
        await tables.close()
        await engine.dispose()

    app = FastAPI(title="Boneyard", version=__version__, lifespan=lifespan)
    app.state.tables = tables
    app.state.sessions = sessions

    class Csrf(BaseHTTPMiddleware):
        async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
            cookie = request.cookies.get(auth.CSRF_COOKIE)
            if request.method not in ("GET", "HEAD", "OPTIONS"):
                sent = request.headers.get(auth.CSRF_HEADER)
                if not cookie or not sent or not secrets.compare_digest(cookie, sent):
                    return JSONResponse(
                        {"detail": "missing or wrong CSRF token: reload the page"}, 403
                    )
            response = await call_next(request)
            if not cookie:
                response.set_cookie(
                    auth.CSRF_COOKIE, secrets.token_urlsafe(24), samesite="lax", path="/"
                )
            return response

    app.add_middleware(Csrf)
    validation.install(app)  # 422 answers that cannot fail on odd input

    async def database_down(_request: Request, exc: Exception) -> JSONResponse:
        tables.metrics.db_errors.inc()
        return JSONResponse({"detail": "the database is unavailable: try again in a moment"}, 503)

    for exc_class in DB_ERRORS:
        app.add_exception_handler(exc_class, database_down)

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        """Prometheus metrics of this process (docs/operations.md)."""
        return Response(tables.metrics.render(), media_type=CONTENT_TYPE_LATEST)

    # -- people ----------------------------------------------------------------------------

    async def current_user(request: Request) -> Me | None:
        token = request.cookies.get(auth.SESSION_COOKIE)
        return await user_for_token(token)

    async def user_for_token(token: str | None) -> Me | None:
        if not token or len(token) > 100:
            return None
        async with sessions() as s:
            row = await s.get(Session, auth.token_hash(token))
            if row is None:
                return None
            expires = row.expires_at
            if expires.tzinfo is None:  # SQLite drops the zone
                expires = expires.replace(tzinfo=now().tzinfo)
            if expires < now():
                return None
            user = await s.get(User, row.user_id)
        if user is None:
            return None
        return Me(user.id, user.display_name, user.username, user.is_guest)

    async def need_user(me: Annotated[Me | None, Depends(current_user)]) -> Me:
        if me is None:
            raise HTTPException(401, "sign in or play as a guest first")
        return me

    async def sign_in(request: Request, response: Response, user_id: int) -> None:
        token = auth.new_token()
        async with sessions() as s, s.begin():
            s.add(
                Session(
                    token_hash=auth.token_hash(token),
                    user_id=user_id,
                    created_at=now(),
                    expires_at=now() + timedelta(days=auth.SESSION_DAYS),
                )
            )
        response.set_cookie(
            auth.SESSION_COOKIE,
            token,
            httponly=True,
            secure=request.url.scheme == "https",
            samesite="lax",
            max_age=auth.SESSION_DAYS * 86400,
            path="/",
        )

    def limit_login(request: Request) -> None:
        host = request.client.host if request.client else "?"
        if not login_limiter.allow(host):
            raise HTTPException(429, "too many attempts: wait a minute and try again")

    @app.get("/api/me")
    async def me(user: Annotated[Me | None, Depends(current_user)]) -> dict[str, Any]:
        """Who is signed in (``user`` is null when nobody)."""
        return {"user": user.to_json() if user else None}

    @app.post("/api/register", responses=ERRORS)
    async def register(body: Registration, request: Request, response: Response) -> dict[str, Any]:
        """Create an account and sign in."""
        limit_login(request)
        why = auth.check_username(body.username)
        if why is None and len(body.password) < 8:
            why = "a password has at least 8 characters"
        display = (body.display_name or body.username).strip()
        why = why or auth.check_display_name(display)
        if why:
            raise HTTPException(400, why)
        async with sessions() as s, s.begin():
            taken = await s.scalar(select(User.id).where(User.username == body.username))
            if taken is not None:
                raise HTTPException(400, "that username is taken")
            user = User(
                username=body.username,
                display_name=display,
                password_hash=auth.hash_password(body.password),
                is_guest=False,
                created_at=now(),
            )
            s.add(user)
            await s.flush()
            uid = user.id
        await sign_in(request, response, uid)
        return {"user": Me(uid, display, body.username, False).to_json()}

    @app.post("/api/login", responses=ERRORS)
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Sign in with username and password."""
        limit_login(request)
        async with sessions() as s:
            user = (
                await s.scalar(select(User).where(User.username == body.username))
                if auth.check_username(body.username) is None  # (a NUL: PostgreSQL refuses it)
                else None
            )
        if user is None or not auth.check_password(user.password_hash, body.password):
            raise HTTPException(400, "wrong username or password")
        await sign_in(request, response, user.id)
        return {"user": Me(user.id, user.display_name, user.username, False).to_json()}

    @app.post("/api/guest", responses=ERRORS)
    async def guest(body: GuestIn, request: Request, response: Response) -> dict[str, Any]:
        """Play as a guest under a display name."""
        limit_login(request)
        display = body.display_name.strip()
        why = auth.check_display_name(display)
        if why:
            raise HTTPException(400, why)
        async with sessions() as s, s.begin():
            user = User(display_name=display, is_guest=True, created_at=now())
            s.add(user)
            await s.flush()
            uid = user.id
        await sign_in(request, response, uid)
        return {"user": Me(uid, display, None, True).to_json()}

    @app.post("/api/logout", responses=ERRORS)
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        """Sign out (the session is deleted)."""
        token = request.cookies.get(auth.SESSION_COOKIE)
        if token:
            async with sessions() as s, s.begin():
                row = await s.get(Session, auth.token_hash(token))
                if row is not None:
                    await s.delete(row)
        response.delete_cookie(auth.SESSION_COOKIE, path="/")
        return {"user": None}

    # -- lobby -----------------------------------------------------------------------------

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """The games, their player counts and the bots."""
        out = []
        for name in available_games():
            spec = get_spec(name)
            out.append(
                {
                    "game": name,
                    "title": spec.title,
                    "min_players": spec.min_players,
                    "max_players": spec.max_players,
                }
            )
        return {"games": out, "bots": list(BOTS)}

    async def create_table(body: TableIn, user: Me) -> LiveTable:
        try:
            spec = get_spec(body.game)
        except BoneyardError as exc:
            raise HTTPException(400, str(exc)) from None
        n = len(body.seats)
        if not spec.min_players <= n <= spec.max_players:
            raise HTTPException(
                400, f"{spec.title} is for {spec.min_players} to {spec.max_players} players"
            )
        if sum(1 for s in body.seats if s.kind == "me") > 1:
            raise HTTPException(400, "you can take only one seat")
        try:
            spec.new_game(n, dict(body.options))
        except BoneyardError as exc:
            raise HTTPException(400, str(exc)) from None
        seats: list[dict[str, Any]] = []
        for i, s in enumerate(body.seats):
            if s.kind == "me":
                seats.append({"kind": "person", "user_id": user.id, "name": user.display_name})
            elif s.kind == "bot":
                if s.bot not in BOTS:
                    raise HTTPException(
                        400, f"bot level {s.bot!r} is unknown (levels: {', '.join(BOTS)})"
                    )
                try:
                    check_game(s.bot, body.game)
                except BoneyardError as exc:
                    raise HTTPException(400, str(exc)) from None
                seats.append(
                    {"kind": "bot", "bot": s.bot, "name": f"{s.bot.capitalize()} bot {i + 1}"}
                )
            else:
                seats.append({"kind": "open", "name": None})
        try:
            clock = clock_settings(body.clock, body.game)
        except BoneyardError as exc:
            raise HTTPException(400, str(exc)) from None
        settings: dict[str, Any] = {"clock": clock} if clock else {}
        full = not any(s["kind"] == "open" for s in seats)
        wait = full and body.start and tables.seed_window > 0
        if wait and any(s["kind"] == "person" for s in seats):
            # Dealt once the players' browsers have seeded hand 0, or after the seed window.
            at = now() + timedelta(seconds=tables.seed_window)
            settings["start_by"] = at.isoformat()
        tid = secrets.token_hex(8)
        async with sessions() as s, s.begin():
            s.add(
                GameTable(
                    id=tid,
                    game=body.game,
                    options=dict(body.options),
                    seats=seats,
                    status="open",
                    created_by=user.id,
                    created_at=now(),
                    settings=settings or None,
                    private=body.private,
                    invite_token=access.new_invite_token() if body.private else None,
                )
            )
            await s.flush()
            s.add(first_commitment(tid))  # hand 0's seed: committed before anyone adds one
        table = await tables.get(tid)
        assert table is not None
        if "start_by" in settings:
            tables.arm_start(table)
        elif body.start and full:
            await start_table(table)
        return table

    async def start_table(table: LiveTable) -> None:
        try:
            await tables.start(table)
        except BoneyardError as exc:
            raise HTTPException(400, str(exc)) from None

    @app.post("/api/tables", responses=ERRORS)
    async def new_table(body: TableIn, user: Annotated[Me, Depends(need_user)]) -> dict[str, Any]:
        """Create a table (started at once when no seat is open and ``start`` is true)."""
        table = await create_table(body, user)
        return {**table.public_json(), **access.invite_json(table)}

    @app.post("/api/quickplay", responses=ERRORS)
    async def quickplay(user: Annotated[Me, Depends(need_user)]) -> dict[str, Any]:
        """Play a bot now: a started two-player High Five table against the greedy bot."""
        body = TableIn(game="highfive", seats=[SeatIn(kind="me"), SeatIn(kind="bot")])
        table = await create_table(body, user)
        return table.public_json()

    @app.get("/api/me/games", responses=ERRORS)
    async def my_games(user: Annotated[Me, Depends(need_user)]) -> dict[str, Any]:
        """The signed-in person's tables, newest first (finished ones with their result)."""
        async with sessions() as s:
            rows = (
                await s.scalars(select(GameTable).order_by(GameTable.created_at.desc()).limit(2000))
            ).all()
        out = []
        for row in rows:
            seat = next(
                (
                    i
                    for i, x in enumerate(row.seats)
                    if user.id in (x.get("user_id"), (x.get("replaced") or {}).get("user_id"))
                ),
                None,
            )
            if seat is None:
                continue
            item: dict[str, Any] = {
                "id": row.id,
                "game": row.game,
                "status": row.status,
                "seat": seat,
                "seats": [x.get("name") for x in row.seats],
                "created_at": row.created_at.isoformat(),
            }
            end = (row.record or {}).get("hands", [])
            if row.status == "over" and end:
                table = await tables.get(row.id)
                result = table.state.result() if table and table.state else None
                if result is not None:
                    item["winner"] = result.winner
                    item["scores"] = list(result.scores)
            out.append(item)
            if len(out) >= 100:
                break
        return {"games": out}

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        """Open tables (a seat to take) and tables in play (to watch), newest first."""
        async with sessions() as s:
            rows = (
                await s.scalars(
                    select(GameTable)
                    .where(GameTable.status != "over", GameTable.private.is_(False))
                    .order_by(GameTable.created_at.desc())
                    .limit(100)
                )
            ).all()
        out = []
        for row in rows:
            t = await tables.get(row.id)
            if t is not None:
                out.append(t.public_json())
        return {"tables": out}

    async def need_table(table_id: str) -> LiveTable:
        table = await tables.get(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise HTTPException(404, "no such table")
        return table

    async def visible_table(table_id: str, request: Request) -> LiveTable:
        """The table, if the requester may see it (private: a seat, its creator or ?invite=)."""
        table = await need_table(table_id)
        me = await current_user(request)
        access.check_access(table, me.id if me else None, request.query_params.get("invite"))
        return table

    app.state.visible_table = visible_table  # for the replay routes
    app.state.user_for_token = user_for_token  # for the profile routes

    @app.get("/api/tables/{table_id}", responses=ERRORS)
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        """A table's public information (a private table: with ``?invite=TOKEN`` or a seat)."""
        return (await visible_table(table_id, request)).public_json()

    @app.post("/api/tables/{table_id}/join", responses=ERRORS)
    async def join(
        table_id: str, body: JoinIn, user: Annotated[Me, Depends(need_user)]
    ) -> dict[str, Any]:
        """Take an open seat (a private table's needs ``invite``, its token)."""
        table = await need_table(table_id)
        access.check_access(table, user.id, body.invite)
        async with table.lock:
            await tables.refresh_shared(table)  # another process may have seated someone
            if table.status != "open":
                raise HTTPException(400, "the game has already started")
            if any(s.get("user_id") == user.id for s in table.seats):
                raise HTTPException(400, "you already have a seat at this table")
            if body.seat >= len(table.seats) or table.seats[body.seat]["kind"] != "open":
                raise HTTPException(400, "that seat is not free")
            seats = [dict(s) for s in table.seats]
            seats[body.seat] = {"kind": "person", "user_id": user.id, "name": user.display_name}
            await tables.save_seats(table, seats)
            await table.broadcast()
        return table.public_json()

    @app.post("/api/tables/{table_id}/start", responses=ERRORS)
    async def start(table_id: str, user: Annotated[Me, Depends(need_user)]) -> dict[str, Any]:
        """Start a table whose seats are all taken (anyone seated may start it)."""
        table = await need_table(table_id)
        if not any(s.get("user_id") == user.id for s in table.seats):
            raise HTTPException(403, "only a seated player can start the table")
        await start_table(table)
        return table.public_json()

    @app.get("/api/tables/{table_id}/record", responses=ERRORS)
    async def record(table_id: str, request: Request) -> JSONResponse:
        """The record (RECORDS.md) of a finished game, with its revealed seeds."""
        table = await visible_table(table_id, request)
        if table.state is None or not table.state.is_over:
            raise HTTPException(400, "the record is available once the game is over")
        return JSONResponse(
            table.record(),
            headers={"Content-Disposition": f'attachment; filename="boneyard-{table.id}.json"'},
        )

    replays.add_routes(app, tables, ERRORS)
    app.include_router(site_events.router(tables, sessions, current_user, ERRORS))
    add_clock_routes(app, tables, need_user, ERRORS)
    add_chat_routes(app, table_chat, need_user, ERRORS)

    # -- live table --------------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host")
        if origin is not None and host is not None and origin.split("://", 1)[-1] != host:
            await websocket.close(code=1008, reason="cross-site socket refused")
            return
        try:
            table = await tables.get(table_id) if len(table_id) <= 32 else None
            user = await user_for_token(websocket.cookies.get(auth.SESSION_COOKIE))
            if table is not None and tables.broadcaster.distributed:
                await tables.catch_up(table)  # another process may have moved it on
        except DB_ERRORS:
            tables.metrics.db_errors.inc()
            await websocket.close(code=1013, reason="the database is unavailable: try again")
            return
        if table is None or not access.may_see(
            table, user.id if user else None, websocket.query_params.get("invite")
        ):
            await websocket.close(code=1008, reason="no such table")
            return
        await websocket.accept()
        user_id = user.id if user else None
        client = Client(websocket.send_json, table.seat_of(user_id), user_id)
        table.clients.append(client)
        limiter = auth.RateLimiter(*ws_rate)
        try:
            await websocket.send_json(table.view(client.seat))
            await table_chat.send_history(table, client)
            while True:
                text = await validation.receive_text(websocket)  # None: a binary frame
                if not limiter.allow("socket", time.monotonic()):
                    await error(websocket, table, "too many messages: slow down")
                    continue
                if text is None:
                    await error(websocket, table, "a message is JSON text, not a binary frame")
                    continue
                if len(text) > MAX_WS_MESSAGE or validation.size(text) > MAX_WS_MESSAGE:
                    await error(
                        websocket, table, f"message too large (over {MAX_WS_MESSAGE} bytes)"
                    )
                    continue
                await handle(websocket, table, client, text)
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass  # (Disconnected: a send to this socket failed first, e.g. a dropped client)
        finally:
            if client in table.clients:
                table.clients.remove(client)

    async def handle(websocket: WebSocket, table: LiveTable, client: Client, text: str) -> None:
        try:
            msg = json.loads(text)
        except ValueError:
            await error(websocket, table, "the message is not valid JSON")
            return
        except RecursionError:
            await error(websocket, table, "the message is nested too deeply")
            return
        if not isinstance(msg, dict):
            await error(websocket, table, 'a message is an object like {"seq": 3, "action": {...}}')
            return
        if msg.get("type") == "resync":
            if tables.broadcaster.distributed:
                await tables.catch_up(table)
            await websocket.send_json(table.view(client.seat))
            await table_chat.send_history(table, client)
            return
        if msg.get("type") in ("chat", "mute", "unmute"):
            await table_chat.handle(table, client, msg)
            return
        if msg.get("type") == "seed":  # a client seed for the next hand (docs/fairness.md)
            try:
                reply = await tables.add_client_seed(
                    table, client.seat, msg.get("hand"), msg.get("seed")
                )
            except BoneyardError as exc:  # "about" lets the page keep it out of the move errors
                await websocket.send_json(
                    {
                        "type": "error",
                        "message": str(exc),
                        "version": table.version,
                        "about": "seed",
                        "hand": msg.get("hand"),
                    }
                )
                return
            await websocket.send_json(reply)
            return
        if msg.get("type") == "reclaim":
            try:
                await turn_clock.reclaim(table, client.user_id)
            except BoneyardError as exc:
                await error(websocket, table, str(exc))
            return
        if "type" in msg:  # a move has no type: an unknown type is never taken for a move
            await error(
                websocket,
                table,
                'unknown message type (a move is {"seq": <version>, "action": {...}}; '
                "the others are resync, chat, mute, unmute, seed and reclaim)",
            )
            return
        if "action" not in msg or "seq" not in msg:
            await error(websocket, table, 'a move is {"seq": <version>, "action": {...}}')
            return
        try:
            await tables.act(table, client.seat, msg["seq"], msg["action"])
        except StaleError:
            view = table.view(client.seat)
            view["type"] = "resync"
            view["message"] = "the table moved on: here is the current view"
            await websocket.send_json(view)
        except IllegalActionError as exc:
            await error(websocket, table, str(exc))
        except BoneyardError as exc:
            await error(websocket, table, str(exc))

    async def error(websocket: WebSocket, table: LiveTable, message: str) -> None:
        # (clean: a message may echo a lone surrogate sent as a JSON escape; UTF-8 cannot carry it)
        await websocket.send_json(
            {"type": "error", "message": validation.clean(message), "version": table.version}
        )

    # -- static client -----------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")

    access.add_routes(app, tables)
    profiles.add_routes(app, sessions, ERRORS)
    rules.add_routes(app)  # /rules and /rules/{game}

    @app.get("/replay", include_in_schema=False)
    async def replay_upload_page() -> FileResponse:
        return FileResponse(WEB / "replay.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "replay.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app
