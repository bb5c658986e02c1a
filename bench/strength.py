"""Bot strength: the expert against greedy, against the expert before it read the table, and
beside a cheater that sees every hand, over mirrored games, with the decision times.

Run ``.venv/bin/python bench/strength.py`` (defaults: High Five, 2 players, ``expert`` vs
``greedy``, 300 games, 2 worker processes, seed 1; ``--json`` for one JSON object a match).
``--all`` plays the issue's table: for every game at 2 players the expert against ``greedy``
and against ``expert-pimc`` and the cheater against ``greedy``; for High Five at 3 and 4 players
one expert (then one cheater) among greedy players, and at 2, 3 and 4 one seer among greedy
players. ``--ladder`` plays each level against the one below (``easy`` against ``greedy``
first). ``--only GAMES`` keeps some games. ``--hands`` plays only the first hand of each game
and prints the bot's mean chip differential in it (its chips less the most another seat took)
with its 95% interval: a figure with far less noise than a win rate, for telling two versions
of a bot apart. With ``--json`` a match also lists its games won (``won``: ``1`` or ``0`` a
game, in order), and ``bench/paired.py`` compares two builds' runs of the same match game by
game.
Method and figures: docs/performance.md, "Bot strength".

Each deal sequence (a deal seed) is played once per rotation of the seats (with two players:
twice, the seats swapped: mirrored deals), every game to its end under the default options,
with the deals of ``boneyard arena`` for the same seed. With more players one bot sits among
copies of the other (its fair share of wins is 1/players), except Merry-Go-Round with 4:
partnerships, two of each (fair share 1/2). The win rate's 95% interval is
Wilson's; the Elo difference comes from the win rate and its bounds, relative to the fair share.

**Fixed worlds.** By default every expert level searches its full number of worlds with no time
budget, so a match's result does not depend on the machine's load. ``--timed`` plays with the
levels' time budgets instead (as the site does) and counts the decisions a budget cut short;
decision times are wall-clock times of ``bot.choose(observation)`` for every decision of the
measured bot, forced moves included, inside the worker processes, and the load average is
printed beside them.

The **cheater** (``cheater``) is the upper anchor: it sees the true state (every hand and the
boneyard's order) and values each legal action there with the game's greedy play-outs, as the
expert values it in one world. The **seer** (``seer``, High Five, High Fives and Highrise) sees
every other hand but not what is still to come: it values each legal action over as many
worlds as the expert (60 random orders of High Five's undrawn boneyard; 360 new deals of the
High Fives tiles still to be dealt or turned up; 360 orders of Highrise's undrawn pile), as the
expert does over its worlds. It is what a perfect reading of the other hands would give the
expert's search: the ceiling of any inference. ``seer-from-K`` (High Five) is the seer once
every other seat has played K tiles in the hand in play and the expert before: where in a hand
knowing the other hands is worth the most.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.console import Console

import boneyard.games.highfive.state as state_module
from boneyard.bots import make_bot
from boneyard.bots.arena import elo, percentile, wilson
from boneyard.bots.expert import LEVELS, ActionValue, ExpertBot, best_of, search_for, value_of
from boneyard.core.protocol import Action, GameState, Observation
from boneyard.games.registry import get_spec, play_out

TARGETS: dict[tuple[str, int, str], float] = {
    ("highfive", 2, "greedy"): 0.88,
    ("highfive", 2, "expert-pimc"): 0.65,
    ("highrise", 2, "greedy"): 0.88,
    ("high-fives", 2, "greedy"): 0.95,
    ("merry-go-round", 2, "greedy"): 1.0,
    ("highfive", 4, "greedy"): 0.45,
}
"""Issue 29's targets for the expert (win rate; a 1.0 target means every game won)."""

LADDER: tuple[tuple[str, str], ...] = (
    ("easy", "greedy"),
    ("medium", "easy"),
    ("hard", "medium"),
    ("expert", "hard"),
)
"""The levels head to head, each against the one below."""


