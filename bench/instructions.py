"""Engine cost in instructions: random-vs-random hands counted by valgrind's callgrind.

Run ``.venv/bin/python bench/instructions.py highfive 2`` (``--hands`` sets how many). The loop is
bench/engine.py's (registry, ``new_game``, ``deal_random``, ``legal_actions()``,
``rng.randrange``, ``apply``), but for a fixed number of hands instead of a time budget, run twice
under callgrind (20 hands, then 20 more than asked); the difference, per hand and per action, is
the cost without the start-up. Unlike a time, it does not move with the load of a shared machine,
so it compares two builds exactly (an instruction count is not a time: it leaves out cache
misses). Needs ``valgrind``; a run of 2,000 hands takes about a minute. Figures:
docs/performance.md.

``--floor`` counts the same loop over the same hands with an engine that does no work: each
``legal_actions()`` hands back a listing of the length the real engine gave (built beforehand),
``apply`` only says whether the hand is over, and dealing costs nothing. What it prints is the
least any engine's hand can cost in this loop, given the number of actions its rules make a
hand take; the rest of a real hand's count is its engine's.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from typing import Any

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
            actions += play_hand(state, randrange)
            done += 1
    return actions


def play_hand(state: Any, randrange: Callable[[int], int]) -> int:
    """One hand of random play from a dealt ``state``; the actions applied. The loop of
    bench/engine.py, shared by the real engines and the floor's stand-in."""
    legal_actions, apply = state.legal_actions, state.apply
    actions = 0
    while True:
        legal = legal_actions()
        apply(legal[randrange(len(legal))])
        actions += 1
        if state.current_seat is None:
            return actions


def listing_lengths(game: str, players: int, hands: int, seed: int) -> list[list[int]]:
    """Each hand of :func:`play`'s loop as the lengths of its listings, one per action."""
    spec = registry.get_spec(game)
    rng = random.Random(seed)
    played: list[list[int]] = []
    while len(played) < hands:
        state = spec.new_game(players, {})
        while not state.is_over and len(played) < hands:
            if state.awaiting_deal:
                state.deal_random(rng)
                continue
            lengths: list[int] = []
            while state.current_seat is not None:
                legal = state.legal_actions()
                lengths.append(len(legal))
                state.apply(legal[rng.randrange(len(legal))])
            played.append(lengths)
    return played


class NullState:
    """A stand-in for a game state whose engine costs nothing: its methods are C built-ins."""

    __slots__ = ("apply", "current_seat", "legal_actions")
    apply: Callable[[int | None], None]
    current_seat: int | None
    legal_actions: Callable[[], list[int | None]]


def play_floor(hands_file: str, hands: int, seed: int) -> int:
    """:func:`play`'s loop over the first ``hands`` hands of ``hands_file`` on a :class:`NullState`.

    Every hand of the file is built into listings whatever ``hands`` is, so that two runs differ
    only by the loop. A listing's items are what ``apply`` sets ``current_seat`` to: 0, and
    ``None`` on a hand's last action.
    """
    with open(hands_file, encoding="utf-8") as f:
        played: list[list[int]] = json.load(f)
    listings = [
        [0 if i < len(lengths) - 1 else None] * n
        for lengths in played
        for i, n in enumerate(lengths)
    ]
    state = NullState()
    state.apply = functools.partial(setattr, state, "current_seat")
    state.legal_actions = iter(listings).__next__
    randrange = random.Random(seed).randrange
    actions = 0
    for _ in range(hands):  # play(), less the deals
        state.current_seat = 0
        actions += play_hand(state, randrange)
    return actions


def counted(game: str, players: int, hands: int, seed: int, floor: str = "") -> tuple[int, int]:
    """Instructions and actions of one run of :func:`play` (or of :func:`play_floor` over the
    hands in the file ``floor``) under callgrind."""
    mode = ["--floor-file", floor] if floor else ["--play"]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={tmp}/out",
            sys.executable,
            __file__,
            *mode,
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
    parser.add_argument(
        "--floor", action="store_true", help="the loop alone, with an engine that does no work"
    )
    parser.add_argument("--play", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--floor-file", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        print(play(args.game, args.players, args.hands, args.seed))
        return 0
    if args.floor_file:
        print(play_floor(args.floor_file, args.hands, args.seed))
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (it counts the instructions)")
    with tempfile.TemporaryDirectory() as tmp:
        floor = ""
        if args.floor:
            floor = f"{tmp}/hands.json"
            played = listing_lengths(args.game, args.players, WARM + args.hands, args.seed)
            with open(floor, "w", encoding="utf-8") as f:
                json.dump(played, f)
        base, base_actions = counted(args.game, args.players, WARM, args.seed, floor)
        total, actions = counted(args.game, args.players, WARM + args.hands, args.seed, floor)
    cost, acts = total - base, actions - base_actions
    what = "the loop alone (an engine that does no work)" if args.floor else "instructions"
    print(
        f"{args.game} {args.players}p, {what}: {cost / args.hands:,.0f} instructions a hand, "
        f"{cost / acts:,.0f} an action ({acts / args.hands:.1f} actions a hand)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
