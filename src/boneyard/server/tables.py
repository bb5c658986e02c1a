"""Live tables: one actor (an asyncio lock) per table serialises every command.

A table's truth is its log in the database. An accepted action is applied to a copy of the state,
appended to the log with the next sequence number and committed, and only then does the live state
move on and every socket get its fresh view. Each outbound view is built from
``state.observation(seat).to_json()`` for that socket's seat (``None``: a spectator); no code path
sends the state itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from boneyard.bots import make_bot
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.protocol import JSON, GameState
from boneyard.games.registry import get_spec
from boneyard.server import fairness
from boneyard.store.models import GameTable, HandSeed, LogEntry

log = logging.getLogger("boneyard.server")

Sender = Callable[[JSON], Awaitable[None]]


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


def seat_names(seats: list[dict[str, Any]]) -> list[str]:
    """The names written in the record's ``seats``."""
    return [str(s.get("name") or f"Seat {i + 1}") for i, s in enumerate(seats)]


@dataclass(eq=False)
class Client:
    """One connected socket: where to send and which seat it sees (``None``: spectator)."""

    send: Sender
    seat: int | None
    user_id: int | None = None


@dataclass(eq=False)
class LiveTable:
    """A table in memory: its state rebuilt from the log, its sockets and its lock."""

    id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    status: str
    state: GameState | None = None
    version: int = 0
    seeds: dict[int, tuple[str, str]] = field(default_factory=dict)
    hand_scores: list[Any] = field(default_factory=list)
    clients: list[Client] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: dict[int, Any] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None

    def make_bots(self) -> None:
        """Bot players for the bot seats (their own randomness: they never see the state)."""
        self.bots = {
            i: make_bot(str(s.get("bot", "greedy")), random.Random(secrets.randbits(64)))
            for i, s in enumerate(self.seats)
            if s.get("kind") == "bot"
        }

    # -- views -------------------------------------------------------------------------------

    def hands_dealt(self) -> int:
        """How many hands have been dealt."""
        return len(self.seeds)

    def hand_finished(self, hand: int) -> bool:
        """Whether hand ``hand`` is over (its seed may then be revealed)."""
        st = self.state
        if st is None:
            return False
        last = self.hands_dealt() - 1
        return hand < last or st.is_over or st.awaiting_deal

    def fairness_json(self) -> list[JSON]:
        """Per hand: the commitment, and the seed once the hand is over."""
        out: list[JSON] = []
        for h in sorted(self.seeds):
            seed, commit = self.seeds[h]
            item: JSON = {"hand": h, "commitment": commit}
            if self.hand_finished(h):
                item["seed"] = seed
            out.append(item)
        return out

    def public_json(self) -> JSON:
        """What anyone may know about the table (no game state)."""
        return {
            "id": self.id,
            "game": self.game,
            "title": get_spec(self.game).title,
            "options": self.options,
            "seats": [
                {
                    "seat": i,
                    "kind": s.get("kind"),
                    "name": s.get("name"),
                    "bot": s.get("bot"),
                    "user_id": s.get("user_id"),
                }
                for i, s in enumerate(self.seats)
            ],
            "status": self.status,
        }

    def view(self, seat: int | None) -> JSON:
        """The message for a client of ``seat``: built only from that seat's observation."""
        msg: JSON = {
            "type": "view",
            "version": self.version,
            "seat": seat,
            "table": self.public_json(),
            "fairness": self.fairness_json(),
            "hand_scores": self.hand_scores,
        }
        st = self.state
        if st is None:
            msg["view"] = None
            msg["moves"] = []
            return msg
        obs = st.observation(seat)
        spec = get_spec(self.game)
        msg["view"] = obs.to_json()
        msg["moves"] = [
            {"event": a.to_event(), "text": spec.describe_action(a)} for a in obs.legal_actions
        ]
        result = st.result()
        msg["result"] = (
            None
            if result is None
            else {"winner": result.winner, "scores": list(result.scores), "reason": result.reason}
        )
        return msg

    def record(self) -> JSON:
        """The record so far with fairness meta (only served once the game is over)."""
        assert self.state is not None
        rec = self.state.record()
        meta = dict(rec.get("meta") or {})
        meta["fairness"] = {"scheme": fairness.SCHEME, "hands": self.fairness_json()}
        meta["table"] = self.id
        meta["generator"] = "boneyard serve"
        rec["meta"] = meta
        return rec

    async def broadcast(self) -> None:
        """Send every client its fresh view (a dead socket is dropped)."""
        for client in list(self.clients):
            try:
                await client.send(self.view(client.seat))
            except Exception:  # a closed socket: forget it
                with contextlib.suppress(ValueError):
                    self.clients.remove(client)


