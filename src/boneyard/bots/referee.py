"""Refereeing bots: what a bot is told, what it may answer, and what happens when it fails.

Any bot may go wrong: a plugin may raise or return a move that is not legal, a program in
another process may answer nonsense, take too long or die (:mod:`boneyard.bots.process`). Every
place that seats bots (``arena``, ``tournament simulate``, ``selfplay``, ``play``) drives them
through :func:`play` and :class:`Seat`, so a failure is handled the same way everywhere: by the
:class:`Rules` of the run, either the seat **forfeits** the game (it stops at once and the seat
loses) or a **fallback** bot plays on for it. Each failure is kept (:class:`Failure`) so that
the run can say which seat failed, how, and what was done about it.

A bot may also implement two optional methods, which :func:`play` calls when present:
``start(seating)`` before its first decision (the game, options and its seat: a
:class:`Seating`) and ``finish(outcome)`` when the game ends (the ``end`` message of the
process protocol: winner, scores, reason, forfeit).

>>> import random
>>> from boneyard.bots import GreedyBot
>>> from boneyard.games.registry import get_spec
>>> state = get_spec("highfive").new_game(2, {})
>>> class Broken:
...     name = "broken"
...     def choose(self, observation):
...         raise RuntimeError("out of ideas")
>>> greedy = GreedyBot(random.Random(1))
>>> seats = [Seat("broken", Broken(), Rules()), Seat("greedy", greedy, Rules())]
>>> run = play(state, seats, random.Random(2))
>>> run.forfeit.seat, run.forfeit.kind, run.result.winner
(0, 'crash', 1)
>>> run.forfeit.detail
'the bot raised RuntimeError: out of ideas'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import Action, Bot, GameResult, GameState, Observation
from boneyard.core.records import JSON
from boneyard.games.registry import play_out

FailureKind = Literal["illegal", "timeout", "crash"]
FORFEIT = "forfeit"
"""The :attr:`Rules.on_error` under which a failing seat loses the game at once."""


@dataclass(frozen=True, slots=True)
class Rules:
    """How the bots of a run are refereed.

    ``move_seconds``: a process bot's time for one decision; ``start_seconds``: more time for
    its first answer (the program starting up). ``on_error``: ``forfeit`` (the failing seat
    loses the game) or the name of a bot that plays on for it.
    """

    move_seconds: float = 5.0
    start_seconds: float = 10.0
    on_error: str = FORFEIT

    def __post_init__(self) -> None:
        if not self.move_seconds > 0 or self.start_seconds < 0:
            raise BoneyardError("a bot's time per move must be above 0 seconds")


@dataclass(frozen=True, slots=True)
class Seating:
    """What a bot is told when it sits down: the ``start`` message of the process protocol."""

    game: str
    title: str
    players: int
    seat: int
    names: tuple[str, ...]
    options: JSON
    """The options as the game's record writes them (every resolved option)."""
    seed: int
    """A seed for the bot's own randomness (the same run gives the same seed)."""
    move_seconds: float

    def to_json(self) -> JSON:
        """The ``start`` message (docs/bots.md)."""
        return {
            "type": "start",
            "protocol": PROTOCOL,
            "game": self.game,
            "title": self.title,
            "players": self.players,
            "seat": self.seat,
            "names": list(self.names),
            "options": self.options,
            "seed": self.seed,
            "move_seconds": self.move_seconds,
        }


PROTOCOL = "boneyard-bot/1"
"""The name and version of the process protocol (docs/bots.md)."""


class BotFailure(BoneyardError):
    """A bot broke the rules of play: an ``illegal`` answer, a ``timeout`` or a ``crash``."""

    def __init__(self, kind: FailureKind, detail: str) -> None:
        super().__init__(detail)
        self.kind: FailureKind = kind
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Failure:
    """One failure of a seat: who, how, where, and what was done (``forfeit`` or the fallback
    bot's name)."""

    seat: int
    bot: str
    kind: FailureKind
    detail: str
    hand: int
    """The hand it happened in (0-based, as in records)."""
    then: str

    def to_json(self) -> JSON:
        """JSON form (``arena --json``, a record's ``meta``)."""
        return {
            "seat": self.seat,
            "bot": self.bot,
            "kind": self.kind,
            "detail": self.detail,
            "hand": self.hand,
            "then": self.then,
        }

    def describe(self) -> str:
        """One line for people (1-based seat and hand)."""
        what = {"illegal": "illegal answer", "timeout": "timeout", "crash": "crash"}[self.kind]
        done = "it forfeits the game" if self.then == FORFEIT else f"{self.then} plays on for it"
        return (
            f"seat {self.seat + 1} ({self.bot}), hand {self.hand + 1}: {what}: {self.detail}; "
            f"{done}"
        )