def matches(only: set[str]) -> list[tuple[str, int, str, str]]:
    """``--all``: ``(game, players, bot, against)`` of every match of the issue's table."""
    out = []
    for game in ("highfive", "highrise", "high-fives", "merry-go-round"):
        if only and game not in only:
            continue
        out += [
            (game, 2, "expert", "greedy"),
            (game, 2, "expert", "expert-pimc"),
            (game, 2, "cheater", "greedy"),
        ]
        if game == "highfive":
            for players in (3, 4):
                out += [(game, players, b, "greedy") for b in ("expert", "expert-pimc", "cheater")]
            out += [(game, players, "seer", "greedy") for players in (2, 3, 4)]
        if game in ("high-fives", "highrise"):
            out.append((game, 2, "seer", "greedy"))
    return out


class Cheater:
    """Sees the true state and values every legal action there by the game's greedy
    play-outs (one world: the real one)."""

    name = "cheater"

    def __init__(self, state: GameState) -> None:
        self.state = state

    def worlds(self) -> Iterator[tuple[GameState, int]]:
        """The worlds the actions are valued in, each with its play-outs' seed."""
        yield self.state, 1

    def evaluate(self, observation: Observation[Action]) -> list[ActionValue[Action]]:
        """Every legal action's mean play-out value over :meth:`worlds`, each action played
        out with the world's seed (the true state's actions, in the observation's order)."""
        actions = observation.legal_actions
        search = search_for(observation)
        seat = observation.seat
        assert seat is not None
        real = self.state.legal_actions()
        totals = [0.0] * len(actions)
        count = 0
        for world, seed in self.worlds():
            for k, r in enumerate(real):
                totals[k] += value_of(search, world.copy(), r, seat, random.Random(seed))
            count += 1
        return [ActionValue(a, t / count, count) for a, t in zip(actions, totals, strict=True)]

    def choose(self, observation: Observation[Action]) -> Action:
        """The action with the best value (:meth:`evaluate`)."""
        actions = observation.legal_actions
        if len(actions) == 1:
            return actions[0]
        return best_of(self.evaluate(observation), observation)


def shuffled_from(tiles: list[int], start: int, rng: random.Random) -> list[int]:
    """``tiles`` with those from ``start`` on (not yet drawn) in a new random order."""
    rest = tiles[start:]
    rng.shuffle(rest)
    return tiles[:start] + rest


def reorder_boneyard(world: Any, rng: random.Random) -> None:
    """High Five: the undrawn boneyard in a new random order."""
    world.boneyard = shuffled_from(world.boneyard, world.bpos, rng)


def reorder_deals(world: Any, rng: random.Random) -> None:
    """High Fives: the tiles of the deals still to come and those still to be turned up, dealt
    anew (the hands of the deal in play, and a last deal's tiles already turned up, kept)."""
    k = world.deal
    later = world.deals[k + 1 :]
    if not later:
        return
    tiles = [t for deal in later for hand in deal for t in hand] + list(world.extra)
    rng.shuffle(tiles)
    pos, deals = 0, []
    for deal in later:
        hands = []
        for hand in deal:
            hands.append(bytes(sorted(tiles[pos : pos + len(hand)])))
            pos += len(hand)
        deals.append(tuple(hands))
    world.deals = world.deals[: k + 1] + tuple(deals)
    world.extra = bytes(tiles[pos:])


def reorder_pile(world: Any, rng: random.Random) -> None:
    """Highrise: the undrawn pile in a new random order."""
    world.pile_ids = shuffled_from(world.pile_ids, world.pos, rng)


REORDER = {"highfive": reorder_boneyard, "high-fives": reorder_deals, "highrise": reorder_pile}
"""The games the seer plays: how each hides what is still to come in a world."""


class Seer(Cheater):
    """Sees the true hands but not what is still to come (High Five: the boneyard's order;
    High Fives: the deals still to be dealt; Highrise: the pile's order): values every legal
    action over the expert level's count of worlds (times the game's scale), what is to come
    reordered in each, with greedy play-outs."""

    name = "seer"

    def __init__(self, state: GameState, rng: random.Random) -> None:
        if state.game not in REORDER:
            raise SystemExit(f"the seer plays only {', '.join(REORDER)}")
        super().__init__(state)
        self.rng = rng
        search = get_spec(state.game).search
        scale = 1 if search is None else search.world_scale
        self.orders = LEVELS["expert"].worlds * scale

    def worlds(self) -> Iterator[tuple[GameState, int]]:
        """The true state with what is still to come reordered, :attr:`orders` times."""
        reorder = REORDER[self.state.game]
        for _ in range(self.orders):
            world: Any = self.state.copy()
            reorder(world, self.rng)
            yield world, self.rng.getrandbits(32)


