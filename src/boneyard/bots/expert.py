"""The expert bot: Perfect Information Monte Carlo search over sampled worlds.

The bot is given one seat's observation and nothing else. For each decision it samples worlds
(full game states) consistent with that observation (the *determinizer* of the game's search,
:class:`~boneyard.games.registry.GameSearch`, found from the observation's game), plays every
legal action in every world and finishes the hand (High Fives: the deal and the next one) with
the game's greedy play-out policy (most points now, then the heaviest tile) for all seats, and
picks the action with the best mean value. The value of a play-out is the seat's point
differential over the rest of the hand: points it scores (settlements included) minus the most
points any opponent scores, with a bonus (a penalty) when the hand ends the game won (lost).
The ``expert`` level also values a hand that leaves the game going by the chance of winning
the scores it leaves give, where the game knows it (High Five with two players): ten chips
matter more at 120 all than ahead 140 to 40.

The ``expert`` level spends its worlds by sequential halving: in rounds, the worse half of the
actions still in play dropped after each, so that a decision among many legal actions (a
Highrise turn can have thirty) costs about twice the play-outs of one between two instead of
fifteen times, and the two best actions get every world. A game's search may turn halving
off (Merry-Go-Round's does: there it lost strength, docs/performance.md).

Levels differ by their search budget (worlds per decision; a game's search may give a level that
reads the plays more of them at three and four seats, where more than one hand is hidden: High
Five's does) and each has a time budget that is honoured: the search stops sampling new worlds
once it is spent, and a world the budget runs out in is dropped (every legal action is always
valued on the same worlds; the first world is always finished). Without a time budget the bot is
deterministic under its seed; with one it is deterministic as long as the budget is not reached.

>>> import random
>>> from boneyard.games.registry import get_spec
>>> s = get_spec("highfive").new_game(2, {})
>>> s.deal_random(random.Random(2))
>>> bot = ExpertBot(random.Random(1), "easy", time_budget=None)
>>> bot.choose(s.observation(s.current_seat)) in s.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import Action, GameState, Observation
from boneyard.games.inference import PlayModel, Style
from boneyard.games.registry import MODULES as GAMES
from boneyard.games.registry import GameSearch, available_games, get_spec

A = TypeVar("A", bound=Action)


@dataclass(frozen=True, slots=True)
class Level:
    """A search budget: worlds per decision, a time budget in seconds, how many candidate deals
    are weighed to draw the worlds from (``pool``; 0: every consistent world is equally likely,
    as in plain PIMC), and whether the end of a hand is solved exactly once every tile is
    known."""

    worlds: int
    time_budget: float | None
    pool: int = 0
    exact: bool = False
    halving: bool = False
    """Sequential halving: the worlds are spent in rounds, the worse half of the actions
    still in play dropped after each, so that a decision with many legal actions costs about
    twice the play-outs of one with two and the best actions get every world
    (:func:`action_values`)."""
    standing: bool = False
    """Play-outs value the scores a hand leaves by the chance they give of winning the game,
    where the game's search knows it (:attr:`~boneyard.games.registry.GameSearch.standing`)."""


READING = PlayModel(((0.5, Style(2.0, 0.5, 0.02)), (0.5, Style(0.3, 0.3, 0.1))))
"""How the expert takes the other seats to play (docs/performance.md, "Reading the table"):
half greedy-like (sharp), half soft, each hand's plays shifting the weight between the two."""

LEVELS: dict[str, Level] = {
    "easy": Level(4, 0.25),
    "medium": Level(12, 0.5),
    "hard": Level(24, 0.7),
    "expert": Level(60, 0.9, pool=300, exact=True, halving=True, standing=True),
    "expert-pimc": Level(60, 0.9),
}
"""The named levels (``expert-pimc``: the expert before it read the table, for comparison)."""

KEPT_FOR_COMPARISON: tuple[str, ...] = ("expert-pimc",)
"""Levels the command line plays by name but the site does not offer (:data:`COMPARISON`)."""

EXACT_NODES = 100_000
"""Positions an exact solve of a determined hand may visit before the search samples instead."""


Search = GameSearch[GameState, Observation[Action]]


def value_of(
    search: Search, world: GameState, action: Action, seat: int, rng: random.Random
) -> float:
    """The value of ``action`` in ``world`` (which it changes): what the action itself scores
    (settlements included when it ends the hand: the seat's gain minus the most an opponent
    gains) plus the play-out value of the rest of the hand."""
    mine, others = search.scores(world, seat)
    world.apply(action)
    mine_after, others_after = search.scores(world, seat)
    now = mine_after - mine - max(b - a for a, b in zip(others, others_after, strict=True))
    return now + search.playout(world, seat, rng)


GAMES_WITH_SEARCH: tuple[str, ...] = tuple(
    g for g in available_games() if get_spec(g).search is not None
)
"""Record names of the games the expert bot can play (those whose spec has a search)."""


