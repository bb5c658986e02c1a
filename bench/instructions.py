"""Engine cost in instructions: random-vs-random hands counted by valgrind's callgrind.

Run ``.venv/bin/python bench/instructions.py highfive 2`` (``--hands`` sets how many). The loop is
bench/engine.py's (registry, ``new_game``, ``deal_random``, ``legal_actions()``,
``rng.randrange``, ``apply``), but for a fixed number of hands instead of a time budget, run twice
under callgrind (20 hands, then 20 more than asked); the difference, per hand and per action, is
the cost without the start-up. Unlike a time, it does not move with the load of a shared machine,
so it compares two builds exactly (an instruction count is not a time: it leaves out cache
misses). Needs ``valgrind``; a run of 2,000 hands takes about a minute. Figures:
docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence

from boneyard.games import registry

WARM = 20


def play(game: str, players: int, hands: int, seed: int) -> int:
    """Play ``hands`` random hands (whole games, new ones as needed); the actions applied."""
    spec = registry.get_spec(game)
    rng = random.Random(seed)
    randrange = rng.randrange
    done = actions = 0
    while done < hands:
        state = spec.new_game(players, {})
        while not state.is_over and done < hands:
            if state.awaiting_deal:
                state.deal_random(rng)
                continue
            legal_actions, apply = state.legal_actions, state.apply
            while True:
                legal = legal_actions()
                apply(legal[randrange(len(legal))])
                actions += 1
                if state.current_seat is None:
                    break
            done += 1
    return actions


def counted(game: str, players: int, hands: int, seed: int) -> tuple[int, int]:
    """Instructions and actions of one run of :func:`play` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={tmp}/out",
            sys.executable,
            __file__,
            "--play",
            game,
            str(players),
            "--hands",
            str(hands),
            "--seed",
            str(seed),
        ]
        run = subprocess.run(cmd, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit(f"callgrind gave no count:\n{run.stderr}")
    return int(found.group(1)), int(run.stdout.split()[-1])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--play", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        print(play(args.game, args.players, args.hands, args.seed))
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (it counts the instructions)")
    base, base_actions = counted(args.game, args.players, WARM, args.seed)
    total, actions = counted(args.game, args.players, WARM + args.hands, args.seed)
    cost, acts = total - base, actions - base_actions
    print(
        f"{args.game} {args.players}p: {cost / args.hands:,.0f} instructions a hand, "
        f"{cost / acts:,.0f} an action ({acts / args.hands:.1f} actions a hand)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
