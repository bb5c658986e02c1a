"""The starter: a table's start, and its end when nobody uses it or an event stops it.

* A table created with every seat taken (``settings.start_by``) starts as soon as every seated
  person has sent a seed for hand 0 (docs/fairness.md), or at ``start_by`` whatever came; any
  other table starts when its last seat is taken (boneyard.server.tables.seating).
* A table still waiting for players after ``open_minutes`` is closed, and so is a bot-only table
  nobody watched for ``unwatched_minutes`` (its bots only move while someone watches, so its log
  stops).
* An event stops a game that no longer counts (a ruling, a forfeit, a time-out): ``Halt``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta

from boneyard.core.errors import BoneyardError
from boneyard.server.tables import commands as cmd
from boneyard.server.tables import fairness
from boneyard.server.tables.hub import DB_ERRORS, Hub
from boneyard.server.tables.live import LiveTable, now, seat_names
from boneyard.store import livetables
from boneyard.store.db import IntegrityError
from boneyard.store.statuses import TableStatus

log = logging.getLogger("boneyard.server")


class Starter:
    """Starts, expiry and halts at the tables of a :class:`Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.starters: dict[str, asyncio.Task[None]] = {}
        hub.handle(cmd.Start, self._start)
        hub.handle(cmd.Halt, self._halt)
        hub.handle(cmd.Close, self._close)

    # -- starting ------------------------------------------------------------------------------

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

    def start_soon(self, table: LiveTable) -> None:
        """Every seed is in: start ``table`` now, in a task of its own (the seed's command is
        still running), instead of at ``start_by``."""
        timer = self.starters.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        self.starters[table.id] = asyncio.create_task(self.start_when_due(table))

    async def start_when_due(self, table: LiveTable) -> None:
        """Start ``table`` now; nothing to do if it has started (here or in another process)."""
        try:
            await self.start(table)
        except BoneyardError:
            pass  # started already, or a seat came open: nothing to start
        except IntegrityError:  # another process dealt hand 0 at the same moment
            await self.hub.loader.catch_up(table)
        except DB_ERRORS as exc:
            self.hub.metrics.db_errors.inc()
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
        await self.hub.loader.refresh_shared(table)  # seats taken through another process
        if table.status != TableStatus.OPEN:
            raise BoneyardError("the table has already started")
        if any(s.kind == "open" for s in table.seats):
            raise BoneyardError("every seat must be taken before the start")
        table.state = fairness.new_state(table.game, table.options, seat_names(table.seats))
        table.status = TableStatus.PLAYING
        try:
            await self.hub.dealer.advance(table, [], [])
        except Exception:
            table.state, table.status = None, TableStatus.OPEN
            raise

    # -- closing tables nobody uses ------------------------------------------------------------

    async def expire_loop(self, every: float = 60.0) -> None:
        """Close the tables nobody uses, every ``every`` seconds (a background task)."""
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
        hub, t = self.hub, now()
        open_cut = t - timedelta(minutes=hub.open_minutes)
        idle_cut = t - timedelta(minutes=hub.unwatched_minutes)
        async with hub.sessions() as db, db.begin():
            ids = await livetables.close_stale(db, open_cut, idle_cut)
            if ids:
                hub.lobby_version += 1
        for tid in ids:
            table = hub.live.get(tid)
            if table is not None and not table.clients:
                hub.live.pop(tid, None)
            elif table is not None:
                await table.ask(cmd.Close())
            await hub.loader.announce_id(tid)
        return ids

    async def _close(self, table: LiveTable, _c: cmd.Close) -> None:
        table.status = table.stored_status = TableStatus.CLOSED

    # -- an event's decision -------------------------------------------------------------------

    async def halt(self, table_id: str, why: str) -> None:
        """Stop the game at ``table_id`` for good (status ``closed``, ``settings["halted"]``):
        an event decided it otherwise (a ruling, a forfeit, a time-out), so nobody plays on in a
        game that no longer counts. Committed, then broadcast; its bots and clock stop."""
        table = await self.hub.loader.get(table_id)
        if table is not None:
            await table.ask(cmd.Halt(why))

    async def _halt(self, table: LiveTable, c: cmd.Halt) -> None:
        if table.status not in (TableStatus.OPEN, TableStatus.PLAYING):
            return
        why = c.why[:200]
        async with self.hub.sessions() as db, db.begin():
            await livetables.merge_settings(db, table.id, TableStatus.CLOSED, halted=why)
        table.status = table.stored_status = TableStatus.CLOSED
        table.settings = {**table.settings, "halted": why}

    async def close(self) -> None:
        """Stop the start timers (on shutdown)."""
        for task in self.starters.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
