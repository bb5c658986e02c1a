"""Engine speed: random-vs-random hands per second through the public API, beside two peers.

Run ``bash bench/setup_peers.sh && .venv/bin/python bench/engine.py`` (``--json`` for one JSON
object, ``--seconds`` for the timed budget of each measurement). Method and figures:
docs/performance.md.

Our side goes through the registry and the Game/State protocol only: ``spec.new_game``, then
``deal_random(rng)`` whenever a deal is awaited, else a uniformly random pick
``actions[rng.randrange(len(actions))]`` from ``legal_actions()`` passed to ``apply``. A *hand* is a
deal after which at least one action was applied (a Big-6 redeal with no double is not a hand); for
High Fives the unit is the *pass*. Hands are counted over whole games, new games started as needed,
for a fixed wall-clock budget after a short warm-up. Legal-move generations are timed as
``legal_actions()`` calls on fresh copies of a few thousand mid-hand states of 2-player games.

The peers (``dominoes`` 6.1.0 and ``all-fives-domino`` 1.0.23) run in their own environment,
bench/.peers/venv, through bench/peers_worker.py, in the same run and pinned to the same CPU.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from boneyard.core.errors import BoneyardError
from boneyard.games import registry

BENCH = Path(__file__).resolve().parent
PEER_PYTHON = BENCH / ".peers" / "venv" / "bin" / "python"
PEER_WORKER = BENCH / "peers_worker.py"
SETUP_PEERS = BENCH / "setup_peers.sh"

PEERS = {
    "dominoes": "dominoes (block hand, 4p)",
    "all_fives_domino": "all-fives-domino (round, 2p)",
}
MAX_ACTIONS_PER_HAND = 100_000
"""A hand still going after this many actions is a rules bug; the bench stops with an error."""
MAX_DEALS_IN_A_ROW = 10_000
"""Consecutive deals without an action (no-double redeals) before the bench calls it a bug."""
MAX_HANDS_IN_A_GAME = 100_000
"""The hand-unit check plays one whole game; one longer than this is a rules bug."""


@dataclass(frozen=True)
class Plan:
    """What to measure for one game."""

    players: tuple[int, ...]
    unit: str = "hands"
    generated: str | None = None
    """Another JSON name for the actions generated per second (Highrise: ``placements``)."""


PLANS: dict[str, Plan] = {
    "highfive": Plan((2, 3, 4)),
    "merry-go-round": Plan((2, 4)),
    "high-fives": Plan((2, 4), unit="passes"),
    "highrise": Plan((2,), generated="placements"),
}
LEGAL_PLAYERS = 2
TARGETS = (
    ("highfive_2p_hands_per_s", 30_000.0, "High Five 2p ≥ 30,000 hands/s"),
    ("highfive_4p_hands_per_s", 30_000.0, "High Five 4p ≥ 30,000 hands/s"),
    ("ratio_vs_dominoes", 5.0, "High Five 4p ≥ 5× dominoes (4p block hand)"),
    ("ratio_vs_all_fives_domino", 140.0, "High Five 2p ≥ 140× all-fives-domino (2p round)"),
)
"""Issue 2, item 9. Like is compared with like: 4 players against dominoes, 2 against
all-fives-domino."""


@dataclass
class Figure:
    """One measured rate: ``count`` things in ``elapsed`` seconds."""

    key: str
    label: str
    count: int
    elapsed: float
    detail: str = ""
    kind: str = "hands"
    """``hands`` (compared with the peers) or ``legal`` (legal-move generation)."""
    extra: dict[str, float] = field(default_factory=dict)
    """Further JSON figures measured alongside (actions per second, ...)."""

    @property
    def per_s(self) -> float:
        """The rate."""
        return self.count / self.elapsed if self.elapsed > 0 else 0.0


def prefix(game: str) -> str:
    """JSON prefix of a game: its record name with ``_`` for ``-``."""
    return game.replace("-", "_")


def pin_cpu(cpu: int | None) -> int | None:
    """Pin this process (and so the peers' subprocess) to one CPU; None when not possible."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[-1] if cpu is None else cpu
    try:
        os.sched_setaffinity(0, {chosen})
    except OSError:
        return None
    return chosen


def engine_build() -> str:
    """Whether the High Five engine in use is the mypyc-compiled one (a regular install) or the
    pure-Python sources (an editable install)."""
    state = registry.get_spec("highfive").new_game(2, None)
    path = getattr(sys.modules[type(state).__module__], "__file__", "") or ""
    return "compiled (mypyc)" if not path.endswith(".py") else "pure Python"


def cpu_model() -> str:
    """The processor's name, as the OS reports it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def log(message: str, quiet: bool) -> None:
    """Progress on stderr (stdout carries only the table or the JSON)."""
    if not quiet:
        print(message, file=sys.stderr, flush=True)


# --- our side: the public API only -----------------------------------------------------------


@dataclass
class HandsRun:
    """Counts of one timed random-play run."""

    hands: int
    actions: int
    games: int
    elapsed: float


def play_hands(
    spec: registry.GameSpec,
    players: int,
    options: Mapping[str, Any],
    seconds: float,
    rng: random.Random,
    stop_after_one_game: bool = False,
) -> tuple[HandsRun, Any]:
    """Random play for ``seconds`` of wall time (or one whole game); the counts and last state."""
    new_game = spec.new_game
    randrange = rng.randrange
    hands = actions = games = 0
    gc.collect()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = new_game(players, options)
        deals = 0
        while not state.is_over:
            if state.awaiting_deal:
                deals += 1
                if deals > MAX_DEALS_IN_A_ROW:
                    raise RuntimeError(f"{spec.name}: {deals} deals in a row without an action")
                state.deal_random(rng)
                continue
            deals = 0
            legal_actions = state.legal_actions
            apply = state.apply
            for n in range(1, MAX_ACTIONS_PER_HAND + 1):  # noqa: B007 - n is read after the loop
                legal = legal_actions()
                apply(legal[randrange(len(legal))])
                if state.current_seat is None:
                    break
            else:
                raise RuntimeError(f"{spec.name}: a hand did not end in {n} actions")
            actions += n
            hands += 1
            now = time.perf_counter()
            if stop_after_one_game:
                if hands > MAX_HANDS_IN_A_GAME:
                    raise RuntimeError(f"{spec.name}: a game did not end in {hands} hands")
            elif now >= deadline:
                return HandsRun(hands, actions, games, now - start), state
        games += 1
        if stop_after_one_game:
            return HandsRun(hands, actions, games, time.perf_counter() - start), state


def check_hand_unit(
    spec: registry.GameSpec, players: int, options: Mapping[str, Any], rng: random.Random
) -> str | None:
    """Play one whole game and check the hands counted against the record's ``hands``.

    The record has one entry per hand (per pass for High Fives), redeals included, so counting
    more hands than it has means ``awaiting_deal`` marks something smaller than a hand.
    """
    run, state = play_hands(spec, players, options, 0.0, rng, stop_after_one_game=True)
    in_record = len(state.record()["hands"])
    if run.hands > in_record:
        return (
            f"{spec.name} {players}p: counted {run.hands} hands in a game whose record has "
            f"{in_record}: the figure counts something smaller than a hand"
        )
    return None


def collect_states(
    spec: registry.GameSpec,
    players: int,
    options: Mapping[str, Any],
    count: int,
    rng: random.Random,
) -> list[Any]:
    """Copies of ``count`` decision points met in random play (about one in three is kept)."""
    states: list[Any] = []
    budget = count * 1_000
    while len(states) < count:
        state = spec.new_game(players, options)
        while not state.is_over and len(states) < count:
            if state.awaiting_deal:
                state.deal_random(rng)
                continue
            if rng.random() < 1 / 3:
                # Copied before legal_actions(): an engine may cache its answer in the state.
                states.append(state.copy())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            budget -= 1
            if budget < 0:
                raise RuntimeError(f"{spec.name}: random play did not end")
    return states


def time_legal_actions(states: Sequence[Any], seconds: float) -> tuple[int, int, float]:
    """``legal_actions()`` once on each fresh copy of ``states``, repeated for ``seconds`` of
    timed work: (calls, actions returned, timed seconds). Copying is not timed."""
    calls = generated = 0
    timed = 0.0
    wall_deadline = time.perf_counter() + 3 * seconds + 1
    while timed < seconds and time.perf_counter() < wall_deadline:
        fresh = [state.copy() for state in states]
        start = time.perf_counter()
        for state in fresh:
            generated += len(state.legal_actions())
        timed += time.perf_counter() - start
        calls += len(fresh)
    return calls, generated, timed


def measure_game(
    name: str,
    spec: registry.GameSpec,
    options: Mapping[str, Any],
    seconds: float,
    warmup: float,
    states: int,
    seed: int,
    notes: list[str],
    quiet: bool,
) -> list[Figure]:
    """Every figure of one game."""
    plan = PLANS.get(name, Plan((spec.min_players,)))
    unit = plan.unit
    out = []
    for players in plan.players:
        if not spec.min_players <= players <= spec.max_players:
            notes.append(
                f"{name}: {players} players is outside {spec.min_players}–"
                f"{spec.max_players}; skipped"
            )
            continue
        log(f"… {name} {players}p {unit}/s", quiet)
        rng = random.Random(seed)
        note = check_hand_unit(spec, players, options, rng)
        if note:
            notes.append(note)
        if warmup > 0:
            play_hands(spec, players, options, warmup, rng)
        run, _ = play_hands(spec, players, options, seconds, rng)
        key = f"{prefix(name)}_{players}p"
        out.append(
            Figure(
                key=f"{key}_{unit}_per_s",
                label=f"{spec.title} {players}p {unit}/s",
                count=run.hands,
                elapsed=run.elapsed,
                detail=(
                    f"{run.hands:,} {unit}, {run.actions / max(run.hands, 1):.1f} actions each, "
                    f"{run.games:,} games"
                ),
                extra={f"{key}_actions_per_s": run.actions / run.elapsed},
            )
        )
    if spec.min_players <= LEGAL_PLAYERS <= spec.max_players:
        log(f"… {name} legal-move generations/s", quiet)
        rng = random.Random(seed + 1)
        sample = collect_states(spec, LEGAL_PLAYERS, options, states, rng)
        if warmup > 0:
            time_legal_actions(sample, warmup)
        calls, generated, timed = time_legal_actions(sample, seconds)
        extra = {f"{prefix(name)}_actions_generated_per_s": generated / timed}
        if plan.generated:
            extra[f"{prefix(name)}_{plan.generated}_per_s"] = generated / timed
        out.append(
            Figure(
                key=f"{prefix(name)}_legal_moves_per_s",
                label=f"{spec.title} legal-move generations/s",
                count=calls,
                elapsed=timed,
                detail=(
                    f"{len(sample):,} states ({LEGAL_PLAYERS}p), "
                    f"{generated / max(calls, 1):.1f} actions each, "
                    f"{generated / timed:,.0f} {plan.generated or 'actions'}/s"
                ),
                kind="legal",
                extra=extra,
            )
        )
    return out


def measure_ours(
    args: argparse.Namespace, options: Mapping[str, Mapping[str, Any]], notes: list[str]
) -> list[Figure]:
    """Every figure of every game this installation has; the others are noted as skipped."""
    figures: list[Figure] = []
    for name in registry.MODULES:
        if args.game and name not in args.game:
            continue
        try:
            spec = registry.get_spec(name)
        except BoneyardError as exc:
            notes.append(f"{name}: skipped ({exc})")
            continue
        except Exception as exc:  # a module being written may not import yet
            notes.append(f"{name}: skipped, its module is not ready ({type(exc).__name__}: {exc})")
            continue
        try:
            figures += measure_game(
                name,
                spec,
                options.get(name, {}),
                args.seconds,
                args.warmup,
                args.states,
                args.seed,
                notes,
                args.quiet,
            )
        except Exception as exc:  # report the other games even if one engine fails
            notes.append(f"{name}: failed ({type(exc).__name__}: {exc})")
    return figures


# --- the peers: a subprocess in their own environment ----------------------------------------


def run_peers(args: argparse.Namespace, cpu: int | None, notes: list[str]) -> dict[str, Any]:
    """The peers' worker output, or an empty ``peers`` mapping with a note saying why."""
    if not PEER_PYTHON.exists() and args.setup:
        log(f"… the peers' environment is missing; running {SETUP_PEERS}", args.quiet)
        subprocess.run(["bash", str(SETUP_PEERS)], stdout=sys.stderr, check=False)
    if not PEER_PYTHON.exists():
        notes.append("peers not measured: run `bash bench/setup_peers.sh` first")
        return {"peers": {}}
    log("… peers (dominoes, all-fives-domino) hands/s", args.quiet)
    command = [
        str(PEER_PYTHON),
        "-I",
        str(PEER_WORKER),
        "--seconds",
        str(args.seconds),
        "--warmup",
        str(args.warmup),
        "--seed",
        str(args.seed),
    ]
    if cpu is not None:
        command += ["--cpu", str(cpu)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        notes.append(f"peers failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
        return {"peers": {}}
    result: dict[str, Any] = json.loads(done.stdout)
    for name, figures in result["peers"].items():
        if "error" in figures:
            notes.append(f"{name}: failed ({figures['error']})")
    return result


def peer_figures(result: Mapping[str, Any]) -> dict[str, Figure]:
    """The peers' hands-per-second figures by peer name."""
    out = {}
    for name, peer in result["peers"].items():
        if "hands_per_s" not in peer:
            continue
        out[name] = Figure(
            key=f"{name}_hands_per_s",
            label=f"{PEERS[name].replace('(', peer['version'] + ' (')} hands/s",
            count=peer["hands"],
            elapsed=peer["elapsed"],
            detail=(
                f"{peer['hands']:,} hands, "
                f"{peer['placements'] / max(peer['hands'], 1):.1f} placements each"
            ),
            kind="peer",
        )
    return out


# --- putting it together ---------------------------------------------------------------------


def best_of(runs: Sequence[Sequence[Figure]]) -> list[Figure]:
    """Per key, the repeat with the highest rate (the least disturbed one)."""
    best: dict[str, Figure] = {}
    for run in runs:
        for figure in run:
            if figure.key not in best or figure.per_s > best[figure.key].per_s:
                best[figure.key] = figure
    return list(best.values())


def planned_keys() -> list[str]:
    """Every JSON figure name the full plan produces, so absent games still appear (as null)."""
    keys = []
    for name, plan in PLANS.items():
        for players in plan.players:
            keys.append(f"{prefix(name)}_{players}p_{plan.unit}_per_s")
        keys.append(f"{prefix(name)}_legal_moves_per_s")
        if plan.generated:
            keys.append(f"{prefix(name)}_{plan.generated}_per_s")
    return keys


def ratio(ours: float | None, peer: Figure | None) -> float | None:
    """How many times faster ours is than the peer."""
    if ours is None or peer is None or peer.per_s == 0:
        return None
    return ours / peer.per_s


def report(
    ours: Sequence[Figure],
    peers: Mapping[str, Figure],
    peer_result: Mapping[str, Any],
    args: argparse.Namespace,
    cpu: int | None,
    notes: Sequence[str],
) -> dict[str, Any]:
    """The JSON object of the run."""
    figures: dict[str, Any] = dict.fromkeys(planned_keys())
    for figure in ours:
        figures[figure.key] = figure.per_s
        figures.update(figure.extra)
    for name in PEERS:
        figures[f"{name}_hands_per_s"] = peers[name].per_s if name in peers else None
        figures[f"{name}_version"] = peer_result["peers"].get(name, {}).get("version")
    figures["ratio_vs_dominoes"] = ratio(
        figures.get("highfive_4p_hands_per_s"), peers.get("dominoes")
    )
    figures["ratio_vs_all_fives_domino"] = ratio(
        figures.get("highfive_2p_hands_per_s"), peers.get("all_fives_domino")
    )
    figures["ratios"] = {
        figure.key: {name: ratio(figure.per_s, peers.get(name)) for name in PEERS}
        for figure in ours
        if figure.kind == "hands"
    }
    figures["targets"] = {
        f"{key} >= {bound:g}": (None if figures.get(key) is None else figures[key] >= bound)
        for key, bound, _ in TARGETS
    }
    figures.update(
        {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "engine_build": engine_build(),
            "peer_python": peer_result.get("python"),
            "cpu": cpu,
            "cpu_model": cpu_model(),
            "seconds": args.seconds,
            "warmup": args.warmup,
            "repeat": args.repeat,
            "seed": args.seed,
            "notes": list(notes),
        }
    )
    return figures


def fmt(value: float | None, suffix: str = "") -> str:
    """A rate or ratio for the table."""
    if value is None:
        return "—"
    if suffix == "×":
        return f"{value:,.1f}×" if value < 100 else f"{value:,.0f}×"
    return f"{value:,.0f}{suffix}"


def print_table(
    ours: Sequence[Figure],
    peers: Mapping[str, Figure],
    data: Mapping[str, Any],
    console: Console,
) -> None:
    """The human-readable report."""
    pinned = f"pinned to CPU {data['cpu']}" if data["cpu"] is not None else "not pinned"
    console.print(
        f"[bold]Boneyard engine bench[/]: {data['implementation']} {data['python']} "
        f"(peers: {data['peer_python'] or '—'}) on {data['cpu_model']}, one core ({pinned}); "
        f"engine {data['engine_build']}\n"
        f"random-vs-random play, {data['seconds']:g} s per measurement after a "
        f"{data['warmup']:g} s warm-up, best of {data['repeat']}"
    )
    table = Table(show_lines=False)
    table.add_column("measurement")
    table.add_column("per second", justify="right")
    for name in PEERS:
        table.add_column(f"vs {name.replace('_', '-')}", justify="right")
    table.add_column("detail", style="dim")
    for figure in ours:
        hands = figure.kind == "hands"
        table.add_row(
            figure.label,
            fmt(figure.per_s),
            *(fmt(ratio(figure.per_s, peers.get(name)) if hands else None, "×") for name in PEERS),
            figure.detail,
        )
    if ours and peers:
        table.add_section()
    for name, figure in peers.items():
        table.add_row(
            figure.label,
            fmt(figure.per_s),
            *(fmt(1.0 if other == name else None, "×") for other in PEERS),
            figure.detail,
        )
    console.print(table)
    for (_, _, label), ok in zip(TARGETS, data["targets"].values(), strict=True):
        mark = "[green]met[/]" if ok else "[red]not met[/]" if ok is not None else "not measured"
        console.print(f"target: {label}: {mark}")
    for note in data["notes"]:
        console.print(f"[yellow]note:[/] {note}")


def parse_options(values: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``GAME=JSON`` pairs of ``--options``; raises ValueError with the faulty pair."""
    out = {}
    for value in values:
        game, _, text = value.partition("=")
        try:
            options = json.loads(text)
        except json.JSONDecodeError:
            options = None
        if game not in registry.MODULES or not isinstance(options, dict):
            raise ValueError(f"--options {value!r}: expected GAME={{...}} with a known game")
        out[game] = options
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, then print the table (or the JSON object)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="timed budget per measurement")
    parser.add_argument("--warmup", type=float, default=0.5, help="untimed warm-up per measurement")
    parser.add_argument("--repeat", type=int, default=1, help="repeat everything, keep the best")
    parser.add_argument("--states", type=int, default=3_000, help="states for legal-move timing")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: the last)")
    parser.add_argument(
        "--game",
        action="append",
        choices=list(registry.MODULES),
        help="only this game (repeatable)",
    )
    parser.add_argument(
        "--options", action="append", default=[], metavar="GAME=JSON", help="a game's options"
    )
    parser.add_argument("--no-peers", dest="peers", action="store_false", help="skip the peers")
    parser.add_argument(
        "--no-setup", dest="setup", action="store_false", help="never run setup_peers.sh"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.options)
    except ValueError as exc:
        parser.error(str(exc))
    cpu = pin_cpu(args.cpu)
    notes: list[str] = []
    if cpu is None:
        notes.append("could not pin to one CPU: figures may move between cores")
    our_runs: list[list[Figure]] = []
    peer_runs: list[list[Figure]] = []
    peer_result: dict[str, Any] = {"peers": {}}
    for _ in range(args.repeat):
        if args.peers:
            peer_result = run_peers(args, cpu, notes)
            peer_runs.append(list(peer_figures(peer_result).values()))
        our_runs.append(measure_ours(args, options, notes))
    ours = best_of(our_runs)
    peers = {figure.key.removesuffix("_hands_per_s"): figure for figure in best_of(peer_runs)}
    unique_notes = list(dict.fromkeys(notes))
    data = report(ours, peers, peer_result, args, cpu, unique_notes)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        console = Console(highlight=False)
        if not console.is_terminal:
            console = Console(highlight=False, width=140)
        print_table(ours, peers, data, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
