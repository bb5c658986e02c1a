"""The one Game/State protocol every game implements.

A *state* is a node of one whole game (all its hands). It is driven by three kinds of input:

* a **deal** (chance): when :attr:`State.awaiting_deal` is true the caller supplies the next
  hand's set-up, either from a record (the game's record reader) or from
  :meth:`State.deal_random` with an injected ``random.Random``; the rules themselves never
  shuffle;
* **actions** of the seat to move (:attr:`State.current_seat`), taken from
  :meth:`State.legal_actions` and applied with :meth:`State.apply`, which returns the **event**:
  what happened, as a typed immutable value (the record, the replay lines, the analysis and the
  move logs are all built from events);
* nothing else: the state is a pure value machine with no clock, I/O or global randomness.

Values that leave a state (actions, events, observations, results) are immutable. The state
itself is mutable for speed (bots search by :meth:`State.copy`), but only through ``apply`` and
the deals; each call either applies completely or raises and changes nothing.

Hidden information leaves the core only through :meth:`State.observation`, which gives exactly
what one seat (or a spectator, ``None``) may see.

The protocol is generic over a game's action, event and observation types
(``State[HighFiveAction, HighFiveEvent, HighFiveObservation]``). Code that serves every game
(the server, the command line) holds a :data:`GameState`: a state of some game, whose actions it
only takes from that state (its legal actions, or its game's record reader) and hands back.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, Self, TypeVar

from boneyard.core.records import JSON as JSON
from boneyard.core.state import GameResult as GameResult
from boneyard.core.state import HandEnd as HandEnd


class Action(Protocol):
    """An immutable action. :meth:`to_event` is its form on the wire and in a record, without
    ``seat`` (RECORDS.md; a draw's tile is not known to the action)."""

    def to_event(self) -> JSON:
        """The event fields of this action, without ``seat``."""
        ...


class Event(Protocol):
    """What an action did: an immutable value of the game's event union."""

    @property
    def seat(self) -> int:
        """The seat that acted (a ruling: the offender)."""
        ...

    def to_json(self) -> JSON:
        """The record event, ``seat`` included (a draw names its tile: records are full
        information)."""
        ...


A_co = TypeVar("A_co", bound=Action, covariant=True)


class Observation(Protocol[A_co]):
    """What one seat may see. ``legal_actions`` is non-empty only when that seat is to act."""

    @property
    def game(self) -> str:
        """The record name of the game (the JSON form says it too)."""
        ...

    @property
    def seat(self) -> int | None:
        """The observing seat, or ``None`` for a spectator."""
        ...

    @property
    def num_seats(self) -> int:
        """How many seats the table has."""
        ...

    @property
    def legal_actions(self) -> Sequence[A_co]:
        """The actions this seat may take now (empty when it is not its turn)."""
        ...

    def to_json(self) -> JSON:
        """A JSON-ready form (what a client of that seat receives), naming its ``game``."""
        ...

    def action_points(self, action: object) -> int:
        """Points ``action`` scores at once for this seat (0 for draws, passes and anything
        that is not one of its legal placements), worked out only when asked (the greedy bot
        asks; building an observation does not)."""
        ...

    def action_weight(self, action: object) -> int:
        """Tie-break: the pips the action gets rid of (heaviest first); -1 for non-plays."""
        ...


def game_end_line(result: GameResult) -> JSON:
    """The ``game_end`` replay line; a shared win (no single winner) lists the ``winners``.

    >>> game_end_line(GameResult(None, (310, 310, 20), "shared_win"))
    {'type': 'game_end', 'winner': None, 'winners': [0, 1], 'scores': [310, 310, 20]}
    """
    line: JSON = {"type": "game_end", "winner": result.winner}
    if result.winner is None:
        top = max(result.scores)
        line["winners"] = [s for s, v in enumerate(result.scores) if v == top]
    line["scores"] = list(result.scores)
    return line


A = TypeVar("A", bound=Action)
E_co = TypeVar("E_co", bound=Event, covariant=True)
O_co = TypeVar("O_co", bound="Observation[Action]", covariant=True)


class State(Protocol[A, E_co, O_co]):
    """One game in progress; see the module docstring for the contract."""

    names: list[str]
    """Seat names in turn order, written in the record's ``seats`` (settable)."""

    @property
    def game(self) -> str:
        """The record name of the game (``highfive``, ``merry-go-round``, ...)."""
        ...

    @property
    def num_seats(self) -> int:
        """Player count."""
        ...

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` while a deal is awaited or the game is over."""
        ...

    @property
    def awaiting_deal(self) -> bool:
        """True when the next hand needs its set-up."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        ...

    @property
    def hands_dealt(self) -> int:
        """Hands dealt so far (the hand in play is the last of them)."""
        ...

    @property
    def events(self) -> Sequence[E_co]:
        """The events of the hand in play (of the last hand until the next deal), in order."""
        ...

    @property
    def ends(self) -> Sequence[HandEnd]:
        """How each finished hand ended, in order."""
        ...

    def deal_random(self, rng: random.Random) -> None:
        """Deal the next hand with the caller's random generator."""
        ...

    def legal_actions(self) -> Sequence[A]:
        """Every action the current seat may take (empty when nobody is to act)."""
        ...

    def apply(self, action: A) -> E_co:
        """Apply an action of the current seat and return what happened; raises
        ``IllegalActionError`` and changes nothing when it is not legal."""
        ...

    def observation(self, seat: int | None) -> O_co:
        """Everything ``seat`` may see (``None``: a spectator); any other seat is an error."""
        ...

    def result(self) -> GameResult | None:
        """The result once the game is over, else ``None``."""
        ...

    def record(self) -> JSON:
        """The game so far as a ``boneyard-record/1`` document."""
        ...

    def copy(self) -> Self:
        """An independent copy (for search)."""
        ...


GameState = State[Action, Event, Observation[Action]]
"""A state of some game, as code that serves every game holds it."""

O_contra = TypeVar("O_contra", contravariant=True)


class Bot(Protocol[O_contra, A_co]):
    """A player program. It sees only its seat's observation, never the state.

    Optional, read with :func:`blocks`: a ``blocks`` attribute, ``False`` when ``choose``
    returns in microseconds (a server may then call it on its event loop), ``True`` (the
    default when absent) when it may search or wait, so a server runs it in a worker thread.
    The bot says so, rather than the server guessing from its class.
    """

    @property
    def name(self) -> str:
        """The bot's name (``greedy``, ``expert``, ...)."""
        ...

    def choose(self, observation: O_contra) -> A_co:
        """Pick one of ``observation.legal_actions``."""
        ...


def blocks(bot: object) -> bool:
    """Whether ``bot.choose`` may take long (see :class:`Bot`): true unless it says otherwise."""
    return bool(getattr(bot, "blocks", True))
