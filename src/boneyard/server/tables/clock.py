"""The optional turn clock and its abandonment rule; without a clock, the stall rule.

A table may be created with a clock (``game_tables.settings["clock"]``, e.g.
``{"per_move": 60, "grace": 30, "bot": "medium"}``). While a *person* seat is to act:

1. **Move time**: the seat has ``per_move`` seconds, counted from the moment its turn began: the
   ``created_at`` of the table's last log entry (the move or deal that made it this seat's turn),
   or the moment the person took the seat back, whichever is later. Everyone sees the countdown:
   each view carries ``clock`` with the deadline (server time, seconds since the epoch) and the
   seconds remaining.
2. **Grace**: when the move time is up every socket gets ``{"type": "clock", "clock": {...,
   "phase": "grace"}}`` (the warning) and the seat has ``grace`` more seconds.
3. **Abandonment**: when the grace ends, a bot of the table's level takes the seat and plays on
   for the rest of the game — unless the ``on_timeout`` hook handles it (a tournament's table
   whose time-out rule is "the seat loses the game" or "the director decides":
   docs/tournaments-site.md). The change is committed (``game_tables.seats`` and
   ``settings["seat_changes"]``) before any socket hears of it; the record's
   ``meta.substitutions`` lists it (seat, hand, sequence number, bot, the person replaced).

The replaced person may **take the seat back** at any time before the game ends (WebSocket
``{"type": "reclaim"}`` or ``POST /api/tables/{id}/reclaim``: boneyard.server.tables.seating);
their clock then starts afresh.
A disconnected person's clock keeps running (no separate rule). Deadlines are derived from
persisted timestamps, so a restarted server resumes every clock where it was; a seat is never
abandoned sooner than ``grace`` seconds after the server started (downtime is not the player's
fault, and they get the warning first).

``scale`` multiplies every duration (tests run a 60-second clock in a fraction of a second).

**Without a clock**, a person seat to act may take its time, but not forever: after the site's
``stall_after`` seconds (three minutes) the others may claim against it as against an absent
player, connected or not (:meth:`TurnClock.stall`, in every view as ``stall``; the claim itself
is tables.endings').

The clock reads the tables and reacts to their events (:meth:`TurnClock.react`: rearm after every
change); it changes a table only by sending its actor a command (``Warn``, ``Abandon``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from boneyard.bots import BOTS
from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.server.tables.actor import Command, TableEvent
from boneyard.server.tables.commands import Abandon, Warn
from boneyard.server.waiting import set_within
from boneyard.store.statuses import TableStatus

if TYPE_CHECKING:
    from boneyard.server.tables.live import Ask, LiveTable


log = logging.getLogger("boneyard.server.tables.clock")

TimeoutHook = Callable[["LiveTable", int, int], Awaitable[bool]]
"""``(table, seat, version)``: a seat's time ran out at that version of the table."""

PER_MOVE_CHOICES = (30, 60, 120)
"""What the lobby offers (seconds per move); the API takes any ``MIN_PER_MOVE..MAX_PER_MOVE``."""
DEFAULT_PER_MOVE = 60
"""The clock of a table where people play each other, unless its creator chose otherwise."""
MIN_PER_MOVE = 5
MAX_PER_MOVE = 3600
DEFAULT_GRACE = 30
DEFAULT_BOT = "medium"
FALLBACK_BOT = "greedy"


class ClockIn(BaseModel):
    """A table's clock as asked for at creation: seconds per move, grace seconds, bot level."""

    per_move: int = Field(ge=MIN_PER_MOVE, le=MAX_PER_MOVE)
    grace: int = Field(default=DEFAULT_GRACE, ge=0, le=MAX_PER_MOVE)
    bot: str | None = Field(default=None, max_length=20)


