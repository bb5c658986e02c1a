"""What the live table's collaborators share, and the faces they show each other.

As lichess's round is a set of collaborators (Player, Finisher, Drawer, Rematcher …) around one
actor per game, a live table here is worked by collaborators, one module each: the loader
(loading, cross-process refresh), the dealer (deals and seeds), the mover (a move), the bot
driver, the starter (start and expiry), the results and the seat writer. Each registers the
handlers of its commands with the :class:`Hub` (the table's actor runs them one at a time,
boneyard.server.tables.actor) and reaches another only through the protocol below that names what
it needs (``hub.dealer.advance(...)``), never by importing it: an import-linter contract keeps
them apart, so each can be read, tested and replaced alone. The manager composes them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import Action
from boneyard.server.metrics import Metrics
from boneyard.server.tables.actor import Command, R, TableEvent
from boneyard.server.tables.between import Breaks
from boneyard.server.tables.broadcast import Broadcaster
from boneyard.server.tables.clock import TurnClock
from boneyard.server.tables.live import CLAIM_AFTER, STALL_AFTER, LiveTable
from boneyard.store.db import AsyncSession, SQLAlchemyError, async_sessionmaker
from boneyard.store.seats import Seat
from boneyard.store.statuses import SeatChange
from boneyard.store.writer import LogWriter, Row


class StaleError(Exception):
    """The client acted on an old version: it gets a resync."""


class SeatsChanged(BoneyardError):
    """Another process changed the table's seats since they were read: nothing was written."""


class UnavailableError(BoneyardError):
    """The database could not be reached: nothing changed, the client may try again."""


SEED_WINDOW = 5.0
"""Seconds a table created full waits for its players' seeds for hand 0 (docs/fairness.md)."""
SITE = "*"
"""The broadcast "table id" of site-wide messages (e.g. sessions that ended)."""
DB_ERRORS = (SQLAlchemyError, OSError)
"""What a database outage raises (IntegrityError, a lost race, is handled before these)."""

MessageHandler = Callable[[LiveTable, dict[str, object]], Awaitable[None]]
Handler = Callable[[LiveTable, Any], Awaitable[object]]
"""Runs one command at a table (registered by the module whose work it is); its answer is the
command's (``Command[A]``: an ``A``)."""
C = TypeVar("C", bound=Command[object])
Reaction = Callable[[LiveTable, Command[object], Sequence[TableEvent]], Awaitable[None]]
"""Hears the events one command caused at a table (in the actor, after the command)."""
Hook = Callable[[LiveTable], Coroutine[object, object, None]]


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The site's settings of its live tables (``boneyard serve`` options, docs/server.md)."""

    bot_delay: float = 0.5
    """Seconds a bot waits before each move at a table of bots only."""
    bot_pace: float = 1.0
    """Seconds a bot takes a move at a table with people (a table's ``bot_pace`` may differ)."""
    seed_window: float = SEED_WINDOW
    """Seconds a table created full waits (at most) for its players' seeds for hand 0 (0: it
    deals at once), and a thrown-in hand for the seeds of its redeal."""
    open_minutes: float = 60.0
    """A table still waiting for players after this long is closed."""
    unwatched_minutes: float = 10.0
    """A bot-only table nobody watched for this long is closed."""
    pause_unwatched: bool = True
    """Whether the bots of a bot-only table nobody watches wait."""
    claim_after: float = CLAIM_AFTER
    """Seconds a person must have been disconnected before the others may claim."""
    stall_after: float = STALL_AFTER
    """Seconds a person to act at a table without a clock may take before the others may claim
    (tables.endings)."""


# -- the collaborators' faces ---------------------------------------------------------------------


class Loading(Protocol):
    """The loader (tables.loading): tables from the database, and what other processes did."""

    async def get(self, table_id: str) -> LiveTable | None: ...
    async def refresh(self, table: LiveTable) -> bool: ...
    async def refresh_shared(self, table: LiveTable) -> None: ...
    async def catch_up(self, table: LiveTable) -> None: ...
    async def announce(self, table: LiveTable) -> None: ...
    async def announce_id(self, table_id: str) -> None: ...


class Dealing(Protocol):
    """The dealer (tables.dealer): deals, seeds and the commit of the log."""

    async def advance(
        self, table: LiveTable, entries: list[Row], seeds: list[Row], deal: bool = True
    ) -> None: ...
    async def deal_awaited(self, table: LiveTable) -> None: ...


class Moving(Protocol):
    """The mover (tables.mover): one action applied and committed."""

    async def apply(self, table: LiveTable, seat: int, action: Action) -> None: ...


