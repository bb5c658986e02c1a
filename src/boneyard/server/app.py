"""The FastAPI application: accounts, lobby, live tables over WebSocket and the static client.

Build one with :func:`create_app`; ``boneyard serve`` runs it with uvicorn. See docs/server.md.
"""

import os
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass

from fastapi import FastAPI
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware

from boneyard import __version__
from boneyard.server import deps, handlers, pwa, site, validation
from boneyard.server.accounts.router import router as accounts_router
from boneyard.server.accounts.service import Accounts
from boneyard.server.botapi.router import router as botapi_router
from boneyard.server.botapi.service import BotApi
from boneyard.server.errors import ERRORS
from boneyard.server.lobby.pairing import Pairing
from boneyard.server.lobby.router import router as lobby_router
from boneyard.server.lobby.service import Lobby
from boneyard.server.middleware.bodylimit import BodyLimit
from boneyard.server.middleware.connections import Gate
from boneyard.server.middleware.csrf import CsrfMiddleware
from boneyard.server.middleware.gcpace import GcPacer
from boneyard.server.middleware.headers import SecurityHeaders
from boneyard.server.profiles.router import router as profiles_router
from boneyard.server.ratelimit import Limits, LocalStorage, storage_for
from boneyard.server.ratings.router import router as ratings_router
from boneyard.server.replays.analysis import Analyses
from boneyard.server.replays.router import router as replays_router
from boneyard.server.replays.service import Replays
from boneyard.server.rules.router import router as rules_router
from boneyard.server.settings import SiteSettings
from boneyard.server.shielded import Shielded
from boneyard.server.shutdown import Step, run_steps
from boneyard.server.tables.between import HAND_PAUSE
from boneyard.server.tables.broadcast import make_broadcaster
from boneyard.server.tables.chat import Chat
from boneyard.server.tables.endings import Endings
from boneyard.server.tables.hub import SEED_WINDOW
from boneyard.server.tables.live import CLAIM_AFTER, STALL_AFTER
from boneyard.server.tables.manager import DB_ERRORS, TableManager
from boneyard.server.tables.router import router as tables_router
from boneyard.server.tables.seating import Seating
from boneyard.server.tables.ws import TableSocket
from boneyard.server.tournaments import TournamentSite
from boneyard.server.tournaments.router import router as tournaments_router
from boneyard.server.webfiles import WEB, ClientFiles
from boneyard.server.workers import Workers
from boneyard.store.db import AsyncEngine, make_engine, migrate, sessionmaker, sqlite_url

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
    connections: Gate | None = None,
    stall_after: float = STALL_AFTER,
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
    seconds a person must have been disconnected before the others may claim; ``stall_after``:
    seconds a person to act at a table without a clock may take before the others may claim;
    ``connections``: the connection gate ``boneyard serve`` runs uvicorn with (its counts and
    refusals go to /metrics; middleware.connections).
    """
    cfg = (settings or SiteSettings()).checked()
    engine = make_engine(database_url(db))
    shared = broadcast or os.environ.get("BONEYARD_BROADCAST_URL")
    tables = TableManager(
        sessionmaker(engine),
        bot_delay=bot_delay,
        broadcaster=make_broadcaster(shared),
        seed_window=SEED_WINDOW if seed_window is None else seed_window,
        open_minutes=cfg.open_table_minutes,
        unwatched_minutes=cfg.unwatched_minutes,
        pause_unwatched=cfg.pause_unwatched,
        bot_pace=bot_pace,
        hand_pause=hand_pause,
        claim_after=claim_after,
        clock_scale=clock_scale,
        stall_after=stall_after,
    )
    if connections is not None:
        tables.metrics.watch_connections(connections)
    services = Services.of(tables, cfg, Limits(storage_for(shared), limits), connections)
    span = lifespan(engine, services, gc_pacing)
    app = FastAPI(title="Boneyard", version=__version__, lifespan=span)
    services.hand_out(app)
    mount(app, services, limits)
    return app


@dataclass(frozen=True)
class Services:
    """The site's services, one of each per app: built together because each takes the ones
    before it, and handed to the routes' dependencies (boneyard.server.deps) by ``app.state``."""

    tables: TableManager
    rate: Limits
    accounts: Accounts
    lobby: Lobby
    endings: Endings
    workers: Workers
    replays: Replays
    analyses: Analyses
    chat: Chat
    tournaments: TournamentSite
    shielded: Shielded

    @classmethod
    def of(
        cls, tables: TableManager, cfg: SiteSettings, rate: Limits, connections: Gate | None = None
    ) -> "Services":
        """The services around ``tables`` under the operator's settings ``cfg`` (``connections``:
        the server's connection gate, which the events tell where a venue is)."""
        sessions, metrics = tables.sessions, tables.metrics
        accounts = Accounts(sessions, cfg, rate, metrics)
        lobby = Lobby(tables, accounts)
        workers = Workers(cfg)
        Seating(tables)  # (the seat commands: join, abandon, reclaim, reseat)
        shielded = Shielded()  # (the sockets' queries their end must not cut)
        return cls(
            tables=tables,
            rate=rate,
            accounts=accounts,
            lobby=lobby,
            endings=Endings(tables, lobby),
            workers=workers,
            replays=Replays(workers, rate, metrics),
            analyses=Analyses(workers, cfg.analysis_worlds, rate, metrics),
            chat=Chat(sessions, rate, shielded, tables),
            tournaments=TournamentSite(tables, sessions, accounts, connections),
            shielded=shielded,
        )

    def hand_out(self, app: FastAPI) -> None:
        """The services the routes' dependencies hand out (boneyard.server.deps)."""
        app.state.tables = self.tables
        app.state.sessions = self.tables.sessions
        app.state.accounts = self.accounts
        app.state.lobby = self.lobby
        app.state.pairing = Pairing(self.lobby)
        app.state.botapi = BotApi(self.accounts, self.lobby)
        app.state.replays = self.replays
        app.state.analyses = self.analyses
        app.state.workers = self.workers
        app.state.tournaments = self.tournaments
        app.state.chat = self.chat


