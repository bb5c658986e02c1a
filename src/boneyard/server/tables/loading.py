"""The loader: live tables from the database, and what other processes committed.

A table's truth is its log in the database. A table is loaded on first use and rebuilt by
replaying its log (boneyard.server.tables.replay); one whose log no longer replays is set aside
and the others go on. With several processes, each tells the others when a table changed
(``{"type": "table", "version": V}`` through the broadcaster) and they catch up from the database
in the table's actor (the ``CatchUp`` command): the new log entries, the seats, the status. A
sweep finds tables whose bots stalled because the process that drove them died.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from datetime import UTC
from functools import partial

from boneyard.server.tables import commands as cmd
from boneyard.server.tables import fairness, presence
from boneyard.server.tables.actor import TableActor
from boneyard.server.tables.hub import DB_ERRORS, SITE, Hub
from boneyard.server.tables.live import LiveTable, now, seat_names
from boneyard.server.tables.replay import replay_entries, take_seeds
from boneyard.server.validation import storable
from boneyard.store import livetables
from boneyard.store.models import GameTable, HandSeed, LogEntry
from boneyard.store.players import bot_accounts
from boneyard.store.statuses import TableStatus

log = logging.getLogger("boneyard.server")


class Loader:
    """Loads the live tables of a :class:`Hub` and keeps them in step with other processes."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        hub.handle(cmd.CatchUp, self._catch_up)

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table, loaded from the database on first use (``None``: no such table)."""
        hub = self.hub
        if table_id in hub.live:
            return hub.live[table_id]
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
        live = hub.live.setdefault(table_id, table)
        if live.actor is None:
            live.actor = TableActor(live, partial(hub.run, live), partial(hub.react, live))
        hub.lobby_version += 1  # (a table made here or elsewhere)
        return live

    async def _load(self, table_id: str) -> LiveTable | None:
        async with self.hub.sessions() as db:
            row = await livetables.table_row(db, table_id)
            if row is None or row.status == TableStatus.BROKEN:
                return None
            seeds, entries = await livetables.log_rows(db, table_id)
            bots = await bot_accounts(db, row.seats)
        table = self._from_row(row)
        table.bot_users = bots
        if any(e.kind == "deal" and "scheme" not in e.payload for e in entries):
            table.scheme = fairness.SCHEME_V1  # begun before client seeds: keeps its rule
        take_seeds(table, seeds, entries)
        table.make_bots()
        if row.status != TableStatus.OPEN:
            state = fairness.new_state(row.game, row.options, seat_names(row.seats))
            replay_entries(table, state, entries)
            table.state = state
        presence.sync(table)  # (its people count as away from now until they connect)
        return table

    def _from_row(self, row: GameTable) -> LiveTable:
        """A live table with the row's facts (no state yet)."""
        table = LiveTable(
            row.id, row.game, dict(row.options), list(row.seats), TableStatus(row.status)
        )
        table.stored_status = TableStatus(row.status)
        table.settings = dict(row.settings or {})
        table.private, table.invite_token = bool(row.private), row.invite_token
        table.created_by, table.created_at = row.created_by, row.created_at
        table.bot_only = bool(row.bot_only)
        table.claim_after = self.hub.claim_after
        table.stall_after = self.hub.stall_after
        return table

    async def set_aside(self, table_id: str, exc: BaseException) -> None:
        """Mark a table whose log does not replay as broken: it is never loaded again, the
        reason is logged, kept in its settings and counted in ``boneyard_broken_tables``, and
        ``boneyard tables broken`` lists it (docs/operations.md)."""
        log.error("table %s does not replay and is set aside: %s", table_id, exc, exc_info=exc)
        reason = f"{type(exc).__name__}: {exc}"[:500]
        async with self.hub.sessions() as db, db.begin():
            marked = await livetables.set_aside(db, table_id, reason, now().isoformat())
        if not marked:
            return
        self.hub.live.pop(table_id, None)
        self.hub.metrics.broken_tables.inc()

    async def count_broken(self) -> None:
        """Set ``boneyard_broken_tables`` to what the database holds (on start)."""
        async with self.hub.sessions() as db:
            broken = await livetables.count_broken(db)
        self.hub.metrics.broken_tables.set(broken)

    async def unfinished(self) -> list[str]:
        """The ids of the tables still open or in play (on start)."""
        async with self.hub.sessions() as db:
            return await livetables.unfinished_ids(db)

    # -- catching up ---------------------------------------------------------------------------

    async def refresh(self, table: LiveTable) -> bool:
        """Catch ``table`` up from the database (a command's handler, in the actor): its seats,
        status, new hand seeds and only the log entries after its version. Returns whether it
        changed."""
        async with self.hub.sessions() as db:
            row = await livetables.table_row(db, table.id)
            if row is None:
                return False
            entries = await livetables.entries_after(db, table.id, table.version)
            seeds: list[HandSeed] = []
            if any(e.kind == "deal" for e in entries):
                seeds = list(await livetables.hand_seeds(db, table.id))
            table.bot_users = await bot_accounts(db, row.seats)
        changed = self._take_seats(table, row)
        if entries:
            self._replay_new(table, seeds, entries)
            changed = True
        if changed and table.state is not None:
            table.log().note_changes(table.settings, table.version)
        table.stored_status = TableStatus(row.status)
        if row.status != table.status:
            table.status = TableStatus(row.status)
            changed = True
        if changed:
            self.hub.lobby_version += 1
        return changed

    @staticmethod
    def _take_seats(table: LiveTable, row: GameTable) -> bool:
        """Another process changed the seats (a join, the clock's substitution or reclaim, a
        director's replace): its bots and its sockets' seats follow. Whether they changed."""
        settings = dict(row.settings or {})
        if list(row.seats) == table.seats and settings == table.settings:
            return False
        table.seats, table.settings = list(row.seats), settings
        table.make_bots()
        table.reseat_clients()
        return True

    def _replay_new(
        self, table: LiveTable, seeds: list[HandSeed], entries: Sequence[LogEntry]
    ) -> None:
        """Replay the log ``entries`` another process wrote (on a copy: all or nothing)."""
        take_seeds(table, seeds, entries)
        before = table.checkpoint()
        state = (
            before.state.copy()
            if before.state is not None
            else fairness.new_state(table.game, table.options, seat_names(table.seats))
        )
        try:
            replay_entries(table, state, entries)
        except Exception:
            table.roll_back(before)
            raise
        table.state = state
        if not self.hub.breaks.resume(table):  # (dealt here or elsewhere: no pause left)
            self.hub.breaks.clear(table)

    async def refresh_shared(self, table: LiveTable) -> None:
        """With several processes, refresh ``table`` before changing it (a command's handler):
        another process may have moved it on or changed its seats."""
        if self.hub.broadcaster.distributed:
            await self.refresh(table)

    async def catch_up(self, table: LiveTable) -> None:
        """Refresh ``table`` from the database (its sockets get fresh views if it changed)."""
        await table.ask(cmd.CatchUp())

    async def _catch_up(self, table: LiveTable, _c: cmd.CatchUp) -> None:
        """A database fault is logged and counted; the table keeps what it had."""
        try:
            await self.refresh(table)
        except DB_ERRORS as exc:
            self.hub.metrics.db_errors.inc()
            log.warning("catching table %s up failed: %s", table.id, exc)

    # -- the other processes -------------------------------------------------------------------

    async def announce(self, table: LiveTable) -> None:
        """Tell the other processes that ``table`` changed (after a commit)."""
        await self.hub.broadcaster.publish(
            table.id, {"type": "table", "version": table.version}, local=False
        )

    async def announce_id(self, table_id: str) -> None:
        """Tell the other processes that the table ``table_id`` changed."""
        await self.hub.broadcaster.publish(table_id, {"type": "table"}, local=False)

    async def on_event(self, table_id: str, message: dict[str, object]) -> None:
        """A broadcast message: catch up (``type: table``), a registered handler, or else send
        it as it is to the table's local sockets. Tables not live here are ignored; table id
        ``*`` is a site-wide message for the handler of its type (``Hub.site_handlers``)."""
        kind = message.get("type")
        if table_id == SITE:
            handler = self.hub.site_handlers.get(kind) if isinstance(kind, str) else None
            if handler is not None:
                await handler(message)
            return
        table = self.hub.live.get(table_id)
        if table is None:
            return
        if kind == "table":
            version = message.get("version")
            if isinstance(version, int) and version < table.version:
                return
            await self.catch_up(table)
        elif isinstance(kind, str) and kind in self.hub.handlers:
            await self.hub.handlers[kind](table, message)
        else:
            for client in list(table.clients):
                try:
                    await client.send(message)
                except Exception:
                    with contextlib.suppress(ValueError):
                        table.clients.remove(client)

    async def catch_up_all(self) -> None:
        """After a broadcast outage: catch every live table with sockets up, and the bots."""
        for table in list(self.hub.live.values()):
            if table.clients:
                await self.catch_up(table)
        await self.sweep(0.0)

    async def sweep(self, idle: float) -> int:
        """Let bots move at tables where one is due and nothing was logged for ``idle`` seconds
        (their last writer may have died). Returns how many tables were looked at."""
        cutoff = now().timestamp() - idle
        async with self.hub.sessions() as db:
            rows = await livetables.last_logged_playing(db)
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
            self.hub.driver.schedule_bots(table)
        return seen
