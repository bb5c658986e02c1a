"""The one Game/State protocol every game implements.

A *state* is a node of one whole game (all its hands). It is driven by three kinds of input:

* a **deal** (chance): when :attr:`GameState.awaiting_deal` is true the caller supplies the next
  hand's set-up, either from a record or from :meth:`GameState.deal_random` with an injected
  ``random.Random``; the rules themselves never shuffle;
* **actions** of the seat to move (:attr:`GameState.current_seat`), taken from
  :meth:`GameState.legal_actions` and applied with :meth:`GameState.apply`;
* nothing else: the state is a pure value machine with no clock, I/O or global randomness.

Values that leave a state (actions, observations, results) are immutable. The state itself
is mutable for speed (bots search by :meth:`GameState.copy`), but only through ``apply`` and
``deal``; each call either applies completely or raises and changes nothing.

Hidden information leaves the core only through :meth:`GameState.observation`, which gives
exactly what one seat (or a spectator, ``None``) may see.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, runtime_checkable

JSON = dict[str, Any]


@runtime_checkable
class Action(Protocol):
    """An immutable action. Its record form is :meth:`to_event` (RECORDS.md), without ``seat``."""

    def to_event(self) -> JSON:
        """The record event fields of this action, without ``seat``."""
        ...


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game ended: the winner (``None`` for no single winner) and final scores."""

    winner: int | None
    scores: tuple[int, ...]
    reason: str = "target"


class Observation(Protocol):
    """What one seat may see. ``legal_actions`` is non-empty only when that seat is to act."""

    @property
    def seat(self) -> int | None:
        """The observing seat, or ``None`` for a spectator."""
        ...

    @property
    def legal_actions(self) -> Sequence[Action]:
        """The actions this seat may take now (empty when it is not its turn)."""
        ...

    def to_json(self) -> JSON:
        """A JSON-ready form (what a client of that seat receives)."""
        ...


class GameState(Protocol):
    """One game in progress; see the module docstring for the contract."""

    @property
    def game(self) -> str:
        """The record name of the game (``highfive``, ``merry-go-round``, ...)."""
        ...

    @property
    def num_seats(self) -> int:
        """Player count."""
        ...

    names: list[str]
    """Seat names in turn order, written in the record's ``seats`` (settable)."""

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

    def deal_random(self, rng: random.Random) -> None:
        """Deal the next hand with the caller's random generator."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """Every action the current seat may take (empty when nobody is to act)."""
        ...

    def apply(self, action: Any) -> None:
        """Apply an action of the current seat; raises ``IllegalActionError`` and changes nothing
        when it is not legal."""
        ...

    def observation(self, seat: int | None) -> Observation:
        """Everything ``seat`` may see (``None``: a spectator)."""
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


class Bot(Protocol):
    """A player program. It sees only its seat's observation, never the state."""

    name: str

    def choose(self, observation: Any) -> Any:
        """Pick one of ``observation.legal_actions``."""
        ...


def options_json(options: Any, defaults: Any, preset: str | None = None) -> Mapping[str, Any]:
    """The record form of an options dataclass: the preset plus every key that differs from it."""
    out: dict[str, Any] = {}
    if preset is not None:
        out["preset"] = preset
    for name in options.__dataclass_fields__:
        if name == "preset":
            continue
        value = getattr(options, name)
        if value != getattr(defaults, name):
            out[name] = value
    return out