def lifespan(
    engine: AsyncEngine, s: Services, gc_pacing: bool
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's start (the schema, the accounts, the tables and clocks resumed, the background
    work) and its end (each service closed, the tables last, then the database; each step
    within a bound: :mod:`boneyard.server.shutdown`)."""

    @asynccontextmanager
    async def span(_app: FastAPI) -> AsyncIterator[None]:
        await migrate(engine)
        await s.accounts.load()
        await s.tables.resume_all()
        s.tables.clock.resume_all()
        await s.tables.start_background()
        s.tournaments.start()
        pacer = GcPacer() if gc_pacing else None
        if pacer is not None:
            pacer.start()
        yield
        steps: list[Step] = [] if pacer is None else [("the collector's pacer", pacer.stop)]
        await run_steps(
            [
                *steps,
                ("the analyses", s.analyses.close),
                ("the worker pool", s.workers.close),
                ("the tournaments' scheduler and mailer", s.tournaments.close),
                ("the turn clocks", s.tables.clock.close),
                ("the hand-end pauses", s.tables.breaks.close),
                ("the live tables", s.tables.close),
                ("the sockets' last queries", s.shielded.close),
                ("the database", engine.dispose),
            ]
        )

    return span


def mount(app: FastAPI, s: Services, limits: Mapping[str, str] | None) -> None:
    """The middleware, the error handlers and every domain's routes on ``app``."""
    app.add_middleware(CsrfMiddleware, secret=lambda: s.accounts.csrf_secret)
    app.add_middleware(BodyLimit, limits={"/api/replays": MAX_UPLOAD, "/api/analysis": MAX_UPLOAD})
    # Pages, scripts and JSON gzipped for a phone on mobile data: the site's text files are a
    # third of their size (zlib's default level; 9 makes them no smaller). A streamed answer is
    # flushed chunk by chunk, an event stream or an image is left alone (Starlette's rules).
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, refusals too
    validation.install(app)  # 422 answers that cannot fail on odd input
    handlers.install(app, s.tables.metrics, DB_ERRORS)
    app.add_exception_handler(HTTPException, pwa.not_found)  # (an HTML 404 outside /api/)
    for router in (accounts_router, lobby_router, botapi_router, replays_router):
        app.include_router(router)
    app.include_router(ratings_router)  # (its /leaderboard page before the tournaments' pages)
    app.include_router(tournaments_router)
    local = Limits(LocalStorage(), limits)  # per-socket counters: a socket lives in one process
    socket = TableSocket(s.tables, s.accounts, s.chat, s.rate, local, s.shielded)
    app.include_router(tables_router(s.tables, socket, s.chat, s.endings, deps.need_user, ERRORS))
    app.include_router(site.router)
    app.include_router(pwa.router)
    app.include_router(profiles_router)
    app.include_router(rules_router)
    app.mount("/static", ClientFiles(directory=WEB), name="static")