def search_for(observation: Observation[Action]) -> Search:
    """The search of the observation's game; BoneyardError if it has none."""
    search = get_spec(observation.game).search if observation.game in GAMES else None
    if search is None:
        raise BoneyardError(
            "the expert bots (easy, medium, hard, expert) play only "
            f"{', '.join(GAMES_WITH_SEARCH)} so far"
        )
    return search


@dataclass(frozen=True, slots=True)
class ActionValue(Generic[A]):
    """The mean play-out value of one legal action over the worlds searched."""

    action: A
    value: float
    worlds: int
    exact: bool = False
    """Solved exactly (the observation determined the hand) rather than sampled."""


def action_values(
    observation: Observation[A],
    rng: random.Random,
    worlds: int,
    time_budget: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    *,
    pool: int = 0,
    model: PlayModel | None = None,
    exact: bool = False,
    halving: bool = False,
    standing: bool = False,
) -> list[ActionValue[A]]:
    """Value every legal action of ``observation`` (in legal-action order).

    By PIMC search over ``worlds`` worlds. With ``pool``, the worlds are drawn from that many
    candidate deals in proportion to how likely ``model`` makes the other seats' plays in them
    (by default the game's own model, else :data:`READING`); with ``exact``, a hand the
    observation fully determines is solved exactly instead (when the game has a solver and the
    hand is small enough); with ``halving``, the worse half of the actions is dropped after each
    round of worlds (:func:`rounds_of`: the actions dropped keep the mean of the worlds they had,
    fewer than the others'); with ``standing``, play-outs add the game's standing at the end of
    the hand (:func:`with_standing`)."""
    actions = tuple(observation.legal_actions)
    if not actions:
        raise BoneyardError("the bot has nothing to choose from: it is not its turn")
    search = search_for(observation)
    if standing:
        search = with_standing(search)
    seat = observation.seat
    if seat is None:
        raise BoneyardError("a spectator has nothing to choose from")
    deadline = None if time_budget is None else clock() + time_budget
    sampler = search.sampler(observation)
    if exact and search.solve is not None and sampler.determined:
        solved = search.solve(sampler.sample(rng), EXACT_NODES)
        if solved is not None:
            return [ActionValue(a, v, 1, True) for a, v in zip(actions, solved, strict=True)]
    batch: Sequence[GameState] | None = None
    if pool > 0:
        # Reading the plays spends at most half the budget: the rest values the worlds.
        half = None if deadline is None or time_budget is None else deadline - time_budget / 2

        def stop() -> bool:
            return half is not None and clock() >= half

        reading = model or search.reading or READING
        batch = sampler.infer(rng, worlds, pool, reading, stop)
    next_world: Callable[[int], GameState] = (
        (lambda k: batch[k]) if batch is not None else (lambda _k: sampler.sample(rng))
    )
    out_of_time: Callable[[], bool] = (
        (lambda: False) if deadline is None else (lambda: clock() >= deadline)
    )
    return _spend(actions, search, seat, rng, worlds, next_world, out_of_time, halving)


def with_standing(search: Search) -> Search:
    """``search`` whose play-outs add, once the hand is over, how the scores it leaves favour
    the seat (the game's ``standing``; unchanged for a game without one). The exact solve of a
    determined hand keeps its chips: it decides only a hand's last plays."""
    playout, standing = search.playout, search.standing
    if standing is None:
        return search

    def play_on(world: GameState, seat: int, rng: random.Random) -> float:
        return playout(world, seat, rng) + standing(world, seat)

    return replace(search, playout=play_on)


def rounds_of(actions: int, halving: bool) -> int:
    """How many rounds the worlds are spent in: with sequential halving, enough to bring the
    actions down to two (``ceil(log2(actions))``), else one.

    >>> [rounds_of(n, True) for n in (1, 2, 3, 4, 5, 24)], rounds_of(24, False)
    ([1, 1, 2, 2, 3, 5], 1)
    """
    return max(1, (actions - 1).bit_length()) if halving else 1


