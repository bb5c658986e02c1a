"""The commands a live table's actor takes (boneyard.server.tables.actor), one type per request.

Who sends each: a player's socket or route (``Act``, ``Seed``, ``Continue``, ``Resign``,
``Abort``, ``Claim``, ``Rematch``, ``Reclaim``, ``Join``), the dealer (``Start``, ``Deal``), the
bot driver (``BotMove``), the clock (``Warn``, ``Abandon``), an event's director or rules
(``Reseat``, ``Halt``), the site (``Close``: nobody played for too long) and the other processes
(``CatchUp``, ``ContinuedElsewhere``). ``Inspect`` reads the table between two commands (never
while a commit is in flight). Fields that come from a client are typed ``object``: the handler
checks them and refuses them in a player's words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from boneyard.core.protocol import JSON
from boneyard.server.tables.actor import Command
from boneyard.store.seats import Seat

T = TypeVar("T")

# -- a player --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act(Command[None]):
    """``seat`` plays the record event ``event`` on version ``seq`` of the table (a whole
    number: the socket's protocol checked it)."""

    seat: int | None
    seq: int
    event: object


@dataclass(frozen=True, slots=True)
class Seed(Command[JSON]):
    """``seat`` adds its client seed ``seed`` for hand ``hand`` (docs/fairness.md)."""

    seat: int | None
    hand: object
    seed: object


@dataclass(frozen=True, slots=True)
class Continue(Command[None]):
    """``seat`` has seen the end of hand ``hand`` (boneyard.server.tables.between)."""

    seat: int | None
    hand: object


@dataclass(frozen=True, slots=True)
class Join(Command[None]):
    """``user_id`` (shown as ``name``) sits down at the open seat ``seat``."""

    seat: int
    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Resign(Command[None]):
    """``user_id`` resigns (boneyard.server.tables.endings)."""

    user_id: int | None


@dataclass(frozen=True, slots=True)
class Abort(Command[None]):
    """``user_id`` aborts the game before everyone has moved."""

    user_id: int | None


@dataclass(frozen=True, slots=True)
class Claim(Command[None]):
    """``user_id`` claims the win over, or hands to a bot, the absent person's seat ``seat``."""

    user_id: int | None
    seat: object
    how: object


@dataclass(frozen=True, slots=True)
class Rematch(Command[None]):
    """``user_id`` accepts a rematch."""

    user_id: int | None


@dataclass(frozen=True, slots=True)
class Reclaim(Command[int]):
    """``user_id`` takes back the seat a bot plays in their place; the answer is the seat."""

    user_id: int | None


# -- the dealer, the bots, the clock ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Start(Command[None]):
    """Start the open table: a fresh game and its first deal."""


@dataclass(frozen=True, slots=True)
class Deal(Command[None]):
    """Deal the awaited hand (after a hand's pause, a thrown-in deal, a restart)."""


@dataclass(frozen=True, slots=True)
class BotMove(Command[bool]):
    """The bot to act moves; the answer is whether one did."""


@dataclass(frozen=True, slots=True)
class Warn(Command[None]):
    """The move time of ``seat`` at ``version`` is up: every socket hears the grace began."""

    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class Abandon(Command[None]):
    """The grace of ``seat`` at ``version`` is over: a ``level`` bot takes the seat."""

    seat: int
    version: int
    level: str


# -- directors, the site, the other processes ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reseat(Command[None]):
    """An event gives seat ``seat`` to ``to`` (a substitute, a bot for a forfeit)."""

    seat: int
    to: Seat


@dataclass(frozen=True, slots=True)
class Halt(Command[None]):
    """Stop the game for good: an event decided it otherwise (``why``)."""

    why: str


@dataclass(frozen=True, slots=True)
class Close(Command[None]):
    """The site closed the table (nobody played at it for too long); already committed."""

    shared: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class CatchUp(Command[None]):
    """Read what another process committed (the log, the seats, the status)."""

    shared: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class ContinuedElsewhere(Command[None]):
    """``seat`` pressed Continue after hand ``hand`` on another process's socket."""

    seat: object
    hand: object
    shared: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Inspect(Command[T]):
    """Read the table between two commands: the answer is ``look(table)`` (a live table: this
    module is below it)."""

    look: Callable[[Any], T]
