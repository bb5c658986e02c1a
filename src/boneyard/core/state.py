"""The base of every game state, and of the immutable values the games return.

:class:`GameBase` holds what every game has: the seats and their names, the scores, the phase
(awaiting a deal, in a hand, over), the seat to act, the result, the events of the hand in play
and how each finished hand ended. It writes the record envelope and copies itself from
*declared* fields; a game adds its own fields, its rules and hook methods (as python-chess
variants subclass ``Board``). :class:`Value` gives a game's event classes equality, hashing and a
readable ``repr``.

This module is compiled with mypyc (setup.py), with every game state and event class built on
it: a compiled class may only extend another compiled class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, Generic, Protocol, Self, TypeVar

from boneyard.core.errors import BoneyardError, IllegalActionError, check_seat
from boneyard.core.records import FORMAT, JSON

A = TypeVar("A")
E = TypeVar("E")
Ob = TypeVar("Ob")

AWAIT_DEAL: Final = 0
"""Phase: the next hand needs its set-up."""
OVER: Final = 1
"""Phase: the game has its result."""
PLAYING: Final = 2
"""Phase: a hand is in play. A game may add phases of its own above this one (Merry-Go-Round's
set); every phase from ``PLAYING`` up has a seat to act."""


class _Copyable(Protocol):
    def copy(self) -> object:  # a list, set, dict or layout copy
        ...


class GameBase(Generic[A, E, Ob]):
    """One whole game: seats, scores, phase, result, events; see the module docstring.

    A game declares the fields its copy shares (:attr:`COPY_SHARED`: immutable values, or values
    it replaces rather than changes) and the fields it copies with their own ``copy()``
    (:attr:`COPY_COPIED`), each extending its base's tuples; it implements :meth:`_fresh`,
    :meth:`legal_actions`, :meth:`_is_action`, :meth:`_apply`, :meth:`_observe`,
    :meth:`options_json` and :meth:`hands_json`.
    """

    game: ClassVar[str] = ""
    """The record name of the game."""
    SEAT_NAME: ClassVar[str] = "Seat"
    """Default seat names: ``Seat 1``, ``Seat 2``..."""
    COPY_SHARED: ClassVar[tuple[str, ...]] = ("n", "phase", "turn", "hands_dealt", "_result")
    COPY_COPIED: ClassVar[tuple[str, ...]] = ("names", "scores", "events", "ends")
    ACTIONS_NAMED: ClassVar[str] = "an action of this game"
    """How :meth:`apply` names them when it refuses something else (``a High Five action``)."""

    def __init__(self, players: int, names: Sequence[str] | None = None) -> None:
        self.n = players
        self.names: list[str] = (
            list(names) if names else [f"{self.SEAT_NAME} {i + 1}" for i in range(players)]
        )
        if len(self.names) != players:
            raise BoneyardError(f"{players} players need {players} names, not {len(self.names)}")
        self.scores: list[int] = [0] * players
        """Every seat's score (partners show their side's total)."""
        self.phase = AWAIT_DEAL
        self.turn = 0
        """The seat to act while a hand is in play."""
        self.hands_dealt = 0
        """Hands dealt so far (the hand in play is ``hands_dealt - 1``)."""
        self._result: GameResult | None = None
        self.events: list[E] = []
        """The events of the hand in play (or of the last hand, until the next deal), in record
        order: one per recorded action."""
        self.ends: list[HandEnd] = []
        """How each finished hand ended, in order."""

    # --- the protocol ---------------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        """Player count."""
        return self.n

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` while a deal is awaited or the game is over."""
        return self.turn if self.phase >= PLAYING else None

    @property
    def awaiting_deal(self) -> bool:
        """True when the next hand needs its set-up."""
        return self.phase == AWAIT_DEAL

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self.phase == OVER

    def result(self) -> GameResult | None:
        """The result once the game is over, else ``None``."""
        return self._result

    def legal_actions(self) -> Sequence[A]:
        """Every action the current seat may take (empty when nobody is to act)."""
        raise NotImplementedError

    def apply(self, action: A) -> E:
        """Apply an action of the current seat and return its event; raises
        :class:`IllegalActionError`, changing nothing, when the rules forbid it, or when it is
        not one of the game's actions at all.

        The game's :meth:`_apply` takes its own action type; a compiled build checks such an
        argument itself and would refuse anything else with a ``TypeError`` in its own words.
        Here, where ``A`` is a type variable (which the compiled build does not check), anything
        that :meth:`_is_action` refuses is refused in a player's words in both builds.
        """
        if self._is_action(action):
            return self._apply(action)
        raise IllegalActionError(f"{action!r} is not {self.ACTIONS_NAMED}")

    def _is_action(self, action: object) -> bool:
        """Whether ``action`` is of the game's action type ``A``. A game checks its classes
        in a literal tuple, which the compiled build tests in a few instructions (a tuple in
        a class attribute costs a lookup and a generic ``isinstance``: 3% of a hand)."""
        raise NotImplementedError

    def _apply(self, action: A) -> E:
        """:meth:`apply` once ``action`` is known to be one of the game's actions."""
        raise NotImplementedError

    def observation(self, seat: int | None) -> Ob:
        """Everything ``seat`` may see (``None``: a spectator); any other seat is an error."""
        check_seat(seat, self.n)
        return self._observe(seat)

    def _observe(self, seat: int | None) -> Ob:
        raise NotImplementedError

    def copy(self) -> Self:
        """An independent copy (for search), field by declared field."""
        new = self._fresh()
        for name in self.COPY_SHARED:
            setattr(new, name, getattr(self, name))
        for name in self.COPY_COPIED:
            value: _Copyable = getattr(self, name)
            setattr(new, name, value.copy())
        return new

    def _fresh(self) -> Self:
        """A new game with the same seats and options (the copy fills in the rest)."""
        raise NotImplementedError

    # --- taking back ----------------------------------------------------------------------

    def undo(self) -> None:
        """Take back the last action, or the last deal when no action followed it: the state is
        again what it was before (hands and the boneyard's order included: a drawn tile goes back
        on top), as python-chess's ``Board.pop``. The generator that dealt is not wound back: a
        deal taken back and dealt again with it is a new deal.

        The state rebuilds itself from its own record, with no cost to ``apply``: a take-back
        replays the game so far (about a millisecond for a whole game). A search should copy
        (:meth:`copy`) instead. Raises BoneyardError when there is nothing to take back (no hand
        dealt, or a position set up without its history)."""
        previous = self._undone()
        for name in self.COPY_SHARED:
            setattr(self, name, getattr(previous, name))
        for name in self.COPY_COPIED:
            setattr(self, name, getattr(previous, name))

    def _undone(self) -> Self:
        """The state before the last action or deal (:meth:`undo`): each game reads its own
        record (:func:`boneyard.games.walk.undone`)."""
        raise NotImplementedError

    # --- the record -----------------------------------------------------------------------

    def record(self) -> JSON:
        """The game so far as a ``boneyard-record/1`` document."""
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options_json(),
            "seats": list(self.names),
            "hands": self.hands_json(),
            "meta": {},
        }

    def options_json(self) -> JSON:
        """The record's ``options``."""
        raise NotImplementedError

    def hands_json(self) -> list[JSON]:
        """The record's ``hands``: every hand dealt, the one in play included."""
        raise NotImplementedError

    # --- ends -----------------------------------------------------------------------------

    def _end_hand(
        self, reason: str, winner: int | None, award: int, awards: tuple[int, ...] | None = None
    ) -> None:
        """The hand in play is over (the next needs its deal)."""
        self.ends.append(
            HandEnd(self.hands_dealt - 1, reason, winner, award, awards, tuple(self.scores))
        )
        self.phase = AWAIT_DEAL

    def _end_game(self, winner: int | None, reason: str = "target") -> None:
        """The game is over (always right after a hand ended)."""
        self.phase = OVER
        self._result = GameResult(winner, tuple(self.scores), reason)