class Driving(Protocol):
    """The bot driver (tables.botdriver)."""

    def schedule_bots(self, table: LiveTable) -> None: ...


class Starting(Protocol):
    """The starter (tables.starter): a table created full starts when its seeds are in."""

    def seeded_for_start(self, table: LiveTable) -> bool: ...
    def start_soon(self, table: LiveTable) -> None: ...


class SeatWriting(Protocol):
    """The seat writer (tables.seatwriter): committed seat changes."""

    async def bot_takes_seat(
        self,
        table: LiveTable,
        seat: int,
        level: str,
        event: SeatChange,
        resigned: bool = False,
        **more: bool,
    ) -> None: ...
    async def save_seats(
        self,
        table: LiveTable,
        seats: list[Seat],
        settings: dict[str, object] | None = None,
        expected: list[Seat] | None = None,
    ) -> None: ...


class Hub:
    """The state every collaborator shares: this process's live tables, the database and its
    log writer, the broadcaster, the metrics, the site's table settings, the command registry.

    The collaborators' slots are filled by the manager that composes them."""

    loader: Loading
    dealer: Dealing
    mover: Moving
    driver: Driving
    starter: Starting
    seat_writer: SeatWriting
    breaks: Breaks  # the pause after a hand's end (tables.between)
    clock: TurnClock  # the turn clock (tables.clock)

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        writer: LogWriter,
        broadcaster: Broadcaster,
        metrics: Metrics,
        settings: TableSettings,
    ) -> None:
        self.sessions = sessions
        self.writer = writer  # (log writes of every table go through one group-commit writer)
        self.broadcaster = broadcaster
        self.metrics = metrics
        self.live: dict[str, LiveTable] = {}
        # Moves on whenever a table's seats or status change here: the lobby's list is read
        # anew then (boneyard.server.lobby.service).
        self.lobby_version = 0
        self.closing = False  # set on shutdown: bots stop after the move they are making
        # What each command type runs (tables.commands), and who hears the events it caused.
        self.commands: dict[type[Command[object]], Handler] = {}
        self.reactions: list[Reaction] = []
        # Broadcast messages for live tables by type; site-wide ones (table id "*") by type.
        self.handlers: dict[str, MessageHandler] = {}
        self.site_handlers: dict[str, Callable[[dict[str, object]], Awaitable[None]]] = {}
        # Called (each in its own task, after the commit) when a table's game ends: events
        # advance their brackets and ratings are updated (boneyard.server.tournaments).
        self.on_game_over: list[Hook] = []
        self._hooks: set[asyncio.Task[None]] = set()
        # The site's settings of its tables (see TableSettings; operators and tests change them).
        self.seed_window = settings.seed_window
        self.bot_delay, self.bot_pace = settings.bot_delay, settings.bot_pace
        self.pause_unwatched = settings.pause_unwatched
        self.claim_after, self.stall_after = settings.claim_after, settings.stall_after
        self.open_minutes = settings.open_minutes
        self.unwatched_minutes = settings.unwatched_minutes

    def handle(self, kind: type[C], handler: Callable[[LiveTable, C], Awaitable[object]]) -> None:
        """Run ``handler`` for the commands of type ``kind`` (one handler per type)."""
        if kind in self.commands:
            raise ValueError(f"{kind.__name__} has a handler already")
        self.commands[kind] = handler

    def on_message(self, kind: str, handler: MessageHandler) -> None:
        """Handle broadcast messages of type ``kind`` for live tables of this process."""
        self.handlers[kind] = handler

    async def ask(self, table: LiveTable, command: Command[R]) -> R:
        """Have ``table``'s actor run ``command``; its answer (or what it raised)."""
        return await table.ask(command)

    async def run(self, table: LiveTable, command: Command[object]) -> object:
        """Run ``command`` at ``table`` by its registered handler (the actor's ``handle``)."""
        handler = self.commands.get(type(command))
        if handler is None:
            raise TypeError(f"no handler for {type(command).__name__}")
        return await handler(table, command)

    async def react(
        self, table: LiveTable, command: Command[object], events: Sequence[TableEvent]
    ) -> None:
        """Tell every reaction the events ``command`` caused (the actor's ``react``)."""
        for reaction in self.reactions:
            await reaction(table, command, events)

    def game_over(self, table: LiveTable) -> None:
        """Run every ``on_game_over`` hook for ``table`` in the background."""
        for hook in self.on_game_over:
            self.spawn(hook(table))

    def spawn(self, work: Coroutine[object, object, None]) -> None:
        """Run ``work`` in the background (cancelled on shutdown like the hooks)."""
        task = asyncio.create_task(work)
        self._hooks.add(task)
        task.add_done_callback(self._hooks.discard)
