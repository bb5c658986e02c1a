"""API tokens of bot accounts: made, shown once, stored hashed, recognised by a prefix, revoked.

A token is ``byt_`` and 40 random URL-safe characters (240 bits). The database keeps its sha256
(as for session tokens) and its first :data:`PREFIX` characters, which the owner's list shows to
tell tokens apart; the token itself is shown once, when it is made. A bot program sends it as
``Authorization: Bearer <token>`` on every HTTP request and on the table's WebSocket; a revoked
token, or a token of an account that is no longer a bot, is refused. A token is used only by
bot accounts (docs/bots.md, "Bot accounts").
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from boneyard.store import accounts, unit
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.models import ApiToken, User

SCHEME = "byt_"
PREFIX = 10
"""Characters of a token shown in its owner's list (the scheme and 6 random characters)."""
MAX_TOKEN = 100
"""The longest bearer token looked at (longer ones are refused unread)."""
TOUCH = timedelta(minutes=1)
"""A token's ``last_used_at`` is written at most this often."""


def new_token() -> str:
    """A fresh API token.

    >>> t = new_token()
    >>> t.startswith("byt_"), len(t)
    (True, 44)
    """
    return SCHEME + secrets.token_urlsafe(30)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its sha256, in hex.

    >>> token_hash("byt_x") == token_hash("byt_x") != token_hash("byt_y")
    True
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def prefix(token: str) -> str:
    """The part of a token its owner's list shows.

    >>> prefix("byt_abcdefghijk")
    'byt_abcdef'
    """
    return token[:PREFIX]


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header (``None``: no such header; an empty
    string: a header that names no usable token, which identifies nobody).

    >>> bearer("Bearer byt_1"), bearer(None), bearer("Basic x"), bearer("Bearer ")
    ('byt_1', None, None, '')
    """
    if header is None or header[:7].lower() != "bearer ":
        return None
    token = header[7:].strip()
    return token if len(token) <= MAX_TOKEN and token.isascii() else ""


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


async def lookup(sessions: async_sessionmaker[AsyncSession], token: str) -> tuple[User, str] | None:
    """The bot account of a live token and the token's hash (``None``: unknown, revoked, or
    its account is not a bot); notes when it was last used (at most once a minute)."""
    if not token.startswith(SCHEME):
        return None
    key = token_hash(token)
    async with sessions() as db:
        row = await accounts.api_token(db, key)
        if row is None or row.revoked_at is not None:
            return None
        user = await unit.get(db, User, row.user_id)
        stale = row.last_used_at is None or now() - _aware(row.last_used_at) > TOUCH
    if user is None or not user.is_bot:
        return None
    if stale:
        async with sessions() as db, db.begin():
            fresh = await unit.get(db, ApiToken, row.id)
            if fresh is not None:
                fresh.last_used_at = now()
    return user, key


def token_json(row: ApiToken) -> dict[str, object]:
    """A token as its owner's list shows it (never the token nor its hash)."""
    return {
        "id": row.id,
        "name": row.name,
        "prefix": row.prefix,
        "created_at": _aware(row.created_at).isoformat(),
        "last_used_at": _aware(row.last_used_at).isoformat() if row.last_used_at else None,
        "revoked": row.revoked_at is not None,
    }
