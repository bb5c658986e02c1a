"""``boneyard arena`` (bots against bots) and ``boneyard analyse`` (the expert's view of a game)."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from boneyard.bots.analysis import DEFAULT_WORLDS, decision_json, describe
from boneyard.bots.analysis import analyse as analyse_record
from boneyard.bots.arena import BotFigures, Outcome, plan, play_game, summarise
from boneyard.bots.referee import FORFEIT
from boneyard.cli.options import (
    BOTS_HELP,
    MoveTimeArg,
    OnErrorArg,
    bot_rules,
    parse_bot_names,
    parse_option_pairs,
)
from boneyard.cli.output import console
from boneyard.core.errors import BoneyardError
from boneyard.core.records import dump_record, parse_record
from boneyard.games.registry import MODULES, get_spec

err = console(stderr=True)


def _fail(message: str) -> None:
    err.print(f"[red]error:[/] {escape(message)}")
    raise typer.Exit(2)


def arena(
    game: Annotated[
        str, typer.Option("--game", "-g", help=f"Game: {', '.join(MODULES)}")
    ] = "highfive",
    players: Annotated[int, typer.Option(help="Number of players.")] = 2,
    bots: Annotated[
        str,
        typer.Option(help=f"Bots, comma-separated, seated in order (repeated): {BOTS_HELP}."),
    ] = "expert,greedy",
    games: Annotated[
        int, typer.Option(help="Games to play (rounded up to whole seat rotations).")
    ] = 100,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed: the same seed plays the same games.")] = 1,
    preset: Annotated[str | None, typer.Option(help="Rule preset (High Five: box or pda).")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A rule option as key=value; repeatable."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Directory to write each game's record to.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    move_time: MoveTimeArg = 5.0,
    on_error: OnErrorArg = FORFEIT,
) -> None:
    """Play bots against each other: seat rotation, mirrored deals, win rates with 95% CIs."""
    if games < 1 or jobs < 1:
        _fail("--games and --jobs must be at least 1")
    try:
        spec = get_spec(game)
        names = parse_bot_names(bots, game)
        rules = bot_rules(move_time, on_error, game)
        options = parse_option_pairs(option or [], preset)
        if not spec.min_players <= players <= spec.max_players:
            raise BoneyardError(
                f"{spec.title} is for {spec.min_players} to {spec.max_players} players, "
                f"not {players}"
            )
        spec.new_game(players, options)
        tasks = plan(game, players, names, games, seed, options, out is not None, rules)
    except BoneyardError as exc:
        _fail(str(exc))
        raise
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    outcomes: list[Outcome] = []
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=False,
    )

    def keep(o: Outcome) -> None:
        outcomes.append(o)
        if out is not None and o.record is not None:
            path = out / f"game-{o.index:05d}.json"
            path.write_text(dump_record(o.record), encoding="utf-8")

    with progress:
        bar = progress.add_task(f"{spec.title} {' vs '.join(names)}", total=len(tasks))
        if jobs == 1:
            for t in tasks:
                keep(play_game(t))
                progress.advance(bar)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = [pool.submit(play_game, t) for t in tasks]
                for done in as_completed(futures):
                    keep(done.result())
                    progress.advance(bar)
    outcomes.sort(key=lambda o: o.index)
    figures = summarise(outcomes)
    if as_json:
        doc = {"game": game, "players": players, "games": len(outcomes), "seed": seed}
        doc["bots"] = [_figures_json(f) for f in figures]
        doc["failures"] = [{"game": o.index, **f.to_json()} for o in outcomes for f in o.failures]
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return
    title = f"{spec.title}, {players} players, {len(outcomes)} games (seed {seed})"
    console().print(_figures_table(title, figures))
    _print_failures(outcomes)
    if players == 2:
        err.print(
            "Elo is the difference to the other bot; each deal sequence was played with the "
            "seats swapped."
        )


def _figures_json(f: BotFigures) -> dict[str, object]:
    """One bot's figures as ``arena --json`` prints them."""
    return {
        "bot": f.bot,
        "games": f.games,
        "wins": f.wins,
        "win_rate": f.win_rate,
        "ci95": list(f.ci),
        "avg_points": f.avg_points,
        "elo": f.elo,
        "elo_ci95": list(f.elo_ci),
        "decisions": f.decisions,
        "p50_time_s": f.p50_time,
        "p95_time_s": f.p95_time,
        "forfeits": f.forfeits,
        "fallbacks": f.fallbacks,
    }


