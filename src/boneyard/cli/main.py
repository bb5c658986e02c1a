"""The ``boneyard`` command."""

from __future__ import annotations

import json
import os
import random
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from boneyard import __version__
from boneyard.bots import make_bot
from boneyard.bots.plugins import short_label
from boneyard.bots.referee import FORFEIT, Rules, Seat
from boneyard.bots.referee import play as play_refereed
from boneyard.cli import arena as arena_cli
from boneyard.cli import site as site_cli
from boneyard.cli import tournament as tournament_cli
from boneyard.cli.options import (
    BOTS_HELP,
    MoveTimeArg,
    OnErrorArg,
    bot_rules,
    parse_bot_names,
    parse_option_pairs,
)
from boneyard.cli.output import console as make_console
from boneyard.cli.play import TerminalGame, deal_rng, save_record
from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.protocol import GameState
from boneyard.core.records import Record, dump_record, parse_record
from boneyard.games import registry
from boneyard.games.registry import MODULES, AnySpec, get_spec, other_game

app = typer.Typer(
    help="Boneyard: High Five and its family of domino games — play, replay and self-play.",
    no_args_is_help=True,
    add_completion=False,
)
err = make_console(stderr=True)

GameArg = Annotated[str, typer.Option("--game", "-g", help=f"Game: {', '.join(MODULES)}")]
OptionArg = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A rule option as key=value (RULES.md §6); repeatable."),
]


def fail(message: str) -> None:
    """Print an error in a player's words and exit 2."""
    err.print(f"[red]error:[/] {message}")
    raise typer.Exit(2)


def _new_state(
    spec: AnySpec, players: int, options: dict[str, object], names: list[str]
) -> GameState:
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
    try:
        names = parse_bot_names(spec_names, game)
    except BoneyardError as exc:
        fail(str(exc))
        raise
    if len(names) == 1:
        names = names * count
    if len(names) != count:
        fail(f"give one bot per seat ({count}), or one for all, not {len(names)}")
    return names


def _rules(move_time: float, on_error: str, game: str) -> Rules:
    try:
        return bot_rules(move_time, on_error, game)
    except BoneyardError as exc:
        fail(str(exc))
        raise


def _seat(name: str, seed: int, rules: Rules) -> Seat:
    """A refereed bot seat: ``name`` seeded by ``seed``, its fallback (if any) by ``seed + 1``."""
    fallback = None
    if rules.on_error != FORFEIT:
        fallback = lambda: make_bot(rules.on_error, random.Random(seed + 1))  # noqa: E731
    return Seat(name, make_bot(name, random.Random(seed), rules), rules, fallback, seed)


def _error_line(why: str) -> dict[str, object]:
    return {"error": why, "hand": None, "event": None}


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
        record: Record | None = None
        try:
            record = parse_record(text)
            spec = get_spec(record.game)
            ended = False
            for line in spec.replay(record):
                ended = ended or line.get("type") == "game_end"
                out.write(json.dumps({**tag, **line}) + "\n")
            if not ended:
                where = f"{name}: " if several else ""
                err.print(f"{escape(where)}the game is unfinished: it has no game_end yet")
        except BoneyardError as exc:
            error = exc.to_json() if isinstance(exc, RecordError) else _error_line(str(exc))
            other = other_game(record) if record is not None else None
            if other is not None and record is not None:
                error = _error_line(
                    f"this record's events are not {get_spec(record.game).title} events: they "
                    f"are {get_spec(other).title}'s (its game should be {other!r})"
                )
            out.write(json.dumps({**tag, **error}) + "\n")
            status = 2
    out.flush()
    raise typer.Exit(status)


@app.command()
def selfplay(
    game: GameArg = "highfive",
    players: Annotated[int, typer.Option(help="Number of players.")] = 2,
    bots: Annotated[
        str, typer.Option(help=f"Bots by seat, comma-separated (or one for all): {BOTS_HELP}.")
    ] = "greedy",
    preset: Annotated[str | None, typer.Option(help="Rule preset (High Five: box or pda).")] = None,
    option: OptionArg = None,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same game.")] = 0,
    out: Annotated[
        Path | None, typer.Option("--out", help="Where to write the record (default: stdout).")
    ] = None,
    move_time: MoveTimeArg = 5.0,
    on_error: OnErrorArg = FORFEIT,
) -> None:
    """Play a whole game between bots and write its record."""
    try:
        spec = get_spec(game)
        options = parse_option_pairs(option or [], preset)
    except BoneyardError as exc:
        fail(str(exc))
        raise
    bot_names = _bots(bots, players, game)
    rules = _rules(move_time, on_error, game)
    state = _new_state(spec, players, options, [f"{b} {i + 1}" for i, b in enumerate(bot_names)])
    seats = [_seat(b, seed * 1000 + i + 1, rules) for i, b in enumerate(bot_names)]
    run = play_refereed(state, seats, random.Random(seed), title=spec.title)
    record = state.record()
    record["meta"] = {"seed": seed, "bots": bot_names, "generator": f"boneyard {__version__}"}
    if run.failures:
        record["meta"]["failures"] = [f.to_json() for f in run.failures]
    for failure in run.failures:
        err.print(f"[yellow]{escape(failure.describe())}[/]")
    text = dump_record(record)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        result = run.result
        won = "no single winner" if result.winner is None else f"seat {result.winner + 1} wins"
        err.print(f"wrote {out}: {won}, scores {list(result.scores)}")


