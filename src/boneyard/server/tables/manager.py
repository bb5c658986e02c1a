"""Live tables: one actor per table (boneyard.server.tables.actor) takes every command in turn.

A table's truth is its log in the database. An accepted action is applied to a copy of the state,
appended to the log with the next sequence number and committed, and only then does the live state
move on; the actor then emits the table's events and the reactions registered here send every
socket its fresh view, rearm the clock, tell the other processes and let the bots move. Each
outbound view is built from
``state.observation(seat).to_json()`` for that socket's seat (``None``: a spectator); no code path
sends the state itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from boneyard.bots import make_bot
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.protocol import JSON, GameState, blocks
from boneyard.games.registry import get_spec
from boneyard.server.metrics import Metrics
from boneyard.server.tables import between, fairness, presence, tableview
from boneyard.server.tables import commands as cmd
from boneyard.server.tables.actor import (
    Command,
    Seated,
    StatusChanged,
    TableActor,
    TableEvent,
)
from boneyard.server.tables.broadcast import Broadcaster, InMemoryBroadcaster
from boneyard.server.tables.clock import TurnClock
from boneyard.server.tables.live import CLAIM_AFTER, STALL_AFTER, LiveTable, now, seat_names
from boneyard.server.tables.movelog import hands_of
from boneyard.server.validation import storable
from boneyard.store.models import GameTable, HandSeed, LogEntry
from boneyard.store.players import add_players, bot_accounts
from boneyard.store.seats import BotSeat, Seat, Someone
from boneyard.store.statuses import SeatChange, TableStatus
from boneyard.store.writer import LogWriter, Row, Write, entry_row, seed_row

log = logging.getLogger("boneyard.server")


class StaleError(Exception):
    """The client acted on an old version: it gets a resync."""


class SeatsChanged(BoneyardError):
    """Another process changed the table's seats since they were read: nothing was written."""


class UnavailableError(BoneyardError):
    """The database could not be reached: nothing changed, the client may try again."""


SEED_WINDOW = 5.0
"""Seconds a table created full waits for its players' seeds for hand 0 (docs/fairness.md)."""
BOT_RETRY = (0.5, 30.0)
"""A bot whose move the database refused tries again after the first figure (seconds),
doubling each time up to the second, for as long as the table lives."""
SITE = "*"
"""The broadcast "table id" of site-wide messages (e.g. sessions that ended)."""
DB_ERRORS = (SQLAlchemyError, OSError)
"""What a database outage raises (IntegrityError, a lost race, is handled before these)."""
MessageHandler = Callable[["LiveTable", dict[str, Any]], Awaitable[None]]
Handler = Callable[["LiveTable", Any], Awaitable[Any]]
"""Runs one command at a table (registered by the module whose work it is)."""
Reaction = Callable[["LiveTable", Command, Sequence[TableEvent]], Awaitable[None]]
"""Hears the events one command caused at a table (in the actor, after the command)."""


