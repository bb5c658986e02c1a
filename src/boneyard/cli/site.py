"""``boneyard serve`` (the web site) and ``boneyard tables`` (the operator's look at tables that
were set aside because their log no longer replays)."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from boneyard.core.errors import BoneyardError
from boneyard.store.statuses import TableStatus

err = Console(stderr=True)
out = Console(highlight=False)

tables_app = typer.Typer(
    help="Tables on the site's database: those set aside as broken.", no_args_is_help=True
)

DbOption = Annotated[
    str | None,
    typer.Option(
        help="Database URL or SQLite file (default: $BONEYARD_DATABASE_URL, else boneyard.db)."
    ),
]


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: DbOption = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before moving (at least).", min=0)
    ] = 0.5,
    bot_pace: Annotated[
        float,
        typer.Option(
            help="Seconds a bot takes a move at a table with people, unless the table says "
            "otherwise (0: at once).",
            min=0,
        ),
    ] = 1.0,
    hand_pause: Annotated[
        float,
        typer.Option(
            help="Seconds the next hand waits at most for everyone to press Continue after a "
            "hand's end (0: deal at once).",
            min=0,
        ),
    ] = 20.0,
    claim_after: Annotated[
        float,
        typer.Option(
            help="Seconds a person must have been disconnected from a table before the others "
            "may claim the win or give the seat to a bot.",
            min=0,
        ),
    ] = 60.0,
    stall_after: Annotated[
        float,
        typer.Option(
            help="Seconds a person at a table without a clock may take over a move before the "
            "others may claim as against an absent player.",
            min=0,
        ),
    ] = 180.0,
    broadcast: Annotated[
        str | None,
        typer.Option(
            help="redis://host:port/db to share tables and rate limits with other processes "
            "(default: $BONEYARD_BROADCAST_URL, else this process only)."
        ),
    ] = None,
    seed_window: Annotated[
        float | None,
        typer.Option(
            help="Seconds a table created with every seat taken waits for its players' seeds "
            "for the first hand (default 5; 0: deal at once).",
            min=0,
        ),
    ] = None,
    gc_pacing: Annotated[
        bool,
        typer.Option(
            help="Keep the garbage collector from walking every object under load "
            "(docs/performance.md)."
        ),
    ] = True,
    request_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a request has to arrive whole (slow clients are cut off).", min=1
        ),
    ] = 20.0,
    header_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a request's headers have to arrive (from the connection's opening or "
            "the request's first byte).",
            min=1,
        ),
    ] = 10.0,
    idle_timeout: Annotated[
        int,
        typer.Option(help="Seconds a kept-alive connection may wait for its next request.", min=1),
    ] = 5,
    max_connections: Annotated[
        int,
        typer.Option(
            help="Connections at once (HTTP and WebSocket); when all are taken, the address "
            "holding the most gives one up, else the newcomer is refused.",
            min=16,
        ),
    ] = 8192,
    max_connections_per_address: Annotated[
        int,
        typer.Option(
            help="Connections one client address may hold (behind a trusted proxy: the address "
            "its requests name); more are refused.",
            min=4,
        ),
    ] = 64,
) -> None:
    """Serve the web site: accounts, lobby and live tables (open http://HOST:PORT/).

    The operator's settings (who may start bot-only tables, caps, session lifetimes, the
    /metrics token, rate limits) come from BONEYARD_* variables: docs/operations.md."""
    import uvicorn

    from boneyard.server.app import WS_MAX_FRAME, create_app, database_url
    from boneyard.server.middleware.connections import Gate
    from boneyard.server.middleware.httpguard import guarded, guarded_ws, trusted_proxies
    from boneyard.server.settings import SiteSettings

    try:
        settings = SiteSettings.from_env()
        limits = limits_from_env(os.environ)
    except BoneyardError as exc:
        err.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    url = database_url(db)
    shown = url.split("@")[-1] if "@" in url else url
    err.print(f"Boneyard on http://{host}:{port}/ (database {shown})")
    gate = Gate(per_address=max_connections_per_address, total=max_connections)
    app = create_app(
        url,
        bot_delay=bot_delay,
        bot_pace=bot_pace,
        hand_pause=hand_pause,
        claim_after=claim_after,
        stall_after=stall_after,
        broadcast=broadcast,
        seed_window=seed_window,
        gc_pacing=gc_pacing,
        settings=settings,
        limits=limits,
        connections=gate,
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="info",
        ws_max_size=WS_MAX_FRAME,
        limit_concurrency=2 * max_connections,  # (requests in flight; the gate caps connections)
        timeout_keep_alive=idle_timeout,
    )
    proxies = trusted_proxies(config.forwarded_allow_ips)
    gate.trusted = proxies.__contains__
    config.http = guarded(gate, proxies, request_timeout, header_timeout)
    config.ws = guarded_ws(gate)
    uvicorn.Server(config).run()


def limits_from_env(env: Any) -> dict[str, str]:
    """Rate limits set by ``BONEYARD_LIMIT_<NAME>`` variables (e.g. ``BONEYARD_LIMIT_LOGIN=
    "20/minute"``), checked against the known names.

    >>> limits_from_env({"BONEYARD_LIMIT_CHAT": "3/10 seconds"})
    {'chat': '3/10 seconds'}
    """
    from limits import parse_many

    from boneyard.server.ratelimit import DEFAULT_LIMITS

    found = {}
    for key, value in env.items():
        if key.startswith("BONEYARD_LIMIT_"):
            name = key.removeprefix("BONEYARD_LIMIT_").lower()
            if name not in DEFAULT_LIMITS:
                raise BoneyardError(f"{key}: no rate limit is called {name!r}")
            try:
                parse_many(value)
            except ValueError:
                raise BoneyardError(f"{key}: {value!r} is not a rate like 10/minute") from None
            found[name] = value
    return found


@tables_app.command("broken")
def broken(db: DbOption = None) -> None:
    """List the tables set aside because their log no longer replays (one JSON line each)."""
    for row in asyncio.run(_broken(db)):
        out.print(json.dumps(row), soft_wrap=True)


@tables_app.command("inspect")
def inspect(
    table_id: Annotated[str, typer.Argument(help="The table's id.")],
    db: DbOption = None,
) -> None:
    """Replay one table's log step by step and show where it fails (and why)."""
    found = asyncio.run(_inspect(db, table_id))
    if found is None:
        err.print(f"[red]error:[/] no table {escape(table_id)!s}")
        raise typer.Exit(2)
    out.print(json.dumps(found, indent=2), soft_wrap=True)
    if found.get("error"):
        raise typer.Exit(1)


async def _broken(db: str | None) -> list[dict[str, object]]:
    from sqlalchemy import select

    from boneyard.server.app import database_url
    from boneyard.store.db import make_engine, migrate, sessionmaker
    from boneyard.store.models import GameTable

    engine = make_engine(database_url(db))
    try:
        await migrate(engine)
        async with sessionmaker(engine)() as s:
            rows = (
                await s.scalars(
                    select(GameTable)
                    .where(GameTable.status == TableStatus.BROKEN)
                    .order_by(GameTable.created_at)
                )
            ).all()
        return [
            {
                "table": r.id,
                "game": r.game,
                "created_at": r.created_at.isoformat(),
                **(r.settings or {}).get("broken", {}),
            }
            for r in rows
        ]
    finally:
        await engine.dispose()


async def _inspect(db: str | None, table_id: str) -> dict[str, object] | None:
    from boneyard.server.app import database_url
    from boneyard.server.tables.manager import inspect_log
    from boneyard.store.db import make_engine, migrate, sessionmaker

    engine = make_engine(database_url(db))
    try:
        await migrate(engine)
        return await inspect_log(sessionmaker(engine), table_id)
    finally:
        await engine.dispose()
