"""Measure the peers' random-play speed; run by bench/engine.py inside bench/.peers/venv.

Prints one JSON object on stdout. Never imports boneyard: it runs in the peers' own environment
(``bash bench/setup_peers.sh``), started as ``.peers/venv/bin/python -I bench/peers_worker.py``.
``-I`` matters: all-fives-domino installs its code as a top-level package named ``src``.

What counts as one hand (see docs/performance.md):

* ``dominoes`` 6.1.0: one ``dominoes.Game``, which is one hand of its 4-player block game (28 tiles,
  7 each, no boneyard), from ``Game.new`` until ``game.result`` is set. Hands are played inside a
  ``dominoes.Series`` (to 200 points, the first hand led with 6-6 by whoever holds it, later hands
  by the series' rule), a new series starting when one ends. Each move is a uniformly random pick
  from ``game.valid_moves`` with the same ``rng.randrange`` as our side; passes are made by the
  package itself inside ``make_move``.
* ``all-fives-domino`` 1.0.23: one ``DominoRound`` (2 players, 7 tiles each, a boneyard, the
  opening double, draws and passes), constructed and ``run()`` to its end with the package's own
  ``RandomBrain`` players, then settled with ``Game.award_round_score``; a new ``Game`` starts when
  a player reaches its target (the package signals that with ``GameWinSignal``). The package has
  no other headless driver; it is used unpatched, non-interactive (no sleeps).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from typing import Any


def pin(cpu: int | None) -> int | None:
    """Pin this process to one CPU; the CPU used, or None when pinning is unavailable."""
    if cpu is None or not hasattr(os, "sched_setaffinity"):
        return None
    os.sched_setaffinity(0, {cpu})
    return cpu


def dominoes_hands(seconds: float, seed: int) -> dict[str, Any]:
    """Random-vs-random block hands (4 players) of ``dominoes`` for ``seconds`` of wall time."""
    import dominoes

    random.seed(seed)  # the package shuffles with the global generator
    rng = random.Random(seed)
    randrange = rng.randrange
    hands = placements = 0
    gc.collect()
    start = time.perf_counter()
    deadline = start + seconds
    series = dominoes.Series()
    game = series.games[0]
    while True:
        while game.result is None:
            valid = game.valid_moves
            game.make_move(*valid[randrange(len(valid))])
            placements += 1
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            break
        game = series.next_game()
        if game is None:
            series = dominoes.Series()
            game = series.games[0]
    elapsed = now - start
    return {
        "version": version("dominoes"),
        "unit": "block hand, 4 players",
        "hands": hands,
        "placements": placements,
        "elapsed": elapsed,
        "hands_per_s": hands / elapsed,
    }


def all_fives_domino_hands(seconds: float, seed: int) -> dict[str, Any]:
    """Random-vs-random 2-player rounds of ``all-fives-domino`` for ``seconds`` of wall time."""
    from src.main.game.Brain import RandomBrain
    from src.main.game.DominoRound import DominoRound
    from src.main.game.exceptions.Game import GameWinSignal
    from src.main.game.Game import Game
    from src.main.game.Player import Player

    random.seed(seed)  # the package shuffles and chooses with the global generator

    def new_game() -> Any:
        return Game(Player(RandomBrain(), "one"), Player(RandomBrain(), "two"))

    hands = placements = 0
    gc.collect()
    start = time.perf_counter()
    deadline = start + seconds
    game = new_game()
    while True:
        game.rounds += 1
        round_ = None
        try:
            round_ = DominoRound(game.player1, game.player2, game)
            game.round = round_
            round_.run()
            game.award_round_score()
        except GameWinSignal:
            game = new_game()
        if round_ is not None:
            placements += len(round_.board.get_pieces())
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "version": version("all-fives-domino"),
        "unit": "round, 2 players",
        "hands": hands,
        "placements": placements,
        "elapsed": elapsed,
        "hands_per_s": hands / elapsed,
    }


PEERS: dict[str, Callable[[float, int], dict[str, Any]]] = {
    "dominoes": dominoes_hands,
    "all_fives_domino": all_fives_domino_hands,
}


def main(argv: list[str] | None = None) -> int:
    """Measure each peer (a warm-up, then the timed run) and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="timed wall time per peer")
    parser.add_argument("--warmup", type=float, default=0.5, help="untimed warm-up per peer")
    parser.add_argument("--cpu", type=int, default=None, help="pin to this CPU")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(PEERS), action="append", help="measure only these")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cpu": pin(args.cpu),
        "peers": {},
    }
    for name in args.only or list(PEERS):
        measure = PEERS[name]
        try:
            if args.warmup > 0:
                measure(args.warmup, args.seed + 1)
            out["peers"][name] = measure(args.seconds, args.seed)
        except Exception as exc:  # a peer that fails is reported, not fatal
            out["peers"][name] = {"error": f"{type(exc).__name__}: {exc}"}
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