class Forfeit(Exception):
    """Raised by :meth:`Seat.choose` when its seat forfeits; :func:`play` ends the game."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.describe())
        self.failure = failure


AnyBot = Bot[Observation[Action], Action]
"""A bot of any game (optional ``start``, ``finish`` and ``close`` methods)."""


class Seat:
    """One seat's bot for one game, refereed: a legal move, or a :class:`Failure` handled by
    the rules (a fallback bot, made when first needed, or a :class:`Forfeit`)."""

    def __init__(
        self,
        label: str,
        bot: AnyBot,
        rules: Rules,
        fallback: Callable[[], AnyBot] | None = None,
        seed: int = 0,
    ) -> None:
        self.label = label
        self.seed = seed
        self.bot = bot
        self.rules = rules
        self.fallback = fallback
        self.seat = 0
        self.hand = 0
        self.replaced_by: AnyBot | None = None
        self.failures: list[Failure] = []

    def choose(self, observation: Observation[Action]) -> Action:
        """The bot's legal move (or its fallback's); raises :class:`Forfeit`."""
        if self.replaced_by is not None:
            return _legal(self.replaced_by.choose(observation), observation) or _first(observation)
        try:
            action = self.bot.choose(observation)
        except BotFailure as exc:
            failure = exc
        except Exception as exc:  # a plugin's bug is its seat's failure, not the run's
            failure = BotFailure("crash", f"the bot raised {type(exc).__name__}: {exc}")
        else:
            legal = _legal(action, observation)
            if legal is not None:
                return legal
            failure = BotFailure("illegal", f"it chose {_show(action)}, not one of its legal moves")
        return self._failed(failure, observation)

    def _failed(self, failure: BotFailure, observation: Observation[Action]) -> Action:
        then = (
            FORFEIT
            if self.rules.on_error == FORFEIT or self.fallback is None
            else (self.rules.on_error)
        )
        record = Failure(self.seat, self.label, failure.kind, failure.detail, self.hand, then)
        self.failures.append(record)
        close(self.bot)
        if then == FORFEIT:
            raise Forfeit(record)
        assert self.fallback is not None
        self.replaced_by = self.fallback()
        return self.choose(observation)


def _legal(action: object, observation: Observation[Action]) -> Action | None:
    """The legal action equal to ``action`` (the observation's own value), else ``None``."""
    for legal in observation.legal_actions:
        if legal is action or legal == action:
            return legal
    return None


def _first(observation: Observation[Action]) -> Action:
    return observation.legal_actions[0]


def _show(action: object) -> str:
    to_event = getattr(action, "to_event", None)
    text = repr(to_event()) if callable(to_event) else repr(action)
    return text if len(text) <= 120 else text[:117] + "..."


def close(bot: object) -> None:
    """End a bot's resources (a process bot's program), if it has any."""
    closer = getattr(bot, "close", None)
    if callable(closer):
        closer()


@dataclass(slots=True)
class Run:
    """How one refereed game went."""

    result: GameResult
    failures: list[Failure] = field(default_factory=list)
    forfeit: Failure | None = None

    def outcome_json(self) -> JSON:
        """The ``end`` message sent to process bots (docs/bots.md)."""
        return {
            "type": "end",
            "winner": self.result.winner,
            "scores": list(self.result.scores),
            "reason": self.result.reason,
            "forfeit": None if self.forfeit is None else self.forfeit.seat,
        }


def forfeit_result(state: GameState, loser: int) -> GameResult:
    """The result of a game ``loser`` forfeits: the best other seat wins (no single best: no
    winner); the scores are those when it stopped."""
    scores = tuple(int(x) for x in state.observation(None).to_json()["scores"])
    others = [s for s in range(state.num_seats) if s != loser]
    top = max(scores[s] for s in others)
    best = [s for s in others if scores[s] == top]
    return GameResult(best[0] if len(best) == 1 else None, scores, "forfeit")


def seat_bots(state: GameState, seats: Mapping[int, Seat], title: str, options: JSON) -> None:
    """Number the bots' seats and tell each bot that wants to know (``start``) the game it
    plays; ``seats`` maps a seat to its refereed bot (a person's seat has none)."""
    names = tuple(state.names)
    n = state.num_seats
    for i, seat in seats.items():
        seat.seat = i
        starter = getattr(seat.bot, "start", None)
        if callable(starter):
            starter(
                Seating(state.game, title, n, i, names, options, seat.seed, seat.rules.move_seconds)
            )


def finish_bots(seats: Sequence[Seat], run: Run) -> None:
    """Tell every bot that wants to know (``finish``) how the game ended, and end their
    resources (a process bot's program goes back to its pool)."""
    for seat in seats:
        for bot in (seat.bot, seat.replaced_by):
            if bot is None:
                continue
            finisher = getattr(bot, "finish", None)
            if callable(finisher):
                finisher(run.outcome_json())
            close(bot)


def play(
    state: GameState,
    seats: Sequence[Seat],
    rng: random.Random,
    *,
    options: JSON | None = None,
    title: str = "",
    max_steps: int = 1_000_000,
) -> Run:
    """Play ``state`` to its end with refereed seats (deals from ``rng``): the bots are told
    the game first (``start``) and its end after (``finish``); a forfeit stops it."""
    opts = dict(options if options is not None else state.record()["options"])
    seat_bots(state, dict(enumerate(seats)), title or state.game, opts)
    run = _drive(state, seats, rng, max_steps)
    for seat in seats:
        run.failures.extend(seat.failures)
    finish_bots(seats, run)
    return run


def _drive(state: GameState, seats: Sequence[Seat], rng: random.Random, max_steps: int) -> Run:
    def chooser(referee: Seat) -> Callable[[Observation[Action]], Action]:
        def choose(observation: Observation[Action]) -> Action:
            referee.hand = state.hands_dealt - 1  # (for the failure's report)
            return referee.choose(observation)

        return choose

    try:
        play_out(state, [chooser(referee) for referee in seats], rng, max_steps)
    except Forfeit as forfeit:
        return Run(forfeit_result(state, forfeit.failure.seat), forfeit=forfeit.failure)
    result = state.result()
    assert result is not None
    return Run(result)
