"""``boneyard tournament``: play whole tournaments offline with bots (``simulate``)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from boneyard.bots.plugins import short_label
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
from boneyard.games.registry import MODULES, get_spec
from boneyard.tournament import (
    DoubleElimination,
    Match,
    Pools,
    RoundRobin,
    Schedule,
    SingleElimination,
    Swiss,
    Tournament,
    seed_random,
)
from boneyard.tournament.labels import outcome_label
from boneyard.tournament.simulate import MatchPlay, playable_matches, simulate

app = typer.Typer(
    help="Tournaments: brackets (single, double), Swiss, round robin, pools.", no_args_is_help=True
)
out = console()
err = console(stderr=True)

DEFAULT_SCHEDULE = {
    "pda": "pda",
    "elimination": "bo3",
    "double": "bo3",
    "swiss": "bo1",
    "roundrobin": "bo1",
    "pools": "bo1",
}


def _fail(message: str) -> None:
    err.print(f"[red]error:[/] {escape(message)}")
    raise typer.Exit(2)


def _build(fmt: str, entrants: list[str], schedule: Schedule, how: dict[str, Any]) -> Tournament:
    """The event of format ``fmt``; ``how`` holds the format's own command-line options."""
    if fmt in ("pda", "elimination"):
        return SingleElimination.create(entrants, schedule, how["third_place"])
    if fmt == "double":
        return DoubleElimination.create(entrants, schedule, how["reset"])
    if fmt == "swiss":
        return Swiss.create(entrants, how["rounds"], schedule)
    if fmt == "pools":
        pools = how["pools"] or max(1, len(entrants) // 4)
        bracket = Schedule.parse(how["bracket_schedule"] or "bo3")
        return Pools.create(
            entrants,
            pools,
            how["advance"],
            schedule,
            how["bracket"],
            bracket,
            how["third_place"],
            how["reset"],
        )
    return RoundRobin.create(entrants, schedule)


def _label(ev: Tournament, entrant: str | None) -> str:
    if entrant is None:
        return "—"
    return f"({ev.seed_of(entrant)}) {escape(entrant)}"


def _match_line(ev: Tournament, m: Match) -> str:
    if m.bye:
        return f"  {m.id:<8} [bold]{_label(ev, m.a)}[/]  bye"
    wa, wb = m.wins
    a, b = _label(ev, m.a), _label(ev, m.b)
    if m.winner == m.a:
        a = f"[bold]{a}[/]"
    elif m.winner == m.b:
        b = f"[bold]{b}[/]"
    score = f"{wa}–{wb}"
    if m.forfeit:
        score += f" ({outcome_label(m.forfeit_reason).name.lower()}: {escape(m.forfeit)})"
    elif m.outcome not in (None, "played"):
        score += f" ({outcome_label(m.outcome or '').name.lower()})"
    return f"  {m.id:<8} {a}  {score}  {b}"


def _titles(ev: Tournament) -> tuple[str, ...]:
    """Round headings: a single-elimination bracket reads Round 1, Round 2 ... Final."""
    if ev.format == "single_elimination":
        k = len(ev.rounds)
        return tuple("Final" if r == k else f"Round {r}" for r in range(1, k + 1))
    return ev.round_titles()


def print_event(ev: Tournament, console: Console, max_rows: int = 32) -> None:
    """The rounds (match scores) and, but for single elimination, the standings. A match the
    bracket names otherwise than its round (the third-place match) has its own heading."""
    for rnd, head in zip(ev.rounds, _titles(ev), strict=True):
        parts: dict[str, list[Match]] = {}
        for m in rnd:
            title = ev.match_title(m.id) if ev.match_kind(m.id) == "third_place" else head
            parts.setdefault(title, []).append(m)
        for title, ms in parts.items():
            console.print(f"[bold underline]{title}[/] · best of {ms[0].best_of}")
            for m in ms:
                console.print(_match_line(ev, m))
    if ev.format != "single_elimination":
        table = Table(title="Standings")
        breaks = tuple(label.short for label in ev.tiebreak_labels())
        for col in ("#", "entrant", "seed", "points", "W-L", "byes", "games", *breaks):
            table.add_column(col, justify="left" if col == "entrant" else "right")
        for s in ev.standings()[:max_rows]:
            table.add_row(
                str(s.rank),
                escape(s.entrant),
                str(s.seed),
                f"{s.points:g}",
                f"{s.wins}-{s.losses}",
                str(s.byes),
                f"{s.game_wins}-{s.game_losses}",
                *(f"{t:g}" for t in s.tiebreaks),
            )
        console.print(table)


@app.command("simulate")
def simulate_cmd(
    entrants: Annotated[int, typer.Option(help="Number of entrants.")] = 8,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="pda (single elimination, best of 5, final best of 7, PDA rules), "
            "elimination, double, swiss, roundrobin or pools.",
        ),
    ] = "pda",
    bots: Annotated[
        str, typer.Option(help=f"Bots, comma-separated; they cycle over the entrants: {BOTS_HELP}.")
    ] = "greedy",
    game: Annotated[
        str, typer.Option("--game", "-g", help=f"Game: {', '.join(MODULES)}")
    ] = "highfive",
    schedule: Annotated[
        str | None,
        typer.Option(help="Best-of per round: pda, bo1, bo3, ... or a list such as 3,5,7."),
    ] = None,
    rounds: Annotated[int | None, typer.Option(help="Swiss rounds (default ceil(log2 n)).")] = None,
    third_place: Annotated[
        bool, typer.Option("--third-place", help="Single elimination: a third-place match.")
    ] = False,
    reset: Annotated[
        bool,
        typer.Option(
            "--reset/--no-reset",
            help="Double elimination: a grand-final win from the losers' side forces a reset.",
        ),
    ] = True,
    pools: Annotated[
        int | None, typer.Option(help="Pools: how many (default: pools of about 4).")
    ] = None,
    advance: Annotated[int, typer.Option(help="Pools: how many of each go through.")] = 2,
    bracket_format: Annotated[
        str, typer.Option(help="Pools: the bracket after them, single or double.")
    ] = "single",
    bracket_schedule: Annotated[
        str | None, typer.Option(help="Pools: best-of per bracket round (default bo3).")
    ] = None,
    seeding: Annotated[
        str, typer.Option(help="draw (a random draw from the seed) or order (entrant order).")
    ] = "draw",
    preset: Annotated[
        str | None, typer.Option(help="Rule preset (High Five: box or pda; pda format: pda).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A rule option as key=value; repeatable."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed: the same seed plays the same event.")] = 1,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    show: Annotated[
        bool, typer.Option("--bracket/--no-bracket", help="Print every round's matches.")
    ] = True,
    save: Annotated[
        Path | None, typer.Option("--out", help="Write the finished event as JSON to this file.")
    ] = None,
    move_time: MoveTimeArg = 5.0,
    on_error: OnErrorArg = FORFEIT,
) -> None:
    """Play a whole event offline with bots and print the bracket and the champion."""
    if fmt not in DEFAULT_SCHEDULE:
        _fail(f"format {fmt!r} is unknown ({', '.join(DEFAULT_SCHEDULE)})")
    if jobs < 1:
        _fail("--jobs must be at least 1")
    if seeding not in ("draw", "order"):
        _fail(f"seeding {seeding!r} is unknown (draw, order)")
    try:
        names = parse_bot_names(bots, game)
        rules = bot_rules(move_time, on_error, game)
    except BoneyardError as exc:
        _fail(str(exc))
        raise
    width = len(str(entrants))
    ids = [f"{short_label(names[i % len(names)])}-{i + 1:0{width}d}" for i in range(entrants)]
    bot_of = {e: names[i % len(names)] for i, e in enumerate(ids)}
    if preset is None and fmt == "pda" and game in MODULES and "pda" in get_spec(game).presets:
        preset = "pda"  # the PDA format plays the PDA rules of a game that has them
    try:
        sched = Schedule.parse(schedule or DEFAULT_SCHEDULE[fmt])
        options = parse_option_pairs(option or [], preset)
        order = seed_random(ids, random.Random(seed)) if seeding == "draw" else tuple(ids)
        how = {
            "rounds": rounds,
            "third_place": third_place,
            "reset": reset,
            "pools": pools,
            "advance": advance,
            "bracket": bracket_format,
            "bracket_schedule": bracket_schedule,
        }
        event = _build(fmt, list(order), sched, how)
    except BoneyardError as exc:
        _fail(str(exc))
        raise
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
    )
    with progress:
        bar = progress.add_task(
            f"{entrants} entrants, {fmt}, {game}", total=playable_matches(event)
        )

        def on_match(play: MatchPlay) -> None:
            progress.advance(bar)

        start = time.perf_counter()
        try:
            result = simulate(event, bot_of, game, options, seed, jobs, on_match, rules)
        except BoneyardError as exc:
            progress.stop()
            _fail(str(exc))
            raise
        seconds = time.perf_counter() - start
    final = result.event
    if show:
        print_event(final, out)
    champion = final.champion
    assert champion is not None
    out.print(
        f"[bold green]Champion:[/] {escape(champion)} ({escape(bot_of[champion])}, "
        f"seed {final.seed_of(champion)})"
    )
    if result.ratings:
        ranked = sorted(result.ratings.items(), key=lambda kv: -kv[1].ordinal)
        out.print(
            "Bot ratings (OpenSkill, games between different bots): "
            + ", ".join(
                f"{escape(b)} {r.ordinal:.1f} (μ {r.mu:.1f}, σ {r.sigma:.1f}, {r.games} games)"
                for b, r in ranked
            )
        )
    for match_id, failure in result.failures[:5]:
        err.print(f"[yellow]match {escape(match_id)}:[/] {escape(failure.describe())}")
    if len(result.failures) > 5:
        err.print(f"... and {len(result.failures) - 5} more bot failures")
    rate = result.games / seconds if seconds > 0 else 0.0
    out.print(
        f"{len(final.entrants)} entrants, {result.matches} matches, {result.games} games, "
        f"{seconds:.1f} s, {rate:.0f} games/s (jobs {jobs})"
    )
    if save is not None:
        save.write_text(json.dumps(final.to_json()) + "\n", encoding="utf-8")
