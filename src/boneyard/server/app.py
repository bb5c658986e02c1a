"""The FastAPI application: accounts, lobby, live tables over WebSocket and the static client.

Build one with :func:`create_app`; ``boneyard serve`` runs it with uvicorn. See docs/server.md.
"""

import os
import secrets
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import IntegrityError

from boneyard import __version__
from boneyard.server import validation
from boneyard.server.accounts.service import Accounts
from boneyard.server.accounts.service import router as accounts_router
from boneyard.server.botapi import service as botapi
from boneyard.server.events import EventSite
from boneyard.server.lobby.service import Lobby
from boneyard.server.lobby.service import router as lobby_router
from boneyard.server.metrics import CONTENT_TYPE_LATEST
from boneyard.server.middleware.bodylimit import BodyLimit
from boneyard.server.middleware.csrf import CsrfMiddleware
from boneyard.server.middleware.gcpace import GcPacer
from boneyard.server.middleware.headers import SecurityHeaders
from boneyard.server.profiles import service as profiles
from boneyard.server.ratelimit import Limits, LocalStorage, TooMany, storage_for
from boneyard.server.ratings import leaderboard
from boneyard.server.replays import analysis
from boneyard.server.replays import service as replays
from boneyard.server.rules import pages as rules
from boneyard.server.settings import SiteSettings
from boneyard.server.tables.between import HAND_PAUSE
from boneyard.server.tables.broadcast import make_broadcaster
from boneyard.server.tables.chat import Chat
from boneyard.server.tables.clock import TurnClock
from boneyard.server.tables.endings import Endings
from boneyard.server.tables.manager import DB_ERRORS, SEED_WINDOW, TableManager
from boneyard.server.tables.router import router as tables_router
from boneyard.server.tables.tableview import CLAIM_AFTER
from boneyard.server.tables.ws import TableSocket
from boneyard.server.webfiles import WEB, page
from boneyard.server.workers import Workers
from boneyard.store.db import make_engine, migrate, sessionmaker, sqlite_url

WS_MAX_FRAME = 16 * 1024
"""The largest WebSocket frame ``boneyard serve`` reads at all (uvicorn's ``ws_max_size``):
a longer one closes the socket (1009) before its payload is read."""
DEFAULT_DB = "boneyard.db"
MAX_UPLOAD = 2_000_000
"""Bytes of an uploaded record (enforced while the body streams: middleware.bodylimit)."""


def database_url(db: str | None = None) -> str:
    """``db`` (URL or SQLite path), else ``BONEYARD_DATABASE_URL``, else ``./boneyard.db``."""
    chosen = db or os.environ.get("BONEYARD_DATABASE_URL") or DEFAULT_DB
    return chosen if "://" in chosen else sqlite_url(chosen)


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "A request the rules or the server refuse, with the reason"},
    401: {"description": "Not signed in"},
    403: {"description": "Not allowed (or a missing CSRF token)"},
    404: {"description": "No such table"},
    409: {"description": "Done at the same moment by another request"},
    413: {"description": "The request is too large"},
    429: {"description": "Too many attempts, or a limit of the site reached"},
}


