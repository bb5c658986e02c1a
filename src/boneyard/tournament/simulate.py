"""Play a whole event offline with the real engine and bots (the one tournament module that
imports games and bots).

Every game's deal and bot randomness come from the event seed, the match id and the game number,
so an event plays out the same whether its matches run in one process or several. Sides alternate
seat 0 (side a in games 1, 3, ...). A game without a single winner is replayed.

>>> from boneyard.tournament import SingleElimination, Schedule
>>> ev = SingleElimination.create(["p1", "p2", "p3"], Schedule.preset("bo1"))
>>> out = simulate(ev, {"p1": "greedy", "p2": "greedy", "p3": "random"}, seed=1)
>>> out.event.is_over, out.matches, out.games
(True, 2, 2)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from boneyard.bots import make_bot
from boneyard.bots.expert import check_game
from boneyard.games.registry import get_spec, play_out
from boneyard.tournament import DoubleElimination, Event, Pools, SingleElimination, Swiss
from boneyard.tournament.errors import TournamentError
from boneyard.tournament.match import Match, MatchGame
from boneyard.tournament.ratings import Rating, rate_game

MAX_REPLAYS = 20


@dataclass(frozen=True, slots=True)
class MatchTask:
    """One match to play: the sides, their bots, the game and the seeds (picklable)."""

    match_id: str
    sides: tuple[str, str]
    bots: tuple[str, str]
    best_of: int
    game: str
    options: Mapping[str, Any]
    seed: int


@dataclass(frozen=True, slots=True)
class MatchPlay:
    """The games one match produced, in order."""

    match_id: str
    games: tuple[MatchGame, ...]
    seats: tuple[tuple[str, str], ...]
    """The bots at seats 0 and 1 of each game (for ratings)."""


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """The finished event and the figures of the run."""

    event: Event
    matches: int
    games: int
    ratings: Mapping[str, Rating] = field(default_factory=dict)
    """OpenSkill ratings of the bots (2p category), from games between different bots."""


def _rng(seed: int, match_id: str, game: int, what: str) -> random.Random:
    return random.Random(f"{seed}/{match_id}/{game}/{what}")


def play_match(task: MatchTask) -> MatchPlay:
    """Play games until a side has won the match."""
    spec = get_spec(task.game)
    needed = task.best_of // 2 + 1
    wins = [0, 0]
    games: list[MatchGame] = []
    seats: list[tuple[str, str]] = []
    number = 0
    replays = 0
    while max(wins) < needed:
        flip = len(games) % 2  # side a sits at seat 0 in games 1, 3, 5, ...
        order = (1, 0) if flip else (0, 1)
        bots = [
            make_bot(task.bots[side], _rng(task.seed, task.match_id, number, f"bot{seat}"))
            for seat, side in enumerate(order)
        ]
        state = spec.new_game(2, task.options)
        play_out(state, [b.choose for b in bots], _rng(task.seed, task.match_id, number, "deal"))
        number += 1
        result = state.result()
        assert result is not None
        if result.winner is None:
            replays += 1
            if replays > MAX_REPLAYS:  # pragma: no cover - a rules bug, not a user error
                raise TournamentError(f"match {task.match_id}: too many games without a winner")
            continue
        by_side = [0, 0]
        for seat, side in enumerate(order):
            by_side[side] = result.scores[seat]
        win_side = order[result.winner]
        wins[win_side] += 1
        games.append(MatchGame(task.sides[win_side], (by_side[0], by_side[1]), result.reason))
        seats.append((task.bots[order[0]], task.bots[order[1]]))
    return MatchPlay(task.match_id, tuple(games), tuple(seats))


def playable_matches(event: Event) -> int:
    """How many matches with games the whole event will have (for progress bars; a double
    elimination's grand-final reset is not counted)."""
    n = len(event.entrants)
    if isinstance(event, SingleElimination):
        return n - 1 + event.third_place
    if isinstance(event, DoubleElimination):
        return 2 * n - 2
    if isinstance(event, Swiss):
        return event.num_rounds * (n // 2)
    if isinstance(event, Pools):
        q = len(event.groups) * event.advance
        bracket = 2 * q - 2 if event.bracket_format == "double" else q - 1 + event.third_place
        return sum(playable_matches(g) for g in event.groups) + bracket
    return sum(1 for m in event.matches() if not m.bye)


def simulate(
    event: Event,
    bots: Mapping[str, str],
    game: str = "highfive",
    options: Mapping[str, Any] | None = None,
    seed: int = 1,
    jobs: int = 1,
    on_match: Callable[[MatchPlay], None] | None = None,
) -> SimulationResult:
    """Play ``event`` to its end: entrant ``e`` is played by the bot ``bots[e]``.

    ``jobs > 1`` plays the ready matches in that many worker processes; results are applied
    in match order, so the outcome does not depend on ``jobs``.
    """
    spec = get_spec(game)
    if not spec.min_players <= 2 <= spec.max_players:
        raise TournamentError(f"{spec.title} is not a two-player game")
    for e in event.entrants:
        if e not in bots:
            raise TournamentError(f"entrant {e!r} has no bot")
    for b in set(bots.values()):
        make_bot(b, random.Random(0))
        check_game(b, game)
    opts = dict(options or {})
    spec.new_game(2, opts)  # option errors now, not in a worker
    pool: Executor | None = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    ratings: dict[str, Rating] = {}
    matches = games = 0
    try:
        while not event.is_over:
            ready = event.pending()
            if not ready:  # pragma: no cover - every format always has a ready match
                raise TournamentError("the event is stuck: no match is ready")
            tasks = [_task(m, bots, game, opts, seed) for m in ready]
            plays: Iterable[MatchPlay] = (
                pool.map(play_match, tasks, chunksize=max(1, len(tasks) // (4 * jobs)))
                if pool is not None
                else map(play_match, tasks)
            )
            for play in plays:
                m = event.match(play.match_id)
                for i, (g, (bot0, bot1)) in enumerate(zip(play.games, play.seats, strict=True)):
                    event = event.record_game(play.match_id, g.winner, g.scores, g.reason)
                    _rate(ratings, bot0, bot1, g, i % 2, m.side_of(g.winner))
                matches += 1
                games += len(play.games)
                if on_match is not None:
                    on_match(play)
    finally:
        if pool is not None:
            pool.shutdown()
    return SimulationResult(event, matches, games, ratings)


def _task(
    m: Match, bots: Mapping[str, str], game: str, options: Mapping[str, Any], seed: int
) -> MatchTask:
    assert m.a is not None and m.b is not None
    return MatchTask(m.id, (m.a, m.b), (bots[m.a], bots[m.b]), m.best_of, game, options, seed)


def _rate(
    ratings: dict[str, Rating], bot0: str, bot1: str, g: MatchGame, seat0_side: int, win_side: int
) -> None:
    """Rate the bots at seats 0 and 1 of one game (bots against themselves are not rated)."""
    if bot0 == bot1:
        return
    scores = (g.scores[seat0_side], g.scores[1 - seat0_side])
    winner_seat = 0 if win_side == seat0_side else 1
    old = (ratings.get(bot0, Rating()), ratings.get(bot1, Rating()))
    ratings[bot0], ratings[bot1] = rate_game(old, scores, winner_seat, "2p")
