"""Bots against bots: seat rotation, mirrored deals, win rates with confidence intervals, Elo.

Each *deal sequence* (a deal seed) is played once per rotation of the seats: with two players
every deal sequence is played twice with the seats swapped (mirrored deals), so both bots get
the same tiles in turn. :func:`plan` lists the games, :func:`play_game` plays one (picklable,
for process pools), :func:`summarise` turns the outcomes into figures.

>>> games = plan("highfive", 2, ["greedy", "random"], 4, seed=1)
>>> [(g.deal_seed, g.lineup) for g in games][:2]
[(1000000, ('greedy', 'random')), (1000000, ('random', 'greedy'))]
>>> [g.deal_seed for g in games]
[1000000, 1000000, 1000001, 1000001]
>>> round(wilson(60, 100)[0], 3), round(wilson(60, 100)[1], 3)
(0.502, 0.691)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.bots import make_bot
from boneyard.bots.plugins import check_bot
from boneyard.bots.referee import FORFEIT, Failure, Rules, Seat, play
from boneyard.core.errors import BoneyardError
from boneyard.games.registry import get_spec


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """One game of a match: which bot sits where, and the seeds."""

    index: int
    game: str
    lineup: tuple[str, ...]
    """Bot name by seat."""
    deal_seed: int
    bot_seed: int
    options: Mapping[str, object] = field(default_factory=dict)
    keep_record: bool = False
    rules: Rules = field(default_factory=Rules)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one game gave: the winner's seat, final scores, decision times by seat, and the
    bots' failures (the forfeit that ended it, if one did)."""

    index: int
    lineup: tuple[str, ...]
    winner: int | None
    scores: tuple[int, ...]
    times: tuple[tuple[float, ...], ...]
    record: dict[str, object] | None = None
    failures: tuple[Failure, ...] = ()
    forfeit: Failure | None = None


def plan(
    game: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    keep_records: bool = False,
    rules: Rules | None = None,
) -> list[ArenaGame]:
    """The games of a match: ``games`` rounded up to whole rotations of the seats. Fewer bots
    than seats are repeated in order to fill them; more are refused (BoneyardError), never
    dropped.

    >>> plan("highfive", 2, ["greedy", "random", "easy"], 2, seed=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boneyard.core.errors.BoneyardError: 3 bots for 2 seats: name at most 2 (fewer are ...)
    """
    if not bots:
        raise BoneyardError("name at least one bot")
    if len(bots) > players:
        raise BoneyardError(
            f"{len(bots)} bots for {players} seats: name at most {players} "
            "(fewer are repeated to fill the seats)"
        )
    for b in bots:
        check_bot(b, game)
    base = tuple(bots[i % len(bots)] for i in range(players))
    out: list[ArenaGame] = []
    deal = 0
    while len(out) < games:
        for r in range(players):
            lineup = tuple(base[(i - r) % players] for i in range(players))
            out.append(
                ArenaGame(
                    len(out),
                    game,
                    lineup,
                    seed * 1_000_000 + deal,
                    seed * 7_919_000 + len(out),
                    dict(options or {}),
                    keep_records,
                    rules or Rules(),
                )
            )
        deal += 1
    return out


def play_game(task: ArenaGame) -> Outcome:
    """Play one arena game to its end (decision times measured per seat), refereed by
    ``task.rules``: a failing bot forfeits or its fallback plays on."""
    spec = get_spec(task.game)
    n = len(task.lineup)
    state = spec.new_game(n, dict(task.options))
    state.names = [f"{b} {i + 1}" for i, b in enumerate(task.lineup)]
    times: list[list[float]] = [[] for _ in range(n)]
    seats = [_seat(task, i, times[i]) for i in range(n)]
    run = play(state, seats, random.Random(task.deal_seed), title=spec.title)
    record = None
    if task.keep_record:
        record = state.record()
        record["meta"] = {
            "arena": {"index": task.index, "deal_seed": task.deal_seed},
            "bots": list(task.lineup),
        }
        if run.failures:
            record["meta"]["failures"] = [f.to_json() for f in run.failures]
    return Outcome(
        task.index,
        task.lineup,
        run.result.winner,
        tuple(run.result.scores),
        tuple(tuple(t) for t in times),
        record,
        tuple(run.failures),
        run.forfeit,
    )


