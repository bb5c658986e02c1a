"""Private tables and invite links (docs/server.md).

A private table is not listed in the lobby. Its invite token (random, 22 URL-safe characters)
is shown to the people seated at it; ``/join/TOKEN`` and ``/table/{id}?invite=TOKEN`` open it.
Seeing a private table at all (its information, its socket, its hands, record and replay) needs
a seat at it, to have created it, or its invite token; anyone else is told there is no such
table, so a private table's id reveals nothing.
"""

from __future__ import annotations

import secrets

from boneyard.core.protocol import JSON
from boneyard.server.errors import NotFound
from boneyard.server.tables.live import LiveTable

MAX_TOKEN = 100
"""The longest invite token looked at (longer ones are refused unread)."""


def new_invite_token() -> str:
    """A fresh invite token (128 random bits).

    >>> len(new_invite_token())
    22
    """
    return secrets.token_urlsafe(16)


def seated(table: LiveTable, user_id: int | None) -> bool:
    """Whether ``user_id`` has a seat at ``table`` (or had it, until a bot took it over)."""
    return user_id is not None and any(
        user_id in (s.user_id, (s.replaced.user_id if s.replaced else None)) for s in table.seats
    )


def may_see(table: LiveTable, user_id: int | None, invite: str | None) -> bool:
    """Whether someone (``user_id``, ``None`` when signed out) holding ``invite`` may see
    ``table``: always for a public table; for a private one with a seat, as its creator or with
    the right token."""
    if not table.private:
        return True
    if seated(table, user_id) or (user_id is not None and user_id == table.created_by):
        return True
    token = table.invite_token
    return (
        invite is not None
        and token is not None
        and len(invite) <= MAX_TOKEN
        and secrets.compare_digest(invite.encode(), token.encode())
    )


def check_access(table: LiveTable, user_id: int | None, invite: str | None) -> None:
    """:class:`NotFound` ("no such table": 404) unless :func:`may_see`."""
    if not may_see(table, user_id, invite):
        raise NotFound("no such table (a private table opens with its invite link)")


def invite_json(table: LiveTable) -> JSON:
    """The invite of a private table, for the people seated at it (empty for a public one)."""
    if not table.private or not table.invite_token:
        return {}
    token = table.invite_token
    return {"invite": token, "invite_url": f"/join/{token}"}
