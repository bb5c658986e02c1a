"""One actor per live table: typed commands from a queue, one at a time, then the table's events.

As lichess's round actor. Everything that changes a live table is a typed command
(:mod:`boneyard.server.tables.commands`: a move, a seat taken, a resignation, a clock that ran out,
a bot's move, a director's ruling, a catch-up from another process …) put on the table's queue.
The actor takes them one at a time: the command's handler (registered by the module whose work it
is) checks it, applies it through the game's spec and commits. Only then does the actor compare
the table with what it was and emit the table's events (:class:`TableEvent`) to the reactions:
the broadcaster sends the views, the clock rearms, the dealer and the bot driver schedule their
next command. A reaction never changes the table itself: it puts a command on the queue, from a
task of its own (a command that waited for another from inside the actor would wait forever).

The caller of :meth:`TableActor.ask` gets the handler's answer or its exception (nothing changed)
once the reactions are done. A command asked of an idle actor runs in the caller's task (no hop
through the event loop); one asked while another runs is queued, and a caller that then goes
away (a closed socket) does not take it back: once queued it runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, Protocol, TypeVar, cast

log = logging.getLogger("boneyard.server.tables.actor")

A = TypeVar("A", covariant=True)
"""A command's answer (:class:`Command`'s parameter)."""
R = TypeVar("R")
"""The answer of the command given to :meth:`TableActor.ask` and its callers."""


@dataclass(frozen=True, slots=True)
class Command(Generic[A]):
    """What a table's actor is asked to do (the subclasses in ``tables.commands``), typed by
    its answer (``Command[bool]``: :meth:`TableActor.ask` returns a bool for it).

    ``shared``: whether what it changes is news to the other processes (a catch-up from the
    database is not: it *is* their news) and runs the game-over hooks here."""

    shared: ClassVar[bool] = True


# -- the table's events ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Something that changed at a table, emitted once the command that changed it is done."""


@dataclass(frozen=True, slots=True)
class Moved(TableEvent):
    """The log grew (moves, a deal): the table is at ``version``."""

    version: int


@dataclass(frozen=True, slots=True)
class Seated(TableEvent):
    """The seats changed (someone sat down, a bot took a seat over, its person took it back)."""


@dataclass(frozen=True, slots=True)
class StatusChanged(TableEvent):
    """The table's status went from ``before`` to ``after`` (started, over, aborted, closed)."""

    before: str
    after: str


@dataclass(frozen=True, slots=True)
class Shown(TableEvent):
    """Something else the views show changed: the settings (an ending, a rematch offer, a
    ruling), the pause after a hand's end, who pressed Continue."""


