"""OpenSkill ratings on the site, per game and player-count category (docs/tournaments-site.md).

Which games are rated: every table that finishes with a result, where people hold every seat
(a person whose seat a bot took over — they left, resigned, or their clock ran out — still holds
it, and ranks last: leaving never saves a rating). A resigner, and a player whose win the others
claimed after they left, rank last too; an aborted game has no result and is not rated. A bot
account (docs/bots.md) holds its seat as an account and is rated like a person; its rating is
listed only on the leaderboard's bot side, never among the people's. A game where a bot held a
seat from the start is not rated unless the operator sets ``rate_bot_games`` (then only the
people's ratings change: bots are never rated, so playing the shared ``random`` bot over and over
earns nothing). Event games count like any other table, and so do over-the-board games once both
players signed the card; a result given by a ruling or a forfeit is not rated (nobody played it
out).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from boneyard.core.protocol import GameResult
from boneyard.server.ratings import eligible
from boneyard.server.tables import tableview
from boneyard.server.tables.live import LiveTable, now
from boneyard.store import ratings as stored_ratings
from boneyard.store import unit
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.seats import Seat
from boneyard.store.tournaments import PlayerRating
from boneyard.tournament.ratings import Rating, category_for, rate_game

log = logging.getLogger("boneyard.server.ratings")


def player_key(seat: Seat) -> str | None:
    """``u:<id>`` for a person, ``bot:<name>`` for a bot, ``None`` for an empty seat.

    >>> from boneyard.store.seats import BotSeat, PersonSeat, Someone
    >>> player_key(PersonSeat(user_id=3, name="Ann")), player_key(BotSeat(bot="greedy", name=None))
    ('u:3', 'bot:greedy')
    """
    if seat.user_id is not None:
        return f"u:{seat.user_id}"
    if seat.bot is not None:
        return f"bot:{seat.bot}"
    return None


def table_category(table: LiveTable) -> str:
    """The rating category of a table: by its seat count, or ``partnership``."""
    partners = False
    if table.state is not None:
        view = table.state.observation(None).to_json()
        partners = bool(view.get("partnerships"))
    return category_for(len(table.seats), partners)


def as_rating(row: PlayerRating | None) -> Rating:
    """The pure rating of a row (the default for a newcomer)."""
    if row is None:
        return Rating()
    return Rating(mu=row.mu, sigma=row.sigma, games=row.games)


def holder(seat: Seat) -> tuple[str | None, bool]:
    """Who a seat's result belongs to, and whether they left: the person seated, or the person
    a bot replaced (who left); a bot's own seat: its ``bot:<name>``.

    >>> from boneyard.store.seats import BotSeat, Someone
    >>> holder(BotSeat(bot="medium", name="Ann", replaced=Someone(user_id=5, name="Ann")))
    ('u:5', True)
    """
    if seat.replaced is not None and seat.replaced.user_id:
        return f"u:{seat.replaced.user_id}", True
    return player_key(seat), False


async def rate_table(
    sessions: async_sessionmaker[AsyncSession], table: LiveTable, rate_bots: bool = False
) -> bool:
    """Update the ratings after ``table``'s game ended; false when the game is not rated (see
    the module docstring and :mod:`.eligible`; ``rate_bots``: the operator's
    ``rate_bot_games``)."""
    result: GameResult | None = tableview.table_result(table)
    if result is None:
        return False
    held = [holder(s) for s in table.seats]
    keys = [k for k, _left in held]
    if any(k is None for k in keys) or len(set(keys)) != len(keys):
        return False
    players = [k for k in keys if k is not None]
    people = [p for p in players if not p.startswith("bot:")]
    if not people or (len(people) < len(players) and not rate_bots):
        return False
    why = await unrated(sessions, table, players)
    if why is not None:
        log.info("table %s is not rated: %s", table.id, why)
        return False
    leavers = [i for i, (_k, left) in enumerate(held) if left]
    ending = (table.settings or {}).get("ending") or {}
    if ending.get("reason") in ("resign", "claim") and ending.get("seat") not in leavers:
        leavers.append(int(ending["seat"]))  # resigned, or left and the win was claimed
    names = [
        str((s.replaced.name if s.replaced else None) or s.name or p)
        for s, p in zip(table.seats, players, strict=True)
    ]
    return await rate_result(
        sessions,
        table.game,
        table_category(table),
        list(zip(players, names, strict=True)),
        list(result.scores),
        result.winner,
        leavers,
    )


async def unrated(
    sessions: async_sessionmaker[AsyncSession], table: LiveTable, players: Sequence[str]
) -> str | None:
    """Why the game of ``table`` (its rating keys ``players`` by seat) is not rated, in words,
    or ``None`` (:mod:`.eligible`)."""
    settings = table.settings or {}
    seats = [i for i, p in enumerate(players) if not p.startswith("bot:")]
    if len(seats) >= 2 and not settings.get("clock"):
        return "people played without a turn clock"
    async with sessions() as db:
        short = await eligible.too_few_moves(
            db, table.id, settings.get("seat_changes") or [], seats
        )
    if short:
        return f"it ended before each person had made {eligible.RATED_MIN_MOVES} moves"
    return None


async def rate_result(
    sessions: async_sessionmaker[AsyncSession],
    game: str,
    category: str,
    players: Sequence[tuple[str, str]],
    scores: Sequence[int],
    winner: int | None,
    leavers: Sequence[int] = (),
) -> bool:
    """Rate one finished game: ``players`` (key, name) by seat, their final ``scores`` and the
    winning seat. Over-the-board cards signed by both players are rated like tables. False:
    two of them were rated against each other too often today (not rated; :mod:`.eligible`)."""
    keys = [p for p, _name in players]
    at = now()
    async with sessions() as db, db.begin():
        if await eligible.played_too_often(db, keys, at):
            log.info("a %s game of %s is not rated: the same accounts, too often", game, keys)
            return False
        met = await eligible.note_pairs(db, game, category, keys, at)
        rows = await stored_ratings.rating_rows(db, game, category, keys)
        new = rate_game(
            [as_rating(rows.get(p)) for p in keys], list(scores), winner, category, list(leavers)
        )
        for (p, name), r in zip(players, new, strict=True):
            if p.startswith("bot:"):
                continue  # bots are never rated
            row = rows.get(p)
            if row is None:
                row = PlayerRating(game=game, category=category, player=p, opponents=0)
                unit.add(db, row)
            row.name = name[:40]
            row.mu, row.sigma, row.games, row.updated_at = r.mu, r.sigma, r.games, at
            if row.opponents is not None:  # (None: rated before opponents were counted)
                row.opponents = met.get(p, row.opponents)
    return True


async def ordinals(
    sessions: async_sessionmaker[AsyncSession], game: str, category: str, players: Sequence[str]
) -> dict[str, float]:
    """The ordinal (mu - 3 sigma) of each player; a newcomer has the default rating's."""
    async with sessions() as db:
        rows = await stored_ratings.rating_rows(db, game, category, sorted(set(players)))
    return {p: as_rating(rows.get(p)).ordinal for p in players}


