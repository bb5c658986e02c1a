"""Profiles: a person's public page (``/profile/{id}``) and its JSON (``/api/users/{id}``).

Only public information: the display name, whether a guest, the date the account was made,
games played and won per game, and the history of finished and running games with opponents,
result, date and a replay link. Never a username, password hash, session or anything hidden
of a game in progress. A private table's game is listed (and counted) only to someone who sat at
it. The history, the games played and won are the database's counts (boneyard.store.tables);
routes: :mod:`.router`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.core.records import record_from_json
from boneyard.games.registry import get_spec
from boneyard.store import tables as repo
from boneyard.store import unit
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.models import GameTable, User
from boneyard.store.seats import Seat
from boneyard.store.statuses import TableStatus

HISTORY = 100
"""The longest history returned."""
BACKFILL = 1000
"""Finished tables without a stored result worked out per profile read (older tables)."""


def outcome_of_record(record_json: dict[str, Any]) -> JSON | None:
    """A finished game's result from its record (for tables finished before results were
    stored with the table): winner, final scores, partnerships. A game that ended early, or
    whose resigned seat was placed last, says so in ``meta.ending`` (docs/records.md)."""
    try:
        record = record_from_json(record_json)
        spec = get_spec(record.game)
        end: dict[str, Any] = {}
        for line in spec.replay(record):
            if line.get("type") == "game_end":
                end = dict(line)
        ending = (record_json.get("meta") or {}).get("ending")
        if isinstance(ending, dict) and ending.get("reason") != "abort":
            end = dict(ending)
        state = spec.new_game(len(record.seats), dict(record.options))
        teams = bool(state.observation(None).to_json().get("partnerships"))
    except BoneyardError:
        return None
    winner = end.get("winner")
    return {
        "winner": winner if isinstance(winner, int) else None,
        "scores": [int(x) for x in end.get("scores") or []],
        "partnerships": teams,
    }


async def outcome(sessions: async_sessionmaker[AsyncSession], row: GameTable) -> JSON | None:
    """A finished table's result: stored with it, or worked out once from its record (in a
    thread) and stored."""
    if row.status != TableStatus.OVER:
        return None
    stored = (row.settings or {}).get("result")
    if isinstance(stored, dict):
        return stored
    async with sessions() as db:
        record = await repo.record_of(db, row.id)
    if not record:
        return None
    found = await asyncio.to_thread(outcome_of_record, record)
    if found is not None:
        async with sessions() as db, db.begin():
            fresh = await unit.get(db, GameTable, row.id)
            if fresh is not None:
                fresh.settings = {**(fresh.settings or {}), "result": found}
    return found


def result_word(winner: int | None, seat: int, teams: bool) -> str:
    """``won``, ``lost`` or ``no winner`` for ``seat``.

    >>> result_word(1, 1, False), result_word(0, 1, False), result_word(0, 2, True)
    ('won', 'lost', 'won')
    """
    if winner is None:
        return "no winner"
    if winner == seat or (teams and winner % 2 == seat % 2):
        return "won"
    return "lost"


def player_json(i: int, s: Seat) -> JSON:
    """One seat of a history line: its name, and its user id (a person) or bot level."""
    out: JSON = {"seat": i, "kind": s.kind, "name": s.name}
    if s.user_id is not None:
        out["user_id"] = s.user_id
    elif s.bot is not None:
        out["bot"] = s.bot
    return out


async def profile(
    sessions: async_sessionmaker[AsyncSession], user_id: int, viewer: int | None
) -> JSON | None:
    """The public profile of ``user_id`` as ``viewer`` may see it (``None``: no such person).

    The history and the counts come from the per-person table index, so another person's
    tables never push a game out of it."""
    async with sessions() as db:
        user = await unit.get(db, User, user_id)
        if user is None:
            return None
        missing = await repo.without_result(db, user_id, BACKFILL)
    await backfill(sessions, missing)
    async with sessions() as db:
        rows = await repo.history(db, user_id, HISTORY, viewer, broken=False)
        played = await repo.played_per_game(db, user_id, viewer)
        won = await repo.won_per_game(db, user_id, viewer)
    games = [await history_item(sessions, row, seat) for row, seat in rows]
    return {
        "user": {
            "id": user.id,
            "display_name": user.display_name,
            "guest": user.is_guest,
            "bot": user.is_bot,
            "member_since": user.created_at.date().isoformat(),
        },
        "stats": stats(played, won),
        "games": games,
    }


async def backfill(sessions: async_sessionmaker[AsyncSession], table_ids: list[str]) -> None:
    """Store the results of finished tables that have none yet (worked out from their records),
    so that the games won are counted by the database."""
    for tid in table_ids:
        async with sessions() as db:
            row = await unit.get(db, GameTable, tid)
        if row is not None:
            await outcome(sessions, row)


async def history_item(
    sessions: async_sessionmaker[AsyncSession], row: GameTable, seat: int
) -> JSON:
    """One line of a history: the game, its players, and the result from ``seat``'s side."""
    seats = list(row.seats)
    spec = get_spec(row.game)
    item: JSON = {
        "table": row.id,
        "game": row.game,
        "title": spec.title,
        "date": row.created_at.isoformat(),
        "status": row.status,
        "seat": seat,
        "players": [player_json(i, x) for i, x in enumerate(seats)],
        "opponents": [x.name for i, x in enumerate(seats) if i != seat],
        "result": None,
        "replay": None,
    }
    found = await outcome(sessions, row)
    if found is not None:
        word = result_word(found.get("winner"), seat, bool(found.get("partnerships")))
        item.update(
            result=word,
            winner=found.get("winner"),
            scores=found.get("scores"),
            replay=f"/replay/{row.id}",
        )
    return item


def stats(played: dict[str, int], won: dict[str, int]) -> JSON:
    """Games played and won, per game and in all."""
    per_game = [
        {"game": g, "title": get_spec(g).title, "played": played[g], "won": won.get(g, 0)}
        for g in sorted(played)
    ]
    return {
        "played": sum(g["played"] for g in per_game),
        "won": sum(g["won"] for g in per_game),
        "games": per_game,
    }
