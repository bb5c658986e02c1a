"""The games, each known in one place: its :class:`GameSpec`.

A spec is everything the rest of Boneyard may ask of a game: its name, player counts, options
and presets, a new game, the state a record reaches, the positions of a record, its replay
lines, the action a record event or a player's move names, its search (for the expert bot), its
text view, its words for a hand's end, and its actions and observations as numbers for a
learner (:mod:`boneyard.games.learning`). Nothing outside ``boneyard.games`` imports a game's
package (an import-linter contract); code that serves every game holds a :data:`AnySpec` and a
:data:`~boneyard.core.protocol.GameState`. Adding a game is one package with a ``SPEC`` and one
line in :data:`MODULES` (docs/games.md); a program (a test's toy game, a plugin) may add one with
:func:`register`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from boneyard.core.cards import CardRule
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.options import OptionField
from boneyard.core.protocol import Action, Event, GameState, Observation, State
from boneyard.core.records import JSON, Record, parse_record, record_from_json
from boneyard.core.words import Explainer, plain_end
from boneyard.games import walk
from boneyard.games.inference import PlayModel
from boneyard.games.learning import Learning
from boneyard.games.walk import LineFeed, LinesOf, Position, RecordReader

MODULES: dict[str, str] = {
    "highfive": "boneyard.games.highfive",
    "merry-go-round": "boneyard.games.merry_go_round",
    "high-fives": "boneyard.games.high_fives",
    "highrise": "boneyard.games.highrise",
}
"""Record name -> the package whose ``SPEC`` it is: the shipped games, and those added by
:func:`register`."""

SHIPPED: tuple[str, ...] = tuple(MODULES)
"""The games this installation ships (``MODULES`` before any :func:`register`)."""


def register(name: str, module: str) -> None:
    """Make ``module`` (an importable package with a ``SPEC`` named ``name``) the game ``name``,
    for this process: a test's toy game, or a plugin's. Registering a shipped name again with
    another module is refused (a record names its game for good)."""
    if name in SHIPPED and MODULES[name] != module:
        raise BoneyardError(f"{name} is a shipped game: it cannot be registered again")
    MODULES[name] = module


def unregister(name: str) -> None:
    """Forget a game added by :func:`register` (a shipped game cannot be)."""
    if name in SHIPPED:
        raise BoneyardError(f"{name} is a shipped game: it cannot be unregistered")
    MODULES.pop(name, None)


def registered() -> dict[str, str]:
    """The games added by :func:`register` (a worker process registers them in its turn)."""
    return {name: module for name, module in MODULES.items() if name not in SHIPPED}


def register_all(games: Mapping[str, str] | str) -> None:
    """:func:`register` each game of ``games``: a mapping, or its text form ``name=module``,
    comma-separated (the ``boneyard`` command's ``BONEYARD_GAMES``); BoneyardError for text
    that is not of that form.

    >>> register_all("toy-line=tests.toygame"); registered()
    {'toy-line': 'tests.toygame'}
    >>> unregister("toy-line"); register_all("toy-line")
    Traceback (most recent call last):
    ...
    boneyard.core.errors.BoneyardError: 'toy-line' is not name=module
    """
    if isinstance(games, str):
        pairs = {}
        for item in filter(None, (part.strip() for part in games.split(","))):
            name, eq, module = item.partition("=")
            if not eq or not name.strip() or not module.strip():
                raise BoneyardError(f"{item!r} is not name=module")
            pairs[name.strip()] = module.strip()
        games = pairs
    for name, module in games.items():
        register(name, module)


BOARDS = ("layout", "row", "tower")
"""The boards the browser draws (web/board.js)."""
PICKS = ("end", "capture", "cells")
"""The ways the browser picks a move's place (web/table.js)."""


@dataclass(frozen=True, slots=True)
class Drawing:
    """How the browser draws the game: data the server sends with every table and replay, so
    that the client (web/board.js, web/table.js) names no game.

    >>> Drawing("layout", "end").to_json()
    {'board': 'layout', 'pick': 'end', 'piles': False}
    """

    board: str
    """The board's kind: ``layout`` (a line of play that may branch: the Fives layouts, any
    line game whose view has ``layout`` and ``open_ends``), ``row`` (a row of tiles, as High
    Fives' layout) or ``tower`` (Highrise's cells)."""
    pick: str
    """How a move's place is picked on the board once its tile is chosen: ``end`` (an open
    end, the move's ``on`` and ``port``), ``capture`` (a tile of the row, the move's
    ``capture``) or ``cells`` (two cells of the tower, the move's ``cells``)."""
    piles: bool = False
    """Whether each seat has a pile of won tiles to show (the view's ``piles``)."""

    def __post_init__(self) -> None:
        if self.board not in BOARDS or self.pick not in PICKS:
            raise ValueError(f"no such drawing: board {self.board!r}, pick {self.pick!r}")

    def to_json(self) -> JSON:
        """The form the client reads."""
        return {"board": self.board, "pick": self.pick, "piles": self.piles}


def held_tiles(view: JSON) -> list[str]:
    """The tiles a seat's observation (its JSON) shows it holds: its ``hand``. A game whose
    observation shows a held tile elsewhere gives its own (the spec's ``held``)."""
    hand = view.get("hand")
    return [str(t) for t in hand] if isinstance(hand, list) else []


S = TypeVar("S", bound="State[Any, Any, Any]")
A = TypeVar("A", bound=Action)
E = TypeVar("E", bound=Event)
Ob = TypeVar("Ob", bound="Observation[Any]")
S_co = TypeVar("S_co", covariant=True)


RecordLike = Record | Mapping[str, object] | str
"""A record as the specs take it: parsed, its JSON document (``state.record()``, or
``json.load`` of a file) or its text."""


def as_record(record: RecordLike) -> Record:
    """``record`` parsed (:data:`RecordLike`); raises RecordError for a document that is not
    one.

    >>> as_record({"format": "boneyard-record/1", "game": "highrise", "seats": ["A", "B"]}).seats
    ('A', 'B')
    """
    if isinstance(record, Record):
        return record
    if isinstance(record, str):
        return parse_record(record)
    return record_from_json(dict(record))


class Determinizer(Protocol[S_co]):
    """Samples worlds (whole states) consistent with one observation."""

    def sample(self, rng: random.Random) -> S_co:
        """One world consistent with the observation."""
        ...

    def infer(
        self,
        rng: random.Random,
        count: int,
        pool: int,
        model: PlayModel,
        stop: Callable[[], bool] | None = None,
    ) -> Sequence[S_co]:
        """``count`` worlds drawn in proportion to how likely ``model`` makes the other seats'
        plays in them, from ``pool`` candidates (fewer if ``stop()`` turns true); a sampler
        that reads no plays samples them as :meth:`sample` does."""
        ...

    @property
    def determined(self) -> bool:
        """Whether the observation leaves one world only (its hidden tiles all known)."""
        ...


@dataclass(frozen=True, slots=True)
class GameSearch(Generic[S, Ob]):
    """How the expert bot searches a game (boneyard.bots.expert)."""

    sampler: Callable[[Ob], Determinizer[S]]
    """Build once per decision from the deciding seat's observation."""
    playout: Callable[[S, int, random.Random], float]
    """``playout(world, seat, rng)``: finish the hand with the game's greedy policy (changing
    the world); the seat's score differential over it, with a bonus when it ends the game."""
    scores: Callable[[S, int], tuple[int, list[int]]]
    """``scores(world, seat)``: the seat's score (its side's) and every opponent's (side's)."""
    world_scale: int = 1
    """The expert levels' world counts are multiplied by this for the game: how many times
    more worlds its engine searches than the levels' base in the same decision time."""
    crowded: tuple[int, int] = (1, 1)
    """With three or four seats (more than one hand hidden), a level that reads the plays
    searches this many times its worlds, drawn from this many times its pool of candidate deals
    (High Five: two or three hidden hands need more of both, and its decisions there are short;
    docs/performance.md, "High Five at four players" and "High Five at three players")."""
    solve: Callable[[S, int], list[float] | None] | None = None
    """``solve(world, nodes)``: the exact value of every legal action for the seat to move (as
    :attr:`playout` counts it, the action's own points included), every tile known, or
    ``None`` when that takes more than ``nodes`` positions (or the game has no solver)."""
    standing: Callable[[S, int], float] | None = None
    """``standing(world, seat)``: for a level that reads the game's standing, what a play-out
    adds once the hand is over and the game goes on: how the scores it leaves favour the seat
    (High Five, 2 players: :mod:`boneyard.games.highfive.standing`), on :attr:`playout`'s scale
    (its bonus for a won game). ``None``: chips are worth the same at every score."""
    reading: PlayModel | None = None
    """How a level that reads the plays takes the other seats to play in this game, when the
    expert's own model does not fit it (``None``: the expert's,
    :data:`boneyard.bots.expert.READING`). High Fives: a tile's pips run to 30, so its
    tie-break must weigh far less per pip than a double-six's."""
    halving: bool = True
    """Whether a level that spends its worlds by sequential halving does so in this game. Off
    where it was measured to cost strength: in Merry-Go-Round the first rounds' few worlds drop
    the best action too often (docs/performance.md, "Merry-Go-Round without halving"), and its
    decisions are cheap enough to give every action every world."""


@dataclass(frozen=True)
class GameSpec(Generic[S, A, E, Ob]):
    """What the rest of Boneyard may ask of one game (see the module docstring)."""

    name: str
    """The record name (``highfive``, ``merry-go-round``...)."""
    title: str
    min_players: int
    max_players: int
    presets: tuple[str, ...]
    """Named option bundles (``preset``), if the game has any; the first is the default."""
    option_fields: tuple[OptionField, ...]
    """Every option but ``preset``, as a form offers it (the site's New table form), read from
    the game's options class (:func:`boneyard.core.options.option_fields`)."""
    options: Callable[[int, Mapping[str, object] | None], JSON]
    """``options(players, chosen)``: the options a game played under ``chosen`` states in its
    record; raises OptionError on an unknown key or value."""
    new_game: Callable[[int, Mapping[str, object] | None], S]
    """``new_game(players, options)``: a fresh game awaiting its first deal; raises OptionError.
    Absent options take today's defaults (a record's take its own: :meth:`from_record`)."""
    reader: RecordReader[S, A]
    """How the game reads its records (:mod:`boneyard.games.walk`)."""
    lines_of: LinesOf
    """``lines_of(event, hand, index)``: the replay lines of one event (RECORDS.md §5)."""
    parse_action: Callable[[Ob, str], A]
    """``parse_action(observation, text)``: a player's typed move in tile notation, matched
    against ``observation.legal_actions``; raises BoneyardError with a player-facing reason."""
    describe_action: Callable[[A], str]
    """A short human description of an action (``5-5 on the spinner's side``); it must not
    reveal hidden tiles (a draw is "draws a tile")."""
    render: Callable[[Ob, Sequence[str], int | None], str]
    """``render(observation, seat_names, width)``: the table as that seat sees it, as text with
    Rich markup (layout, own hand, others' tile counts, scores), its drawing cut to ``width``
    columns (``None``: no limit) without splitting a tile. Pure: no I/O, no rich import."""
    observation_from_json: Callable[[JSON], Ob]
    """``observation_from_json(doc)``: the observation whose ``to_json()`` is ``doc``, equal to
    it (a bot account's client runs library bots on the site's JSON: boneyard.cli.botclient).
    ``to_json()`` therefore shows everything the observation holds, and nothing more."""
    syntax: str = ""
    """How a player types a move in this game (the terminal's ``?`` help)."""
    search: GameSearch[S, Ob] | None = None
    """How the expert bot searches the game (``None``: it cannot)."""
    card: Callable[[Mapping[str, object]], CardRule] | None = None
    """``card(options)``: what a two-player game's final scores can be under ``options`` (score
    cards of over-the-board events are checked against it; ``None``: no cards)."""
    figure: Callable[[str], JSON] | None = None
    """``figure(words)``: a position reached by a few plays written in the game's notation, as
    the view the site's board draws (the rules pages' pictures); raises FigureError when the
    game does not allow it."""
    explain_hand_end: Explainer = plain_end
    """``explain_hand_end(ending)``: how a finished hand was scored, sentence by sentence, in a
    player's words (:class:`~boneyard.core.words.Ending`: public facts only; the game's
    ``handend`` module, built from :mod:`boneyard.core.words`)."""
    hand_word: str = "Hand"
    """What the game calls a hand where a person reads it (High Fives deals a ``Pass``)."""
    rules: str = ""
    """The game's rules page in Markdown, with a row per option in its options table
    (``| In words<br>`name` | choices | what it does |``), for a game whose package carries its
    own page (the shipped games' are with the client: web/rules/<game>.md)."""
    drawing: Drawing = Drawing("layout", "end")
    """How the browser draws the game (:class:`Drawing`), sent with every table and replay."""
    held: Callable[[JSON], list[str]] = held_tiles
    """``held(view)``: the tiles a seat's observation JSON shows it holds (the move log's tiles
    kept at a hand's end; Highrise adds its drawn tile still to place)."""
    log_lines: LinesOf | None = None
    """The lines the table's move log shows for one event, as ``lines_of`` takes it (``None``:
    its replay lines; High Fives adds a claim step, which writes no replay line of its own)."""
    learning: Learning | None = None
    """How a learner sees the game (the reinforcement-learning adapters, :mod:`boneyard.rl`):
    its codec (actions <-> integer ids) and its encoder (an observation's JSON -> numbers),
    each sized by a first observation of the table (``None``: the adapters cannot play it)."""

    def from_record(self, record: RecordLike) -> S:
        """The state ``record`` reaches, every hand and event checked; raises RecordError.
        ``record``: a :class:`Record`, its JSON document (``state.record()``) or its text."""
        return walk.from_record(self.reader, as_record(record))

    def positions(self, record: RecordLike) -> Iterator[Position[S, A]]:
        """The state before each event of ``record`` with the action taken there, and after each
        hand's last event (``action`` ``None``): one walk, linear in the record's length.
        ``record`` as :meth:`from_record` takes it."""
        return walk.positions(self.reader, as_record(record))

    def replay(self, record: RecordLike) -> Iterator[JSON]:
        """Replay output lines of RECORDS.md §5; raises RecordError at the first fault.
        ``record`` as :meth:`from_record` takes it."""
        return walk.replay(self.reader, as_record(record), self.lines_of)

    def action_from_event(self, state: S, event: Mapping[str, object]) -> A:
        """The action a record event names in ``state`` (full information: a draw may name its
        tile, which must be the next one); the inverse of ``state.apply(action).to_json()``.
        Raises RecordError."""
        return walk.action_from_event(self.reader, state, event)

    def legal_match(self, state: S, action: A) -> A:
        """The legal action of ``state`` that a record's ``action`` takes (a record may write a
        move in several ways: a spinner play without its port, cells in either order...), or
        its first step (a High Fives turn with claims, taken claim by claim); else ``action``."""
        return self.reader.legal_match(state, action)

    def action_from_move(self, state: S, fields: Mapping[str, object]) -> A:
        """The legal action a player's move names: the event fields of one of ``state``'s legal
        actions (``action.to_event()``), nothing else. Refused (IllegalActionError) in the
        player's words, which never reveal a hidden tile."""
        actions: Sequence[A] = state.legal_actions()
        wanted = dict(fields)
        for action in actions:
            if action.to_event() == wanted:
                return action
        if not actions:
            raise IllegalActionError("nobody can move now")
        seat = state.current_seat
        tile = wanted.get("play")
        if isinstance(tile, str) and seat is not None:
            try:
                self.parse_action(state.observation(seat), tile)
            except BoneyardError as exc:
                raise IllegalActionError(str(exc)) from None
            raise IllegalActionError(f"{tile} cannot be played that way")
        raise IllegalActionError("that is not one of your legal moves")

    def logged(self, event: E, hand: int, index: int) -> list[JSON]:
        """The move log's lines of one event (:attr:`log_lines`, else its replay lines)."""
        return (self.log_lines or self.lines_of)(event, hand, index)

    def move_log(self, state: S) -> LineFeed:
        """The replay lines of ``state``'s game from now on, as they happen (a terminal game's
        running commentary: what ``boneyard replay`` would print)."""
        return LineFeed(state, self.lines_of)


AnySpec = GameSpec[GameState, Action, Event, Observation[Action]]
"""The spec of some game, as code that serves every game holds it."""


def get_spec(name: str) -> AnySpec:
    """The spec of a game by record name (``highfive``, ``merry-go-round``, ...)."""
    if name not in MODULES:
        raise BoneyardError(f"game {name!r} is unknown (games: {', '.join(MODULES)})")
    try:
        module = importlib.import_module(MODULES[name])
    except ModuleNotFoundError as exc:
        if exc.name == MODULES[name]:
            raise BoneyardError(f"{name} is not available yet in this version") from None
        raise
    spec: AnySpec = module.SPEC
    return spec


def available_games() -> list[str]:
    """Record names of the games this installation has."""
    out = []
    for name in MODULES:
        try:
            get_spec(name)
        except BoneyardError:
            continue
        out.append(name)
    return out


def other_game(record: Record) -> str | None:
    """Another game whose rules a record that does not replay follows (its ``game`` names the
    wrong one): the first game under which every hand replays, else ``None`` (also for a record
    of an unknown game, or with no events to tell by)."""
    if record.game not in MODULES or not any(h.get("events") for h in record.hands):
        return None
    for name in available_games():
        if name == record.game:
            continue
        try:
            for _line in get_spec(name).replay(replace(record, game=name)):
                pass
        except BoneyardError:
            continue
        return name
    return None


def play_out(
    state: State[A, E, Ob],
    choose: Sequence[Callable[[Ob], A]],
    rng: random.Random,
    max_steps: int = 1_000_000,
) -> State[A, E, Ob]:
    """Drive ``state`` to its end: deals from ``rng``; seat ``i`` acts by ``choose[i](obs)``."""
    steps = 0
    while not state.is_over:
        if state.awaiting_deal:
            state.deal_random(rng)
            continue
        seat = state.current_seat
        assert seat is not None
        state.apply(choose[seat](state.observation(seat)))
        steps += 1
        if steps > max_steps:  # pragma: no cover - a rules bug, not a user error
            raise RuntimeError("the game did not end")
    return state