class LateSeer(Seer):
    """High Five: the seer once every other seat has played ``after`` tiles in the hand in
    play, the expert level before (with fixed worlds unless ``timed``)."""

    def __init__(self, state: GameState, rng: random.Random, after: int, timed: bool) -> None:
        if state.game != "highfive":
            raise SystemExit("seer-from-K plays only highfive")
        super().__init__(state, rng)
        self.after = after
        self.name = f"seer-from-{after}"
        self.expert = ExpertBot(rng, "expert", time_budget="level" if timed else None)

    def choose(self, observation: Observation[Action]) -> Action:
        """The seer's choice once the other seats have played enough; the expert's before."""
        played = Counter(e.seat for e in getattr(observation, "history", ()) if e.kind == "play")
        others = (s for s in range(observation.num_seats) if s != observation.seat)
        if all(played[s] >= self.after for s in others):
            return super().choose(observation)
        return self.expert.choose(observation)


class Timed:
    """A bot whose decisions are timed; an expert's searches cut short by its budget counted."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, observation: Observation[Action]) -> Action:
        started = time.perf_counter()
        bot = self.bot
        action = bot.choose(observation)
        self.times.append(time.perf_counter() - started)
        return action

    @property
    def cut(self) -> int:
        """Searches the bot's time budget cut short (an expert's; 0 for any other bot)."""
        return self.bot.cut_short if isinstance(self.bot, ExpertBot) else 0


@dataclass(frozen=True, slots=True)
class Task:
    """One game: the bots by seat, the seeds, and whether budgets are on."""

    game: str
    lineup: tuple[str, ...]
    deal_seed: int
    bot_seed: int
    timed: bool


def make(name: str, rng: random.Random, state: GameState, timed: bool) -> Any:
    """A bot by name: ``cheater``, ``seer``, an expert level (fixed worlds unless ``timed``), or
    any other bot ``make_bot`` knows."""
    if name == "cheater":
        return Cheater(state)
    if name == "seer":
        return Seer(state, rng)
    if name.startswith("seer-from-") and name.removeprefix("seer-from-").isdigit():
        return LateSeer(state, rng, int(name.removeprefix("seer-from-")), timed)
    if name in LEVELS:
        return ExpertBot(rng, name, time_budget="level" if timed else None)
    return make_bot(name, rng)


def seated(task: Task, state: GameState) -> list[Any]:
    """The task's bots by seat, each with its own generator (the same in a whole game and in
    a first hand, so ``--hands`` plays the bots a match plays)."""
    return [
        make(b, random.Random(task.bot_seed * 31 + i), state, task.timed)
        for i, b in enumerate(task.lineup)
    ]


def play(task: Task) -> dict[str, Any]:
    """Play one game; the winner, the scores, and each seat's decision times and cut searches."""
    spec = get_spec(task.game)
    n = len(task.lineup)
    state = spec.new_game(n, {})
    bots = [Timed(b) for b in seated(task, state)]
    play_out(state, [b.choose for b in bots], random.Random(task.deal_seed))
    result = state.result()
    assert result is not None
    return {
        "lineup": task.lineup,
        "winner": result.winner,
        "scores": list(result.scores),
        "times": [b.times for b in bots],
        "cut": [b.cut for b in bots],
    }


def lineup(game: str, players: int, bot: str, against: str) -> list[str]:
    """The bots by seat before rotation: one ``bot`` among ``against`` bots, except
    Merry-Go-Round with 4 (partnerships, seats 0 and 2 against 1 and 3: two of each)."""
    if game == "merry-go-round" and players == 4:
        return [bot, against, bot, against]
    return [bot] + [against] * (players - 1)


def fair_share(game: str, players: int) -> float:
    """The share of games a bot (its side) of equal strength wins."""
    return 0.5 if game == "merry-go-round" and players == 4 else 1 / players


