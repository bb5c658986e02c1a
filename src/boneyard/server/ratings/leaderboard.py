"""The leaderboard a person reads: ``/leaderboard`` and ``GET /api/leaderboard``.

People by default (bots are not rated any more; ``bots=true`` shows their old rows too), ratings
on a familiar scale (OpenSkill's ordinal mapped so that a newcomer has 1500:
:func:`boneyard.server.ratings.store.display_rating`), provisional ratings marked (fewer than
``PROVISIONAL_GAMES`` rated games), and the game and player count named.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.games.registry import get_spec
from boneyard.server.ratings import store as ratings_store
from boneyard.server.webfiles import page
from boneyard.tournament.ratings import CATEGORIES

CATEGORY_TITLES = {
    "2p": "2 players",
    "3p": "3 players",
    "4p": "4 players, each for themself",
    "partnership": "4 players in partnerships",
}


def add_routes(
    app: FastAPI, sessions: async_sessionmaker[AsyncSession], errors: dict[int | str, Any]
) -> None:
    """The page and its API (registered before the events' older ``/leaderboard``)."""

    @app.get("/api/leaderboard", responses=errors)
    async def leaderboard(game: str = "highfive", category: str = "2p", bots: bool = False) -> JSON:
        """The best ratings of a game and player count, people only unless ``bots``."""
        try:
            spec = get_spec(game) if len(game) <= 32 else None
        except BoneyardError:
            spec = None
        if spec is None or category not in CATEGORIES:
            raise HTTPException(400, "no such game or number of players")
        rows = await ratings_store.leaderboard(sessions, game, category, bots=bots)
        return {
            "game": game,
            "title": spec.title,
            "category": category,
            "players_title": CATEGORY_TITLES[category],
            "people": await ratings_store.rated_people(sessions, game, category),
            "provisional_games": ratings_store.PROVISIONAL_GAMES,
            "ratings": rows,
        }

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return page("leaderboard.html")
