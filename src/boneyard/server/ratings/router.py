"""The ratings routes: the leaderboard page and its API, and the plain board ``/api/ratings``."""

from __future__ import annotations

from fastapi import APIRouter

from boneyard.core.protocol import JSON
from boneyard.server.deps import SessionsDep
from boneyard.server.errors import ERRORS
from boneyard.server.ratings import service
from boneyard.server.webfiles import Page, page

router = APIRouter()


@router.get("/api/leaderboard", responses=ERRORS)
async def leaderboard(
    sessions: SessionsDep, game: str = "highfive", category: str = "2p", bots: bool = False
) -> JSON:
    """The best ratings of a game and player count, people only unless ``bots``."""
    return await service.leaderboard(sessions, game, category, bots)


@router.get("/api/ratings", responses=ERRORS)
async def ratings(
    sessions: SessionsDep, game: str = "highfive", category: str = "2p", bots: bool = False
) -> JSON:
    """The leaderboard of a game and player-count category (OpenSkill, by ordinal): people, or
    with ``bots=true`` bot accounts."""
    return await service.ratings(sessions, game, category, bots)


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> Page:
    return page("leaderboard.html")