def create_app(
    db: str | None = None,
    bot_delay: float = 0.5,
    broadcast: str | None = None,
    clock_scale: float = 1.0,
    seed_window: float | None = None,
    gc_pacing: bool = False,
    settings: SiteSettings | None = None,
    limits: Mapping[str, str] | None = None,
    bot_pace: float = 1.0,
    hand_pause: float = HAND_PAUSE,
    claim_after: float = CLAIM_AFTER,
) -> FastAPI:
    """The web application on database ``db`` (URL or SQLite path; see :func:`database_url`).

    ``bot_delay``: seconds a bot waits before moving; ``broadcast``: ``redis://…`` to share
    tables (and rate-limit counters) with other processes (default ``BONEYARD_BROADCAST_URL``,
    else in memory; docs/operations.md); ``clock_scale``: multiplies every turn-clock duration
    (tests); ``seed_window``: seconds a table created with every seat taken waits for its
    players' seeds for hand 0 (0: deal at once; default ``SEED_WINDOW``); ``gc_pacing``: freeze
    long-lived objects so that the garbage collector never walks them all under load
    (middleware.gcpace; ``boneyard serve`` turns it on, it changes the whole process);
    ``settings``: the operator's settings (boneyard.server.settings); ``limits``: rate limits
    by name (boneyard.server.ratelimit.DEFAULT_LIMITS); ``bot_pace``: seconds a bot takes a move
    at a table with people, unless the table says otherwise; ``hand_pause``: seconds the next
    hand waits at most for everyone to press Continue (tables.between); ``claim_after``:
    seconds a person must have been disconnected before the others may claim (no clock).
    """
    cfg = (settings or SiteSettings()).checked()
    engine = make_engine(database_url(db))
    sessions = sessionmaker(engine)
    shared = broadcast or os.environ.get("BONEYARD_BROADCAST_URL")
    tables = TableManager(
        sessions,
        bot_delay=bot_delay,
        broadcaster=make_broadcaster(shared),
        seed_window=SEED_WINDOW if seed_window is None else seed_window,
        open_minutes=cfg.open_table_minutes,
        unwatched_minutes=cfg.unwatched_minutes,
        pause_unwatched=cfg.pause_unwatched,
        bot_pace=bot_pace,
        hand_pause=hand_pause,
        claim_after=claim_after,
    )
    rate = Limits(storage_for(shared), limits)
    accounts = Accounts(sessions, cfg, rate)
    lobby = Lobby(tables, accounts)
    endings = Endings(tables, lobby)
    workers = Workers(cfg)
    tables.clock = turn_clock = TurnClock(tables, clock_scale)
    table_chat = Chat(sessions, rate, tables)
    event_site = EventSite(tables, sessions, accounts, ERRORS)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await migrate(engine)
        await accounts.load()
        await tables.resume_all()
        turn_clock.resume_all()
        await tables.start_background()
        event_site.start()
        pacer = GcPacer() if gc_pacing else None
        if pacer is not None:
            pacer.start()
        yield
        if pacer is not None:
            await pacer.stop()
        await analyses.close()
        await workers.close()
        await event_site.close()
        await turn_clock.close()
        await tables.breaks.close()
        await tables.close()
        await engine.dispose()

    app = FastAPI(title="Boneyard", version=__version__, lifespan=lifespan)
    app.state.tables = tables
    app.state.sessions = sessions
    app.state.accounts = accounts
    app.state.workers = workers
    app.state.events = event_site  # (the event routes find it here)
    app.add_middleware(CsrfMiddleware, secret=lambda: accounts.csrf_secret)
    app.add_middleware(BodyLimit, limits={"/api/replays": MAX_UPLOAD, "/api/analysis": MAX_UPLOAD})
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, refusals too
    validation.install(app)  # 422 answers that cannot fail on odd input

    async def database_down(_request: Request, exc: Exception) -> JSONResponse:
        tables.metrics.db_errors.inc()
        return JSONResponse({"detail": "the database is unavailable: try again in a moment"}, 503)

    for exc_class in DB_ERRORS:
        app.add_exception_handler(exc_class, database_down)

    async def conflict(_request: Request, _exc: Exception) -> JSONResponse:
        # A unique key refused a row: the same thing was done at the same moment (a race).
        return JSONResponse(
            {"detail": "that was just done by another request: reload the page and look"}, 409
        )

    app.add_exception_handler(IntegrityError, conflict)

    async def too_many(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, TooMany)
        tables.metrics.refused.labels(exc.name or "limit").inc()
        return JSONResponse(
            {"detail": str(exc)}, 429, headers={"Retry-After": str(exc.retry_after)}
        )

    app.add_exception_handler(TooMany, too_many)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """Prometheus metrics of this process (docs/operations.md): with ``metrics_token`` set,
        for its bearer only; otherwise only to this machine."""
        if not metrics_allowed(request, cfg.metrics_token):
            return JSONResponse({"detail": "metrics are not public"}, 403)
        return Response(tables.metrics.render(), media_type=CONTENT_TYPE_LATEST)

    app.include_router(accounts_router(accounts, ERRORS))
    app.include_router(lobby_router(lobby, ERRORS))
    botapi.add_routes(app, accounts, lobby, ERRORS)
    replays.add_routes(app, lobby, workers, rate, ERRORS)
    analyses = analysis.add_routes(app, lobby, workers, rate, ERRORS)
    leaderboard.add_routes(app, sessions, ERRORS)  # (before the events' older /leaderboard)
    app.include_router(event_site.router)
    local = Limits(LocalStorage(), limits)  # per-socket counters: a socket lives in one process
    socket = TableSocket(tables, accounts, table_chat, turn_clock, rate, local, endings)
    app.include_router(
        tables_router(tables, socket, table_chat, endings, accounts.need_user, ERRORS)
    )

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    profiles.add_routes(app, sessions, accounts.current_user, ERRORS)
    rules.add_routes(app)  # /rules and /rules/{game}

    @app.get("/replay", include_in_schema=False)
    async def replay_upload_page() -> FileResponse:
        return page("replay.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app


LOOPBACK = ("127.0.0.1", "::1")


def metrics_allowed(request: Request, token: str | None) -> bool:
    """Whether ``request`` may read ``/metrics``: the bearer of ``token`` when one is set,
    else a client on this machine."""
    if token:
        sent = request.headers.get("authorization", "")
        return secrets.compare_digest(sent.encode(), f"Bearer {token}".encode())
    return request.client is not None and request.client.host in LOOPBACK