class Watched(Protocol):
    """What the actor compares before and after a command (a live table)."""

    @property
    def version(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def seats(self) -> object: ...
    @property
    def settings(self) -> object: ...
    @property
    def break_until(self) -> float | None: ...
    @property
    def continued(self) -> set[int]: ...


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table's watched facts at one moment (the seats and settings are compared by identity:
    a change always puts new ones in place)."""

    version: int
    status: str
    seats: object
    settings: object
    pause: tuple[float | None, frozenset[int]]

    @classmethod
    def of(cls, table: Watched) -> Snapshot:
        """The watched facts of ``table`` now."""
        pause = (table.break_until, frozenset(table.continued))
        return cls(table.version, str(table.status), table.seats, table.settings, pause)

    def changes(self, table: Watched) -> list[TableEvent]:
        """The events that take the table from this snapshot to what it is now."""
        now = Snapshot.of(table)
        events: list[TableEvent] = []
        if now.version != self.version:
            events.append(Moved(now.version))
        if now.seats is not self.seats:
            events.append(Seated())
        if now.status != self.status:
            events.append(StatusChanged(self.status, now.status))
        if now.settings is not self.settings or now.pause != self.pause:
            events.append(Shown())
        return events


# -- the actor ------------------------------------------------------------------------------------

Handle = Callable[[Command[object]], Awaitable[object]]
React = Callable[[Command[object], Sequence[TableEvent]], Awaitable[None]]


class TableActor:
    """The queue of one table and the task that works through it.

    ``handle`` runs one command (the table's registered handler); ``react`` hears the events
    each command caused (even one that failed half-way: what changed, changed)."""

    def __init__(self, table: Watched, handle: Handle, react: React) -> None:
        self.table = table
        self.handle = handle
        self.react = react
        self.queue: asyncio.Queue[tuple[Command[object], asyncio.Future[object]]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.running: Command[object] | None = None

    async def ask(self, command: Command[R]) -> R:
        """Run ``command`` after those before it; its answer (or what its handler raised).

        An idle actor runs it at once in the caller's task (no hop through the event loop: a
        move's latency is the rules, the commit and the views); a busy one queues it, and its
        worker takes the queue once the command in hand is done."""
        if not self.busy and self._worker_idle():
            return cast(R, await self._inline(command))  # (the handler of its type answers A)
        done: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        done.add_done_callback(_heard)  # (a caller that went away: its error is not lost noise)
        self.queue.put_nowait((command, done))
        if self.running is None:  # (else whoever runs the command in hand wakes the worker)
            self._wake_worker()
        return cast(R, await asyncio.shield(done))  # (a caller that goes away leaves it queued)

    @property
    def busy(self) -> bool:
        """Whether a command is being worked on or waits."""
        return self.running is not None or not self.queue.empty()

    def _worker_idle(self) -> bool:
        return self.task is None or self.task.done()

    def _wake_worker(self) -> None:
        """Start the worker for the queued commands (unless it runs already)."""
        if not self.queue.empty() and self._worker_idle():
            self.task = asyncio.create_task(self._work())

    async def _inline(self, command: Command[object]) -> object:
        """Run ``command`` in the caller's task; what was queued meanwhile goes to the worker."""
        self.running = command
        try:
            answer, failure = await self._process(command)
        finally:
            self.running = None
            self._wake_worker()
        if failure is not None:
            raise failure
        return answer

    async def _work(self) -> None:
        """Take the queued commands one at a time; the task ends when the queue is empty.

        The caller hears the answer once the reactions are done (its move's views are sent)."""
        while not self.queue.empty():
            command, done = self.queue.get_nowait()
            self.running = command
            try:
                answer, failure = await self._process(command)
            except asyncio.CancelledError:
                done.cancel()
                raise
            finally:
                self.running = None
            if not done.cancelled():
                if failure is not None:
                    done.set_exception(failure)
                else:
                    done.set_result(answer)

    async def _process(self, command: Command[object]) -> tuple[object, Exception | None]:
        """Run ``command``'s handler, then emit the events it caused; its answer or failure."""
        before = Snapshot.of(self.table)
        answer: object = None
        failure: Exception | None = None
        try:
            answer = await self.handle(command)
        except Exception as exc:  # the caller hears it; the actor goes on
            failure = exc
        await self._emit(command, before)
        return answer, failure

    async def _emit(self, command: Command[object], before: Snapshot) -> None:
        """The events ``command`` caused, to the reactions (a failed command may have changed
        something before it failed: what changed, changed)."""
        events = before.changes(self.table)
        if not events:
            return
        try:
            await self.react(command, events)
        except Exception:  # a reaction's fault never stops the table
            log.exception("a reaction to %s failed", type(command).__name__)

    async def stop(self) -> None:
        """Stop after the command being worked on (on shutdown); what waits is cancelled."""
        while not self.queue.empty():
            _command, done = self.queue.get_nowait()
            done.cancel()
        task = self.task
        if task is not None and not task.done():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), 5)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _heard(done: asyncio.Future[object]) -> None:
    """Mark an answer as heard (asyncio logs an exception nobody retrieved)."""
    if not done.cancelled():
        done.exception()