@app.command()
def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help=f"Game: {', '.join(MODULES)}")] = "highfive",
    players: Annotated[int, typer.Option(help="Number of players (you and bots).")] = 2,
    bots: Annotated[
        str,
        typer.Option(help=f"Bot for the other seats, or one per seat: {BOTS_HELP}."),
    ] = "greedy",
    preset: Annotated[str | None, typer.Option(help="Rule preset (High Five: box or pda).")] = None,
    option: OptionArg = None,
    seat: Annotated[int, typer.Option(help="Your seat (1 leads the turn order).")] = 1,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    seed: Annotated[int | None, typer.Option(help="Random seed for the deals and bots.")] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Where to save the record (default: a dated file here, or the file resumed)."
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Go on with a game saved by q, with its bots, options and seed."),
    ] = None,
    move_time: MoveTimeArg = 5.0,
    on_error: OnErrorArg = FORFEIT,
) -> None:
    """Play a game in the terminal against bots (q saves it; --resume goes on with it)."""
    if resume is not None:
        given = [
            p
            for p in ("game", "players", "bots", "preset", "option", "seat", "name", "seed")
            if getattr(ctx.get_parameter_source(p), "name", "DEFAULT") != "DEFAULT"
        ]
        if given:
            fail(
                f"--resume goes on with the saved game as it was: leave out "
                f"{', '.join('--' + g if g != 'game' else 'the game' for g in given)}"
            )
        spec, state, bot_of, seed = _resumed(resume)
        save = save or resume
    else:
        spec, state, bot_of, seed = _new_play(game, players, bots, preset, option, seat, name, seed)
    rules = _rules(move_time, on_error, spec.name)
    referees = {
        i: _seat(b, seed * 1000 + i + 1, rules) for i, b in enumerate(bot_of) if b is not None
    }
    humans = {i for i, b in enumerate(bot_of) if b is None}
    console = Console(highlight=False)
    again = " (resumed)" if resume is not None else ""
    console.print(
        f"[bold]Boneyard — {spec.title}[/]{again} (seed {seed}). "
        "Type ? for help, q to save and quit."
    )
    tg = TerminalGame(spec, state, humans, referees, seed, console, console.input)
    finished = tg.run()
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    path = save or Path(f"boneyard-{spec.name}-{stamp}.json")
    meta: dict[str, object] = {"seed": seed, "bots": bot_of, "generator": f"boneyard {__version__}"}
    failures = [f.to_json() for r in referees.values() for f in r.failures]
    if failures:
        meta["failures"] = failures
    try:
        save_record(state, path, meta)
    except OSError as exc:
        fail(f"could not save the record to {path}: {exc.strerror}")
    console.print(f"{'Game saved' if finished else 'Game saved unfinished'} to {path}.")


def _new_play(
    game: str,
    players: int,
    bots: str,
    preset: str | None,
    option: list[str] | None,
    seat: int,
    name: str,
    seed: int | None,
) -> tuple[AnySpec, GameState, list[str | None], int]:
    """A new terminal game: its spec, state, bot by seat (``None``: the person) and seed."""
    try:
        spec = get_spec(game)
        options = parse_option_pairs(option or [], preset)
    except BoneyardError as exc:
        fail(str(exc))
        raise
    if not 1 <= seat <= players:
        fail(f"--seat is 1 to {players}")
    others = iter(_bots(bots, players - 1, game))
    bot_of: list[str | None] = [None if i == seat - 1 else next(others) for i in range(players)]
    names = [
        name if b is None else f"{short_label(b).capitalize()} bot {i + 1}"
        for i, b in enumerate(bot_of)
    ]
    state = _new_state(spec, players, options, names)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    return spec, state, bot_of, seed


