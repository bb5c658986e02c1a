"""What the routes of every domain share, written once: the app's services, who is asking
(``NeedUser``: 401 otherwise; ``MaybeUser``), the table of a path (``TableDep``: 404 or 410) and
the table a requester may see (``VisibleTable``: a private one needs a seat, to have created it,
or ``?invite=``), and the client's address.

The services are made by :func:`boneyard.server.app.create_app` and kept on ``app.state``
under the names below; a route asks for one by its ``…Dep`` type and never builds one.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from boneyard.server.accounts.service import Accounts, Me
from boneyard.server.lobby.pairing import Pairing
from boneyard.server.lobby.service import Lobby
from boneyard.server.ratelimit import Limits
from boneyard.server.tables import access
from boneyard.server.tables.live import LiveTable
from boneyard.server.workers import Workers
from boneyard.store.db import AsyncSession, async_sessionmaker


def accounts_of(conn: HTTPConnection) -> Accounts:
    """The app's accounts service."""
    found: Accounts = conn.app.state.accounts
    return found


def lobby_of(conn: HTTPConnection) -> Lobby:
    """The app's lobby service."""
    found: Lobby = conn.app.state.lobby
    return found


def pairing_of(conn: HTTPConnection) -> Pairing:
    """The app's quick-pairing pools."""
    found: Pairing = conn.app.state.pairing
    return found


def sessions_of(conn: HTTPConnection) -> async_sessionmaker[AsyncSession]:
    """The app's database sessions."""
    found: async_sessionmaker[AsyncSession] = conn.app.state.sessions
    return found


def limits_of(conn: HTTPConnection) -> Limits:
    """The app's rate limits."""
    return accounts_of(conn).limits


def workers_of(conn: HTTPConnection) -> Workers:
    """The app's worker processes."""
    found: Workers = conn.app.state.workers
    return found


AccountsDep = Annotated[Accounts, Depends(accounts_of)]
LobbyDep = Annotated[Lobby, Depends(lobby_of)]
PairingDep = Annotated[Pairing, Depends(pairing_of)]
SessionsDep = Annotated[async_sessionmaker[AsyncSession], Depends(sessions_of)]
LimitsDep = Annotated[Limits, Depends(limits_of)]


async def current_user(request: Request) -> Me | None:
    """The signed-in person of a request (a session cookie, or a bot's API token), or ``None``."""
    return await accounts_of(request).current_user(request)


async def need_user(request: Request) -> Me:
    """The signed-in person, or 401."""
    return await accounts_of(request).need_user(request)


MaybeUser = Annotated[Me | None, Depends(current_user)]
NeedUser = Annotated[Me, Depends(need_user)]


async def need_table(table_id: str, lobby: LobbyDep) -> LiveTable:
    """The table of the path, or 404 (410 for a table set aside as broken)."""
    return await lobby.need_table(table_id)


TableDep = Annotated[LiveTable, Depends(need_table)]


async def visible_table(table: TableDep, request: Request, user: MaybeUser) -> LiveTable:
    """The table of the path, if the requester may see it (a private one: a seat, its creator
    or ``?invite=``; anyone else is told there is no such table)."""
    access.check_access(table, user.id if user else None, request.query_params.get("invite"))
    return table


VisibleTable = Annotated[LiveTable, Depends(visible_table)]


def address(request: Request) -> str:
    """The client's address (behind nginx, the forwarded one: uvicorn's proxy headers)."""
    return request.client.host if request.client else "?"
