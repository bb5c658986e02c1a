"""Bot strength: the expert bot against greedy over mirrored games, with the decision times.

Run ``.venv/bin/python bench/strength.py`` (defaults: High Five, 2 players, ``expert`` vs
``greedy``, 200 games, 2 worker processes, seed 1; ``--games 1000`` for the issue's full figure,
``--json`` for one JSON object). ``--all`` measures every game and player count in turn
(High Five 2/3/4, Merry-Go-Round 2/3/4, High Fives 2/4/6, Highrise 2/3/4), each for at most
``--games`` games and, with ``--budget SECONDS``, until that much wall time is spent (always
whole rotations of the seats). Method and figures: docs/performance.md, "Bot strength".

Each deal sequence (a deal seed) is played once per rotation of the seats (with two players:
twice, the seats swapped: mirrored deals), every game to its end under the default options.
The table: with two players the expert against greedy; with more, one expert against greedy
bots in every other seat (its fair share of wins is 1/players), except Merry-Go-Round with 4
(partnerships: two experts partnered against two greedy bots, fair share 1/2). The win rate's
95% interval is Wilson's; the Elo difference comes from the win rate and its interval bounds
(relative to the fair share). Decision times are wall-clock times of ``bot.choose(observation)``
for every decision of the expert, including forced moves (which it answers without searching),
measured inside the worker processes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rich.console import Console

import boneyard.games.highfive.state as state_module
from boneyard.bots.arena import (
    ArenaGame,
    Outcome,
    elo,
    percentile,
    plan,
    play_game,
    summarise,
    wilson,
)

TARGET_RATE = 0.60
TARGET_LOW = 0.57
TARGET_P95 = 1.0

CONFIGS: tuple[tuple[str, int], ...] = (
    ("highfive", 2),
    ("highfive", 3),
    ("highfive", 4),
    ("merry-go-round", 2),
    ("merry-go-round", 3),
    ("merry-go-round", 4),
    ("high-fives", 2),
    ("high-fives", 4),
    ("high-fives", 6),
    ("highrise", 2),
    ("highrise", 3),
    ("highrise", 4),
)
"""Every game and player count ``--all`` measures."""


def lineup(game: str, players: int, bot: str, against: str) -> tuple[list[str], float]:
    """The bots seated in order (rotated by :func:`plan`) and the bot's fair share of wins."""
    if game == "merry-go-round" and players == 4:
        return [bot, against], 0.5
    return [bot] + [against] * (players - 1), 1 / players


def _outcomes(
    tasks: list[ArenaGame], jobs: int, budget: float | None, players: int
) -> Iterator[Outcome]:
    """Play the tasks (in order with one job, stopping after a whole rotation of the seats once
    ``budget`` seconds are spent); with more jobs, all of them in a process pool."""
    if jobs == 1:
        started = time.perf_counter()
        for k, task in enumerate(tasks):
            yield play_game(task)
            whole = (k + 1) % players == 0
            if budget is not None and whole and time.perf_counter() - started >= budget:
                return
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_game, tasks, chunksize=4)


def measure(
    game: str,
    players: int,
    bot: str,
    against: str,
    games: int,
    jobs: int,
    seed: int,
    budget: float | None = None,
) -> dict[str, Any]:
    """Play one match and return its figures."""
    bots, share = lineup(game, players, bot, against)
    tasks = plan(game, players, bots, games, seed)
    started = time.perf_counter()
    outcomes = list(_outcomes(tasks, jobs, budget, players))
    elapsed = time.perf_counter() - started
    figures = {f.bot: f for f in summarise(outcomes)}
    mine = figures[bot]
    # Games won by the bot (its side): summarise counts seats, and a partnership seats two.
    wins = sum(1 for o in outcomes if o.winner is not None and o.lineup[o.winner] == bot)
    rate = wins / max(1, len(outcomes))
    ci = wilson(wins, len(outcomes))
    times = [t for o in outcomes for s, b in enumerate(o.lineup) if b == bot for t in o.times[s]]
    searched = [t for t in times if t > 0.002]

    # Elo relative to the fair share (summarise takes 1/players; partnerships have 1/2).
    def rel(x: float) -> float:
        return elo(x) - elo(share)

    return {
        "game": game,
        "players": players,
        "bot": bot,
        "against": against,
        "lineup": bots,
        "fair_share": share,
        "games": len(outcomes),
        "jobs": jobs,
        "seed": seed,
        "wins": wins,
        "win_rate": rate,
        "ci95": list(ci),
        "elo": rel(rate),
        "elo_ci95": [rel(ci[0]), rel(ci[1])],
        "avg_points": mine.avg_points,
        "avg_points_against": figures[against].avg_points,
        "decisions": len(times),
        "p50_time_s": percentile(times, 0.5),
        "p95_time_s": percentile(times, 0.95),
        "p95_searched_time_s": percentile(searched, 0.95),
        "max_time_s": max(times, default=0.0),
        "elapsed_s": elapsed,
        "seconds_per_game": elapsed / max(1, len(outcomes)),
    }


