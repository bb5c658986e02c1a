"""Self-play speed: batched self-play and the PettingZoo environment against the raw engine, in
the same run.

Run ``nice -n 10 .venv/bin/python bench/selfplay.py`` (``--json`` for one JSON object,
``--seconds`` for each measurement's budget, ``--runs`` for how many times the whole set is
measured, ``--game`` to pick games). Figures: docs/performance.md, "Self-play".

Three things are measured for each game (two players), taking turns of a quarter of a second
until each has had its ``--seconds``, so that they share the machine's load (printed with each
run: ``os.getloadavg``):

* **engine**: random play through the public API, as a learner would without the adapters:
  ``deal_random`` when a deal is awaited, else ``apply`` of a uniformly random pick of
  ``legal_actions()`` — decisions (applied actions) per second;
* **selfplay-B**: :class:`boneyard.rl.vector.SelfPlay` with B games, every step a uniformly
  random legal id for every game (``random_actions`` where the class has it, else a pick from
  each row's mask: :func:`pick`), decisions per second (B per step) — at B = 1, 64 and 256;
* **pettingzoo**: one ``boneyard.rl.pettingzoo.env`` game through PettingZoo's loop
  (``agent_iter``, ``last``, a random id of the mask by :func:`pick`, ``step``), steps per
  second.

The script uses only what every version of the adapters has, so the same file measures an
older checkout too (``--json`` of two checkouts, compared: docs/performance.md). The ratio to
the engine is each figure over the engine's in the same run; the median of the runs is kept.
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
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import numpy as np

from boneyard.games.registry import get_spec
from boneyard.rl.pettingzoo import env
from boneyard.rl.vector import SelfPlay

GAMES = ("highfive", "merry-go-round", "high-fives", "highrise")
BATCHES = (1, 64, 256)


SLICE = 0.25
"""Seconds of one turn of a measurement: the measurements of a game take turns, so that a load
that comes and goes weighs on them alike."""


def interleaved(
    steps: dict[str, Callable[[], int]], seconds: float
) -> dict[str, tuple[float, float]]:
    """Units per second of each ``steps`` function (it returns the units it did), each run for
    ``seconds`` in turns of :data:`SLICE`: per second of the clock on the wall, and per second of
    this process's CPU time (which other processes' load does not take away)."""
    done = dict.fromkeys(steps, 0)
    wall = dict.fromkeys(steps, 0.0)
    cpu = dict.fromkeys(steps, 0.0)
    for step in steps.values():
        step()  # warm-up
    while min(wall.values()) < seconds:
        for name, step in steps.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            while (elapsed := time.perf_counter() - start) < SLICE:
                done[name] += step()
            wall[name] += elapsed
            cpu[name] += time.process_time() - start_cpu
    return {name: (done[name] / wall[name], done[name] / cpu[name]) for name in steps}


def pick(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    """A uniformly random id of ``mask`` (cheaper than ``rng.choice``, whose cost would be most
    of an environment step). The int8 mask is read as booleans: numpy's ``nonzero`` has a fast
    path for booleans only (over High Fives' 27,812 ids, about 1 µs against 40 µs), and the
    policy's cost is not the environment's."""
    ids = mask.view(np.bool_).nonzero()[0]
    return int(ids[int(rng.random() * len(ids))])


def engine(game: str) -> Callable[[], int]:
    """Random play through the public API: a step and the decisions it made."""
    spec, rng = get_spec(game), random.Random(1)
    box = [spec.new_game(2, {})]

    def step() -> int:
        done = 0
        for _ in range(200):
            state = box[0]
            if state.is_over:
                box[0] = state = spec.new_game(2, {})
            if state.awaiting_deal:
                state.deal_random(rng)
                continue
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            done += 1
        return done

    return step


def selfplay(game: str, batch: int) -> Callable[[], int]:
    """Batched self-play with a random policy: a step and the decisions it made."""
    play = SelfPlay(game, games=batch, players=2, seed=1)
    rng = np.random.default_rng(1)
    sample = getattr(play, "random_actions", None)

    def step() -> int:
        if sample is not None:
            actions = sample(rng)
        else:
            _obs, masks, _seats = play.observe()
            actions = np.array([pick(m, rng) for m in masks])
        play.step(actions)
        return batch

    return step


def pettingzoo(game: str) -> Callable[[], int]:
    """One PettingZoo environment with a random policy: a step and the steps it made."""
    game_env = env(game, 2)
    game_env.reset(seed=1)
    rng = np.random.default_rng(1)
    agents = [iter(game_env.agent_iter())]

    def step() -> int:
        done = 0
        for _ in range(50):
            agent = next(agents[0], None)
            if agent is None:
                game_env.reset(seed=int(rng.integers(2**31)))
                agents[0] = iter(game_env.agent_iter())
                continue
            observation, _reward, terminated, truncated, _info = game_env.last()
            if terminated or truncated:
                game_env.step(None)
            else:
                game_env.step(pick(observation["action_mask"], rng))
            done += 1
        return done

    return step


def one_run(games: list[str], seconds: float) -> dict[str, Any]:
    """Every figure once, game by game, with the load before and after."""
    out: dict[str, Any] = {"load_before": round(os.getloadavg()[0], 2), "games": {}}
    for game in games:
        steps = {"engine": engine(game)}
        for b in BATCHES:
            steps[f"selfplay-{b}"] = selfplay(game, b)
        steps["pettingzoo"] = pettingzoo(game)
        figures = interleaved(steps, seconds)
        out["games"][game] = {k: round(wall) for k, (wall, _cpu) in figures.items()}
        out["games_cpu"] = out.get("games_cpu", {})
        out["games_cpu"][game] = {k: round(cpu) for k, (_wall, cpu) in figures.items()}
        print(f"  {game}: {out['games'][game]} cpu {out['games_cpu'][game]}", file=sys.stderr)
    out["load_after"] = round(os.getloadavg()[0], 2)
    return out


def summary(runs: list[dict[str, Any]], games: list[str], key: str) -> dict[str, Any]:
    """The median of each figure over the runs (``key``: ``games`` per wall second,
    ``games_cpu`` per CPU second), and its ratio to the engine's (run by run)."""
    out: dict[str, Any] = {}
    for game in games:
        keys = runs[0][key][game]
        medians = {k: statistics.median(r[key][game][k] for r in runs) for k in keys}
        ratios = {
            k: round(statistics.median(r[key][game][k] / r[key][game]["engine"] for r in runs), 3)
            for k in keys
            if k != "engine"
        }
        out[game] = {"median": medians, "ratio_to_engine": ratios}
    return out


def main() -> int:
    """Measure, then print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="budget of each measurement")
    parser.add_argument("--runs", type=int, default=3, help="how many times to measure it all")
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    games = args.game or list(GAMES)
    runs = []
    for k in range(args.runs):
        print(f"run {k + 1} of {args.runs}", file=sys.stderr)
        runs.append(one_run(games, args.seconds))
    doc = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "compiled": _compiled(),
        "runs": runs,
        "summary": summary(runs, games, "games"),
        "summary_cpu": summary(runs, games, "games_cpu"),
    }
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    for label, key in (("per wall second", "summary"), ("per CPU second", "summary_cpu")):
        print(f"{label}:")
        for game, figures in doc[key].items():
            print(f"{game}: engine {figures['median']['engine']:,.0f} decisions/s")
            for name, ratio in figures["ratio_to_engine"].items():
                unit = "steps/s" if name == "pettingzoo" else "decisions/s"
                print(f"  {name:12} {figures['median'][name]:>10,.0f} {unit}  {ratio:.3f} × engine")
    loads = [(r["load_before"], r["load_after"]) for r in runs]
    print(f"load (1 min) before/after each run: {loads}; compiled engine: {doc['compiled']}")
    return 0


def _compiled() -> bool:
    """Whether the engine is the compiled build (mypyc)."""
    import boneyard.core.state as state

    return str(state.__file__).endswith((".so", ".pyd"))


if __name__ == "__main__":
    sys.exit(main())