SCALE = 30.0
"""Rating points per unit of OpenSkill skill: one unit of ``mu`` between two settled players is
worth about 30 Elo points of winning chance (PL model, ``beta = 25/6``)."""
CENTRE = 1500
PROVISIONAL_GAMES = 10
"""A rating over fewer games than this is provisional (shown with a question mark)."""


def display_rating(ordinal: float) -> int:
    """The rating a person reads: OpenSkill's ordinal on a familiar scale, a newcomer at 1500.

    >>> display_rating(0.0), display_rating(5.4), display_rating(-1.8)
    (1500, 1662, 1446)
    """
    return round(CENTRE + SCALE * ordinal)


async def leaderboard(
    sessions: async_sessionmaker[AsyncSession],
    game: str,
    category: str,
    limit: int = 100,
    bots: bool = False,
    ranked_only: bool = False,
) -> list[dict[str, object]]:
    """The best ``limit`` ratings of a game and category, by ordinal: the people's, or with
    ``bots`` the bot accounts' (never mixed; the built-in bots' rows are old: they are not
    rated any more); with ``ranked_only``, people who have met too few opponents are left out
    (:func:`ranked`)."""
    min_opponents = eligible.RANKED_OPPONENTS if ranked_only and not bots else None
    async with sessions() as db:
        rows = await stored_ratings.best_ratings(db, game, category, limit, bots, min_opponents)
    return [_row(i, r, bots) for i, r in enumerate(rows)]


def _row(i: int, r: PlayerRating, bots: bool) -> dict[str, object]:
    """A leaderboard row."""
    listed = r.opponents is None or r.opponents >= eligible.RANKED_OPPONENTS
    return {
        "rank": i + 1,
        "player": r.player,
        "name": r.name,
        "bot": bots,
        "user_id": int(r.player[2:]) if r.player.startswith("u:") else None,
        "rating": display_rating(as_rating(r).ordinal),
        "provisional": r.games < PROVISIONAL_GAMES or not listed,
        "ranked": listed,
        "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "ordinal": round(as_rating(r).ordinal, 3),
        "games": r.games,
    }


async def rated_people(
    sessions: async_sessionmaker[AsyncSession], game: str, category: str, unranked: bool = False
) -> int:
    """How many people (not bots, not bot accounts) have a rating in a game and category (with
    ``unranked``: of them, how many are not yet listed on the leaderboard)."""
    below = eligible.RANKED_OPPONENTS if unranked else None
    async with sessions() as db:
        return await stored_ratings.people_rated(db, game, category, below)