class Value:
    """Equality, hashing and ``repr`` from ``__slots__``, for immutable values with ``Final``
    fields (events). Unlike frozen dataclasses they cost nothing extra to build once compiled,
    and the compiled build makes their fields read-only.
    """

    __slots__: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in type(self).__slots__)

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, Value)
            and other._values() == (self._values())
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._values()))

    def __repr__(self) -> str:
        names = getattr(type(self), "FIELDS", type(self).__slots__)
        args = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__name__}({args})"


class GameResult(Value):
    """How a finished game ended: the winner (``None`` for no single winner) and final scores.

    >>> GameResult(1, (40, 150))
    GameResult(winner=1, scores=(40, 150), reason='target')
    """

    __slots__ = ("reason", "scores", "winner")
    FIELDS: ClassVar[tuple[str, ...]] = ("winner", "scores", "reason")

    def __init__(self, winner: int | None, scores: tuple[int, ...], reason: str = "target") -> None:
        self.winner: Final = winner
        self.scores: Final = scores
        self.reason: Final = reason


class HandEnd(Value):
    """How a hand ended (RECORDS.md §5 ``hand_end``): ``awards`` per seat where the game writes
    them (a block, a per-pair lock...), else ``None``. A compiled value: every hand makes one.

    >>> HandEnd(0, "domino", 1, 40, None, (10, 60)).to_json()["reason"]
    'domino'
    """

    __slots__ = ("award", "awards", "hand", "reason", "scores", "winner")
    FIELDS: ClassVar[tuple[str, ...]] = ("hand", "reason", "winner", "award", "awards", "scores")

    def __init__(
        self,
        hand: int,
        reason: str,
        winner: int | None,
        award: int,
        awards: tuple[int, ...] | None,
        scores: tuple[int, ...],
    ) -> None:
        self.hand: Final = hand
        self.reason: Final = reason
        self.winner: Final = winner
        self.award: Final = award
        self.awards: Final = awards
        self.scores: Final = scores

    def to_json(self) -> JSON:
        """The ``hand_end`` replay line."""
        line: JSON = {
            "hand": self.hand,
            "type": "hand_end",
            "reason": self.reason,
            "winner": self.winner,
            "award": self.award,
        }
        if self.awards is not None:
            line["awards"] = list(self.awards)
        line["scores"] = list(self.scores)
        return line