class StaleError(Exception):
    """The client acted on an old version: it gets a resync."""


class TableManager:
    """Every live table of this process, loaded from and written to the database."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], bot_delay: float = 0.5):
        self.sessions = sessions
        self.bot_delay = bot_delay
        self.live: dict[str, LiveTable] = {}

    # -- loading -----------------------------------------------------------------------------

    async def resume_all(self) -> int:
        """Rebuild every unfinished table from its log (on start); returns how many."""
        async with self.sessions() as db:
            ids = (await db.scalars(select(GameTable.id).where(GameTable.status != "over"))).all()
        for tid in ids:
            table = await self.get(tid)
            if table is not None:
                self.schedule_bots(table)
        return len(ids)

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table, loaded from the database on first use."""
        if table_id in self.live:
            return self.live[table_id]
        table = await self._load(table_id)
        if table is not None:
            self.live.setdefault(table_id, table)
            return self.live[table_id]
        return None

    async def _load(self, table_id: str) -> LiveTable | None:
        async with self.sessions() as db:
            row = await db.get(GameTable, table_id)
            if row is None:
                return None
            seeds = (await db.scalars(select(HandSeed).where(HandSeed.table_id == table_id))).all()
            entries = (
                await db.scalars(
                    select(LogEntry).where(LogEntry.table_id == table_id).order_by(LogEntry.seq)
                )
            ).all()
        table = LiveTable(row.id, row.game, dict(row.options), list(row.seats), row.status)
        table.seeds = {s.hand: (s.server_seed, s.commitment) for s in seeds}
        table.make_bots()
        if row.status != "open":
            state = fairness.new_state(row.game, row.options, seat_names(row.seats))
            for e in entries:
                if e.kind == "deal":
                    if e.payload["hand"] > 0:
                        table.hand_scores.append(_scores(state))
                    fairness.deal(state, table.seeds[e.payload["hand"]][0], e.payload["hand"])
                else:
                    if e.seat != state.current_seat:
                        raise BoneyardError(f"table {table_id}: log seq {e.seq} is out of turn")
                    state.apply(fairness.find_action(state, e.payload))
                table.version = e.seq
            if state.is_over and len(table.hand_scores) < len(seeds):
                table.hand_scores.append(_scores(state))
            table.state = state
        return table

    # -- writing -----------------------------------------------------------------------------

    async def _append(
        self, table: LiveTable, entries: list[LogEntry], seeds: list[HandSeed]
    ) -> None:
        async with self.sessions() as db, db.begin():
            for s in seeds:
                db.add(s)
            await db.flush()
            for e in entries:
                db.add(e)
            await db.flush()
            st = table.state
            if st is not None:
                row = await db.get(GameTable, table.id)
                assert row is not None
                status = "over" if st.is_over else "playing"
                if row.status != status:
                    row.status = status
                if st.is_over:
                    row.record = table.record()

    async def start(self, table: LiveTable) -> None:
        """Start an open table: a fresh game, its first deal, then bots move if they lead."""
        async with table.lock:
            if table.status != "open":
                raise BoneyardError("the table has already started")
            if any(s.get("kind") == "open" for s in table.seats):
                raise BoneyardError("every seat must be taken before the start")
            table.state = fairness.new_state(table.game, table.options, seat_names(table.seats))
            table.status = "playing"
            try:
                await self._advance(table, [], [])
            except Exception:
                table.state, table.status = None, "open"
                raise
            await table.broadcast()
        self.schedule_bots(table)

    async def _advance(
        self, table: LiveTable, entries: list[LogEntry], seeds: list[HandSeed]
    ) -> None:
        """Deal if a hand is awaited, then commit ``entries`` (and the deal) in one transaction."""
        st = table.state
        assert st is not None
        version = table.version + len(entries)
        if st.awaiting_deal and not st.is_over:
            hand = table.hands_dealt()
            seed = fairness.new_seed()
            commit = fairness.commitment(seed)
            if hand > 0:
                table.hand_scores.append(_scores(st))
            fairness.deal(st, seed, hand)
            table.seeds[hand] = (seed, commit)
            version += 1
            entries.append(
                LogEntry(
                    table_id=table.id,
                    seq=version,
                    kind="deal",
                    seat=None,
                    payload={"hand": hand, "commitment": commit},
                    created_at=now(),
                )
            )
            seeds.append(
                HandSeed(table_id=table.id, hand=hand, server_seed=seed, commitment=commit)
            )
        elif st.is_over and len(table.hand_scores) < table.hands_dealt():
            table.hand_scores.append(_scores(st))
        await self._append(table, entries, seeds)
        table.version = version

    async def act(self, table: LiveTable, seat: int | None, seq: Any, event: Any) -> None:
        """Apply ``event`` for ``seat`` acting on version ``seq``.

        Raises :class:`StaleError` (answer: resync) or :class:`IllegalActionError` (answer: the
        reason); in both cases nothing changed.
        """
        async with table.lock:
            st = table.state
            if st is None:
                raise IllegalActionError("the game has not started yet")
            if not isinstance(seq, int) or isinstance(seq, bool) or seq != table.version:
                raise StaleError()
            if seat is None:
                raise IllegalActionError("you are watching this table, not playing at it")
            if st.is_over:
                raise IllegalActionError("the game is over")
            if st.current_seat != seat:
                raise IllegalActionError("it is not your turn")
            if not isinstance(event, dict):
                raise IllegalActionError('"action" must be an object of record event fields')
            await self._apply(table, seat, fairness.find_action(st, event))
            await table.broadcast()
        self.schedule_bots(table)

    async def _apply(self, table: LiveTable, seat: int, action: Any) -> None:
        """Apply on a copy, commit, then move the live state (the caller holds the lock)."""
        st = table.state
        assert st is not None
        new = st.copy()
        new.apply(action)
        entry = LogEntry(
            table_id=table.id,
            seq=table.version + 1,
            kind="action",
            seat=seat,
            payload=action.to_event(),
            created_at=now(),
        )
        old_scores = list(table.hand_scores)
        old_seeds = dict(table.seeds)
        table.state = new
        try:
            await self._advance(table, [entry], [])
        except IntegrityError:
            # Another process wrote this sequence number first: reload the truth.
            table.state, table.hand_scores, table.seeds = st, old_scores, old_seeds
            fresh = await self._load(table.id)
            if fresh is not None:
                table.state, table.version = fresh.state, fresh.version
                table.seeds, table.hand_scores = fresh.seeds, fresh.hand_scores
            raise StaleError() from None
        except Exception:
            table.state, table.hand_scores, table.seeds = st, old_scores, old_seeds
            raise
        if new.is_over:
            table.status = "over"

    # -- bots --------------------------------------------------------------------------------

    def schedule_bots(self, table: LiveTable) -> None:
        """Let the bots move (in the background) while one is to act."""
        if table.bot_task is not None and not table.bot_task.done():
            return
        st = table.state
        if st is None or st.is_over or st.current_seat not in table.bots:
            return
        table.bot_task = asyncio.create_task(self._run_bots(table))

    async def _run_bots(self, table: LiveTable) -> None:
        while True:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            async with table.lock:
                st = table.state
                if st is None or st.is_over or st.current_seat not in table.bots:
                    return
                seat = st.current_seat
                try:
                    action = table.bots[seat].choose(st.observation(seat))
                    await self._apply(table, seat, action)
                except StaleError:
                    continue
                except Exception:
                    log.exception("bot move failed at table %s", table.id)
                    return
                await table.broadcast()

    async def close(self) -> None:
        """Stop the bot tasks (on shutdown)."""
        for table in self.live.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.bot_task


def _scores(state: GameState) -> Any:
    """The public scores (from the spectator view) at a hand's end."""
    view: Mapping[str, Any] = state.observation(None).to_json()
    return view.get("scores")
