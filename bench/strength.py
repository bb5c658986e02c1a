"""Bot strength: the expert bot against greedy over mirrored games, with the decision times.

Run ``.venv/bin/python bench/strength.py`` (defaults: High Five, 2 players, ``expert`` vs
``greedy``, 200 games, 2 worker processes, seed 1; ``--games 1000`` for the issue's full figure,
``--json`` for one JSON object). Method and figures: docs/performance.md, "Bot strength".

Each deal sequence (a deal seed) is played twice with the seats swapped (mirrored deals), every
game to 150 under the default options. The win rate's 95% interval is Wilson's; the Elo
difference comes from the win rate and its interval bounds. Decision times are wall-clock times
of ``bot.choose(observation)`` for every decision of the expert, including forced moves
(which it answers without searching), measured inside the worker processes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console

import boneyard.games.highfive.state as state_module
from boneyard.bots.arena import Outcome, percentile, plan, play_game, summarise

TARGET_RATE = 0.60
TARGET_LOW = 0.57
TARGET_P95 = 1.0


def main(argv: list[str] | None = None) -> int:
    """Play the match and print the figures; exit 1 when a target is missed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="highfive")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    tasks = plan(args.game, args.players, [args.bot, args.against], args.games, args.seed)
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for o in pool.map(play_game, tasks, chunksize=4):
            outcomes.append(o)
    elapsed = time.perf_counter() - started
    figures = {f.bot: f for f in summarise(outcomes)}
    bot = figures[args.bot]
    times = [
        t for o in outcomes for s, b in enumerate(o.lineup) if b == args.bot for t in o.times[s]
    ]
    searched = [t for t in times if t > 0.002]
    per_game = elapsed / len(outcomes)
    doc = {
        "game": args.game,
        "players": args.players,
        "bot": args.bot,
        "against": args.against,
        "games": len(outcomes),
        "jobs": args.jobs,
        "seed": args.seed,
        "wins": bot.wins,
        "win_rate": bot.win_rate,
        "ci95": list(bot.ci),
        "elo": bot.elo,
        "elo_ci95": list(bot.elo_ci),
        "avg_points": bot.avg_points,
        "avg_points_against": figures[args.against].avg_points,
        "decisions": len(times),
        "p50_time_s": percentile(times, 0.5),
        "p95_time_s": percentile(times, 0.95),
        "p95_searched_time_s": percentile(searched, 0.95),
        "max_time_s": max(times, default=0.0),
        "elapsed_s": elapsed,
        "seconds_per_1000_games": per_game * 1000,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "compiled": not state_module.__file__.endswith(".py"),
    }
    ok = bot.win_rate >= TARGET_RATE and bot.ci[0] > TARGET_LOW and doc["p95_time_s"] <= TARGET_P95
    doc["targets_met"] = ok
    if args.json:
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return 0 if ok else 1
    c = Console(highlight=False)
    c.print(
        f"[bold]{args.game}, {args.players} players: {args.bot} vs {args.against}[/], "
        f"{len(outcomes)} mirrored games (seed {args.seed}, {args.jobs} processes)"
    )
    c.print(
        f"  win rate {bot.win_rate:.1%} (95% CI {bot.ci[0]:.1%}–{bot.ci[1]:.1%}; "
        f"target ≥ {TARGET_RATE:.0%} with the lower bound > {TARGET_LOW:.0%})"
    )
    c.print(f"  Elo {bot.elo:+.0f} (95% CI {bot.elo_ci[0]:+.0f} to {bot.elo_ci[1]:+.0f})")
    c.print(
        f"  average final points {bot.avg_points:.1f} vs {figures[args.against].avg_points:.1f}"
    )
    c.print(
        f"  decision time p50 {doc['p50_time_s'] * 1000:.0f} ms, p95 {doc['p95_time_s']:.3f} s "
        f"(searched decisions only: p95 {doc['p95_searched_time_s']:.3f} s), "
        f"max {doc['max_time_s']:.3f} s over {len(times)} decisions (target p95 ≤ {TARGET_P95} s)"
    )
    c.print(
        f"  took {elapsed:.0f} s ({per_game:.2f} s a game): 1,000 games take about "
        f"{per_game * 1000 / 60:.0f} min with {args.jobs} processes"
    )
    c.print("  targets met" if ok else "  [red]a target is missed[/]")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
