"""The leaderboards people read (``GET /api/leaderboard``, ``GET /api/ratings``; routes in
:mod:`.router`).

People by default (bots are not rated any more; ``bots=true`` shows their old rows too), and
only people who have met ``eligible.RANKED_OPPONENTS`` different opponents (the others are
counted as not ranked yet: a second account farmed for a rating is not listed), ratings
on a familiar scale (OpenSkill's ordinal mapped so that a newcomer has 1500:
:func:`boneyard.server.ratings.store.display_rating`), provisional ratings marked (fewer than
``PROVISIONAL_GAMES`` rated games), and the game and player count named. The board is
filtered, ordered and cut by the database (:func:`boneyard.server.ratings.store.leaderboard`).
"""

from __future__ import annotations

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.games.registry import get_spec
from boneyard.server import validation
from boneyard.server.errors import Refused
from boneyard.server.ratings import eligible
from boneyard.server.ratings import store as ratings_store
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.tournament.ratings import CATEGORIES

CATEGORY_TITLES = {
    "2p": "2 players",
    "3p": "3 players",
    "4p": "4 players, each for themself",
    "partnership": "4 players in partnerships",
}


async def leaderboard(
    sessions: async_sessionmaker[AsyncSession], game: str, category: str, bots: bool
) -> JSON:
    """The best ratings of a game and player count, people only unless ``bots``, with the
    titles the page shows."""
    try:
        spec = get_spec(game) if len(game) <= 32 else None
    except BoneyardError:
        spec = None
    if spec is None or category not in CATEGORIES:
        raise Refused("no such game or number of players")
    rows = await ratings_store.leaderboard(sessions, game, category, bots=bots, ranked_only=True)
    return {
        "game": game,
        "title": spec.title,
        "category": category,
        "players_title": CATEGORY_TITLES[category],
        "people": await ratings_store.rated_people(sessions, game, category),
        "unranked": await ratings_store.rated_people(sessions, game, category, unranked=True),
        "ranked_opponents": eligible.RANKED_OPPONENTS,
        "provisional_games": ratings_store.PROVISIONAL_GAMES,
        "ratings": rows,
    }


async def ratings(
    sessions: async_sessionmaker[AsyncSession], game: str, category: str, bots: bool
) -> JSON:
    """The plain board of a game and category (the tournaments' pages read it): every rated person
    (``ranked``: listed on the leaderboard), or the bot accounts with ``bots``."""
    if len(game) > 32 or len(category) > 16 or not validation.storable(game + category):
        raise Refused("no such game or category")
    rows = await ratings_store.leaderboard(sessions, game, category, bots=bots)
    return {"game": game, "category": category, "bots": bots, "ratings": rows}
