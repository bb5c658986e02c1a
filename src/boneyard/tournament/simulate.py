"""Play a whole event offline with the real engine and bots (the one tournament module that
imports games and bots).

Every game's deal and bot randomness come from the event seed, the match id and the game number,
and no bot reads the clock (the expert levels search their whole budget of worlds instead of
stopping when their time is up: how far a search gets in its time depends on the machine's load
and on how many workers share it), so an event plays out the same whether its matches run in one
process or several. Sides alternate seat 0 (side a in games 1, 3, ...). A game without a single
winner is replayed.

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

from boneyard.bots import make_bot
from boneyard.bots.expert import LEVELS, ExpertBot
from boneyard.bots.plugins import check_bot
from boneyard.bots.referee import FORFEIT, AnyBot, Failure, Rules, Seat, play
from boneyard.games.registry import get_spec
from boneyard.tournament import DoubleElimination, Pools, SingleElimination, Swiss, Tournament
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
    options: Mapping[str, object]
    seed: int
    rules: Rules = field(default_factory=Rules)


@dataclass(frozen=True, slots=True)
class MatchPlay:
    """The games one match produced, in order."""

    match_id: str
    games: tuple[MatchGame, ...]
    seats: tuple[tuple[str, str], ...]
    """The bots at seats 0 and 1 of each game (for ratings)."""
    failures: tuple[Failure, ...] = ()
    """The bots' failures (illegal answers, timeouts, crashes) and what was done."""


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """The finished event and the figures of the run."""

    event: Tournament
    matches: int
    games: int
    ratings: Mapping[str, Rating] = field(default_factory=dict)
    """OpenSkill ratings of the bots (2p category), from games between different bots."""
    failures: tuple[tuple[str, Failure], ...] = ()
    """Every bot failure, with its match id."""


def _rng(seed: int, match_id: str, game: int, what: str) -> random.Random:
    return random.Random(f"{seed}/{match_id}/{game}/{what}")


def play_match(task: MatchTask) -> MatchPlay:
    """Play games until a side has won the match."""
    spec = get_spec(task.game)
    needed = task.best_of // 2 + 1
    wins = [0, 0]
    games: list[MatchGame] = []
    seats: list[tuple[str, str]] = []
    failures: list[Failure] = []
    number = 0
    replays = 0
    while max(wins) < needed:
        flip = len(games) % 2  # side a sits at seat 0 in games 1, 3, 5, ...
        order = (1, 0) if flip else (0, 1)
        referees = [_seat(task, number, seat, side) for seat, side in enumerate(order)]
        state = spec.new_game(2, task.options)
        deal = _rng(task.seed, task.match_id, number, "deal")
        run = play(state, referees, deal, title=spec.title)
        failures.extend(run.failures)
        number += 1
        result = run.result
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
        reason = result.reason
        if run.forfeit is not None and run.forfeit.kind == "timeout":
            reason = "timeout"
        games.append(MatchGame(task.sides[win_side], (by_side[0], by_side[1]), reason))
        seats.append((task.bots[order[0]], task.bots[order[1]]))
    return MatchPlay(task.match_id, tuple(games), tuple(seats), tuple(failures))


def _seat(task: MatchTask, number: int, seat: int, side: int) -> Seat:
    """Side ``side``'s bot at ``seat`` of game ``number``, refereed by the task's rules."""
    name = task.bots[side]
    seed = _rng(task.seed, task.match_id, number, f"seed{seat}").getrandbits(32)
    bot = _bot(name, _rng(task.seed, task.match_id, number, f"bot{seat}"), task.rules)
    on_error = task.rules.on_error
    fallback = None
    if on_error != FORFEIT:
        spare = _rng(task.seed, task.match_id, number, f"fallback{seat}")
        fallback = lambda: _bot(on_error, spare, None)  # noqa: E731
    return Seat(name, bot, task.rules, fallback, seed)


def _bot(name: str, rng: random.Random, rules: Rules | None) -> AnyBot:
    """The bot ``name``; an expert level without its time budget, so that its choices depend
    on the seed alone (a bot program or a plugin that reads the clock is beyond our reach)."""
    if name in LEVELS:
        return ExpertBot(rng, name, time_budget=None)
    return make_bot(name, rng, rules)


def playable_matches(event: Tournament) -> int:
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
    event: Tournament,
    bots: Mapping[str, str],
    game: str = "highfive",
    options: Mapping[str, object] | None = None,
    seed: int = 1,
    jobs: int = 1,
    on_match: Callable[[MatchPlay], None] | None = None,
    rules: Rules | None = None,
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
        check_bot(b, game)
    opts = dict(options or {})
    referee = rules or Rules()
    spec.new_game(2, opts)  # option errors now, not in a worker
    pool: Executor | None = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    ratings: dict[str, Rating] = {}
    failures: list[tuple[str, Failure]] = []
    matches = games = 0
    try:
        while not event.is_over:
            ready = event.pending()
            if not ready:  # pragma: no cover - every format always has a ready match
                raise TournamentError("the event is stuck: no match is ready")
            tasks = [_task(m, bots, game, opts, seed, referee) for m in ready]
            plays: Iterable[MatchPlay] = (
                pool.map(play_match, tasks, chunksize=max(1, len(tasks) // (4 * jobs)))
                if pool is not None
                else map(play_match, tasks)
            )
            for played in plays:
                m = event.match(played.match_id)
                pairs = zip(played.games, played.seats, strict=True)
                for i, (g, (bot0, bot1)) in enumerate(pairs):
                    event = event.record_game(played.match_id, g.winner, g.scores, g.reason)
                    _rate(ratings, bot0, bot1, g, i % 2, m.side_of(g.winner))
                failures.extend((played.match_id, f) for f in played.failures)
                matches += 1
                games += len(played.games)
                if on_match is not None:
                    on_match(played)
    finally:
        if pool is not None:
            pool.shutdown()
    return SimulationResult(event, matches, games, ratings, tuple(failures))


def _task(
    m: Match,
    bots: Mapping[str, str],
    game: str,
    options: Mapping[str, object],
    seed: int,
    rules: Rules,
) -> MatchTask:
    assert m.a is not None and m.b is not None
    sides = (bots[m.a], bots[m.b])
    return MatchTask(m.id, (m.a, m.b), sides, m.best_of, game, options, seed, rules)


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
