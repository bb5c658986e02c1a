"""Tournament speed: whole PDA single- and double-elimination events of greedy bots, timed; and
the time to pair a Swiss round.

Run ``.venv/bin/python bench/tournament.py`` (``--format single|double|both|pairing``,
``--entrants``, ``--jobs``, ``--bots``, ``--seed``, ``--json``). The target is a 1,024-entrant
PDA bracket (best of 5, final best of 7, High Five with the ``pda`` rule preset, games to 150) of
greedy bots in at most 60 seconds on the project machine. ``both`` (the default) plays the
single-elimination bracket, then the double-elimination one (grand final best of 7, with a
reset), in the same run, so the two figures compare on the same machine load. For each it prints
entrants, matches, games, seconds, games per second and the CPU seconds used (this process and
its workers: the wall time an idle machine would need with one job); figures in
docs/tournaments.md.

``--format pairing`` times the pairing of Swiss rounds (``--entrants``, default 128 here, and
half and twice as many beside it in the same run, as peers), no games played: coin-flip
results from ``--seed``, every round of ``ceil(log2 n)``; a round's time is that of the result
that ends the round before it (the standings and the pairing), as a server pays it. It prints,
per size, the rounds' CPU seconds (median, largest, total: what pairing costs, whatever else
the machine runs), their wall seconds and the load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import time
from collections.abc import Iterator
from typing import Any

from boneyard.tournament import PDA, DoubleElimination, SingleElimination, Swiss, seed_random
from boneyard.tournament.simulate import simulate

TARGET_SECONDS = 60.0


def _cpu() -> float:
    """CPU seconds of this process and its finished workers (independent of other load)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(fmt: str, args: argparse.Namespace) -> dict[str, Any]:
    """Play one event of ``fmt`` (single or double) and return its figures."""
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    ids = [f"{names[i % len(names)]}-{i + 1:04d}" for i in range(args.entrants)]
    bots = {e: names[i % len(names)] for i, e in enumerate(ids)}
    order = seed_random(ids, random.Random(args.seed))
    cls = DoubleElimination if fmt == "double" else SingleElimination
    event = cls.create(order, PDA)
    start = time.perf_counter()
    cpu_start = _cpu()
    result = simulate(event, bots, "highfive", {"preset": "pda"}, seed=args.seed, jobs=args.jobs)
    seconds = time.perf_counter() - start
    cpu = _cpu() - cpu_start
    return {
        "format": f"{fmt}_elimination",
        "entrants": args.entrants,
        "bots": names,
        "jobs": args.jobs,
        "matches": result.matches,
        "games": result.games,
        "seconds": round(seconds, 2),
        "games_per_second": round(result.games / seconds, 1),
        "cpu_seconds": round(cpu, 2),
        "champion": result.event.champion,
        "target_seconds": TARGET_SECONDS,
        "within_target": seconds <= TARGET_SECONDS,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def pairing(entrants: int, seed: int) -> dict[str, Any]:
    """Pair every round of a Swiss event of ``entrants`` (coin-flip results) and time each:
    CPU seconds of this process (what the pairing costs, whatever else the machine runs) and
    wall seconds."""
    rng = random.Random(seed)
    ev = Swiss.create([f"p{i:04d}" for i in range(1, entrants + 1)])
    cpu: list[float] = []
    wall = 0.0
    while not ev.is_over:
        *first, last = ev.pending()
        for m in first:
            ev = ev.record_game(m.id, m.a if rng.random() < 0.5 else m.b)  # type: ignore[arg-type]
        start, cpu_start = time.perf_counter(), time.process_time()
        ev = ev.record_game(last.id, last.a if rng.random() < 0.5 else last.b)  # type: ignore[arg-type]
        if not ev.is_over:
            cpu.append(time.process_time() - cpu_start)
            wall += time.perf_counter() - start
    cpu.sort()
    return {
        "format": "swiss_pairing",
        "entrants": entrants,
        "rounds_paired": len(cpu),
        "median_round_cpu_seconds": round(cpu[len(cpu) // 2], 3),
        "largest_round_cpu_seconds": round(cpu[-1], 3),
        "total_cpu_seconds": round(sum(cpu), 3),
        "total_wall_seconds": round(wall, 2),
        "python": platform.python_version(),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    """Run the bench and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=("single", "double", "both", "pairing"), default="both")
    parser.add_argument("--entrants", type=int, help="default 1,024 (pairing: 128)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object per format")
    args = parser.parse_args()
    if args.format == "pairing":
        n = args.entrants or 128
        runs: Iterator[dict[str, Any]] = (pairing(x, args.seed) for x in (n // 2, n, 2 * n))
    else:
        args.entrants = args.entrants or 1024
        formats = ("single", "double") if args.format == "both" else (args.format,)
        runs = (run(fmt, args) for fmt in formats)
    for i, figures in enumerate(runs):
        if args.json:
            print(json.dumps(figures), flush=True)
            continue
        if i:
            print()
        for key, value in figures.items():
            print(f"{key:>18}: {value}", flush=True)


if __name__ == "__main__":
    main()