def plan(
    game: str, players: int, bot: str, against: str, games: int, seed: int, timed: bool
) -> list[Task]:
    """The games of a match, whole rotations of the seats (``boneyard arena``'s seeds)."""
    base = lineup(game, players, bot, against)
    out: list[Task] = []
    deal = 0
    while len(out) < games:
        for r in range(players):
            seats = tuple(base[(i - r) % players] for i in range(players))
            bot_seed = seed * 7_919_000 + len(out)
            out.append(Task(game, seats, seed * 1_000_000 + deal, bot_seed, timed))
        deal += 1
    return out


def outcomes(tasks: Sequence[Task], jobs: int) -> Iterator[dict[str, Any]]:
    """The games played, in order (in a process pool with more than one job)."""
    if jobs == 1:
        yield from map(play, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play, tasks, chunksize=2)


def measure(
    game: str, players: int, bot: str, against: str, games: int, jobs: int, seed: int, timed: bool
) -> dict[str, Any]:
    """Play one match and return its figures."""
    share = fair_share(game, players)
    tasks = plan(game, players, bot, against, games, seed, timed)
    load_before = os.getloadavg()
    started = time.perf_counter()
    done = list(outcomes(tasks, jobs))
    elapsed = time.perf_counter() - started
    won = [str(int(o["winner"] is not None and o["lineup"][o["winner"]] == bot)) for o in done]
    wins = won.count("1")
    rate = wins / len(done)
    ci = wilson(wins, len(done))
    mine = [(o, s) for o in done for s, b in enumerate(o["lineup"]) if b == bot]
    times = [t for o, s in mine for t in o["times"][s]]
    searched = [t for t in times if t > 0.002]
    points = sum(o["scores"][s] for o, s in mine) / len(mine)
    theirs = [(o, s) for o in done for s, b in enumerate(o["lineup"]) if b != bot]
    points_against = sum(o["scores"][s] for o, s in theirs) / len(theirs)
    their_times = [t for o, s in theirs for t in o["times"][s]]
    their_searched = [t for t in their_times if t > 0.002]

    def rel(x: float) -> float:
        return elo(x) - elo(share)

    target = TARGETS.get((game, players, against)) if bot == "expert" else None
    return {
        "game": game,
        "players": players,
        "bot": bot,
        "against": against,
        "fair_share": share,
        "games": len(done),
        "wins": wins,
        "win_rate": rate,
        "ci95": list(ci),
        "elo": rel(rate),
        "elo_ci95": [rel(ci[0]), rel(ci[1])],
        "avg_points": points,
        "avg_points_against": points_against,
        "decisions": len(times),
        "searched": len(searched),
        "cut_short": sum(o["cut"][s] for o, s in mine),
        "p50_time_s": percentile(times, 0.5),
        "p95_time_s": percentile(times, 0.95),
        "p95_searched_time_s": percentile(searched, 0.95),
        "against_p95_time_s": percentile(their_times, 0.95),
        "against_p95_searched_time_s": percentile(their_searched, 0.95),
        "max_time_s": max(times, default=0.0),
        "timed": timed,
        "seed": seed,
        "jobs": jobs,
        "elapsed_s": elapsed,
        "seconds_per_game": elapsed / len(done),
        "load": [list(load_before), list(os.getloadavg())],
        "target": target,
        "target_met": None if target is None else rate >= target,
        "won": "".join(won),
    }


def one_hand(bot: str, task: Task) -> int:
    """Play the first hand of one game; ``bot``'s chips in it minus the most any other seat
    took (the expert's play-outs' measure)."""
    spec = get_spec(task.game)
    n = len(task.lineup)
    state: Any = spec.new_game(n, {})  # every game's state keeps its seats' ``scores``
    bots = seated(task, state)
    rng = random.Random(task.deal_seed)
    while state.awaiting_deal:
        state.deal_random(rng)
    hand = state.hands_dealt
    before = list(state.scores)
    while not state.is_over and not state.awaiting_deal and state.hands_dealt == hand:
        seat = state.current_seat
        state.apply(bots[seat].choose(state.observation(seat)))
    gains: list[int] = [state.scores[i] - before[i] for i in range(n)]
    me = task.lineup.index(bot)
    return gains[me] - max(g for i, g in enumerate(gains) if i != me)


