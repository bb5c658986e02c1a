"""Table chat and mutes.

* Anyone **signed in** at the table may chat: seated players and signed-in spectators (spectators
  see no hidden tile, so they have nothing to leak). A signed-out spectator only reads.
* A line is 1 to :data:`MAX_CHAT` characters of printable text (surrounding spaces dropped), within
  the ``chat`` rate limit per person (across all their sockets, tables and the server's processes).
* An accepted line is **committed** to ``chat_messages`` before it is sent, as
  ``{"type": "chat", "id", "user_id", "name", "seat", "text", "at"}``, to every socket of the
  table except those of people who muted the sender.
* On connect and on ``{"type": "resync"}`` a socket gets the last :data:`HISTORY` lines as
  ``{"type": "chat_history", "messages": [...]}`` (only when there are any; muted senders left
  out).
* Mutes are per person and apply on every table (``chat_mutes``): WebSocket ``{"type": "mute",
  "user_id": N}`` / ``{"type": "unmute", ...}`` (answered by ``{"type": "mutes", "muted":
  [...]}``), or ``GET/POST /api/me/mutes`` and ``DELETE /api/me/mutes/{user_id}``.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.server.ratelimit import Limits
from boneyard.server.shielded import Shielded
from boneyard.server.tables import protocol
from boneyard.server.tables.live import now
from boneyard.store import chat as lines
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.models import ChatMessage

if TYPE_CHECKING:
    from boneyard.server.tables.live import Client, LiveTable
    from boneyard.server.tables.manager import TableManager

MAX_CHAT = 300
HISTORY = 50
MESSAGES = ("chat", "mute", "unmute")


class ChatError(BoneyardError):
    """A chat or mute request refused (nothing changed)."""


def check_text(text: object) -> str:
    """The line to store, or :class:`ChatError` with the reason.

    >>> check_text("  hi ")
    'hi'
    >>> check_text("")
    Traceback (most recent call last):
    boneyard.server.tables.chat.ChatError: a chat message cannot be empty
    """
    if not isinstance(text, str):
        raise ChatError('a chat message is {"type": "chat", "text": "..."} with text a string')
    clean = text.strip()
    if not clean:
        raise ChatError("a chat message cannot be empty")
    if len(clean) > MAX_CHAT:
        raise ChatError(f"a chat message has at most {MAX_CHAT} characters")
    if any(not ch.isprintable() for ch in clean):
        raise ChatError("a chat message cannot contain control characters")
    return clean


def message_json(m: ChatMessage) -> JSON:
    """The wire form of a stored line."""
    return {
        "type": "chat",
        "id": m.id,
        "user_id": m.user_id,
        "name": m.name,
        "seat": m.seat,
        "text": m.text,
        "at": m.created_at.isoformat(),
    }


class Chat:
    """Table chat on the database ``sessions`` (``limits``: the site's rate limits).

    With a ``manager``, lines also go to the other server processes through its broadcaster
    (each delivers them to its own sockets of the table).
    """

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        limits: Limits,
        shielded: Shielded,
        manager: TableManager | None = None,
    ) -> None:
        self.sessions = sessions
        self.limits = limits
        self.shielded = shielded
        """Where the history reads run, shielded from their sockets (the app's end waits)."""
        self.manager = manager
        if manager is not None:
            manager.on_message("chat", self.deliver)

    # -- lines -------------------------------------------------------------------------------

    async def post(self, table: LiveTable, client: Client, text: object) -> JSON:
        """Store a line from ``client`` and send it to the table; returns it."""
        if client.user_id is None:
            raise ChatError("sign in to chat")
        clean = check_text(text)
        if not await self.limits.hit("chat", str(client.user_id)):
            raise ChatError("too many chat messages: wait a few seconds")
        async with self.sessions() as db, db.begin():
            row = await lines.add_line(db, table.id, client.user_id, client.seat, clean, now())
            if row is None:
                raise ChatError("sign in to chat")
            msg = message_json(row)
        await self.deliver(table, msg)
        if self.manager is not None:
            await self.manager.broadcaster.publish(table.id, msg, local=False)
        return msg

    async def deliver(self, table: LiveTable, msg: JSON) -> None:
        """Send a stored line to every socket of the table whose person did not mute the sender."""
        listeners = {c.user_id for c in table.clients if c.user_id is not None}
        muting: set[int] = set()
        if listeners and msg.get("user_id") is not None:
            async with self.sessions() as db:
                muting = await lines.muting(db, msg["user_id"], listeners)
        for c in list(table.clients):
            if c.user_id is not None and c.user_id in muting:
                continue
            with contextlib.suppress(Exception):
                await c.send(msg)

    async def history(self, table_id: str, viewer: int | None, limit: int = HISTORY) -> list[JSON]:
        """The last ``limit`` lines of the table, oldest first, without muted senders."""
        async with self.sessions() as db:
            rows = await lines.last_lines(db, table_id, viewer, limit)
        return [message_json(m) for m in reversed(rows)]

    async def send_history(self, table: LiveTable, client: Client) -> None:
        """The last lines to one socket (nothing when the table has none)."""
        # Shielded: a socket that closes at once cancels its handler (boneyard.server.shielded).
        lines = await self.shielded.run(self.history(table.id, client.user_id))
        if lines:
            await client.send({"type": "chat_history", "messages": lines})

    # -- mutes -------------------------------------------------------------------------------

    async def muted(self, user_id: int) -> list[JSON]:
        """Whom ``user_id`` muted: ``[{user_id, name}]``."""
        async with self.sessions() as db:
            rows = await lines.mutes_of(db, user_id)
        return [{"user_id": uid, "name": name} for uid, name in rows]

    async def mute(self, user_id: int | None, other: object, on: bool = True) -> list[JSON]:
        """Mute (``on``) or unmute ``other`` for ``user_id``; returns the mutes now."""
        if user_id is None:
            raise ChatError("sign in to mute someone")
        if not isinstance(other, int) or isinstance(other, bool):
            raise ChatError('a mute is {"type": "mute", "user_id": <number>}')
        if not 0 < other < 2**31:  # (user ids are 32-bit: PostgreSQL refuses a larger one)
            raise ChatError("no such person")
        if other == user_id:
            raise ChatError("you cannot mute yourself")
        async with self.sessions() as db, db.begin():
            if not await lines.person_exists(db, other):
                raise ChatError("no such person")
            await lines.set_mute(db, user_id, other, on, now())
        return await self.muted(user_id)

    # -- socket messages ---------------------------------------------------------------------

    async def handle(
        self, table: LiveTable, client: Client, msg: protocol.Chat | protocol.Mute
    ) -> None:
        """A ``chat``/``mute``/``unmute`` socket message. A refusal is answered with
        ``{"type": "error", "message", "version", "about": "chat"}`` and changes nothing."""
        try:
            if isinstance(msg, protocol.Chat):
                await self.post(table, client, msg.text)
            else:
                muted = await self.mute(client.user_id, msg.user_id, msg.type == "mute")
                await client.send({"type": "mutes", "muted": muted})
        except ChatError as exc:
            await client.send(
                {"type": "error", "message": str(exc), "version": table.version, "about": "chat"}
            )
