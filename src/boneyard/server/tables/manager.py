"""Live tables: one actor per table (boneyard.server.tables.actor) takes every command in turn.

A table's truth is its log in the database. An accepted action is applied to a copy of the state,
appended to the log with the next sequence number and committed, and only then does the live state
move on; the actor then emits the table's events and the reactions registered here send every
socket its fresh view, rearm the clock, tell the other processes and let the bots move. Each
outbound view is built from ``state.observation(seat).to_json()`` for that socket's seat
(``None``: a spectator); no code path sends the state itself.

The work is done by collaborators, one module each, as lichess's round is (boneyard.server.tables
.hub): the loader, the dealer, the mover, the bot driver, the starter, the results and the seat
writer, with the turn clock (tables.clock) and the hand-end pause (tables.between). Each registers
its commands' handlers; every command, a move included, reaches its handler through
``table.ask``. The manager only composes them, runs the background tasks and stops them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

from boneyard.core.protocol import JSON
from boneyard.server.metrics import Metrics
from boneyard.server.tables import between, tableview
from boneyard.server.tables import commands as cmd
from boneyard.server.tables.actor import Command, TableEvent
from boneyard.server.tables.botdriver import BotDriver
from boneyard.server.tables.broadcast import Broadcaster, InMemoryBroadcaster
from boneyard.server.tables.clock import TurnClock
from boneyard.server.tables.dealer import Dealer
from boneyard.server.tables.dealer import first_commitment as first_commitment
from boneyard.server.tables.hub import DB_ERRORS as DB_ERRORS
from boneyard.server.tables.hub import SEED_WINDOW, Hub, TableSettings
from boneyard.server.tables.hub import SITE as SITE
from boneyard.server.tables.hub import SeatsChanged as SeatsChanged
from boneyard.server.tables.hub import StaleError as StaleError
from boneyard.server.tables.hub import UnavailableError as UnavailableError
from boneyard.server.tables.live import CLAIM_AFTER, STALL_AFTER, LiveTable
from boneyard.server.tables.loading import Loader
from boneyard.server.tables.mover import Mover
from boneyard.server.tables.replay import inspect_log as inspect_log
from boneyard.server.tables.results import Results
from boneyard.server.tables.seatwriter import SeatWriter
from boneyard.server.tables.starter import Starter
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.seats import Seat
from boneyard.store.statuses import SeatChange
from boneyard.store.writer import LogWriter

log = logging.getLogger("boneyard.server")


class TableManager(Hub):
    """Every live table of this process, loaded from and written to the database."""

    loader: Loader
    dealer: Dealer
    mover: Mover
    driver: BotDriver
    starter: Starter
    seat_writer: SeatWriter

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        bot_delay: float = 0.5,
        broadcaster: Broadcaster | None = None,
        metrics: Metrics | None = None,
        seed_window: float = SEED_WINDOW,
        writer: LogWriter | None = None,
        open_minutes: float = 60.0,
        unwatched_minutes: float = 10.0,
        pause_unwatched: bool = True,
        bot_pace: float = 1.0,
        hand_pause: float = between.HAND_PAUSE,
        claim_after: float = CLAIM_AFTER,
        clock_scale: float = 1.0,
        stall_after: float = STALL_AFTER,
    ):
        settings = TableSettings(
            bot_delay, bot_pace, seed_window, open_minutes, unwatched_minutes, pause_unwatched,
            claim_after, stall_after,
        )  # fmt: skip
        super().__init__(
            sessions,
            writer or LogWriter(sessions.kw["bind"]),
            broadcaster or InMemoryBroadcaster(),
            metrics or Metrics(),
            settings,
        )
        self.writer.observe = self._observe_commit
        self.sweeper: asyncio.Task[None] | None = None
        self.lag_watch: asyncio.Task[None] | None = None
        self.expirer: asyncio.Task[None] | None = None
        self.loader, self.dealer, self.mover = Loader(self), Dealer(self), Mover(self)
        self.driver, self.starter, self.results = BotDriver(self), Starter(self), Results(self)
        self.seat_writer = SeatWriter(self)
        # The turn clock (tables.clock): it reads the tables and sends their actors commands.
        self.clock = TurnClock(self.ask, lambda: list(self.live.values()), clock_scale)
        # The pause after a hand's end (tables.between): the dealer deals when it is over.
        self.breaks = between.Breaks(self.ask, self.dealer.deal, self.broadcaster, hand_pause)
        self.on_message("continued", self.breaks.on_continued)
        self._register()

    def _register(self) -> None:
        """The commands of the clock, the pause and the readers, and the reactions in the
        order they hear a table's events: the bookkeeping, the broadcaster, the clock, the
        other processes, the bots."""
        self.handle(cmd.Inspect, self._inspect)
        self.handle(cmd.Warn, self.clock.warn)
        self.handle(cmd.Continue, self.breaks.press)
        self.handle(cmd.ContinuedElsewhere, self.breaks.pressed_elsewhere)
        self.reactions += [
            self.results.bookkeeping,
            self._broadcast,
            self.clock.react,
            self._announce,
            self._drive_bots,
        ]

    async def _broadcast(
        self, table: LiveTable, _c: Command[object], _e: Sequence[TableEvent]
    ) -> None:
        await tableview.send_views(table, self.clock)

    async def _announce(
        self, table: LiveTable, command: Command[object], _e: Sequence[TableEvent]
    ) -> None:
        if command.shared:
            await self.loader.announce(table)

    async def _drive_bots(
        self, table: LiveTable, _c: Command[object], _e: Sequence[TableEvent]
    ) -> None:
        self.driver.schedule_bots(table)

    async def _inspect(self, table: LiveTable, c: cmd.Inspect[object]) -> object:
        return c.look(table)

    def _observe_commit(self, writes: int, seconds: float) -> None:
        self.metrics.commit_writes.observe(writes)
        self.metrics.commit_seconds.observe(seconds)

    # -- what the other modules ask of the tables (each the collaborator's) --------------------

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table, loaded from the database on first use (``None``: no such table)."""
        return await self.loader.get(table_id)

    async def refresh(self, table: LiveTable) -> bool:
        """Catch ``table`` up from the database (a command's handler); whether it changed."""
        return await self.loader.refresh(table)

    async def refresh_shared(self, table: LiveTable) -> None:
        """With several processes, refresh ``table`` before changing it (a command's handler)."""
        await self.loader.refresh_shared(table)

    async def catch_up(self, table: LiveTable) -> None:
        """Refresh ``table`` from the database in its actor (fresh views if it changed)."""
        await self.loader.catch_up(table)

    async def on_event(self, table_id: str, message: dict[str, object]) -> None:
        """A message from the broadcaster (see :meth:`Loader.on_event`)."""
        await self.loader.on_event(table_id, message)

    async def add_client_seed(
        self, table: LiveTable, seat: int | None, hand: object, seed: object
    ) -> JSON:
        """Take ``seat``'s client seed for the next hand; the answer (see :class:`Dealer`)."""
        return await self.dealer.add_client_seed(table, seat, hand, seed)

    async def deal_awaited(self, table: LiveTable) -> None:
        """Have ``table`` deal if its game awaits a deal."""
        await self.dealer.deal_awaited(table)

    def schedule_bots(self, table: LiveTable) -> None:
        """Let the bots move (in the background) while one is to act."""
        self.driver.schedule_bots(table)

    def pace(self, table: LiveTable) -> float:
        """Seconds a bot waits before each move at ``table``."""
        return self.driver.pace(table)

    def paused(self, table: LiveTable) -> bool:
        """Whether ``table``'s bots wait (a bot-only table nobody watches)."""
        return self.driver.paused(table)

    def arm_start(self, table: LiveTable) -> None:
        """A table created full starts when its seeds for hand 0 are in, at ``start_by``."""
        self.starter.arm_start(table)

    async def start(self, table: LiveTable) -> None:
        """Start an open table: a fresh game, its first deal, then bots move if they lead."""
        await self.starter.start(table)

    async def expire(self) -> list[str]:
        """Close the tables nobody uses; their ids (see :meth:`Starter.expire`)."""
        return await self.starter.expire()

    async def halt(self, table_id: str, why: str) -> None:
        """Stop the game at ``table_id`` for good: an event decided it otherwise."""
        await self.starter.halt(table_id, why)

    async def save_seats(
        self,
        table: LiveTable,
        seats: list[Seat],
        settings: JSON | None = None,
        expected: list[Seat] | None = None,
    ) -> None:
        """Commit new seats of ``table`` (see :meth:`SeatWriter.save_seats`)."""
        await self.seat_writer.save_seats(table, seats, settings, expected)

    async def bot_takes_seat(
        self, table: LiveTable, seat: int, level: str, event: SeatChange, resigned: bool = False,
        **more: bool,
    ) -> None:  # fmt: skip
        """A ``level`` bot plays ``seat`` from now on (see :meth:`SeatWriter.bot_takes_seat`)."""
        await self.seat_writer.bot_takes_seat(table, seat, level, event, resigned, **more)

    # -- the process's life --------------------------------------------------------------------

    async def resume_all(self) -> int:
        """Rebuild every unfinished table from its log (on start); returns how many.

        A table whose log no longer replays (a damaged copy, a rules change) is set aside
        (:meth:`Loader.set_aside`) and the others start as usual."""
        ids = await self.loader.unfinished()
        await self.loader.count_broken()
        resumed = 0
        for tid in ids:
            table = await self.get(tid)
            if table is not None:
                if not self.breaks.resume(table):  # (a hand's end keeps its pause)
                    await self.deal_awaited(table)
                self.arm_start(table)
                self.schedule_bots(table)
                resumed += 1
        return resumed

    async def start_background(self, interval: float = 5.0, idle: float = 10.0) -> None:
        """Subscribe to the broadcaster; with several processes, sweep for stalled bots."""
        self.broadcaster.lag_observer = self.metrics.broadcast_lag.observe
        self.metrics.bind(
            lambda: len(self.live),
            lambda: sum(len(t.clients) for t in self.live.values()),
            lambda: self.broadcaster.status,
        )
        self.lag_watch = asyncio.create_task(self.metrics.watch_loop_lag())
        self.expirer = asyncio.create_task(self.starter.expire_loop())
        await self.broadcaster.start(self.on_event, self.loader.catch_up_all)
        if self.broadcaster.distributed:
            self.sweeper = asyncio.create_task(self._sweep_loop(interval, idle))

    async def _sweep_loop(self, interval: float, idle: float) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await self.loader.sweep(max(idle, 4 * self.bot_delay))
            except DB_ERRORS as exc:
                log.warning("bot sweep failed: %s", exc)

    async def close(self) -> None:
        """Stop the background tasks, the game-over hooks, the timers and the broadcaster;
        the bots finish the move they are making; then the actors and the writer (on
        shutdown)."""
        for background in (self.sweeper, self.lag_watch, self.expirer):
            if background is not None:
                background.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await background
        await self.broadcaster.close()
        for task in list(self._hooks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.starter.close()
        await self.dealer.close()
        self.closing = True
        await self.driver.stop()
        for table in list(self.live.values()):  # (each finishes the command it works on)
            if table.actor is not None:
                await table.actor.stop()
        await self.writer.close()  # the writes already queued are committed