def measure_hands(
    game: str, players: int, bot: str, against: str, hands: int, jobs: int, seed: int
) -> dict[str, Any]:
    """``--hands``: ``bot``'s mean chip differential over the first hands of ``hands`` games
    (mirrored deals, fixed worlds), with its 95% interval: less noisy than whole games' win
    rates, for comparing versions of a bot."""
    tasks = plan(game, players, bot, against, hands, seed, False)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        diffs = list(pool.map(partial(one_hand, bot), tasks, chunksize=4))
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return {
        "game": game,
        "players": players,
        "bot": bot,
        "against": against,
        "diffs": diffs,
        "hands": len(diffs),
        "mean_diff": mean,
        "ci95": [mean - half, mean + half],
        "seed": seed,
    }


def show(c: Console, doc: dict[str, Any]) -> None:
    """Print one match's figures."""
    how = "time budgets on" if doc["timed"] else "fixed worlds"
    c.print(
        f"[bold]{doc['game']}, {doc['players']} players: {doc['bot']} vs {doc['against']}[/] "
        f"({how}), {doc['games']} games (seed {doc['seed']}, {doc['jobs']} processes)"
    )
    c.print(
        f"  win rate {doc['win_rate']:.1%} ({doc['wins']}/{doc['games']}; 95% CI "
        f"{doc['ci95'][0]:.1%}–{doc['ci95'][1]:.1%}; fair share {doc['fair_share']:.0%}); "
        f"Elo {doc['elo']:+.0f} ({doc['elo_ci95'][0]:+.0f} to {doc['elo_ci95'][1]:+.0f})"
        + (
            ""
            if doc["target"] is None
            else f"; target {doc['target']:.0%}: "
            + ("met" if doc["target_met"] else "[red]missed[/]")
        )
    )
    load = doc["load"]
    c.print(
        f"  average final points {doc['avg_points']:.1f} vs {doc['avg_points_against']:.1f}; "
        f"decision time p50 {doc['p50_time_s'] * 1000:.0f} ms, p95 {doc['p95_time_s']:.3f} s "
        f"(searched only {doc['p95_searched_time_s']:.3f} s; {doc['against']}: "
        f"{doc['against_p95_time_s']:.3f} s, {doc['against_p95_searched_time_s']:.3f} s), "
        f"max {doc['max_time_s']:.3f} s "
        f"over {doc['decisions']} decisions, {doc['cut_short']} cut short by the budget; "
        f"{doc['seconds_per_game']:.1f} s a game; load {load[0][0]:.1f} → {load[1][0]:.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    """Play the match(es) and print the figures; exit 1 when a measured target is missed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="highfive")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all", action="store_true", help="the issue's table: every game")
    ap.add_argument("--ladder", action="store_true", help="each level against the one below")
    ap.add_argument("--only", default="", help="with --all: games to keep, comma-separated")
    ap.add_argument("--timed", action="store_true", help="the levels' time budgets on")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--hands", action="store_true", help="the mean chips a hand instead of games won"
    )
    args = ap.parse_args(argv)
    if args.hands:
        doc = measure_hands(
            args.game, args.players, args.bot, args.against, args.games, args.jobs, args.seed
        )
        sys.stdout.write(json.dumps(doc) + "\n")
        return 0
    env = {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "compiled": not state_module.__file__.endswith(".py"),
    }
    if args.all:
        todo = matches({g for g in args.only.split(",") if g})
    elif args.ladder:
        todo = [(args.game, args.players, b, a) for b, a in LADDER]
    else:
        todo = [(args.game, args.players, args.bot, args.against)]
    c = Console(highlight=False)
    missed = False
    for game, players, bot, against in todo:
        doc = measure(game, players, bot, against, args.games, args.jobs, args.seed, args.timed)
        doc.update(env)
        missed = missed or doc["target_met"] is False
        if args.json:
            sys.stdout.write(json.dumps(doc) + "\n")
            sys.stdout.flush()
        else:
            show(c, doc)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
