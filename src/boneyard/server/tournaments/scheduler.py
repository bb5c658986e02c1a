"""The tournaments' background task: what must happen at a time whether or not anyone looks.

* An event with ``auto_start`` starts at its ``starts_at`` (if it cannot, for lack of entrants,
  its directors are told and it waits for them).
* A no-show's grace period ends: the match is forfeited.
* A table whose game ended while its hook was lost (a restart) is recorded; a deal awaited after
  a failed commit is dealt; a bot stopped by a database hiccup goes on.

Everything is read from the database on each pass, so a restarted server (or another process)
picks up where it was. The task sleeps until the next thing is due (at most ``TICK`` seconds)
and wakes early when an event changes.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from boneyard.server.errors import DomainError
from boneyard.server.tables.clock import aware, now
from boneyard.server.tables.manager import DB_ERRORS
from boneyard.server.tournaments import start as starting
from boneyard.server.tournaments.background import Periodic
from boneyard.server.tournaments.service import RUNNING, Tournaments
from boneyard.server.tournaments.settings import setting
from boneyard.store import tournament_games, unit
from boneyard.store.statuses import TournamentStatus
from boneyard.store.tournament_queries import tournaments_to_watch
from boneyard.store.tournaments import TournamentRow

log = logging.getLogger("boneyard.tournaments")

TICK = 30.0
"""The longest sleep."""
TEND = 10.0
"""Seconds between looks after the tables of online tournaments."""
RETRY = 5.0
"""Seconds before the next pass after a failed one (the database is away)."""


class Scheduler:
    """Runs :meth:`pass_once` in a loop (``start`` / ``close`` with the app)."""

    def __init__(self, svc: Tournaments) -> None:
        self.svc = svc
        self.tended = 0.0
        self.loop = Periodic(
            "the tournaments scheduler", self._step, retry=RETRY, log=log, woken=svc.wake_scheduler
        )

    def wake(self) -> None:
        """Look again now (an event's times or state changed)."""
        self.svc.wake_scheduler.set()

    def start(self) -> None:
        """Start the loop."""
        self.loop.start()

    async def close(self) -> None:
        """Stop the loop."""
        await self.loop.stop()

    async def _step(self) -> float:
        return min(await self.pass_once(), TICK)

    async def pass_once(self) -> float:
        """Do what is due; returns the seconds until the next thing is."""
        t = now()
        due: list[datetime] = [t + timedelta(seconds=TICK)]
        tend = time.monotonic() - self.tended >= TEND
        if tend:
            self.tended = time.monotonic()
        async with self.svc.sessions() as db:
            tournaments = await tournaments_to_watch(db, RUNNING)
        for ev in tournaments:
            if ev.status == TournamentStatus.REGISTRATION:
                at = aware(ev.starts_at) if ev.starts_at else None
                if at is not None and setting(ev, "auto_start"):
                    if at <= t:
                        await self._auto_start(ev)
                    else:
                        due.append(at)
                continue
            ends = self._grace_ends(ev)
            if any(e <= t for e in ends):
                await self.svc.advance(ev.id)
            due.extend(e for e in ends if e > t)
            if ev.mode == "online" and tend:
                await self.tend(ev.id)
        return max(0.0, (min(due) - now()).total_seconds())

    @staticmethod
    def _grace_ends(ev: TournamentRow) -> list[datetime]:
        grace = timedelta(minutes=float(setting(ev, "grace_minutes")))
        ready = (ev.settings or {}).get("ready") or {}
        return [aware(datetime.fromisoformat(v)) + grace for v in ready.values()]

    async def _auto_start(self, ev: TournamentRow) -> None:
        try:
            await starting.start(self.svc, ev.id, None)
        except DomainError as exc:
            async with self.svc.sessions() as db, db.begin():
                row = await unit.get(db, TournamentRow, ev.id)
                if row is None or row.status != TournamentStatus.REGISTRATION:
                    return
                row.settings = {**row.settings, "auto_start": False}
                why = f"not started at its start time: {exc.reason}"
                Tournaments.action(db, row, None, "auto_start", {"started": False}, why)
                await self.svc.notify_directors(db, row, "start", f"{row.name} was {why}")

    async def tend(self, event_id: str) -> None:
        """Look after the event's tables: record a game whose end was not recorded, deal an
        awaited hand, let a stopped bot go on."""
        async with self.svc.sessions() as db:
            tids = await tournament_games.tables_in_play(db, event_id)
        tables = self.svc.tables
        for tid in tids:
            try:
                table = await tables.get(tid) if tid else None
            except DB_ERRORS:
                continue
            st = table.state if table is not None else None
            if table is None or st is None:
                continue
            if st.is_over:
                await self.svc.on_game_over(table)
            elif st.awaiting_deal:
                await tables.deal_awaited(table)
            else:
                tables.schedule_bots(table)
