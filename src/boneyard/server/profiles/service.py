"""Profiles: a person's public page (``/profile/{id}``) and its JSON (``/api/users/{id}``).

Only public information: the display name, whether a guest, the date the account was made,
games played and won per game, and the history of finished and running games with opponents,
result, date and a replay link. Never a username, password hash, session or anything hidden
of a game in progress. A private table's game is listed only to someone who sat at it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from sqlalchemy import ColumnElement, func, select, true
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import defer

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.core.records import record_from_json
from boneyard.games.registry import get_spec
from boneyard.server.webfiles import page
from boneyard.store.models import GameTable, TablePlayer, User
from boneyard.store.seats import Seat
from boneyard.store.statuses import TableStatus

HISTORY = 100
"""The longest history returned."""


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
        record = await db.scalar(select(GameTable.record).where(GameTable.id == row.id))
    if not record:
        return None
    found = await asyncio.to_thread(outcome_of_record, record)
    if found is not None:
        async with sessions() as db, db.begin():
            fresh = await db.get(GameTable, row.id)
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
    async with sessions() as s:
        user = await s.get(User, user_id)
        if user is None:
            return None
        visible: ColumnElement[bool] = true()
        if viewer != user_id:  # a private table's game only to someone who sat at it
            theirs = select(TablePlayer.table_id).where(TablePlayer.user_id == (viewer or 0))
            visible = GameTable.private.is_(False) | GameTable.id.in_(theirs)
        rows = (
            await s.execute(
                select(GameTable, TablePlayer.seat)
                .options(defer(GameTable.record))  # (large; read only when needed)
                .join(TablePlayer, TablePlayer.table_id == GameTable.id)
                .where(
                    TablePlayer.user_id == user_id, visible, GameTable.status != TableStatus.BROKEN
                )
                .order_by(TablePlayer.created_at.desc())
                .limit(HISTORY)
            )
        ).all()
        counts = (
            await s.execute(
                select(GameTable.game, func.count())
                .join(TablePlayer, TablePlayer.table_id == GameTable.id)
                .where(
                    TablePlayer.user_id == user_id, visible, GameTable.status == TableStatus.OVER
                )
                .group_by(GameTable.game)
            )
        ).all()
    games = [await history_item(sessions, row, seat) for row, seat in rows]
    return {
        "user": {
            "id": user.id,
            "display_name": user.display_name,
            "guest": user.is_guest,
            "bot": user.is_bot,
            "member_since": user.created_at.date().isoformat(),
        },
        "stats": await stats(sessions, user_id, dict(counts)),
        "games": games,
    }


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


async def stats(
    sessions: async_sessionmaker[AsyncSession], user_id: int, played: dict[str, int]
) -> JSON:
    """Games played and won per game (won: counted in SQL from the stored results)."""
    per_game = []
    for game in sorted(played):
        won = await wins(sessions, user_id, game)
        per_game.append(
            {"game": game, "title": get_spec(game).title, "played": played[game], "won": won}
        )
    return {
        "played": sum(g["played"] for g in per_game),
        "won": sum(g["won"] for g in per_game),
        "games": per_game,
    }


async def wins(sessions: async_sessionmaker[AsyncSession], user_id: int, game: str) -> int:
    """How many finished games of ``game`` ``user_id`` won."""
    async with sessions() as s:
        rows = (
            await s.execute(
                select(GameTable, TablePlayer.seat)
                .options(defer(GameTable.record))
                .join(TablePlayer, TablePlayer.table_id == GameTable.id)
                .where(
                    TablePlayer.user_id == user_id,
                    GameTable.game == game,
                    GameTable.status == TableStatus.OVER,
                )
            )
        ).all()
    won = 0
    for row, seat in rows:
        found = await outcome(sessions, row)
        teams = bool(found and found.get("partnerships"))
        if found and result_word(found.get("winner"), seat, teams) == "won":
            won += 1
    return won


def add_routes(
    app: FastAPI,
    sessions: async_sessionmaker[AsyncSession],
    current_user: Callable[[Request], Awaitable[Any]],
    errors: dict[int | str, Any],
) -> None:
    """``GET /api/users/{id}`` and the page ``/profile/{id}``."""

    @app.get("/api/users/{user_id}", responses=errors)
    async def user_profile(
        user_id: Annotated[int, PathParam(ge=1, le=2**31 - 1)], request: Request
    ) -> JSON:
        """A person's public profile: name, member since, games played and won per game, and
        their game history (opponents, result, date, replay link)."""
        viewer = await current_user(request)
        found = await profile(sessions, user_id, viewer.id if viewer else None)
        if found is None:
            raise HTTPException(404, "no such player")
        return found

    @app.get("/profile/{user_id}", include_in_schema=False)
    async def profile_page(user_id: str) -> FileResponse:
        return page("profile.html")