class _Timed:
    """A bot whose decisions are timed (the arena's p50/p95 figures)."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times
        for hook in ("start", "finish", "close"):
            if callable(getattr(bot, hook, None)):
                setattr(self, hook, getattr(bot, hook))

    def choose(self, observation: object) -> Any:
        t = time.perf_counter()
        try:
            return self.bot.choose(observation)
        finally:
            self.times.append(time.perf_counter() - t)


def _seat(task: ArenaGame, i: int, times: list[float]) -> Seat:
    seed = task.bot_seed * 31 + i
    bot = _Timed(make_bot(task.lineup[i], random.Random(seed), task.rules), times)
    on_error = task.rules.on_error
    fallback = None
    if on_error != FORFEIT:
        fallback = lambda: make_bot(on_error, random.Random(seed + 1))  # noqa: E731
    return Seat(task.lineup[i], bot, task.rules, fallback, seed)


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(p: float) -> float:
    """The Elo difference that predicts score ``p`` (clamped away from 0 and 1).

    >>> round(elo(0.64), 1)
    100.0
    """
    p = min(max(p, 1e-4), 1 - 1e-4)
    return -400 * math.log10(1 / p - 1)


@dataclass(frozen=True, slots=True)
class BotFigures:
    """One bot's results over a match."""

    bot: str
    games: int
    wins: int
    win_rate: float
    ci: tuple[float, float]
    avg_points: float
    elo: float
    """Elo difference against the rest of the field (from its win rate)."""
    elo_ci: tuple[float, float]
    decisions: int
    p50_time: float
    p95_time: float
    forfeits: int = 0
    """Games it forfeited (an illegal answer, a timeout or a crash)."""
    fallbacks: int = 0
    """Games in which a fallback bot played on for it."""


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values`` (0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def summarise(outcomes: Iterable[Outcome]) -> list[BotFigures]:
    """Win rate (Wilson 95% CI), average final points, Elo and decision times per bot name.

    With two players a bot's win rate is its score against the other, so its Elo figure is the
    difference between the two; with more, it is against the field (the expected share of a
    bot equal to the field is 1/players, which the Elo figure is taken relative to).
    """
    games: dict[str, int] = {}
    wins: dict[str, float] = {}
    points: dict[str, int] = {}
    times: dict[str, list[float]] = {}
    forfeits: dict[str, int] = {}
    fallbacks: dict[str, int] = {}
    seats_per_game = 2
    for o in outcomes:
        seats_per_game = len(o.lineup)
        for f in o.failures:
            into = forfeits if f.then == FORFEIT else fallbacks
            into[f.bot] = into.get(f.bot, 0) + 1
        seen: set[str] = set()
        for seat, bot in enumerate(o.lineup):
            times.setdefault(bot, []).extend(o.times[seat])
            points[bot] = points.get(bot, 0) + o.scores[seat]
            games[bot] = games.get(bot, 0) + 1
            wins.setdefault(bot, 0.0)
            if o.winner == seat and bot not in seen:
                wins[bot] += 1
                seen.add(bot)
    out = []
    share = 1 / seats_per_game
    for bot in games:
        n = games[bot]
        w = wins[bot]
        p = w / n
        lo, hi = wilson(w, n)

        def rel(x: float) -> float:
            # Odds against the even share of a player count.
            return elo(x) - elo(share)

        out.append(
            BotFigures(
                bot,
                n,
                int(w),
                p,
                (lo, hi),
                points[bot] / n,
                rel(p),
                (rel(lo), rel(hi)),
                len(times[bot]),
                percentile(times[bot], 0.5),
                percentile(times[bot], 0.95),
                forfeits.get(bot, 0),
                fallbacks.get(bot, 0),
            )
        )
    return out
