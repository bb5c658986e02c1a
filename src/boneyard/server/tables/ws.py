"""The live table's WebSocket: ``/ws/tables/{id}`` (protocol in docs/server.md).

A socket sees the table from its person's seat (a spectator: no seat); every message it sends
is answered, an invalid one by ``{"type": "error", "message": ...}`` that changes nothing. Limits:
frames over ``WS_MAX_FRAME`` bytes are never read (uvicorn closes the socket, code 1009), a message
over ``MAX_WS_MESSAGE`` bytes is refused, and messages are rate-limited per socket and per person
(or address) across processes (boneyard.server.ratelimit). A socket whose session ends (signed
out, "sign out everywhere") is closed, on whichever process holds it.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.server import validation
from boneyard.server.accounts.service import Accounts, Me
from boneyard.server.botapi.service import bot_sender
from boneyard.server.ratelimit import Limits
from boneyard.server.shielded import Shielded
from boneyard.server.tables import access, commands, protocol, tableview
from boneyard.server.tables.chat import Chat
from boneyard.server.tables.live import Client, LiveTable
from boneyard.server.tables.manager import DB_ERRORS, SITE, StaleError, TableManager
from boneyard.server.tables.presence import Presence, attended
from boneyard.store import tables as tables_repo
from boneyard.store.statuses import TableStatus

MAX_WS_MESSAGE = 4096


class TableSocket:
    """The socket handler of one app (see the module docstring)."""

    def __init__(
        self,
        tables: TableManager,
        accounts: Accounts,
        chat: Chat,
        limits: Limits,
        local: Limits,
        shielded: Shielded,
    ) -> None:
        self.tables = tables
        self.shielded = shielded  # the socket's queries: its end does not cut them
        self.presence = Presence(tables.broadcaster)
        tables.on_message("presence", self.presence.on_remote)
        self.accounts = accounts
        self.chat = chat
        self.limits = limits
        self.local = local  # per-socket counters: a socket lives in one process
        tables.site_handlers["sessions_ended"] = self.sessions_ended
        accounts.ended = self.announce_ended

    async def announce_ended(self, keys: list[str]) -> None:
        """Sessions ended: close their sockets here and in every other process."""
        await self.tables.broadcaster.publish(SITE, {"type": "sessions_ended", "sessions": keys})

    async def sessions_ended(self, message: dict[str, Any]) -> None:
        """Close the local sockets of the sessions in ``message``."""
        ended = set(message.get("sessions") or [])
        for table in list(self.tables.live.values()):
            for client in list(table.clients):
                if client.session in ended and client.close is not None:
                    with contextlib.suppress(Exception):
                        await client.close()

    async def serve(self, websocket: WebSocket, table_id: str) -> None:
        """One socket, from its opening to its end."""
        opened = await self._open(websocket, table_id)
        if opened is None:
            return
        table, user = opened
        user_id = user.id if user else None

        async def close() -> None:
            await websocket.close(code=1008, reason="signed out")

        session = user.session if user else ""
        send = bot_sender(websocket.send_json) if user and user.by_token else websocket.send_json
        client = Client(send, table.seat_of(user_id), user_id, session, close)
        # (?presence=1: this socket also hears when a seat's person comes or goes)
        client.presence = websocket.query_params.get("presence") == "1"
        table.clients.append(client)
        if table.bot_only:  # a paused bot-only table moves on while watched
            self.tables.schedule_bots(table)
        person = str(user_id) if user_id is not None else _address(websocket)
        try:
            await client.send(tableview.view(table, client.seat, self.tables.clock))
            await self.chat.send_history(table, client)
            await self.came_or_went(table)
            await self._listen(websocket, table, client, person)
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass  # (Disconnected: a send to this socket failed first, e.g. a dropped client)
        finally:
            if client in table.clients:
                table.clients.remove(client)
            with contextlib.suppress(Exception):
                await self.came_or_went(table)

    async def _open(
        self, websocket: WebSocket, table_id: str
    ) -> tuple[LiveTable, Me | None] | None:
        """The table and the person of a socket, accepted; ``None``: refused and closed (another
        site's page, no such table or not theirs to see, the database unavailable)."""
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host")
        if origin is not None and host is not None and origin.split("://", 1)[-1] != host:
            await websocket.close(code=1008, reason="cross-site socket refused")
            return None
        try:
            table, user = await self.shielded.run(self._look_up(websocket, table_id))
        except DB_ERRORS:
            self.tables.metrics.db_errors.inc()
            await websocket.close(code=1013, reason="the database is unavailable: try again")
            return None
        user_id = user.id if user else None
        if table is None or not access.may_see(
            table, user_id, websocket.query_params.get("invite")
        ):
            await websocket.close(code=1008, reason="no such table")
            return None
        await websocket.accept()
        return table, user

    async def _look_up(
        self, websocket: WebSocket, table_id: str
    ) -> tuple[LiveTable | None, Me | None]:
        """The table and the person of a socket (shielded: a socket gone at once does not cut
        the queries)."""
        table = await self.tables.get(table_id) if len(table_id) <= 32 else None
        user = await self.accounts.user_of(websocket)
        if table is not None and self.tables.broadcaster.distributed:
            await self.tables.catch_up(table)  # another process may have moved it on
        return table, user

    async def _listen(
        self, websocket: WebSocket, table: LiveTable, client: Client, person: str
    ) -> None:
        """The socket's messages, each within the limits, until it closes."""
        sock = secrets.token_hex(8)
        while True:
            text = await validation.receive_text(websocket)  # None: a binary frame
            if not await self.local.hit("ws", sock) or not await self.limits.hit(
                "ws_person", person
            ):
                await error(websocket, table, "too many messages: slow down")
                continue
            if text is None:
                await error(websocket, table, "a message is JSON text, not a binary frame")
                continue
            if len(text) > MAX_WS_MESSAGE or validation.size(text) > MAX_WS_MESSAGE:
                await error(websocket, table, f"message too large (over {MAX_WS_MESSAGE} bytes)")
                continue
            try:
                await self.handle(websocket, table, client, text)
            except DB_ERRORS:
                self.tables.metrics.db_errors.inc()
                await error(
                    websocket, table, "the database is unavailable: nothing changed, try again"
                )

    async def came_or_went(self, table: LiveTable) -> None:
        """A socket of ``table`` opened or closed: presence; and while the table waits for
        players, whether a seated person is connected (the lobby lists those first)."""
        if await self.presence.changed(table) and table.status == TableStatus.OPEN:
            await self.shielded.run(self.write_attended(table.id, attended(table)))
            self.tables.lobby_version += 1

    async def write_attended(self, table_id: str, now: bool) -> None:
        """Whether a seated person is connected to the waiting table, in the database."""
        async with self.tables.sessions() as db, db.begin():
            await tables_repo.set_attended(db, table_id, now)

    async def handle(
        self, websocket: WebSocket, table: LiveTable, client: Client, text: str
    ) -> None:
        """One message (already within the limits), parsed into a command and done."""
        try:
            msg = protocol.parse(text)
        except protocol.Refused as exc:
            await error(websocket, table, str(exc))
            return
        match msg:
            case protocol.Move():
                await self.move(websocket, table, client, msg)
            case protocol.Resync():
                if self.tables.broadcaster.distributed:
                    await self.tables.catch_up(table)
                await client.send(tableview.view(table, client.seat, self.tables.clock))
                await self.chat.send_history(table, client)
            case protocol.Chat() | protocol.Mute():  # (their writes: a socket's end does not cut)
                await self.shielded.run(self.chat.handle(table, client, msg))
            case protocol.Seed():  # a client seed for the next hand (docs/fairness.md)
                await self.shielded.run(self.seed(websocket, table, client, msg))
            case protocol.Reclaim():
                try:
                    await table.ask(commands.Reclaim(client.user_id))
                except BoneyardError as exc:
                    await error(websocket, table, str(exc))
            case protocol.Continue() | protocol.Leave() | protocol.Claim():
                try:
                    await self.table_action(table, client, msg)
                except BoneyardError as exc:
                    await error(websocket, table, str(exc), msg.type)

    async def table_action(
        self,
        table: LiveTable,
        client: Client,
        msg: protocol.Continue | protocol.Leave | protocol.Claim,
    ) -> None:
        """Continue after a hand, resign, abort, claim, rematch: commands to the table's actor
        (run by tables.between and tables.endings); the answer is the views every socket gets."""
        user = client.user_id
        match msg:
            case protocol.Continue():
                await table.ask(commands.Continue(client.seat, msg.hand))
            case protocol.Claim():
                await table.ask(commands.Claim(user, msg.seat, msg.how))
            case protocol.Leave(type="resign"):
                await table.ask(commands.Resign(user))
            case protocol.Leave(type="abort"):
                await table.ask(commands.Abort(user))
            case protocol.Leave():
                await table.ask(commands.Rematch(user))

    async def seed(
        self, websocket: WebSocket, table: LiveTable, client: Client, msg: protocol.Seed
    ) -> None:
        """A client seed; a refusal carries ``about: seed`` (the page keeps it apart)."""
        try:
            reply = await self.tables.add_client_seed(table, client.seat, msg.hand, msg.seed)
        except BoneyardError as exc:
            await websocket.send_json(
                {
                    "type": "error",
                    "message": str(exc),
                    "version": table.version,
                    "about": "seed",
                    "hand": msg.hand,
                }
            )
            return
        await websocket.send_json(reply)

    async def move(
        self, websocket: WebSocket, table: LiveTable, client: Client, msg: protocol.Move
    ) -> None:
        """A move: applied, or a resync (stale), or the reason it is refused."""
        try:
            started = time.perf_counter()
            await table.ask(commands.Act(client.seat, msg.seq, msg.action))
            self.tables.metrics.action_seconds.observe(time.perf_counter() - started)
        except StaleError:
            view = tableview.view(table, client.seat, self.tables.clock)
            view["type"] = "resync"
            view["message"] = "the table moved on: here is the current view"
            await client.send(view)
        except (IllegalActionError, BoneyardError) as exc:
            await error(websocket, table, str(exc))


async def error(
    websocket: WebSocket, table: LiveTable, message: str, about: str | None = None
) -> None:
    """An error answer (``clean``: a message may echo a lone surrogate sent as a JSON escape,
    which UTF-8 cannot carry); ``about``: the message type it answers, when not a move."""
    answer: dict[str, object] = {
        "type": "error",
        "message": validation.clean(message),
        "version": table.version,
    }
    if about is not None:
        answer["about"] = about
    await websocket.send_json(answer)


def _address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "?"
