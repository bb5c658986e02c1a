"""The dealer: every deal, the seeds it is dealt from, and the commit of the log.

A hand is dealt from a server seed committed ahead (its commitment published with the deal
before) and the players' client seeds (docs/fairness.md). The dealer commits a deal together with
the action that led to it, in one transaction through the group-commit writer; a hand's end that
waits for its people (boneyard.server.tables.between), a thrown-in hand's redeal, a deal whose
commit failed and a table a stopped server left waiting are dealt later by the ``Deal`` command.
A thrown-in hand is dealt again like every hand: under the commitment published with it, with the
players' seeds, as soon as every seated person has sent one, at the latest after the seed window.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from boneyard.core.errors import IllegalActionError
from boneyard.core.protocol import JSON, GameState
from boneyard.server.tables import between, fairness, tableview
from boneyard.server.tables import commands as cmd
from boneyard.server.tables.hub import DB_ERRORS, Hub
from boneyard.server.tables.live import LiveTable, now, scores_at
from boneyard.store import livetables
from boneyard.store.db import IntegrityError
from boneyard.store.models import HandSeed
from boneyard.store.statuses import TableStatus
from boneyard.store.writer import Row, Write, entry_row, seed_row

log = logging.getLogger("boneyard.server")


class Dealer:
    """Deals, client seeds and log commits at the tables of a :class:`Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.redealers: dict[str, asyncio.Task[None]] = {}
        hub.handle(cmd.Deal, self.deal)
        hub.handle(cmd.Seed, self.seed)

    async def deal_awaited(self, table: LiveTable) -> None:
        """Have ``table`` deal if its game awaits a deal (the dealer's command)."""
        await table.ask(cmd.Deal())

    async def deal(self, table: LiveTable, _c: cmd.Deal) -> None:
        """Deal if the game awaits a deal (a thrown-in hand's redeal, one whose commit failed,
        a hand's end everyone has seen, or a table left waiting by a server that stopped)."""
        st = table.state
        due = st is not None and st.awaiting_deal and not table.ended
        if st is None or not due or table.status != TableStatus.PLAYING:
            return
        try:
            await self._deal_now(table)
        except DB_ERRORS as exc:  # try again in a few seconds
            self.hub.metrics.db_errors.inc()
            log.warning("table %s: dealing failed: %s", table.id, exc)
            self.hub.breaks.retry(table) if table.break_until else self.arm_redeal(table)
            return
        self.hub.breaks.clear(table)

    async def _deal_now(self, table: LiveTable) -> bool:
        """Deal the awaited hand on a copy of the state, commit, then take it (a command's
        handler); returns whether it did. Another process that dealt first wins."""
        before = table.checkpoint()
        assert before.state is not None  # (a deal is awaited: the game has a state)
        table.state = before.state.copy()
        try:
            await self.advance(table, [], [])
        except BaseException as exc:
            table.roll_back(before)
            if not isinstance(exc, IntegrityError):
                raise
            with contextlib.suppress(*DB_ERRORS):  # dealt by another process: catch up
                await self.hub.loader.refresh(table)
            return False
        return True

    def arm_redeal(self, table: LiveTable) -> None:
        """Redeal a thrown-in hand after the seed window (or once every seed is in)."""
        task = self.redealers.get(table.id)
        if task is not None and not task.done() and task is not asyncio.current_task():
            return
        self.redealers[table.id] = asyncio.create_task(self._redeal_later(table))

    async def _redeal_later(self, table: LiveTable) -> None:
        await asyncio.sleep(self.hub.seed_window)
        await self.deal_awaited(table)

    def seeded_for_redeal(self, table: LiveTable) -> bool:
        """Whether ``table`` awaits a redeal and every seated person has seeded it."""
        st = table.state
        if st is None or not st.awaiting_deal or table.ended or between.hand_ended(table):
            return False
        given = table.client_seeds.get(table.hands_dealt(), {})
        return all(i in given for i, s in enumerate(table.seats) if s.kind == "person")

    # -- the commit ----------------------------------------------------------------------------

    async def advance(
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
            version += 1
            following = await self._deal_into(table, st, version, entries, seeds)
        elif st.is_over and len(table.hand_scores) < table.hands_dealt():
            table.hand_scores.append(scores_at(st))
        await self._append(table, entries, seeds)
        table.version = version
        if following is not None:
            table.pending = following
        if dealing:
            table.log().take(st)  # the deal (and a thrown-in hand's end)
        self.hub.metrics.actions.inc(len(entries))
        if dealing and st.awaiting_deal and not st.is_over:
            # The deal was thrown in (High Five: nobody holds a double): deal again, in a
            # transaction of its own, or the table would wait for a deal forever.
            people = any(s.kind == "person" for s in table.seats)
            if self.hub.seed_window <= 0 or not people:
                await self.advance(table, [], [])
            else:
                self.arm_redeal(table)

    async def _deal_into(
        self, table: LiveTable, st: GameState, version: int, entries: list[Row], seeds: list[Row]
    ) -> tuple[int, str, str] | None:
        """Deal the next hand into ``st`` and add its log entry (at ``version``) and seed rows;
        the next hand's committed seed (the current scheme commits it now)."""
        hand = table.hands_dealt()
        payload: JSON = {"hand": hand}
        pending = table.pending
        if table.scheme == fairness.SCHEME and pending is not None and pending[0] == hand:
            seed, commit = pending[1], pending[2]
            if self.hub.broadcaster.distributed:  # another process may have taken some
                await self._read_client_seeds(table, hand)
        else:  # no seed committed ahead (a table begun before that): commit at the deal
            seed = fairness.new_seed()
            commit = fairness.commitment(seed)
            seeds.append(seed_row(table.id, hand, seed, commit))
        payload["commitment"] = commit
        clients: list[str | None] | None = None
        following: tuple[int, str, str] | None = None
        if table.scheme == fairness.SCHEME:
            # Commit to the next hand's seed now: players add theirs during this hand.
            clients = table.seat_seeds(hand)
            nxt = fairness.new_seed()
            following = (hand + 1, nxt, fairness.commitment(nxt))
            seeds.append(seed_row(table.id, hand + 1, nxt, following[2], {}))
            payload.update(scheme=table.scheme, client_seeds=clients, next_commitment=following[2])
        if hand > 0:
            table.hand_scores.append(scores_at(st))
        fairness.deal(st, seed, hand, clients, table.scheme)
        table.seeds[hand] = (seed, commit)
        entries.append(entry_row(table.id, version, "deal", None, payload, now()))
        return following

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
        await self.hub.writer.write(w)
        if w.status is not None:
            table.stored_status = TableStatus(w.status)
            self.hub.lobby_version += 1
        if entries:
            table.last_at = entries[-1]["created_at"]  # committed: the clock counts from it

    # -- client seeds (docs/fairness.md) -------------------------------------------------------

    async def _read_client_seeds(self, table: LiveTable, hand: int) -> None:
        """The client seeds of ``hand`` as the database has them (a command's handler)."""
        async with self.hub.sessions() as db:
            row = await livetables.hand_seed(db, table.id, hand)
        if row is not None and row.client_seeds:
            table.client_seeds[hand] = {int(k): str(v) for k, v in row.client_seeds.items()}

    async def add_client_seed(
        self, table: LiveTable, seat: int | None, hand: object, seed: object
    ) -> JSON:
        """Take ``seat``'s client seed for the next hand (not dealt yet); returns the answer.

        Raises :class:`IllegalActionError` with the reason (nothing changed) when the seed is
        refused: a spectator, a hand already dealt or not committed yet, a malformed seed.
        """
        answer: JSON = await table.ask(cmd.Seed(seat, hand, seed))
        return answer

    async def seed(self, table: LiveTable, c: cmd.Seed) -> JSON:
        """The ``Seed`` command: checked, committed, then counted (maybe the deal is due)."""
        seat, hand, nxt = _seedable(table, c)
        seed = fairness.check_client_seed(c.seed)
        async with self.hub.sessions() as db, db.begin():
            merged = await livetables.add_client_seed(db, table.id, hand, seat, seed)
        if merged is None:  # pragma: no cover - the pending seed is always stored
            raise IllegalActionError("the next hand has no committed seed")
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
        if self.hub.starter.seeded_for_start(table):
            self.hub.starter.start_soon(table)
        elif self.seeded_for_redeal(table):
            timer = self.redealers.pop(table.id, None)
            if timer is not None:
                timer.cancel()
            self.redealers[table.id] = asyncio.create_task(self.deal_awaited(table))

    async def close(self) -> None:
        """Stop the redeal timers (on shutdown)."""
        for task in self.redealers.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _seedable(table: LiveTable, c: cmd.Seed) -> tuple[int, int, tuple[int, str, str]]:
    """The seat, the hand and the committed next hand of a client seed, or the reason (in a
    player's words) it cannot be taken."""
    seat, hand = c.seat, c.hand
    if seat is None:
        raise IllegalActionError("only a seated player can add a seed: you are watching this table")
    if table.scheme != fairness.SCHEME:
        raise IllegalActionError(f"this table deals by {table.scheme}, which takes no client seeds")
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
    return seat, hand, nxt


def first_commitment(table_id: str) -> HandSeed:
    """Hand 0's seed, committed when the table is created (seeds may be added while it is open)."""
    seed = fairness.new_seed()
    return HandSeed(**seed_row(table_id, 0, seed, fairness.commitment(seed), {}))