def _figures_table(title: str, figures: list[BotFigures]) -> Table:
    """The figures as a table for people."""
    table = Table(title=title)
    for col in ("bot", "games", "wins", "win rate (95% CI)", "avg points", "Elo (95% CI)", "p95 s"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for f in figures:
        table.add_row(
            f.bot,
            str(f.games),
            str(f.wins),
            f"{f.win_rate:.1%} ({f.ci[0]:.1%}–{f.ci[1]:.1%})",
            f"{f.avg_points:.1f}",
            f"{f.elo:+.0f} ({f.elo_ci[0]:+.0f}…{f.elo_ci[1]:+.0f})",
            f"{f.p95_time:.3f}",
        )
    return table


def _print_failures(outcomes: list[Outcome], shown: int = 3) -> None:
    """Which bots failed, how, and what was done (each bot's first few failures in full)."""
    failures = [(o.index, f) for o in outcomes for f in o.failures]
    if not failures:
        return
    by_bot: dict[str, list[tuple[int, str]]] = {}
    for index, f in failures:
        by_bot.setdefault(f.bot, []).append((index, f.then))
    for bot, items in by_bot.items():
        forfeits = sum(1 for _, then in items if then == FORFEIT)
        parts = []
        if forfeits:
            parts.append(f"forfeited {forfeits} game{'s' if forfeits != 1 else ''}")
        if len(items) > forfeits:
            k = len(items) - forfeits
            parts.append(f"was replaced by {items[-1][1]} in {k} game{'s' if k != 1 else ''}")
        err.print(f"[yellow]{escape(bot)} {' and '.join(parts)}:[/]")
    for index, f in failures[:shown]:
        err.print(f"  game {index + 1}: {escape(f.describe())}")
    if len(failures) > shown:
        err.print(f"  ... {len(failures) - shown} more (--json lists every one)")


def analyse(
    record: Annotated[Path, typer.Argument(help="A boneyard-record/1 file.")],
    seat: Annotated[
        int, typer.Option(help="The seat whose decisions to analyse (1 leads the turn order).")
    ] = 1,
    threshold: Annotated[
        float, typer.Option(help="Flag a mistake when the choice loses at least this many chips.")
    ] = 5.0,
    worlds: Annotated[int, typer.Option(help="Worlds sampled per decision.")] = DEFAULT_WORLDS,
    seed: Annotated[int, typer.Option(help="Search seed (same seed, same values).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The expert's value of every legal action at each decision of a seat; flags mistakes."""
    try:
        doc = parse_record(record.read_text(encoding="utf-8"))
        decisions = analyse_record(doc, seat - 1, worlds=worlds, seed=seed, threshold=threshold)
    except OSError as exc:
        _fail(f"cannot read {record}: {exc.strerror}")
        raise
    except BoneyardError as exc:
        _fail(str(exc))
        raise
    mistakes = sum(1 for d in decisions if d.mistake)
    describe_action = get_spec(doc.game).describe_action
    if as_json:
        sys.stdout.write(
            json.dumps(
                {
                    "seat": seat - 1,
                    "threshold": threshold,
                    "worlds": worlds,
                    "decisions": [decision_json(d, describe_action) for d in decisions],
                    "mistakes": mistakes,
                },
                indent=2,
            )
            + "\n"
        )
        return
    out = console()
    for d in decisions:
        line = escape(describe(d, describe_action))
        out.print(f"[red]{line}[/]" if d.mistake else line)
    out.print(
        f"{len(decisions)} decisions with a choice, {mistakes} mistakes "
        f"(threshold {threshold:g} chips)"
    )
