"""Tournaments: single and double elimination, Swiss, round robin, pools then a bracket; match
play; standings, crosstables and their labels; score-card checks; ratings.

Pure logic: no I/O, no clock, randomness only from an injected ``random.Random``; every value
is immutable and every "update" returns a new value. Entrant ids are strings, given to each
format in seed order (see :mod:`boneyard.tournament.seeding`). The offline driver that plays
tournaments with bots is :mod:`boneyard.tournament.simulate` (not imported here).

>>> ev = SingleElimination.create(["ann", "bo"], Schedule.preset("pda"))
>>> ev.num_rounds, ev.match("R1M1").best_of
(1, 7)
>>> tournament_from_json(ev.to_json()) == ev
True
"""

from __future__ import annotations

from typing import Any

from boneyard.tournament.double import DoubleElimination
from boneyard.tournament.elimination import SingleElimination
from boneyard.tournament.errors import TournamentError
from boneyard.tournament.match import Match, MatchGame
from boneyard.tournament.pools import Pools
from boneyard.tournament.ratings import CATEGORIES, Rating, category_for, rate_game, rate_teams
from boneyard.tournament.roundrobin import RoundRobin
from boneyard.tournament.schedule import PDA, Schedule
from boneyard.tournament.seeding import seed_by_rating, seed_random
from boneyard.tournament.standings import Standing
from boneyard.tournament.swiss import Swiss

Tournament = SingleElimination | DoubleElimination | Swiss | RoundRobin | Pools
"""Any tournament format; they share one interface (see tournament-api.md)."""

FORMATS: dict[str, type[Tournament]] = {
    "single_elimination": SingleElimination,
    "double_elimination": DoubleElimination,
    "swiss": Swiss,
    "round_robin": RoundRobin,
    "pools": Pools,
}


def tournament_from_json(doc: dict[str, Any]) -> Tournament:
    """An event from its JSON form, whatever its format."""
    cls = FORMATS.get(doc.get("format", ""))
    if cls is None:
        raise TournamentError(
            f"event format {doc.get('format')!r} is unknown ({', '.join(FORMATS)})"
        )
    try:
        return cls.from_json(doc)
    except TournamentError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise TournamentError(f"the event JSON is malformed ({exc!r})") from exc


__all__ = [
    "CATEGORIES",
    "FORMATS",
    "PDA",
    "DoubleElimination",
    "Match",
    "MatchGame",
    "Pools",
    "Rating",
    "RoundRobin",
    "Schedule",
    "SingleElimination",
    "Standing",
    "Swiss",
    "Tournament",
    "TournamentError",
    "category_for",
    "rate_game",
    "rate_teams",
    "seed_by_rating",
    "seed_random",
    "tournament_from_json",
]