def _spend(
    actions: tuple[A, ...],
    search: Search,
    seat: int,
    rng: random.Random,
    worlds: int,
    next_world: Callable[[int], GameState],
    out_of_time: Callable[[], bool],
    halving: bool,
) -> list[ActionValue[A]]:
    """Value the actions over ``worlds`` worlds (``next_world(k)`` the k-th), in
    :func:`rounds_of` rounds: after each but the last the worse half of the actions still in
    play (by their total over the same worlds) is dropped and keeps the mean it had. Every
    action in play is valued on the same worlds; a world the time runs out in is not counted
    (the first is always finished)."""
    totals = [0.0] * len(actions)
    counts = [0] * len(actions)
    alive = list(range(len(actions)))
    rounds = min(rounds_of(len(actions), halving), max(1, worlds))  # a world a round at least
    done = 0
    for r in range(1, rounds + 1):
        end = worlds * r // rounds
        while done < end:
            if done > 0 and out_of_time():
                break
            world = next_world(done)
            values = _one_world(actions, alive, search, seat, rng, world, out_of_time, done > 0)
            if values is None:
                break
            for k, v in zip(alive, values, strict=True):
                totals[k] += v
                counts[k] += 1
            done += 1
        if done < end:
            break  # out of time
        if r < rounds:  # keep the better half (ties: the first in legal order), in order
            alive = sorted(alive, key=lambda k: -totals[k])[: (len(alive) + 1) // 2]
            alive.sort()
    return [ActionValue(a, totals[k] / max(1, counts[k]), counts[k]) for k, a in enumerate(actions)]


def _one_world(
    actions: tuple[A, ...],
    alive: list[int],
    search: Search,
    seat: int,
    rng: random.Random,
    world: GameState,
    out_of_time: Callable[[], bool],
    may_stop: bool,
) -> list[float] | None:
    """The values of the actions in play in one world (``None``: the time ran out; only when
    ``may_stop``, so the first world is always finished). Common random numbers: every action
    is played out with the same tie-breaks."""
    seed = rng.getrandbits(32)
    values: list[float] = []
    for k in alive:
        if may_stop and out_of_time():
            return None
        values.append(value_of(search, world.copy(), actions[k], seat, random.Random(seed)))
    return values


def best_of(values: list[ActionValue[A]], observation: Observation[A]) -> A:
    """The highest valued action of those valued on the most worlds (the others were dropped
    by sequential halving); ties by points now, then the heaviest tile, then order."""

    def key(v: ActionValue[A]) -> tuple[int, float, int, int]:
        points = observation.action_points(v.action)
        return (v.worlds, v.value, points, observation.action_weight(v.action))

    best = values[0]
    for v in values[1:]:
        if key(v) > key(best):
            best = v
    return best.action


class ExpertBot:
    """PIMC search at one level (see the module docstring)."""

    blocks = True  # a search of up to its time budget

    def __init__(
        self,
        rng: random.Random,
        level: str = "expert",
        *,
        worlds: int | None = None,
        time_budget: float | str | None = "level",
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if level not in LEVELS:
            raise BoneyardError(f"level {level!r} is unknown (levels: {', '.join(LEVELS)})")
        spec = LEVELS[level]
        self.rng = rng
        self.name = level
        self.worlds = spec.worlds if worlds is None else worlds
        self.scaled = worlds is None
        """The level's worlds: multiplied by the game's ``world_scale``; a count given is kept."""
        self.time_budget: float | None = (
            spec.time_budget if isinstance(time_budget, str) else time_budget
        )
        self.clock = clock
        self.level = spec
        self.cut_short = 0
        """Searches its time budget stopped before all their worlds were valued."""

    def evaluate(self, observation: Observation[A]) -> list[ActionValue[A]]:
        """The value of every legal action (a single legal action is not searched)."""
        search = search_for(observation)  # a game without a determinizer is refused at once
        actions = observation.legal_actions
        if len(actions) == 1:
            return [ActionValue(actions[0], 0.0, 0)]
        worlds = self.worlds * search.world_scale if self.scaled else self.worlds
        level, pool = self.level, self.level.pool
        if pool and self.scaled and observation.num_seats >= 3:  # more than one hidden hand
            worlds, pool = worlds * search.crowded[0], pool * search.crowded[1]
        values = action_values(
            observation,
            self.rng,
            worlds,
            self.time_budget,
            self.clock,
            pool=pool,
            exact=level.exact,
            halving=level.halving and search.halving,
            standing=level.standing,
        )
        if not values[0].exact and max(v.worlds for v in values) < worlds:
            self.cut_short += 1
        return values

    def choose(self, observation: Observation[A]) -> A:
        """The legal action with the best searched value."""
        return best_of(self.evaluate(observation), observation)


def _factory(level: str) -> Callable[[random.Random], ExpertBot]:
    def make(rng: random.Random) -> ExpertBot:
        return ExpertBot(rng, level)

    make.__doc__ = f"The expert bot at level {level!r}."
    return make


FACTORIES: dict[str, Callable[[random.Random], ExpertBot]] = {
    level: _factory(level) for level in LEVELS if level not in KEPT_FOR_COMPARISON
}
"""Bot factories by level name, registered in :data:`boneyard.bots.BOTS`."""

COMPARISON: dict[str, Callable[[random.Random], ExpertBot]] = {
    level: _factory(level) for level in KEPT_FOR_COMPARISON
}
"""Levels kept for comparison (``expert-pimc``): the command line's ``play``, ``arena`` and
benches take them by name; the site does not offer them."""


def check_game(bot: str, game: str) -> None:
    """Refuse an expert level for a game it cannot search yet (a clear message)."""
    if bot in LEVELS and game not in GAMES_WITH_SEARCH:
        raise BoneyardError(
            f"bot {bot!r} cannot play {game} yet: the expert bots play only "
            f"{', '.join(GAMES_WITH_SEARCH)} so far (use greedy or random)"
        )
