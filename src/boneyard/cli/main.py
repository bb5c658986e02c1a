"""The ``boneyard`` command."""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from boneyard import __version__
from boneyard.bots import BOTS, AnyBot, make_bot
from boneyard.bots.expert import check_game
from boneyard.cli import arena as arena_cli
from boneyard.cli import site as site_cli
from boneyard.cli import tournament as tournament_cli
from boneyard.cli.options import parse_option_pairs
from boneyard.cli.play import TerminalGame, save_record
from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.protocol import GameState
from boneyard.core.records import dump_record, parse_record
from boneyard.games.registry import MODULES, AnySpec, get_spec, play_out

app = typer.Typer(
    help="Boneyard: High Five and its family of domino games — play, replay and self-play.",
    no_args_is_help=True,
    add_completion=False,
)
err = Console(stderr=True)

GameArg = Annotated[str, typer.Option("--game", "-g", help=f"Game: {', '.join(MODULES)}")]
OptionArg = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A rule option as key=value (RULES.md §6); repeatable."),
]


def fail(message: str) -> None:
    """Print an error in a player's words and exit 2."""
    err.print(f"[red]error:[/] {message}")
    raise typer.Exit(2)


def _new_state(spec: AnySpec, players: int, options: dict[str, Any], names: list[str]) -> GameState:
    if not spec.min_players <= players <= spec.max_players:
        fail(f"{spec.title} is for {spec.min_players} to {spec.max_players} players, not {players}")
    try:
        state = spec.new_game(players, options)
    except BoneyardError as exc:
        fail(str(exc))
        raise
    state.names = names
    return state


def _bots(spec_names: str, count: int, game: str = "highfive") -> list[str]:
    names = [b.strip() for b in spec_names.split(",") if b.strip()]
    if len(names) == 1:
        names = names * count
    if len(names) != count:
        fail(f"give one bot per seat ({count}), or one for all, not {len(names)}")
    for b in names:
        if b not in BOTS:
            fail(f"bot {b!r} is unknown (bots: {', '.join(BOTS)})")
        try:
            check_game(b, game)
        except BoneyardError as exc:
            fail(str(exc))
    return names


@app.command()
def replay(
    files: Annotated[list[str], typer.Argument(help="Record files; - reads standard input.")],
) -> None:
    """Check records against the rules and print one JSON line per event (RECORDS.md §5)."""
    several = len(files) > 1
    status = 0
    out = sys.stdout
    for name in files:
        tag = {"file": name} if several else {}
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
        except OSError as exc:
            line = {
                **tag,
                "error": f"cannot read {name}: {exc.strerror}",
                "hand": None,
                "event": None,
            }
            out.write(json.dumps(line) + "\n")
            status = 2
            continue
        try:
            record = parse_record(text)
            spec = get_spec(record.game)
            for line in spec.replay(record):
                out.write(json.dumps({**tag, **line}) + "\n")
        except RecordError as exc:
            out.write(json.dumps({**tag, **exc.to_json()}) + "\n")
            status = 2
        except BoneyardError as exc:
            out.write(json.dumps({**tag, "error": str(exc), "hand": None, "event": None}) + "\n")
            status = 2
    out.flush()
    raise typer.Exit(status)


