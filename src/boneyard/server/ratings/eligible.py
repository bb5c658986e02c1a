"""Which finished games change ratings, beyond who sat at them: the rules against farming.

A second account that joins, lets the game start and resigns (or leaves) before moving handed
its partner a full game's rating (issue 28, 3: +306 in 30 s, first on the leaderboard). So:

* **Each person moves first**: a game is rated only if every person at it made at least
  :data:`RATED_MIN_MOVES` moves of their own (a draw or a pass counts; moves a bot made in their
  seat do not), whoever resigned or left and however the game then ended.
* **People play on a clock**: a game between people at a table without a turn clock is not rated
  (a stalled opponent could otherwise only be waited out; the lobby says so).
* **Not the same two, over and over**: two accounts are rated against each other at most
  :data:`PAIR_GAMES_PER_DAY` times in 24 hours (any game); later games between them are not
  rated at all. Over-the-board cards count too.
* **Several opponents before the leaderboard**: every rated game records its pairs
  (``rated_pairs``); a person's rating is listed on the leaderboard once they have met
  :data:`RANKED_OPPONENTS` different opponents (boneyard.server.ratings.store).

docs/tournaments-site.md, "Ratings", states them for players.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from boneyard.store import ratings as stored_ratings
from boneyard.store import unit
from boneyard.store.db import AsyncSession
from boneyard.store.statuses import SeatChange
from boneyard.store.tournaments import RatedPair

RATED_MIN_MOVES = 2
"""Moves each person must have made themself for a game to be rated."""
PAIR_GAMES_PER_DAY = 3
"""Rated games between the same two accounts in 24 hours; later ones are not rated."""
RANKED_OPPONENTS = 3
"""Different opponents a person must have met in rated games to be listed on the leaderboard."""
BOT_HOLDS = frozenset({SeatChange.ABANDONED, SeatChange.RESIGNED, SeatChange.HANDED})


def own_moves(
    actions: Sequence[tuple[int, int]], changes: Sequence[Mapping[str, Any]], seats: int
) -> list[int]:
    """Per seat, the moves its person made: the ``(seq, seat)`` actions of the table's log
    outside the stretches a bot held the seat (from a seat change that gave it to a bot, at the
    table's version ``seq``, to the one that gave it back).

    >>> changes = [{"event": "abandoned", "seat": 1, "seq": 4},
    ...            {"event": "reclaimed", "seat": 1, "seq": 8}]
    >>> own_moves([(2, 0), (3, 1), (5, 1), (7, 1), (9, 1), (10, 0)], changes, 2)
    [2, 2]
    """
    spans: dict[int, list[tuple[float, float]]] = {i: [] for i in range(seats)}
    since: dict[int, float] = {}
    for change in sorted(changes, key=lambda c: int(c.get("seq") or 0)):
        seat, seq, event = change.get("seat"), int(change.get("seq") or 0), change.get("event")
        if not isinstance(seat, int) or not 0 <= seat < seats:
            continue
        if event in BOT_HOLDS and seat not in since:
            since[seat] = seq
        elif event == SeatChange.RECLAIMED and seat in since:
            spans[seat].append((since.pop(seat), seq))
    for seat, start in since.items():
        spans[seat].append((start, math.inf))
    counts = [0] * seats
    for seq, seat in actions:
        if 0 <= seat < seats and not any(a < seq <= b for a, b in spans[seat]):
            counts[seat] += 1
    return counts


async def too_few_moves(
    db: AsyncSession, table_id: str, changes: Sequence[Mapping[str, object]], people: Sequence[int]
) -> bool:
    """Whether a person of the seats ``people`` made fewer than :data:`RATED_MIN_MOVES` moves
    at table ``table_id`` (its log, less what bots played for them)."""
    actions = await stored_ratings.action_seats(db, table_id)
    seats = max([*people, *(s for _q, s in actions)], default=-1) + 1
    moved = own_moves(actions, changes, seats)
    return any(moved[i] < RATED_MIN_MOVES for i in people)


def people_keys(keys: Sequence[str]) -> list[str]:
    """The accounts among rating keys (``u:<id>``: people and bot accounts, not built-in bots).

    >>> people_keys(["u:1", "bot:greedy", "u:2"])
    ['u:1', 'u:2']
    """
    return [k for k in keys if k.startswith("u:")]


async def played_too_often(db: AsyncSession, keys: Sequence[str], at: datetime) -> bool:
    """Whether two of the accounts ``keys`` were rated against each other
    :data:`PAIR_GAMES_PER_DAY` times in the 24 hours before ``at``."""
    since = at - timedelta(days=1)
    for a, b in itertools.combinations(sorted(set(people_keys(keys))), 2):
        found = await stored_ratings.rated_since(db, a, b, since)
        if found >= PAIR_GAMES_PER_DAY:
            return True
    return False


async def note_pairs(
    db: AsyncSession, game: str, category: str, keys: Sequence[str], at: datetime
) -> dict[str, int]:
    """Record a rated game's pairs of accounts (both ways); the distinct opponents each account
    has now met in ``game`` and ``category``."""
    accounts = sorted(set(people_keys(keys)))
    for a, b in itertools.permutations(accounts, 2):
        unit.add(db, RatedPair(game=game, category=category, player=a, opponent=b, rated_at=at))
    await unit.flush(db)
    if not accounts:
        return {}
    return await stored_ratings.opponents_met(db, game, category, accounts)