def clock_settings(clock: ClockIn | None, game: str) -> dict[str, Any] | None:
    """The ``settings["clock"]`` value for a new table of ``game`` (``None``: no clock).

    The bot defaults to ``medium``, or ``greedy`` for a game the expert bots cannot play yet.

    >>> clock_settings(ClockIn(per_move=60), "highfive")
    {'per_move': 60, 'grace': 30, 'bot': 'medium'}
    >>> clock_settings(ClockIn(per_move=30, grace=10, bot="greedy"), "highrise")["grace"]
    10
    """
    if clock is None:
        return None
    from boneyard.bots.expert import GAMES_WITH_SEARCH, check_game

    bot = clock.bot
    if bot is None:
        bot = DEFAULT_BOT if game in GAMES_WITH_SEARCH else FALLBACK_BOT
    if bot not in BOTS:
        raise BoneyardError(f"bot {bot!r} is unknown (bots: {', '.join(BOTS)})")
    check_game(bot, game)
    return {"per_move": clock.per_move, "grace": clock.grace, "bot": bot}


def aware(t: datetime) -> datetime:
    """``t`` with a time zone (SQLite drops it: the stored times are UTC)."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


def turn_began(table: LiveTable, seat: int, at: datetime) -> datetime:
    """When ``seat``'s turn began: the table's last log entry (``at`` before any), or the moment
    its person took the seat back from a bot, whichever is later."""
    start = aware(table.last_at) if table.last_at is not None else at
    back = table.seats[seat].reclaimed_at
    if isinstance(back, str):
        start = max(start, aware(datetime.fromisoformat(back)))
    return start


@dataclass(frozen=True, slots=True)
class Plan:
    """Where the clock of the seat to act stands."""

    seat: int
    version: int
    deadline: datetime
    grace_end: datetime
    phase: str  # move | grace | abandon


class TurnClock:
    """Runs the clocks of the live tables (one asyncio task per table whose person seat is to
    act): ``tables`` lists them, ``ask`` sends one a command.

    ``scale`` multiplies every duration (1.0 in production).
    """

    def __init__(
        self, ask: Ask, tables: Callable[[], Iterable[LiveTable]], scale: float = 1.0
    ) -> None:
        self.ask = ask
        self.tables = tables
        self.scale = scale
        self.started = now()
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.wakes: dict[str, asyncio.Event] = {}
        self.closed = False
        # Asked first when a seat's grace ends (events decide what a time-out means at their
        # tables); true: handled, no bot takes the seat. Called outside the table's actor.
        self.on_timeout: TimeoutHook | None = None

    # -- the plan --------------------------------------------------------------------------------

    @staticmethod
    def settings(table: LiveTable) -> dict[str, Any] | None:
        """The table's clock settings, or ``None``."""
        clock = (table.settings or {}).get("clock")
        return clock if isinstance(clock, dict) and clock.get("per_move") else None

    def plan(self, table: LiveTable, at: datetime | None = None) -> Plan | None:
        """The clock of the person seat to act (``None``: no clock runs now)."""
        cfg = self.settings(table)
        st = table.state
        if cfg is None or st is None or table.ended or st.current_seat is None:
            return None
        if table.status != TableStatus.PLAYING:
            return None  # closed: halted by an event, or nobody played for too long
        seat = st.current_seat
        if seat >= len(table.seats) or table.seats[seat].kind != "person":
            return None
        t = at or now()
        start = turn_began(table, seat, t)
        deadline = start + timedelta(seconds=float(cfg["per_move"]) * self.scale)
        grace = timedelta(seconds=float(cfg.get("grace", DEFAULT_GRACE)) * self.scale)
        grace_end = max(deadline + grace, self.started + grace)
        phase = "move" if t < deadline else "grace" if t < grace_end else "abandon"
        return Plan(seat, table.version, deadline, grace_end, phase)

    def status(self, table: LiveTable) -> JSON | None:
        """The ``clock`` of a view: settings, and for the seat to act its phase, deadline (server
        time, seconds since the epoch) and the seconds left in that phase (``None``: no clock)."""
        cfg = self.settings(table)
        if cfg is None:
            return None
        out: JSON = {
            "per_move": cfg["per_move"],
            "grace": cfg.get("grace", DEFAULT_GRACE),
            "bot": cfg.get("bot"),
            "timeout": cfg.get("timeout", "bot"),  # what a time-out does (an event's rule)
            "seat": None,
        }
        t = now()
        p = self.plan(table, t)
        if p is not None:
            end = p.deadline if p.phase == "move" else p.grace_end
            out.update(
                seat=p.seat,
                phase="move" if p.phase == "move" else "grace",
                deadline=p.deadline.timestamp(),
                grace_until=p.grace_end.timestamp(),
                remaining=round(max(0.0, (end - t).total_seconds()), 3),
                server_time=t.timestamp(),
            )
        return out

    def stall(self, table: LiveTable) -> JSON | None:
        """At a table without a clock, the person seat to act: ``{"seat", "since", "after"}``,
        since when its turn has run (server time, seconds since the epoch; never before this
        process started: downtime is nobody's stall) and after how many seconds the others may
        claim against it (tables.endings). ``None``: a clock runs, or no person is to act."""
        st = table.state
        if self.settings(table) is not None or st is None or table.ended:
            return None
        if table.status != TableStatus.PLAYING or table.break_until is not None:
            return None
        seat = st.current_seat
        if seat is None or seat >= len(table.seats) or table.seats[seat].kind != "person":
            return None
        since = max(turn_began(table, seat, now()), self.started)
        return {"seat": seat, "since": round(since.timestamp(), 3), "after": table.stall_after}

    # -- the tasks -------------------------------------------------------------------------------

    async def react(self, table: LiveTable, _c: Command[object], _e: Sequence[TableEvent]) -> None:
        """A table changed (its actor's events): its clock is considered again."""
        self.arm(table)

    def arm(self, table: LiveTable) -> None:
        """(Re)consider the table's clock (after a change, at start-up)."""
        if self.closed or self.settings(table) is None:
            return
        task = self.tasks.get(table.id)
        if task is not None and not task.done():
            self.wakes[table.id].set()
            return
        if self.plan(table) is None:
            return
        self.wakes[table.id] = asyncio.Event()
        self.tasks[table.id] = asyncio.create_task(self._run(table))

    def resume_all(self) -> None:
        """Start the clocks of the tables loaded at start-up."""
        self.started = now()
        for table in list(self.tables()):
            self.arm(table)

    async def close(self) -> None:
        """Stop every clock task (on shutdown)."""
        self.closed = True
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()

    async def _run(self, table: LiveTable) -> None:
        wake = self.wakes[table.id]
        warned: tuple[int, int] | None = None
        try:
            while True:
                wake.clear()
                p = self.plan(table)
                if p is None:
                    return
                if p.phase == "abandon":
                    try:
                        hook = self.on_timeout
                        if hook is None or not await hook(table, p.seat, p.version):
                            level = str((self.settings(table) or {}).get("bot") or FALLBACK_BOT)
                            await self.ask(table, Abandon(p.seat, p.version, level))
                    except Exception:  # e.g. the database is down: try again shortly
                        log.exception("table %s: the abandonment failed", table.id)
                        await asyncio.sleep(1.0)
                    continue
                if p.phase == "grace" and warned != (p.version, p.seat):
                    warned = (p.version, p.seat)
                    await self.ask(table, Warn(p.seat, p.version))  # (not mid-commit)
                    continue
                end = p.deadline if p.phase == "move" else p.grace_end
                delay = max(0.0, (end - now()).total_seconds()) + 0.001
                await set_within(wake, delay)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the clock of table %s failed", table.id)
        finally:
            if self.tasks.get(table.id) is asyncio.current_task():
                del self.tasks[table.id]

    async def warn(self, table: LiveTable, c: Warn) -> None:
        """Tell every socket that the grace of ``c.seat`` began (if it still has)."""
        p = self.plan(table)
        if p is None or (p.seat, p.version) != (c.seat, c.version):
            return
        message = {"type": "clock", "clock": self.status(table)}
        for client in list(table.clients):
            with contextlib.suppress(Exception):
                await client.send(message)