def _print(c: Console, doc: dict[str, Any]) -> None:
    share = doc["fair_share"]
    c.print(
        f"[bold]{doc['game']}, {doc['players']} players: {doc['bot']} vs {doc['against']}[/] "
        f"(seats {', '.join(doc['lineup'])}, rotated), {doc['games']} games "
        f"(seed {doc['seed']}, {doc['jobs']} processes)"
    )
    c.print(
        f"  win rate {doc['win_rate']:.1%} (95% CI {doc['ci95'][0]:.1%}–{doc['ci95'][1]:.1%}; "
        f"fair share {share:.0%}); Elo {doc['elo']:+.0f} "
        f"({doc['elo_ci95'][0]:+.0f} to {doc['elo_ci95'][1]:+.0f})"
    )
    c.print(
        f"  average final points {doc['avg_points']:.1f} vs {doc['avg_points_against']:.1f}; "
        f"decision time p50 {doc['p50_time_s'] * 1000:.0f} ms, p95 {doc['p95_time_s']:.3f} s "
        f"(searched only {doc['p95_searched_time_s']:.3f} s), max {doc['max_time_s']:.3f} s "
        f"over {doc['decisions']} decisions; {doc['seconds_per_game']:.1f} s a game"
    )


def main(argv: list[str] | None = None) -> int:
    """Play the match(es) and print the figures; exit 1 when a High Five 2p target is missed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="highfive")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all", action="store_true", help="every game and player count")
    ap.add_argument("--only", default="", help="with --all: games to keep, comma-separated")
    ap.add_argument("--budget", type=float, default=None, help="seconds per match (with --jobs 1)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    env = {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "compiled": not state_module.__file__.endswith(".py"),
    }
    c = Console(highlight=False)
    if args.all:
        keep = {g for g in args.only.split(",") if g}
        docs = []
        for game, players in CONFIGS:
            if keep and game not in keep:
                continue
            doc = measure(
                game,
                players,
                args.bot,
                args.against,
                args.games,
                args.jobs,
                args.seed,
                args.budget,
            )
            doc.update(env)
            docs.append(doc)
            if args.json:
                sys.stdout.write(json.dumps(doc) + "\n")
                sys.stdout.flush()
            else:
                _print(c, doc)
        return 0
    doc = measure(
        args.game,
        args.players,
        args.bot,
        args.against,
        args.games,
        args.jobs,
        args.seed,
        args.budget,
    )
    doc.update(env)
    doc["seconds_per_1000_games"] = doc["seconds_per_game"] * 1000
    targeted = args.game == "highfive" and args.players == 2
    ok = (
        doc["win_rate"] >= TARGET_RATE
        and doc["ci95"][0] > TARGET_LOW
        and doc["p95_time_s"] <= TARGET_P95
    )
    doc["targets_met"] = ok if targeted else None
    if args.json:
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return 0 if ok or not targeted else 1
    _print(c, doc)
    if targeted:
        c.print(
            f"  targets (High Five, 2 players): win rate ≥ {TARGET_RATE:.0%} with the lower "
            f"bound > {TARGET_LOW:.0%}, p95 ≤ {TARGET_P95} s: "
            + ("met" if ok else "[red]missed[/]")
        )
    return 0 if ok or not targeted else 1


if __name__ == "__main__":
    raise SystemExit(main())