def _resumed(path: Path) -> tuple[AnySpec, GameState, list[str | None], int]:
    """The saved game of ``path``: its spec, state, bot by seat (``None``: a person) and seed."""
    try:
        record = parse_record(path.read_text(encoding="utf-8"))
        spec = get_spec(record.game)
        state = spec.from_record(record)
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")
        raise
    except BoneyardError as exc:
        fail(f"{path} cannot be resumed: {exc}")
        raise
    meta = record.meta
    seed, bot_of = meta.get("seed"), meta.get("bots")
    if state.is_over:
        fail(f"the game in {path} is over: there is nothing to resume")
    if type(seed) is not int or not isinstance(bot_of, list) or len(bot_of) != state.num_seats:
        fail(f"{path} was not saved by boneyard play: its meta has no seed and bots by seat")
        raise AssertionError
    if None not in bot_of:
        fail(f"every seat of {path} is a bot's: play it with boneyard selfplay")
    failures = meta.get("failures")
    failures = failures if isinstance(failures, list) else []
    if any(f.get("then") == FORFEIT for f in failures if isinstance(f, dict)):
        fail(f"the game in {path} ended when a bot forfeited: there is nothing to resume")
    for b in bot_of:
        if b is not None:
            _bots(str(b), 1, spec.name)
    state.names = list(record.seats)
    assert isinstance(seed, int)
    return spec, _dealt_again(spec, record, seed) or state, list(bot_of), seed


def _dealt_again(spec: AnySpec, record: Record, seed: int) -> GameState | None:
    """A game saved before the first move of its last hand, with that hand dealt again from
    the seed. A record names who opens a hand only by its first event (Merry-Go-Round's random
    first setter, RECORDS §6), so read back alone it would let the wrong seat open; the seed
    drew that seat and says it again. ``None`` when there is no such hand, or when the seed's
    deal is not the saved one (then the record is read as it is)."""
    if not record.hands or record.hands[-1].get("events"):
        return None
    state = spec.from_record(replace(record, hands=record.hands[:-1]))
    if not state.awaiting_deal or state.is_over:
        return None
    state.deal_random(deal_rng(seed, state.hands_dealt))
    saved = {k: v for k, v in record.hands[-1].items() if k != "events"}
    again = {k: v for k, v in state.record()["hands"][-1].items() if k != "events"}
    if json.loads(json.dumps(again)) != saved:
        return None
    state.names = list(record.seats)
    return state


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
    from boneyard.server.tables.fairness import verify_record

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
bot_app = typer.Typer(help="Bot accounts: play a site's games with a bot.", no_args_is_help=True)
app.add_typer(bot_app, name="bot")


@bot_app.command("connect")
def bot_connect(
    token: Annotated[
        str | None,
        typer.Option(
            envvar="BONEYARD_BOT_TOKEN",
            show_envvar=True,
            help="The bot account's API token (its profile page); rather from the environment "
            "or --token-file, where other users of the machine cannot see it.",
        ),
    ] = None,
    token_file: Annotated[
        Path | None, typer.Option(help="A file holding the token (its first line).")
    ] = None,
    server: Annotated[str, typer.Option(help="The site's address.")] = "http://127.0.0.1:8000",
    bots: Annotated[
        str, typer.Option(help="The bot that plays: a name (expert, greedy, a plugin) or cmd:…")
    ] = "expert",
    games: Annotated[
        int | None,
        typer.Option(help="Take on this many games, play them to their end and stop.", min=1),
    ] = None,
    accept: Annotated[
        str, typer.Option(help="Challenges: 'all' accepted, 'none' declined.")
    ] = "all",
    move_time: Annotated[
        float | None,
        typer.Option(
            "--move-time",
            help="The most seconds a move may take (default: the table's clock, less a safety "
            "margin; 60 at a table without one).",
        ),
    ] = None,
) -> None:
    """Connect a bot account to a site and play: accept challenges, play its seats."""
    from boneyard.cli.botclient import bot_command

    if accept not in ("all", "none"):
        fail("--accept is 'all' or 'none'")
    if move_time is not None and not move_time > 0:
        fail("--move-time must be above 0 seconds")
    secret = _token(token, token_file)
    log = lambda t: err.print(escape(t))  # noqa: E731
    code = bot_command(server, secret, bots, games, accept == "all", log, move_time)
    raise typer.Exit(code)


def _token(token: str | None, token_file: Path | None) -> str:
    """The bot's token: ``--token-file``'s first line, else ``--token`` (or the environment's
    ``BONEYARD_BOT_TOKEN``)."""
    if token_file is not None:
        try:
            lines = token_file.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            fail(f"cannot read the token file {token_file}: {exc.strerror or exc}")
            raise
        token = lines[0].strip() if lines else ""
        if not token:
            fail(f"the token file {token_file} is empty")
    if not token:
        fail("give the bot account's token: --token-file FILE, BONEYARD_BOT_TOKEN or --token")
    assert token is not None
    return token.strip()


@app.callback(invoke_without_command=True)
def _root(
    version: Annotated[bool, typer.Option("--version", help="Show the version and exit.")] = False,
) -> None:
    if version:
        typer.echo(f"boneyard {__version__}")
        raise typer.Exit()
    # Games beyond the shipped ones (a plugin's, a test's toy game): docs/games.md.
    registry.register_all(os.environ.get("BONEYARD_GAMES", ""))


def main() -> None:
    """Entry point of the ``boneyard`` command."""
    app()