@app.command()
def selfplay(
    game: GameArg = "highfive",
    players: Annotated[int, typer.Option(help="Number of players.")] = 2,
    bots: Annotated[
        str, typer.Option(help="Bots by seat, comma-separated (or one for all).")
    ] = "greedy",
    preset: Annotated[str | None, typer.Option(help="Rule preset (High Five: box or pda).")] = None,
    option: OptionArg = None,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same game.")] = 0,
    out: Annotated[
        Path | None, typer.Option("--out", help="Where to write the record (default: stdout).")
    ] = None,
) -> None:
    """Play a whole game between bots and write its record."""
    try:
        spec = get_spec(game)
        options = parse_option_pairs(option or [], preset)
    except BoneyardError as exc:
        fail(str(exc))
        raise
    bot_names = _bots(bots, players, game)
    state = _new_state(spec, players, options, [f"{b} {i + 1}" for i, b in enumerate(bot_names)])
    rng = random.Random(seed)
    players_ = [make_bot(b, random.Random(seed * 1000 + i + 1)) for i, b in enumerate(bot_names)]
    play_out(state, [p.choose for p in players_], rng)
    record = state.record()
    record["meta"] = {"seed": seed, "bots": bot_names, "generator": f"boneyard {__version__}"}
    text = dump_record(record)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        result = state.result()
        scores = list(result.scores) if result else []
        err.print(f"wrote {out}: winner seat {result.winner if result else None}, scores {scores}")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help=f"Game: {', '.join(MODULES)}")] = "highfive",
    players: Annotated[int, typer.Option(help="Number of players (you and bots).")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="Bot for the other seats (random, greedy, easy, medium, hard, expert), "
            "or one per seat."
        ),
    ] = "greedy",
    preset: Annotated[str | None, typer.Option(help="Rule preset (High Five: box or pda).")] = None,
    option: OptionArg = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 leads the turn order).")] = 0,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    seed: Annotated[int | None, typer.Option(help="Random seed for the deals and bots.")] = None,
    save: Annotated[
        Path | None, typer.Option(help="Where to save the record (default: a dated file here).")
    ] = None,
) -> None:
    """Play a game in the terminal against bots."""
    try:
        spec = get_spec(game)
        options = parse_option_pairs(option or [], preset)
    except BoneyardError as exc:
        fail(str(exc))
        raise
    if not 0 <= seat < players:
        fail(f"seat must be between 0 and {players - 1}")
    others = _bots(bots, players - 1, game)
    names: list[str] = []
    k = 0
    for i in range(players):
        if i == seat:
            names.append(name)
        else:
            names.append(f"{others[k].capitalize()} bot {i + 1}")
            k += 1
    state = _new_state(spec, players, options, names)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    bot_players: dict[int, AnyBot] = {}
    k = 0
    for i in range(players):
        if i != seat:
            bot_players[i] = make_bot(others[k], random.Random(seed * 1000 + i + 1))
            k += 1
    console = Console(highlight=False)
    console.print(
        f"[bold]Boneyard — {spec.title}[/] (seed {seed}). Type ? for help, q to save and quit."
    )
    tg = TerminalGame(spec, state, names, {seat}, bot_players, rng, console, console.input)
    finished = tg.run()
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = save or Path(f"boneyard-{game}-{stamp}.json")
    try:
        save_record(state, path)
    except OSError as exc:
        fail(f"could not save the record to {path}: {exc.strerror}")
    console.print(f"{'Game saved' if finished else 'Game saved unfinished'} to {path}.")


@app.command()
def games() -> None:
    """List the games this installation can play."""
    for key in MODULES:
        try:
            spec = get_spec(key)
        except BoneyardError as exc:
            typer.echo(f"{key}: {exc}")
            continue
        typer.echo(f"{key}: {spec.title}, {spec.min_players}–{spec.max_players} players")


@app.command()
def verify(
    record_file: Annotated[
        str, typer.Argument(help="A record saved by boneyard serve; - reads stdin.")
    ],
) -> None:
    """Recompute every deal of a record from its revealed seeds (docs/fairness.md)."""
    from boneyard.server.fairness import verify_record

    try:
        text = sys.stdin.read() if record_file == "-" else Path(record_file).read_text("utf-8")
    except OSError as exc:
        fail(f"cannot read {record_file}: {exc.strerror}")
        raise
    try:
        checks = verify_record(parse_record(text))
    except RecordError as exc:
        sys.stdout.write(json.dumps(exc.to_json()) + "\n")
        raise typer.Exit(2) from None
    except BoneyardError as exc:
        fail(str(exc))
        raise
    for check in checks:
        sys.stdout.write(json.dumps(check.to_json()) + "\n")
    bad = [c for c in checks if c.ok is False]
    unchecked = [c for c in checks if c.ok is None]
    if bad:
        err.print(f"[red]hand {bad[0].hand + 1}: {bad[0].why}[/]")
        raise typer.Exit(1)
    done = len(checks) - len(unchecked)
    err.print(
        f"[green]all {done} dealt hands verified[/]"
        + (" (one not revealed yet)" if unchecked else "")
    )


app.command("serve")(site_cli.serve)
app.add_typer(site_cli.tables_app, name="tables")
app.command("arena")(arena_cli.arena)
app.command("analyse")(arena_cli.analyse)
app.add_typer(tournament_cli.app, name="tournament")


@app.callback(invoke_without_command=True)
def _root(
    version: Annotated[bool, typer.Option("--version", help="Show the version and exit.")] = False,
) -> None:
    if version:
        typer.echo(f"boneyard {__version__}")
        raise typer.Exit()


def main() -> None:
    """Entry point of the ``boneyard`` command."""
    app()
