"""The exact end of a two-player High Five hand: what a solve costs where the expert makes one.

Run ``.venv/bin/python bench/endgame.py`` (``--games 300``, ``--runs 2``, ``--json``). It plays
the first hand of ``--games`` greedy games (two players, seed 0 upwards) and, at every position
with a choice once the boneyard is drawn — where the ``expert`` level solves the rest of the
hand instead of sampling (the other hand is then the unseen tiles) — times
:func:`boneyard.games.highfive.endgame.solve` at the level's cap of positions
(:data:`boneyard.bots.expert.EXACT_NODES`). It prints the CPU time of the solves (median, p95,
max, total: CPU time, so that a loaded machine does not stretch them), how many the cap
refused (the expert then samples), the machine's load, and whether the solver is the compiled
build. Figures: docs/performance.md, "Issue 29: the end of a hand solved in every world".
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

from boneyard.bots.arena import percentile
from boneyard.bots.expert import EXACT_NODES
from boneyard.core.state import PLAYING
from boneyard.games.highfive import endgame
from boneyard.games.highfive.state import HighFiveState
from boneyard.games.highfive.worlds import greedy_action
from boneyard.games.registry import get_spec


def determined(games: int) -> list[HighFiveState]:
    """Copies of every position with a choice once the boneyard is drawn, in the first hands
    of ``games`` greedy games."""
    out: list[HighFiveState] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = get_spec("highfive").new_game(2, {})
        assert isinstance(state, HighFiveState)
        state.deal_random(rng)
        while state.phase == PLAYING:
            if state.bpos == len(state.boneyard) and len(state.legal_actions()) > 1:
                out.append(state.copy())
            state.apply(greedy_action(state, rng))
    return out


def run(positions: list[HighFiveState]) -> dict[str, Any]:
    """Solve every position once; CPU seconds each, and how many the cap refused."""
    times: list[float] = []
    refused = 0
    for position in positions:
        start = time.process_time()
        refused += endgame.solve(position.copy(), EXACT_NODES) is None
        times.append(time.process_time() - start)
    return {
        "positions": len(times),
        "refused": refused,
        "median_s": percentile(times, 0.5),
        "p95_s": percentile(times, 0.95),
        "max_s": max(times, default=0.0),
        "total_s": sum(times),
        "load": os.getloadavg(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    positions = determined(args.games)
    compiled = not str(endgame.__file__).endswith(".py")
    for _ in range(args.runs):
        figures = run(positions) | {"compiled": compiled, "cap": EXACT_NODES}
        if args.json:
            print(json.dumps(figures))
            continue
        print(
            f"{figures['positions']} positions, {figures['refused']} refused by the cap of "
            f"{EXACT_NODES:,}: median {figures['median_s'] * 1e3:.2f} ms, p95 "
            f"{figures['p95_s'] * 1e3:.1f} ms, max {figures['max_s'] * 1e3:.0f} ms, total "
            f"{figures['total_s']:.2f} s CPU; load {figures['load'][0]:.1f}; compiled {compiled}"
        )


if __name__ == "__main__":
    main()
