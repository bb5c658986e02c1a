"""Profiles: a person's public page (``/profile/{id}``) and its JSON (``/api/users/{id}``).

Only public information: the display name, whether a guest, the date the account was made,
games played and won per game, and the history of finished and running games with opponents,
result, date and a replay link. Never a username, password hash, session or anything hidden
of a game in progress. A private table's game is listed only to someone who sat at it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.core.records import record_from_json
from boneyard.games.registry import get_spec
from boneyard.server import auth
from boneyard.store.models import GameTable, User

WEB = Path(__file__).resolve().parent.parent / "web"
SCAN = 2000
"""How many of the newest tables are looked through for a person's games."""
HISTORY = 100
"""The longest history returned."""

_outcomes: dict[str, tuple[int | None, list[int], bool]] = {}


def seat_of(seats: list[dict[str, Any]], user_id: int) -> int | None:
    """The seat ``user_id`` took in ``seats`` (``None``: not at this table); a seat a bot took
    over when the person's clock ran out is still theirs here."""
    return next(
        (
            i
            for i, s in enumerate(seats)
            if user_id in (s.get("user_id"), (s.get("replaced") or {}).get("user_id"))
        ),
        None,
    )


def outcome(row: GameTable) -> tuple[int | None, list[int], bool] | None:
    """A finished table's ``(winner seat, final scores, partnerships)`` from its record."""
    if row.status != "over" or not row.record:
        return None
    if row.id in _outcomes:
        return _outcomes[row.id]
    try:
        record = record_from_json(row.record)
        spec = get_spec(record.game)
        end: dict[str, Any] = {}
        for line in spec.replay(record):
            if line.get("type") == "game_end":
                end = dict(line)
        state = spec.new_game(len(record.seats), dict(record.options))
        teams = bool(state.observation(None).to_json().get("partnerships"))
    except BoneyardError:
        return None
    winner = end.get("winner")
    found = (
        winner if isinstance(winner, int) else None,
        [int(x) for x in end.get("scores") or []],
        teams,
    )
    if len(_outcomes) > 5000:
        _outcomes.clear()
    _outcomes[row.id] = found
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


def player_json(i: int, s: dict[str, Any]) -> JSON:
    """One seat of a history line: its name, and its user id (a person) or bot level."""
    out: JSON = {"seat": i, "kind": s.get("kind"), "name": s.get("name")}
    if s.get("kind") == "person":
        out["user_id"] = s.get("user_id")
    elif s.get("kind") == "bot":
        out["bot"] = s.get("bot")
    return out


async def profile(
    sessions: async_sessionmaker[AsyncSession], user_id: int, viewer: int | None
) -> JSON | None:
    """The public profile of ``user_id`` as ``viewer`` may see it (``None``: no such person)."""
    async with sessions() as s:
        user = await s.get(User, user_id)
        if user is None:
            return None
        rows = (
            await s.scalars(select(GameTable).order_by(GameTable.created_at.desc()).limit(SCAN))
        ).all()
    stats: dict[str, JSON] = {}
    games: list[JSON] = []
    for row in rows:
        seats = list(row.seats)
        seat = seat_of(seats, user_id)
        if seat is None:
            continue
        if row.private and (viewer is None or seat_of(seats, viewer) is None):
            continue
        spec = get_spec(row.game)
        item: JSON = {
            "table": row.id,
            "game": row.game,
            "title": spec.title,
            "date": row.created_at.isoformat(),
            "status": row.status,
            "seat": seat,
            "players": [player_json(i, x) for i, x in enumerate(seats)],
            "opponents": [x.get("name") for i, x in enumerate(seats) if i != seat],
            "result": None,
            "replay": None,
        }
        found = outcome(row)
        if found is not None:
            winner, scores, teams = found
            word = result_word(winner, seat, teams)
            item.update(result=word, winner=winner, scores=scores, replay=f"/replay/{row.id}")
            entry = stats.setdefault(
                row.game, {"game": row.game, "title": spec.title, "played": 0, "won": 0}
            )
            entry["played"] += 1
            entry["won"] += word == "won"
        if len(games) < HISTORY:
            games.append(item)
    per_game = [stats[g] for g in sorted(stats)]
    return {
        "user": {
            "id": user.id,
            "display_name": user.display_name,
            "guest": user.is_guest,
            "member_since": user.created_at.date().isoformat(),
        },
        "stats": {
            "played": sum(int(g["played"]) for g in per_game),
            "won": sum(int(g["won"]) for g in per_game),
            "games": per_game,
        },
        "games": games,
    }


def add_routes(
    app: FastAPI, sessions: async_sessionmaker[AsyncSession], errors: dict[int | str, Any]
) -> None:
    """``GET /api/users/{id}`` and the page ``/profile/{id}``."""

    @app.get("/api/users/{user_id}", responses=errors)
    async def user_profile(
        user_id: Annotated[int, PathParam(ge=1, le=2**31 - 1)], request: Request
    ) -> JSON:
        """A person's public profile: name, member since, games played and won per game, and
        their game history (opponents, result, date, replay link)."""
        viewer = await request.app.state.user_for_token(request.cookies.get(auth.SESSION_COOKIE))
        found = await profile(sessions, user_id, viewer.id if viewer else None)
        if found is None:
            raise HTTPException(404, "no such player")
        return found

    @app.get("/profile/{user_id}", include_in_schema=False)
    async def profile_page(user_id: str) -> FileResponse:
        return FileResponse(WEB / "profile.html")
