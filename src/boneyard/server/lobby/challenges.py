"""Challenging a bot account: a new table's seat kept for it (``{"kind": "account"}``).

The seat stays open, marked ``invited`` with the bot account's id and name: only that account may
take it (accepting, botapi.service), and its event stream announces the challenge. Only
bot accounts take challenges; a person is invited with a private table's link instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boneyard.server.errors import Refused
from boneyard.store.accounts import user_by_name
from boneyard.store.db import AsyncSession, async_sessionmaker


async def invited_accounts(
    sessions: async_sessionmaker[AsyncSession], seats: Sequence[Any], me: int
) -> dict[int, dict[str, Any]]:
    """The bot account of every ``account`` seat by seat number (``user_id``, ``name``), found by
    username or display name; :class:`Refused` with the reason for anyone else."""
    wanted = {i: (s.account or "").strip() for i, s in enumerate(seats) if s.kind == "account"}
    if not wanted:
        return {}
    found: dict[int, dict[str, Any]] = {}
    async with sessions() as db:
        for i, name in wanted.items():
            user = await user_by_name(db, name)
            if user is None or not name:
                raise Refused(f"there is no account named {name!r} to challenge")
            if not user.is_bot:
                raise Refused(
                    f"{user.display_name} is a person, not a bot account: invite people with "
                    "a private table's link",
                )
            if user.id == me or any(f["user_id"] == user.id for f in found.values()):
                raise Refused(f"{user.display_name} can take only one seat")
            found[i] = {"user_id": user.id, "name": user.display_name}
    return found
