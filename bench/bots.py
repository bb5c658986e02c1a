"""Bots from outside, measured: the process protocol's cost per decision.

Run ``.venv/bin/python bench/bots.py`` (``--games 100`` arena games per bot). It prints, for the
same heaviest-tile player written as an in-process plugin, as a Python program and as a Node
program (``cmd:``), the p50/p95 decision times measured around ``choose`` (a program's include the
pipe both ways and the JSON) and the whole arena's wall time, with the load of the machine
(``os.getloadavg``) beside each figure. Figures: docs/performance.md, "Bots from outside";
batched self-play is measured by ``bench/selfplay.py``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import time
from pathlib import Path

from boneyard.bots.arena import percentile, plan, play_game
from boneyard.bots.process import stop_idle

ROOT = Path(__file__).resolve().parents[1]


class Heaviest:
    """The heaviest-tile player of examples/python_bot.py, in process."""

    name = "heaviest"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: object) -> object:
        actions = observation.legal_actions  # type: ignore[attr-defined]
        return max(actions, key=lambda a: _pips(a.to_event().get("play")))


def _pips(tile: object) -> int:
    if not isinstance(tile, str):
        return -1
    return sum(7 if half == "W" else int(half) for half in tile.split("-"))


def arena(bot: str, games: int) -> str:
    start = time.perf_counter()
    times: list[float] = []
    for task in plan("highfive", 2, [bot, "greedy"], games, seed=2):
        outcome = play_game(task)
        seat = outcome.lineup.index(bot)
        times.extend(outcome.times[seat])
    wall = time.perf_counter() - start
    stop_idle()
    p50, p95 = percentile(times, 0.5) * 1e3, percentile(times, 0.95) * 1e3
    label = "in process" if not bot.startswith("cmd:") else "cmd: " + Path(bot.split()[-1]).name
    figures = f"p50 {p50:.3f} ms  p95 {p95:.3f} ms  {wall:.2f} s"
    return f"{label:<22} {len(times):>5} decisions  {figures}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    bots = ["bots:Heaviest", f"cmd:{sys.executable} {ROOT / 'examples' / 'python_bot.py'}"]
    if shutil.which("node"):
        bots.append(f"cmd:node {ROOT / 'examples' / 'node_bot.js'}")
    print(f"load {os.getloadavg()[0]:.2f}; High Five, 2 players, against greedy")
    for bot in bots:
        print(arena(bot, args.games), f"(load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