class TableManager:
    """Every live table of this process, loaded from and written to the database."""

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
        self.sessions = sessions
        # Log writes of every table go through one group-commit writer.
        self.writer = writer or LogWriter(sessions.kw["bind"])
        self.writer.observe = self._observe_commit
        self.bot_delay = bot_delay
        # Seconds a bot takes a move at a table with people (a table's settings may say
        # otherwise: "bot_pace"); bot-only tables move every bot_delay.
        self.bot_pace = bot_pace
        # Seconds a person must have been disconnected before the others may claim.
        self.claim_after = claim_after
        # Seconds a person to act at a table without a clock may take before the others may
        # claim (tables.endings).
        self.stall_after = stall_after
        # A table created with every seat taken waits this long (at most) for its players'
        # seeds for hand 0 before it deals (see arm_start; 0: it deals at once).
        self.seed_window = seed_window
        # Tables nobody uses are closed (see expire).
        self.open_minutes = open_minutes
        self.unwatched_minutes = unwatched_minutes
        self.pause_unwatched = pause_unwatched
        self.starters: dict[str, asyncio.Task[None]] = {}
        # Moves on whenever a table's seats or status change here: the lobby's list is read
        # anew then (boneyard.server.lobby.service).
        self.lobby_version = 0
        self.redealers: dict[str, asyncio.Task[None]] = {}
        self.closing = False  # set on shutdown: bots stop after the move they are making
        self.live: dict[str, LiveTable] = {}
        # What each command type runs (tables.commands), and who hears the events it caused.
        self.commands: dict[type[Command], Handler] = {}
        self.reactions: list[Reaction] = []
        # The turn clock (tables.clock): it reads the tables and sends their actors commands.
        self.clock = TurnClock(self.ask, lambda: list(self.live.values()), clock_scale)
        # Table events between processes (tables.broadcast) and their handlers by type.
        self.broadcaster = broadcaster or InMemoryBroadcaster()
        self.handlers: dict[str, MessageHandler] = {}
        self.metrics = metrics or Metrics()
        self.sweeper: asyncio.Task[None] | None = None
        self.lag_watch: asyncio.Task[None] | None = None
        # Called (each in its own task, after the commit) when a table's game ends: events
        # advance their brackets and ratings are updated (boneyard.server.events).
        self.on_game_over: list[Callable[[LiveTable], Coroutine[Any, Any, None]]] = []
        self._hooks: set[asyncio.Task[None]] = set()
        # Searching bots think one at a time (each holds a core for up to a second): many
        # expert tables slow each other down, never the people's moves.
        self.thinking = asyncio.Semaphore(1)
        # Handlers of site-wide broadcast messages (table id "*"), by type.
        self.site_handlers: dict[str, Callable[[dict[str, Any]], Awaitable[None]]] = {}
        self.expirer: asyncio.Task[None] | None = None
        self.on_game_over.append(self.store_result)
        # The pause after a hand's end (boneyard.server.tables.between): the dealer.
        self.breaks = between.Breaks(self.ask, self._deal, self.broadcaster, hand_pause)
        self.on_message("continued", self.breaks.on_continued)
        self._register()

    # -- the actors: commands and the events they cause ---------------------------------------

    def handle(self, kind: type[Command], handler: Handler) -> None:
        """Run ``handler`` for the commands of type ``kind`` (one handler per type)."""
        if kind in self.commands:
            raise ValueError(f"{kind.__name__} has a handler already")
        self.commands[kind] = handler

    async def ask(self, table: LiveTable, command: Command) -> Any:
        """Have ``table``'s actor run ``command``; its answer (or what it raised)."""
        return await table.ask(command)

    async def _run(self, table: LiveTable, command: Command) -> Any:
        handler = self.commands.get(type(command))
        if handler is None:
            raise TypeError(f"no handler for {type(command).__name__}")
        return await handler(table, command)

    async def _react(
        self, table: LiveTable, command: Command, events: Sequence[TableEvent]
    ) -> None:
        for reaction in self.reactions:
            await reaction(table, command, events)

    def _register(self) -> None:
        """The commands run here, and the reactions in the order they hear a table's events:
        the bookkeeping, the broadcaster, the clock, the other processes, the bots."""
        for kind, handler in (
            (cmd.Act, self._act),
            (cmd.Start, self._start),
            (cmd.Deal, self._deal),
            (cmd.BotMove, self._bot_move),
            (cmd.Seed, self._seed),
            (cmd.Halt, self._halt),
            (cmd.Close, self._close),
            (cmd.CatchUp, self._catch_up),
            (cmd.Inspect, self._inspect),
            (cmd.Warn, self.clock.warn),
            (cmd.Continue, self.breaks.press),
            (cmd.ContinuedElsewhere, self.breaks.pressed_elsewhere),
        ):
            self.handle(kind, handler)
        self.reactions += [
            self._bookkeeping,
            self._broadcast,
            self.clock.react,
            self._announce,
            self._drive_bots,
        ]

    async def _bookkeeping(
        self, table: LiveTable, command: Command, events: Sequence[TableEvent]
    ) -> None:
        """The lobby's list is read anew after a seat or status change; a game that ended here
        runs the game-over hooks (an ending read from another process ran them there)."""
        if any(isinstance(e, Seated | StatusChanged) for e in events):
            self.lobby_version += 1
        over = any(isinstance(e, StatusChanged) and e.after == TableStatus.OVER for e in events)
        if over and command.shared:
            self.game_over(table)

    async def _broadcast(self, table: LiveTable, _c: Command, _e: Sequence[TableEvent]) -> None:
        await tableview.send_views(table, self.clock)

    async def _announce(self, table: LiveTable, command: Command, _e: Sequence[TableEvent]) -> None:
        if command.shared:
            await self.announce(table)

    async def _drive_bots(self, table: LiveTable, _c: Command, _e: Sequence[TableEvent]) -> None:
        self.schedule_bots(table)

    async def _inspect(self, table: LiveTable, c: cmd.Inspect) -> Any:
        return c.look(table)

    def _observe_commit(self, writes: int, seconds: float) -> None:
        self.metrics.commit_writes.observe(writes)
        self.metrics.commit_seconds.observe(seconds)

    # -- loading -----------------------------------------------------------------------------

    async def resume_all(self) -> int:
        """Rebuild every unfinished table from its log (on start); returns how many.

        A table whose log no longer replays (a damaged copy, a rules change) is set aside
        (:meth:`set_aside`) and the others start as usual."""
        async with self.sessions() as db:
            ids = (
                await db.scalars(
                    select(GameTable.id).where(
                        GameTable.status.in_((TableStatus.OPEN, TableStatus.PLAYING))
                    )
                )
            ).all()
            broken = await db.scalar(
                select(func.count())
                .select_from(GameTable)
                .where(GameTable.status == TableStatus.BROKEN)
            )
        self.metrics.broken_tables.set(broken or 0)
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

    async def set_aside(self, table_id: str, exc: BaseException) -> None:
        """Mark a table whose log does not replay as broken: it is never loaded again, the
        reason is logged, kept in its settings and counted in ``boneyard_broken_tables``, and
        ``boneyard tables broken`` lists it (docs/operations.md)."""
        log.error("table %s does not replay and is set aside: %s", table_id, exc, exc_info=exc)
        async with self.sessions() as db, db.begin():
            row = await db.get(GameTable, table_id)
            if row is None or row.status == TableStatus.BROKEN:
                return
            settings = dict(row.settings or {})
            settings["broken"] = {
                "reason": f"{type(exc).__name__}: {exc}"[:500],
                "status": row.status,
                "at": now().isoformat(),
            }
            row.settings, row.status = settings, TableStatus.BROKEN
        self.live.pop(table_id, None)
        self.metrics.broken_tables.inc()

    async def deal_awaited(self, table: LiveTable) -> None:
        """Have ``table`` deal if its game awaits a deal (the dealer's command)."""
        await table.ask(cmd.Deal())

    async def _deal(self, table: LiveTable, _c: cmd.Deal) -> None:
        """Deal if the game awaits a deal (a thrown-in hand's redeal, one whose commit failed,
        a hand's end everyone has seen, or a table left waiting by a server that stopped)."""
        st = table.state
        due = st is not None and st.awaiting_deal and not table.ended
        if st is None or not due or table.status != TableStatus.PLAYING:
            return
        try:
            await self._deal_now(table, st)
        except DB_ERRORS as exc:  # try again in a few seconds
            self.metrics.db_errors.inc()
            log.warning("table %s: dealing failed: %s", table.id, exc)
            self.breaks.retry(table) if table.break_until else self.arm_redeal(table)
            return
        self.breaks.clear(table)

    async def _deal_now(self, table: LiveTable, st: GameState) -> bool:
        """Deal the awaited hand on a copy of ``st``, commit, then take it (a command's
        handler); returns whether it did. Another process that dealt first wins."""
        new = st.copy()
        scores, seeds, mark = list(table.hand_scores), dict(table.seeds), table.log().mark()
        table.state = new
        try:
            await self._advance(table, [], [])
        except BaseException as exc:
            table.state, table.hand_scores, table.seeds = st, scores, seeds
            table.log().reset(mark)
            if not isinstance(exc, IntegrityError):
                raise
            with contextlib.suppress(*DB_ERRORS):  # dealt by another process: catch up
                await self.refresh(table)
            return False
        return True

    def arm_redeal(self, table: LiveTable) -> None:
        """A thrown-in hand (High Five: nobody holds a double) is dealt again like every hand:
        under the commitment published with the thrown-in deal, with the players' seeds — as
        soon as every seated person has sent one, at the latest after the seed window."""
        task = self.redealers.get(table.id)
        if task is not None and not task.done() and task is not asyncio.current_task():
            return
        self.redealers[table.id] = asyncio.create_task(self._redeal_later(table))

    async def _redeal_later(self, table: LiveTable) -> None:
        await asyncio.sleep(self.seed_window)
        await self.deal_awaited(table)

    def seeded_for_redeal(self, table: LiveTable) -> bool:
        """Whether ``table`` awaits a redeal and every seated person has seeded it."""
        st = table.state
        if st is None or not st.awaiting_deal or table.ended or between.hand_ended(table):
            return False
        given = table.client_seeds.get(table.hands_dealt(), {})
        return all(i in given for i, s in enumerate(table.seats) if s.kind == "person")

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table, loaded from the database on first use (``None``: no such table)."""
        if table_id in self.live:
            return self.live[table_id]
        if len(table_id) > 64 or not storable(table_id):  # the database would refuse it
            return None
        try:
            table = await self._load(table_id)
        except DB_ERRORS:
            raise
        except Exception as exc:  # its log no longer replays: the others go on without it
            await self.set_aside(table_id, exc)
            return None
        if table is None:
            return None
        live = self.live.setdefault(table_id, table)
        if live.actor is None:
            live.actor = TableActor(live, partial(self._run, live), partial(self._react, live))
        self.lobby_version += 1  # (a table made here or elsewhere)
        return live

    async def _load(self, table_id: str) -> LiveTable | None:
        async with self.sessions() as db:
            row = await db.get(GameTable, table_id)
            if row is None or row.status == TableStatus.BROKEN:
                return None
            seeds, entries = await log_rows(db, table_id)
            bots = await bot_accounts(db, row.seats)
        table = LiveTable(
            row.id, row.game, dict(row.options), list(row.seats), TableStatus(row.status)
        )
        table.bot_users = bots
        table.stored_status = TableStatus(row.status)
        table.settings = dict(row.settings or {})
        table.private, table.invite_token = bool(row.private), row.invite_token
        table.created_by, table.created_at = row.created_by, row.created_at
        table.bot_only = bool(row.bot_only)
        table.claim_after = self.claim_after
        table.stall_after = self.stall_after
        if any(e.kind == "deal" and "scheme" not in e.payload for e in entries):
            table.scheme = fairness.SCHEME_V1  # begun before client seeds: keeps its rule
        _take_seeds(table, seeds, entries)
        table.make_bots()
        if row.status != TableStatus.OPEN:
            state = fairness.new_state(row.game, row.options, seat_names(row.seats))
            _replay_entries(table, state, entries)
            table.state = state
        presence.sync(table)  # (its people count as away from now until they connect)
        return table

    async def refresh(self, table: LiveTable) -> bool:
        """Catch ``table`` up from the database (a command's handler, in the actor): its seats,
        status, new hand seeds and only the log entries after its version. Returns whether it
        changed."""
        async with self.sessions() as db:
            row = await db.get(GameTable, table.id)
            if row is None:
                return False
            entries = (
                await db.scalars(
                    select(LogEntry)
                    .where(LogEntry.table_id == table.id, LogEntry.seq > table.version)
                    .order_by(LogEntry.seq)
                )
            ).all()
            seeds = []
            if any(e.kind == "deal" for e in entries):
                seeds = list(
                    (await db.scalars(select(HandSeed).where(HandSeed.table_id == table.id))).all()
                )
            bots = await bot_accounts(db, row.seats)
        changed = False
        table.bot_users = bots
        settings = dict(row.settings or {})
        if list(row.seats) != table.seats or settings != table.settings:
            # Another process changed the seats (a join, the clock's substitution or reclaim,
            # a director's replace): its bots and its sockets' seats follow.
            table.seats, table.settings = list(row.seats), settings
            table.make_bots()
            table.reseat_clients()
            changed = True
        if entries:
            _take_seeds(table, seeds, entries)
            old = table.state
            state = (
                old.copy()
                if old is not None
                else fairness.new_state(table.game, table.options, seat_names(table.seats))
            )
            scores, version, mark = list(table.hand_scores), table.version, table.log().mark()
            try:
                _replay_entries(table, state, entries)
            except Exception:
                table.hand_scores, table.version = scores, version
                table.log().reset(mark)
                raise
            table.state = state
            changed = True
            if not self.breaks.resume(table):  # (dealt here or elsewhere: no pause left)
                self.breaks.clear(table)
        if changed and table.state is not None:
            table.log().note_changes(table.settings, table.version)
        table.stored_status = TableStatus(row.status)
        if row.status != table.status:
            table.status = TableStatus(row.status)
            changed = True
        if changed:
            self.lobby_version += 1
        return changed

    async def refresh_shared(self, table: LiveTable) -> None:
        """With several processes, refresh ``table`` before changing it (a command's handler):
        another process may have moved it on or changed its seats."""
        if self.broadcaster.distributed:
            await self.refresh(table)

    async def catch_up(self, table: LiveTable) -> None:
        """Refresh ``table`` from the database (its sockets get fresh views if it changed)."""
        await table.ask(cmd.CatchUp())

    async def _catch_up(self, table: LiveTable, _c: cmd.CatchUp) -> None:
        """A database fault is logged and counted; the table keeps what it had."""
        try:
            await self.refresh(table)
        except DB_ERRORS as exc:
            self.metrics.db_errors.inc()
            log.warning("catching table %s up failed: %s", table.id, exc)

    async def announce(self, table: LiveTable) -> None:
        """Tell the other processes that ``table`` changed (after a commit)."""
        await self.broadcaster.publish(
            table.id, {"type": "table", "version": table.version}, local=False
        )

    def on_message(self, kind: str, handler: MessageHandler) -> None:
        """Handle broadcast messages of type ``kind`` for live tables of this process."""
        self.handlers[kind] = handler

    async def on_event(self, table_id: str, message: dict[str, Any]) -> None:
        """A broadcast message: catch up (``type: table``), a registered handler, or else send
        it as it is to the table's local sockets. Tables not live here are ignored; table id
        ``*`` is a site-wide message for the handler of its type (:attr:`site_handlers`)."""
        kind = message.get("type")
        if table_id == SITE:
            handler = self.site_handlers.get(kind) if isinstance(kind, str) else None
            if handler is not None:
                await handler(message)
            return
        table = self.live.get(table_id)
        if table is None:
            return
        if kind == "table":
            version = message.get("version")
            if isinstance(version, int) and version < table.version:
                return
            await self.catch_up(table)
        elif isinstance(kind, str) and kind in self.handlers:
            await self.handlers[kind](table, message)
        else:
            for client in list(table.clients):
                try:
                    await client.send(message)
                except Exception:
                    with contextlib.suppress(ValueError):
                        table.clients.remove(client)

    async def catch_up_all(self) -> None:
        """After a broadcast outage: catch every live table with sockets up, and the bots."""
        for table in list(self.live.values()):
            if table.clients:
                await self.catch_up(table)
        await self.sweep(0.0)

    async def sweep(self, idle: float) -> int:
        """Let bots move at tables where one is due and nothing was logged for ``idle`` seconds
        (their last writer may have died). Returns how many tables were looked at."""
        cutoff = now().timestamp() - idle
        async with self.sessions() as db:
            rows = (
                await db.execute(
                    select(LogEntry.table_id, func.max(LogEntry.created_at))
                    .join(GameTable, GameTable.id == LogEntry.table_id)
                    .where(GameTable.status == TableStatus.PLAYING)
                    .group_by(LogEntry.table_id)
                )
            ).all()
        seen = 0
        for tid, last in rows:
            if last is not None and last.tzinfo is None:
                last = last.replace(tzinfo=UTC)
            if last is not None and last.timestamp() > cutoff:
                continue
            table = await self.get(tid)
            if table is None or not table.bots:
                continue
            seen += 1
            await self.catch_up(table)
            self.schedule_bots(table)
        return seen

    async def start_background(self, interval: float = 5.0, idle: float = 10.0) -> None:
        """Subscribe to the broadcaster; with several processes, sweep for stalled bots."""
        self.broadcaster.lag_observer = self.metrics.broadcast_lag.observe
        self.metrics.bind(
            lambda: len(self.live),
            lambda: sum(len(t.clients) for t in self.live.values()),
            lambda: self.broadcaster.status,
        )
        self.lag_watch = asyncio.create_task(self.metrics.watch_loop_lag())
        self.expirer = asyncio.create_task(self._expire_loop())
        await self.broadcaster.start(self.on_event, self.catch_up_all)
        if self.broadcaster.distributed:
            self.sweeper = asyncio.create_task(self._sweep_loop(interval, idle))

    async def _sweep_loop(self, interval: float, idle: float) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await self.sweep(max(idle, 4 * self.bot_delay))
            except DB_ERRORS as exc:
                log.warning("bot sweep failed: %s", exc)

    # -- closing tables nobody uses -----------------------------------------------------------

    async def _expire_loop(self, every: float = 60.0) -> None:
        while True:
            try:
                await self.expire()
            except DB_ERRORS as exc:
                log.warning("closing idle tables failed: %s", exc)
            await asyncio.sleep(every)

    async def expire(self) -> list[str]:
        """Close (status ``closed``) every table still waiting for players after
        ``open_minutes``, and every bot-only table nobody watched for ``unwatched_minutes``
        (its bots only move while someone watches, so its log stops). Returns their ids."""
        t = now()
        open_cut = t - timedelta(minutes=self.open_minutes)
        idle_cut = t - timedelta(minutes=self.unwatched_minutes)
        last = (
            select(func.max(LogEntry.created_at))
            .where(LogEntry.table_id == GameTable.id)
            .scalar_subquery()
        )
        async with self.sessions() as db, db.begin():
            stale = select(GameTable.id).where(
                or_(
                    and_(
                        GameTable.status == TableStatus.OPEN,
                        GameTable.bot_only.is_(False),
                        GameTable.created_at < open_cut,
                    ),
                    and_(
                        GameTable.status.in_((TableStatus.OPEN, TableStatus.PLAYING)),
                        GameTable.bot_only.is_(True),
                        func.coalesce(last, GameTable.created_at) < idle_cut,
                    ),
                )
            )
            ids = list((await db.scalars(stale)).all())
            if ids:
                await db.execute(
                    update(GameTable).where(GameTable.id.in_(ids)).values(status=TableStatus.CLOSED)
                )
                self.lobby_version += 1
        for tid in ids:
            table = self.live.get(tid)
            if table is not None and not table.clients:
                self.live.pop(tid, None)
            elif table is not None:
                await table.ask(cmd.Close())
            await self.announce_id(tid)
        return ids

    async def _close(self, table: LiveTable, _c: cmd.Close) -> None:
        table.status = table.stored_status = TableStatus.CLOSED

    async def announce_id(self, table_id: str) -> None:
        """Tell the other processes that the table ``table_id`` changed."""
        await self.broadcaster.publish(table_id, {"type": "table"}, local=False)

    # -- writing -----------------------------------------------------------------------------

    async def _append(self, table: LiveTable, entries: list[Row], seeds: list[Row]) -> None:
        """Commit the log ``entries`` and hand ``seeds`` rows of ``table`` (and its status when
        it changes) through the group-commit writer (boneyard.store.writer)."""
        w = Write(table.id, entries=entries, seeds=seeds)
        st = table.state
        if st is not None:
            status = TableStatus.OVER if st.is_over else TableStatus.PLAYING
            if status != table.stored_status:
                w.status = status
                w.record = tableview.record(table) if st.is_over else None
        await self.writer.write(w)
        if w.status is not None:
            table.stored_status = TableStatus(w.status)
            self.lobby_version += 1
        if entries:
            table.last_at = entries[-1]["created_at"]  # committed: the clock counts from it

    async def save_seats(
        self,
        table: LiveTable,
        seats: list[Seat],
        settings: dict[str, Any] | None = None,
        expected: list[Seat] | None = None,
    ) -> None:
        """Commit new ``seats`` (and ``settings``) of ``table``, take them in memory and reseat
        its sockets (a command's handler: the actor tells the sockets and the other processes).

        With several processes the caller first refreshes the table (another process may have
        changed the seats since). With ``expected`` the row is locked and its seats must still
        be those (:class:`SeatsChanged` otherwise, nothing written): two processes seating
        people at once never both take the same seat."""
        async with self.sessions() as db, db.begin():
            row = await db.get(GameTable, table.id, with_for_update=expected is not None)
            if row is not None and expected is not None and list(row.seats) != expected:
                raise SeatsChanged("that seat was just taken: look at the table again")
            if row is not None:
                row.seats = seats
                if settings is not None:
                    row.settings = settings
                await add_players(db, table.id, seats, row.created_at)
            table.bot_users = await bot_accounts(db, seats)
        table.seats = seats
        if settings is not None:
            table.settings = settings
            if table.state is not None:
                table.log().note_changes(settings, table.version)
        table.reseat_clients()

    async def bot_takes_seat(
        self,
        table: LiveTable,
        seat: int,
        level: str,
        event: SeatChange,
        resigned: bool = False,
        **more: bool,
    ) -> None:
        """A ``level`` bot plays ``seat`` in its person's place from now on (``event``:
        abandoned, resigned, handed; ``resigned``: the bot plays it out, placed last), written
        in the table's ``seat_changes`` and committed by :meth:`save_seats` (a command's
        handler; ``more``: noted with the change, e.g. ``stalled``)."""
        old = table.seats[seat]
        name = str(old.name or f"Seat {seat + 1}")
        seats = list(table.seats)
        replaced = Someone(user_id=old.user_id, name=name)
        seats[seat] = BotSeat(bot=level, name=old.name, replaced=replaced, resigned=resigned)
        settings = table.noting_seat_change(event, seat, name, now(), bot=level, **more)
        await self.save_seats(table, seats, settings)
        table.bots[seat] = make_bot(level, random.Random(secrets.randbits(64)))

    # -- starting a table created full -------------------------------------------------------

    def arm_start(self, table: LiveTable) -> None:
        """A table created with every seat taken (``settings.start_by``) starts as soon as every
        seated person has sent a seed for hand 0, or at ``start_by`` whatever came."""
        if not table.waits_for_seeds():
            return
        task = self.starters.get(table.id)
        if task is not None and not task.done():
            return
        by = datetime.fromisoformat(str(table.settings["start_by"]))
        delay = by.timestamp() - now().timestamp()
        self.starters[table.id] = asyncio.create_task(self._start_later(table, delay))

    async def _start_later(self, table: LiveTable, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        await self.start_when_due(table)

    async def start_when_due(self, table: LiveTable) -> None:
        """Start ``table`` now; nothing to do if it has started (here or in another process)."""
        try:
            await self.start(table)
        except BoneyardError:
            pass  # started already, or a seat came open: nothing to start
        except IntegrityError:  # another process dealt hand 0 at the same moment
            await self.catch_up(table)
        except DB_ERRORS as exc:
            self.metrics.db_errors.inc()
            log.warning("starting table %s failed: %s", table.id, exc)

    def seeded_for_start(self, table: LiveTable) -> bool:
        """Whether ``table`` waits to start and every seated person has seeded hand 0."""
        if not table.waits_for_seeds():
            return False
        given = table.client_seeds.get(0, {})
        return all(i in given for i, s in enumerate(table.seats) if s.kind == "person")

    async def start(self, table: LiveTable) -> None:
        """Start an open table: a fresh game, its first deal, then bots move if they lead."""
        timer = self.starters.pop(table.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        await table.ask(cmd.Start())

    async def _start(self, table: LiveTable, _c: cmd.Start) -> None:
        await self.refresh_shared(table)  # seats taken through another process
        if table.status != TableStatus.OPEN:
            raise BoneyardError("the table has already started")
        if any(s.kind == "open" for s in table.seats):
            raise BoneyardError("every seat must be taken before the start")
        table.state = fairness.new_state(table.game, table.options, seat_names(table.seats))
        table.status = TableStatus.PLAYING
        try:
            await self._advance(table, [], [])
        except Exception:
            table.state, table.status = None, TableStatus.OPEN
            raise

    async def _advance(
        self, table: LiveTable, entries: list[Row], seeds: list[Row], deal: bool = True
    ) -> None:
        """Deal if a hand is awaited (and ``deal``: a hand's end may wait for its people,
        boneyard.server.tables.between), then commit ``entries`` (and the deal) in one transaction.

        A deal that is thrown in is dealt again at once when nobody could seed it (no person
        seated, or no seed window), else by :meth:`arm_redeal`."""
        st = table.state
        assert st is not None
        version = table.version + len(entries)
        following: tuple[int, str, str] | None = None
        dealing = deal and st.awaiting_deal and not st.is_over
        if dealing:
            hand = table.hands_dealt()
            payload: JSON = {"hand": hand}
            pending = table.pending
            if table.scheme == fairness.SCHEME and pending is not None and pending[0] == hand:
                seed, commit = pending[1], pending[2]
                if self.broadcaster.distributed:  # another process may have taken some
                    await self._read_client_seeds(table, hand)
            else:  # no seed committed ahead (a table begun before that): commit at the deal
                seed = fairness.new_seed()
                commit = fairness.commitment(seed)
                seeds.append(seed_row(table.id, hand, seed, commit))
            payload["commitment"] = commit
            clients: list[str | None] | None = None
            if table.scheme == fairness.SCHEME:
                # Commit to the next hand's seed now: players add theirs during this hand.
                clients = table.seat_seeds(hand)
                nxt = fairness.new_seed()
                following = (hand + 1, nxt, fairness.commitment(nxt))
                seeds.append(seed_row(table.id, hand + 1, nxt, following[2], {}))
                payload.update(
                    scheme=table.scheme, client_seeds=clients, next_commitment=following[2]
                )
            if hand > 0:
                table.hand_scores.append(_scores(st))
            fairness.deal(st, seed, hand, clients, table.scheme)
            table.seeds[hand] = (seed, commit)
            version += 1
            entries.append(entry_row(table.id, version, "deal", None, payload, now()))
        elif st.is_over and len(table.hand_scores) < table.hands_dealt():
            table.hand_scores.append(_scores(st))
        await self._append(table, entries, seeds)
        table.version = version
        if following is not None:
            table.pending = following
        if dealing:
            table.log().take(st)  # the deal (and a thrown-in hand's end)
        self.metrics.actions.inc(len(entries))
        if dealing and st.awaiting_deal and not st.is_over:
            # The deal was thrown in (High Five: nobody holds a double): deal again, in a
            # transaction of its own, or the table would wait for a deal forever.
            people = any(s.kind == "person" for s in table.seats)
            if self.seed_window <= 0 or not people:
                await self._advance(table, [], [])
            else:
                self.arm_redeal(table)

    async def act(self, table: LiveTable, seat: int | None, seq: Any, event: Any) -> None:
        """Apply ``event`` for ``seat`` acting on version ``seq``.

        Raises :class:`StaleError` (answer: resync) or :class:`IllegalActionError` (answer: the
        reason); in both cases nothing changed.
        """
        started = time.perf_counter()
        await table.ask(cmd.Act(seat, seq, event))
        self.metrics.action_seconds.observe(time.perf_counter() - started)

    async def _act(self, table: LiveTable, c: cmd.Act) -> None:
        st = table.state
        if st is None:
            raise IllegalActionError("the game has not started yet")
        if table.status == TableStatus.CLOSED:
            halted = table.settings.get("halted")
            raise IllegalActionError(
                f"this game was stopped: {halted}"
                if halted
                else "this table was closed: nobody played at it for too long"
            )
        seq, seat, event = c.seq, c.seat, c.event
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != table.version:
            raise StaleError()
        if seat is None:
            raise IllegalActionError("you are watching this table, not playing at it")
        if table.ended:
            raise IllegalActionError("the game is over")
        if st.current_seat != seat:
            raise IllegalActionError("it is not your turn")
        if not isinstance(event, dict):
            raise IllegalActionError('"action" must be an object of record event fields')
        await self._apply(table, seat, get_spec(table.game).action_from_move(st, event))

    async def _apply(self, table: LiveTable, seat: int, action: Any) -> None:
        """Apply on a copy, commit, then move the live state (a command's handler, in the actor)."""
        st = table.state
        assert st is not None
        new = st.copy()
        new.apply(action)
        entry = entry_row(table.id, table.version + 1, "action", seat, action.to_event(), now())
        old_scores = list(table.hand_scores)
        old_seeds = dict(table.seeds)
        moves = table.log()
        mark = moves.mark()
        moves.take(new, lambda: hands_of(st))  # (st: the hands before this action)
        # A hand's end waits for the people to see it (boneyard.server.tables.between).
        pause = new.awaiting_deal and not new.is_over and self.breaks.wanted(table)
        table.state = new
        try:
            await self._advance(table, [entry], [], deal=not pause)
        except IntegrityError:
            # Another process wrote this sequence number first: catch up from the log.
            table.state, table.hand_scores, table.seeds = st, old_scores, old_seeds
            moves.reset(mark)
            with contextlib.suppress(*DB_ERRORS):
                await self.refresh(table)
            raise StaleError() from None
        except DB_ERRORS as exc:
            table.state, table.hand_scores, table.seeds = st, old_scores, old_seeds
            moves.reset(mark)
            self.metrics.db_errors.inc()
            log.warning("table %s: the database refused a commit: %s", table.id, exc)
            raise UnavailableError(
                "the server could not save that move (database unavailable): nothing changed, "
                "try again in a moment"
            ) from None
        except BaseException:  # also a cancel (shutdown) mid-commit: memory never runs ahead
            table.state, table.hand_scores, table.seeds = st, old_scores, old_seeds
            moves.reset(mark)
            raise
        if new.is_over:
            table.status = TableStatus.OVER  # (the actor's event runs the game-over hooks)
        elif pause:
            self.breaks.begin(table)

    async def store_result(self, table: LiveTable) -> None:
        """Keep the finished game's result in the table's settings (``result``): a person's
        history reads it there instead of replaying every record."""
        found = result_json(table)
        if found is None:
            return
        try:
            async with self.sessions() as db, db.begin():
                row = await db.get(GameTable, table.id)
                if row is not None:
                    row.settings = {**(row.settings or {}), "result": found}
                    table.settings = {**table.settings, "result": found}
        except DB_ERRORS as exc:  # the history computes it again from the record
            log.warning("table %s: storing the result failed: %s", table.id, exc)

    async def halt(self, table_id: str, why: str) -> None:
        """Stop the game at ``table_id`` for good (status ``closed``, ``settings["halted"]``):
        an event decided it otherwise (a ruling, a forfeit, a time-out), so nobody plays on in a
        game that no longer counts. Committed, then broadcast; its bots and clock stop."""
        table = await self.get(table_id)
        if table is not None:
            await table.ask(cmd.Halt(why))

    async def _halt(self, table: LiveTable, c: cmd.Halt) -> None:
        if table.status not in (TableStatus.OPEN, TableStatus.PLAYING):
            return
        why = c.why[:200]
        async with self.sessions() as db, db.begin():
            row = await db.get(GameTable, table.id)
            if row is not None:
                row.status = TableStatus.CLOSED
                row.settings = {**(row.settings or {}), "halted": why}
        table.status = table.stored_status = TableStatus.CLOSED
        table.settings = {**table.settings, "halted": why}

    def game_over(self, table: LiveTable) -> None:
        """Run every ``on_game_over`` hook for ``table`` in the background."""
        for hook in self.on_game_over:
            self.spawn(hook(table))

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background (cancelled on shutdown like the hooks)."""
        task = asyncio.create_task(work)
        self._hooks.add(task)
        task.add_done_callback(self._hooks.discard)

    # -- client seeds (docs/fairness.md) ----------------------------------------------------

    async def _read_client_seeds(self, table: LiveTable, hand: int) -> None:
        """The client seeds of ``hand`` as the database has them (a command's handler)."""
        async with self.sessions() as db:
            row = await _hand_seed(db, table.id, hand)
        if row is not None and row.client_seeds:
            table.client_seeds[hand] = {int(k): str(v) for k, v in row.client_seeds.items()}

    async def add_client_seed(
        self, table: LiveTable, seat: int | None, hand: Any, seed: Any
    ) -> JSON:
        """Take ``seat``'s client seed for the next hand (not dealt yet); returns the answer.

        Raises :class:`IllegalActionError` with the reason (nothing changed) when the seed is
        refused: a spectator, a hand already dealt or not committed yet, a malformed seed.
        """
        answer: JSON = await table.ask(cmd.Seed(seat, hand, seed))
        return answer

    async def _seed(self, table: LiveTable, c: cmd.Seed) -> JSON:
        seat, hand = c.seat, c.hand
        if seat is None:
            raise IllegalActionError(
                "only a seated player can add a seed: you are watching this table"
            )
        if table.scheme != fairness.SCHEME:
            raise IllegalActionError(
                f"this table deals by {table.scheme}, which takes no client seeds"
            )
        if table.ended:
            raise IllegalActionError("the game is over: there is no hand left to seed")
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0:
            raise IllegalActionError('"hand" must be the number of a hand (0 is the first)')
        nxt = table.pending
        dealt = table.hands_dealt()
        if hand < dealt:
            raise IllegalActionError(
                f"hand {hand} is already dealt: a seed counts only before its deal"
            )
        if nxt is None or nxt[0] != hand:
            raise IllegalActionError(
                f"the server has not committed to hand {hand} yet (the next hand is {dealt})"
            )
        seed = fairness.check_client_seed(c.seed)
        async with self.sessions() as db, db.begin():
            row = await _hand_seed(db, table.id, hand)
            if row is None:  # pragma: no cover - the pending seed is always stored
                raise IllegalActionError("the next hand has no committed seed")
            merged = {str(k): v for k, v in (row.client_seeds or {}).items()}
            merged[str(seat)] = seed
            row.client_seeds = merged
        # (the database's, which may hold seeds another process took)
        table.client_seeds[hand] = {int(k): v for k, v in merged.items()}
        self._deal_when_seeded(table)
        return {
            "type": "seed",
            "hand": hand,
            "seat": seat,
            "seed": seed,
            "commitment": nxt[2],
            "version": table.version,
        }

    def _deal_when_seeded(self, table: LiveTable) -> None:
        """Every player's seed is in: start the table, or redeal a thrown-in hand, now (in a
        task of its own: the seed's command is still running)."""
        if self.seeded_for_start(table):
            timer = self.starters.pop(table.id, None)
            if timer is not None:
                timer.cancel()
            self.starters[table.id] = asyncio.create_task(self.start_when_due(table))
        elif self.seeded_for_redeal(table):
            timer = self.redealers.pop(table.id, None)
            if timer is not None:
                timer.cancel()
            self.redealers[table.id] = asyncio.create_task(self.deal_awaited(table))

    # -- bots --------------------------------------------------------------------------------

    def schedule_bots(self, table: LiveTable) -> None:
        """Let the bots move (in the background) while one is to act."""
        if table.bot_task is not None and not table.bot_task.done():
            return
        st = table.state
        if st is None or table.ended or st.current_seat not in table.bots:
            return
        if self.paused(table):
            return  # nobody watches: paused (a socket that opens starts them again)
        table.bot_task = asyncio.create_task(self._run_bots(table))

    def paused(self, table: LiveTable) -> bool:
        """Whether ``table``'s bots wait: a bot-only table nobody watches (operators may turn
        this off: ``pause_unwatched``)."""
        return self.pause_unwatched and table.bot_only and not table.clients

    def pace(self, table: LiveTable) -> float:
        """Seconds a bot waits before each move at ``table``: the table's ``bot_pace`` (the
        site's default) where people play, so that they can follow; ``bot_delay`` at tables of
        bots only."""
        if not between.people(table):
            return self.bot_delay
        chosen = (table.settings or {}).get("bot_pace")
        pace = self.bot_pace if not isinstance(chosen, int | float) else float(chosen)
        return max(self.bot_delay, pace)

    async def _run_bots(self, table: LiveTable) -> None:
        """The bot driver: while a bot is to act, wait its pace and send its move's command.

        A move the database refused changed nothing: the bot tries again, later and later
        (:data:`BOT_RETRY`). Nothing else would wake it in a single process, and the people at
        the table would wait on it for ever."""
        retry = BOT_RETRY[0]
        while not self.closing:
            st = table.state
            if st is None or table.ended or st.current_seat not in table.bots:
                return  # (a person's turn: their move starts the bots again, pace from then)
            delay = self.pace(table)
            if delay:
                await asyncio.sleep(delay)
            if self.closing or self.paused(table):
                return  # (nobody watches any more: paused)
            try:
                moved = await table.ask(cmd.BotMove())
            except StaleError:
                continue
            except UnavailableError:
                log.warning("bot at table %s waits for the database (%.1f s)", table.id, retry)
                await asyncio.sleep(retry)
                retry = min(2 * retry, BOT_RETRY[1])
                continue
            except Exception:
                log.exception("bot move failed at table %s", table.id)
                return
            if not moved:
                return
            retry = BOT_RETRY[0]

    async def _bot_move(self, table: LiveTable, _c: cmd.BotMove) -> bool:
        st = table.state
        if st is None or table.ended or st.current_seat not in table.bots:
            return False
        if table.status != TableStatus.PLAYING:
            return False  # halted (boneyard.server.events)
        seat = st.current_seat
        bot: Any = table.bots[seat]
        obs: Any = st.observation(seat)
        if not blocks(bot):  # it says it answers in microseconds: no thread
            action = bot.choose(obs)
        else:  # a search of up to a second, in a thread, one table at a time
            async with self.thinking:
                action = await asyncio.to_thread(bot.choose, obs)
        await self._apply(table, seat, action)
        return True

    async def close(self) -> None:
        """Stop the bot tasks, the game-over hooks and the broadcaster (on shutdown)."""
        for background in (self.sweeper, self.lag_watch, self.expirer):
            if background is not None:
                background.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await background
        await self.broadcaster.close()
        for task in [*self._hooks, *self.starters.values(), *self.redealers.values()]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # Bots finish the move they are making (a cancel in the middle of a commit could leave a
        # connection holding the database's write lock); only a bot still busy after a few
        # seconds is cancelled.
        self.closing = True
        tasks = [t.bot_task for t in self.live.values() if t.bot_task is not None]
        if tasks:
            _done, busy = await asyncio.wait(tasks, timeout=5)
            for task in busy:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for table in list(self.live.values()):  # (each finishes the command it works on)
            if table.actor is not None:
                await table.actor.stop()
        await self.writer.close()  # the writes already queued are committed


async def _hand_seed(db: AsyncSession, table_id: str, hand: int) -> HandSeed | None:
    """The seed row of hand ``hand`` of a table."""
    return await db.scalar(
        select(HandSeed).where(HandSeed.table_id == table_id, HandSeed.hand == hand)
    )


def _replay_entries(table: LiveTable, state: GameState, entries: Any) -> None:
    """Apply log ``entries`` (deals from ``table.seeds``, actions) to ``state`` and move
    ``table.version`` and ``table.hand_scores`` along."""
    moves = table.log()
    entries = list(entries)
    for k, e in enumerate(entries):
        if e.kind == "deal":
            if e.payload["hand"] > 0:
                table.hand_scores.append(_scores(state))
            hand = e.payload["hand"]
            scheme = e.payload.get("scheme", fairness.SCHEME_V1)
            clients = e.payload.get("client_seeds")
            if isinstance(clients, list):
                table.client_seeds[hand] = {i: c for i, c in enumerate(clients) if c is not None}
            fairness.deal(state, table.seeds[hand][0], hand, clients, scheme)
            moves.take(state)
        else:
            if e.seat != state.current_seat:
                raise BoneyardError(f"table {table.id}: log seq {e.seq} is out of turn")
            # The hands before an action that may end its hand (the last before a deal, or of
            # the log): a hand's end reveals what every seat kept.
            last = k + 1 == len(entries) or entries[k + 1].kind == "deal"
            before = hands_of(state) if last else None
            state.apply(get_spec(table.game).action_from_move(state, e.payload))
            moves.take(state, before)
        table.version = e.seq
        table.last_at = e.created_at
        moves.note_changes(table.settings, e.seq)
    if state.is_over and len(table.hand_scores) < table.hands_dealt():
        table.hand_scores.append(_scores(state))


async def log_rows(
    db: AsyncSession, table_id: str
) -> tuple[Sequence[HandSeed], Sequence[LogEntry]]:
    """A table's stored hand seeds and its log entries in order: what rebuilds it."""
    seeds = (await db.scalars(select(HandSeed).where(HandSeed.table_id == table_id))).all()
    entries = (
        await db.scalars(
            select(LogEntry).where(LogEntry.table_id == table_id).order_by(LogEntry.seq)
        )
    ).all()
    return seeds, entries


async def inspect_log(sessions: async_sessionmaker[AsyncSession], table_id: str) -> JSON | None:
    """For the operator (``boneyard tables inspect``): replay a table's log one entry at a time
    and report where it fails and why (``None``: no such table)."""
    async with sessions() as db:
        row = await db.get(GameTable, table_id)
        if row is None:
            return None
        seeds, entries = await log_rows(db, table_id)
    out: JSON = {
        "table": row.id,
        "game": row.game,
        "status": row.status,
        "broken": (row.settings or {}).get("broken"),
        "entries": len(entries),
        "replays_until": 0,
        "error": None,
    }
    table = LiveTable(row.id, row.game, dict(row.options), list(row.seats), TableStatus(row.status))
    _take_seeds(table, seeds, entries)
    try:
        state = fairness.new_state(row.game, row.options, seat_names(row.seats))
    except Exception as exc:
        out["error"] = {"seq": None, "why": f"{type(exc).__name__}: {exc}"}
        return out
    for e in entries:
        try:
            _replay_entries(table, state, [e])
        except Exception as exc:
            out["error"] = {
                "seq": e.seq,
                "kind": e.kind,
                "seat": e.seat,
                "payload": e.payload,
                "why": f"{type(exc).__name__}: {exc}",
            }
            return out
        out["replays_until"] = e.seq
    return out


def _take_seeds(table: LiveTable, rows: Any, entries: Any) -> None:
    """Hand seeds read from the database: the dealt hands' (and those ``entries`` deal) go to
    ``table.seeds``, the committed next hand's to ``table.pending`` with its client seeds."""
    deals = {e.payload["hand"] for e in entries if e.kind == "deal"}
    for s in sorted(rows, key=lambda r: r.hand):
        if s.hand in table.seeds or s.hand in deals:
            table.seeds[s.hand] = (s.server_seed, s.commitment)
        else:
            table.pending = (s.hand, s.server_seed, s.commitment)
            given = s.client_seeds or {}
            table.client_seeds[s.hand] = {int(k): str(v) for k, v in given.items()}


def result_json(table: LiveTable) -> JSON | None:
    """A finished table's result: winner seat, final scores, how it ended, partnerships."""
    st = table.state
    result = st.result() if st is not None else None
    if st is None or result is None:
        return None
    teams = bool(st.observation(None).to_json().get("partnerships"))
    return {
        "winner": result.winner,
        "scores": list(result.scores),
        "reason": result.reason,
        "partnerships": teams,
    }


def first_commitment(table_id: str) -> HandSeed:
    """Hand 0's seed, committed when the table is created (seeds may be added while it is open)."""
    seed = fairness.new_seed()
    return HandSeed(**seed_row(table_id, 0, seed, fairness.commitment(seed), {}))


def _scores(state: GameState) -> Any:
    """The public scores (from the spectator view) at a hand's end."""
    view: Mapping[str, Any] = state.observation(None).to_json()
    return view.get("scores")
