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
import copy
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from boneyard.bots import make_bot
from boneyard.bots.plugins import make
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.protocol import JSON, GameResult, GameState, blocks
from boneyard.games.registry import get_spec
from boneyard.server.metrics import Metrics
from boneyard.server.tables import between, fairness, presence, tableview
from boneyard.server.tables.broadcast import Broadcaster, InMemoryBroadcaster
from boneyard.server.tables.clock import TurnClock, public_seat_name, substitutions
from boneyard.server.tables.movelog import MoveLog, hands_of
from boneyard.server.validation import storable
from boneyard.store.models import GameTable, HandSeed, LogEntry
from boneyard.store.players import add_players, bot_accounts
from boneyard.store.seats import BotSeat, Seat, Someone
from boneyard.store.statuses import SeatChange, TableStatus
from boneyard.store.writer import LogWriter, Row, Write, entry_row, seed_row

log = logging.getLogger("boneyard.server")

Sender = Callable[[JSON], Awaitable[None]]


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


def seat_names(seats: Sequence[Seat]) -> list[str]:
    """The names written in the record's ``seats``."""
    return [s.name or f"Seat {i + 1}" for i, s in enumerate(seats)]


@dataclass(eq=False)
class Client:
    """One connected socket: where to send and which seat it sees (``None``: spectator);
    ``session`` (the hash of its session token) and ``close`` end it when its session ends."""

    send: Sender
    seat: int | None
    user_id: int | None = None
    session: str = ""
    close: Callable[[], Awaitable[None]] | None = None
    presence: bool = False  # it asked to hear who comes and goes (boneyard.server.tables.presence)


@dataclass(eq=False)
class LiveTable:
    """A table in memory: its state rebuilt from the log, its sockets and its lock."""

    id: str
    game: str
    options: dict[str, Any]
    seats: list[Seat]
    status: str
    state: GameState | None = None
    version: int = 0
    seeds: dict[int, tuple[str, str]] = field(default_factory=dict)
    # Fairness (docs/fairness.md): the table's scheme, the next hand's committed seed
    # (hand, server seed, commitment) and the client seeds by hand and seat.
    scheme: str = fairness.SCHEME
    pending: tuple[int, str, str] | None = None
    client_seeds: dict[int, dict[int, str]] = field(default_factory=dict)
    # A private table is not listed; seeing it needs its invite token (or a seat).
    private: bool = False
    invite_token: str | None = None
    created_by: int | None = None
    hand_scores: list[Any] = field(default_factory=list)
    clients: list[Client] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: dict[int, Any] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    # Table settings (game_tables.settings), the time of the last log entry, the turn clock.
    settings: dict[str, Any] = field(default_factory=dict)
    last_at: datetime | None = None
    # The status the database has (``status`` runs ahead of it while a commit is in flight).
    stored_status: str = ""
    clock: TurnClock | None = None
    created_at: datetime | None = None
    # No person seated, no seat open: its bots move only while someone watches.
    bot_only: bool = False
    # The seated accounts that are bot accounts (boneyard.server.botapi.service): labelled as bots.
    bot_users: frozenset[int] = frozenset()
    # The public move log (tables.movelog) and how much of it the last broadcast sent.
    movelog: MoveLog | None = None
    log_sent: int = 0
    # Between hands (tables.between): when the next deal is due (server time, seconds
    # since the epoch; None: no hand-end pause) and the seats whose person pressed Continue.
    break_until: float | None = None
    continued: set[int] = field(default_factory=set)
    # Who is connected (tables.presence): the people other processes hold sockets of,
    # by process, and since when each person seat has had no socket (server time).
    remote: dict[str, set[int]] = field(default_factory=dict)
    away: dict[int, float] = field(default_factory=dict)
    claim_after: float = tableview.CLAIM_AFTER  # (the site's: TableManager.claim_after)

    def make_bots(self) -> None:
        """Bot players for the bot seats (their own randomness: they never see the state)."""
        self.bots = {
            i: make(s.bot, random.Random(secrets.randbits(64)), local=False)
            for i, s in enumerate(self.seats)
            if s.bot is not None
        }

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` plays now (``None``: none; a seat a bot took over is the bot's)."""
        if user_id is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)

    @property
    def ended(self) -> bool:
        """Whether the game is over: played to its end, or ended early (resigned, a win
        claimed, aborted: ``settings["ending"]``)."""
        if (self.settings or {}).get("ending"):
            return True
        return self.state is not None and self.state.is_over

    def result(self) -> GameResult | None:
        """The table's result: the game's, or the ending's (a resignation or a claimed win);
        a seat resigned and played out by a bot never wins (docs/rules-notes.md)."""
        return tableview.table_result(self)

    def log(self) -> MoveLog:
        """The move log (made on first use)."""
        if self.movelog is None:
            self.movelog = MoveLog(self.game, seat_names(self.seats), self.options)
        return self.movelog

    def reseat_clients(self) -> None:
        """After the seats changed: every socket sees from the seat its person plays now."""
        for client in self.clients:
            client.seat = self.seat_of(client.user_id)

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
        return hand < last or self.ended or st.awaiting_deal

    def seat_seeds(self, hand: int) -> list[str | None]:
        """The client seeds of ``hand`` by seat (``None``: that seat added none)."""
        given = self.client_seeds.get(hand, {})
        return [given.get(i) for i in range(len(self.seats))]

    def fairness_json(self, seat: int | None = None) -> list[JSON]:
        """Per dealt hand: the commitment, the client seeds (public from the deal on) and the
        server seed once the hand is over; then, while the game goes on, the next hand's
        commitment with the seats that added a seed (and ``my_seed``, this seat's own)."""
        out: list[JSON] = []
        for h in sorted(self.seeds):
            seed, commit = self.seeds[h]
            item: JSON = {"hand": h, "commitment": commit}
            if self.scheme == fairness.SCHEME:
                item["client_seeds"] = self.seat_seeds(h)
            if self.hand_finished(h):
                item["seed"] = seed
            out.append(item)
        nxt = self.pending
        over = self.ended
        if nxt is not None and nxt[0] == self.hands_dealt() and not over:
            given = self.client_seeds.get(nxt[0], {})
            item = {"hand": nxt[0], "commitment": nxt[2], "next": True, "seeded": sorted(given)}
            if seat is not None:
                item["my_seed"] = given.get(seat)
            out.append(item)
        return out

    def public_json(self) -> JSON:
        """What anyone may know about the table (no game state)."""
        return {
            "id": self.id,
            "game": self.game,
            "title": get_spec(self.game).title,
            "hand_word": get_spec(self.game).hand_word,
            "options": self.options,
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "name": public_seat_name(s),
                    "bot": s.bot,
                    "user_id": s.user_id,
                    **({"bot_account": True} if s.user_id in self.bot_users else {}),
                    **({"invited": s.invited.name} if s.invited else {}),
                    **({"replacing": s.replaced.model_dump()} if s.replaced else {}),
                }
                for i, s in enumerate(self.seats)
            ],
            "status": self.status,
            "private": self.private,
            "tournament": bool((self.settings or {}).get("event")),
            # Created full: dealt when the players' seeds for hand 0 are in, at the latest then.
            **({"start_by": self.settings["start_by"]} if self.waits_for_seeds() else {}),
            # A game of an event (its page links the match and the next game), and why a game
            # was stopped (boneyard.server.events).
            **({"event": self._event_ref()} if self.settings.get("event") else {}),
            **({"halted": self.settings["halted"]} if self.settings.get("halted") else {}),
        }

    def _event_ref(self) -> JSON:
        s = self.settings
        return {"id": s.get("event"), "match": s.get("match"), "game": s.get("game")}

    def waits_for_seeds(self) -> bool:
        """Whether this table was created full and waits for its players' seeds to deal."""
        return self.status == "open" and bool((self.settings or {}).get("start_by"))

    def view(self, seat: int | None, full_log: bool = True) -> JSON:
        """The message for a client of ``seat``: built only from that seat's observation, and
        the table's public facts (the move log: all of it, or with ``full_log`` false what the
        last broadcast has not sent; who is connected; the hand end; how the game ended)."""
        msg: JSON = {
            "type": "view",
            "version": self.version,
            "seat": seat,
            "table": self.public_json(),
            "fairness": self.fairness_json(seat),
            "hand_scores": self.hand_scores,
            "clock": self.clock.status(self) if self.clock is not None else None,
        }
        if self.private and seat is not None:
            msg["invite"] = self.invite_token
        tableview.add_public(self, msg, seat, full_log)
        st = self.state
        if st is None:
            msg["view"] = None
            msg["moves"] = []
            return msg
        obs = st.observation(seat)
        spec = get_spec(self.game)
        msg["view"] = obs.to_json()
        live = not self.ended and self.status != "closed"
        msg["moves"] = (
            [{"event": a.to_event(), "text": spec.describe_action(a)} for a in obs.legal_actions]
            if live
            else []
        )
        result = self.result()
        msg["result"] = (
            None
            if result is None
            else {"winner": result.winner, "scores": list(result.scores), "reason": result.reason}
        )
        tableview.add_private(self, msg, seat, obs)
        return msg

    def record(self) -> JSON:
        """The record so far with fairness meta (only served once the game is over)."""
        assert self.state is not None
        rec = self.state.record()
        meta = dict(rec.get("meta") or {})
        hands = [f for f in self.fairness_json() if not f.get("next")]
        meta["fairness"] = {"scheme": self.scheme, "hands": hands}
        meta["table"] = self.id
        meta["generator"] = "boneyard serve"
        if substitutions(self.settings):
            meta["substitutions"] = substitutions(self.settings)
        ending = tableview.record_ending(self)
        if ending is not None:
            meta["ending"] = ending
        rec["meta"] = meta
        return rec

    async def broadcast(self) -> None:
        """Send every client its fresh view (a dead socket is dropped). Each seat's view is
        built once, however many sockets see from that seat (spectators share theirs)."""
        views: dict[int | None, JSON] = {}
        for client in list(self.clients):
            seat = client.seat
            view = views.get(seat)
            if view is None:
                view = views[seat] = self.view(seat, full_log=False)
            try:
                await client.send(view)
            except Exception:  # a closed socket: forget it
                with contextlib.suppress(ValueError):
                    self.clients.remove(client)
        if self.movelog is not None:
            self.log_sent = len(self.movelog.entries)
        if self.clock is not None:
            self.clock.arm(self)


class StaleError(Exception):
    """The client acted on an old version: it gets a resync."""


class UnavailableError(BoneyardError):
    """The database could not be reached: nothing changed, the client may try again."""


SEED_WINDOW = 5.0
"""Seconds a table created full waits for its players' seeds for hand 0 (docs/fairness.md)."""
SITE = "*"
"""The broadcast "table id" of site-wide messages (e.g. sessions that ended)."""
DB_ERRORS = (SQLAlchemyError, OSError)
"""What a database outage raises (IntegrityError, a lost race, is handled before these)."""
MessageHandler = Callable[["LiveTable", dict[str, Any]], Awaitable[None]]


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
        claim_after: float = tableview.CLAIM_AFTER,
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
        self.clock: TurnClock | None = None  # set by create_app (boneyard.server.tables.clock)
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
        # The pause after a hand's end (boneyard.server.tables.between).
        self.breaks = between.Breaks(self, hand_pause)
        self.on_message("continued", self.breaks.on_continued)

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
                    select(GameTable.id).where(GameTable.status.in_(("open", "playing")))
                )
            ).all()
            broken = await db.scalar(
                select(func.count()).select_from(GameTable).where(GameTable.status == "broken")
            )
        self.metrics.broken_tables.set(broken or 0)
        resumed = 0
        for tid in ids:
            table = await self.get(tid)
            if table is not None:
                if not self.breaks.resume(table):  # (a hand's end keeps its pause)
                    await self.deal_awaited(table)
                self.arm_start(table)
                resumed += 1
        return resumed

    async def set_aside(self, table_id: str, exc: BaseException) -> None:
        """Mark a table whose log does not replay as broken: it is never loaded again, the
        reason is logged, kept in its settings and counted in ``boneyard_broken_tables``, and
        ``boneyard tables broken`` lists it (docs/operations.md)."""
        log.error("table %s does not replay and is set aside: %s", table_id, exc, exc_info=exc)
        async with self.sessions() as db, db.begin():
            row = await db.get(GameTable, table_id)
            if row is None or row.status == "broken":
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
        """Deal if the game awaits a deal (a thrown-in hand's redeal, one whose commit failed,
        or a table left waiting by a server that stopped), then let the bots move."""
        dealt = False
        async with table.lock:
            st = table.state
            due = st is not None and st.awaiting_deal and not table.ended
            if st is not None and due and table.status == "playing":
                try:
                    dealt = await self._deal_now(table, st)
                except DB_ERRORS as exc:  # try again in a few seconds
                    self.metrics.db_errors.inc()
                    log.warning("table %s: dealing failed: %s", table.id, exc)
                    self.breaks.retry(table) if table.break_until else self.arm_redeal(table)
                    return
                self.breaks.clear(table)
                await table.broadcast()
        if dealt:
            await self.announce(table)
        self.schedule_bots(table)

    async def _deal_now(self, table: LiveTable, st: GameState) -> bool:
        """Deal the awaited hand on a copy of ``st``, commit, then take it (the caller holds
        the lock); returns whether it did. Another process that dealt first wins."""
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
        if table is not None:
            self.live.setdefault(table_id, table)
            self.lobby_version += 1  # (a table made here or elsewhere)
            return self.live[table_id]
        return None

    async def _load(self, table_id: str) -> LiveTable | None:
        async with self.sessions() as db:
            row = await db.get(GameTable, table_id)
            if row is None or row.status == "broken":
                return None
            seeds, entries = await log_rows(db, table_id)
            bots = await bot_accounts(db, row.seats)
        table = LiveTable(row.id, row.game, dict(row.options), list(row.seats), row.status)
        table.bot_users = bots
        table.stored_status = row.status
        table.settings, table.clock = dict(row.settings or {}), self.clock
        table.private, table.invite_token = bool(row.private), row.invite_token
        table.created_by, table.created_at = row.created_by, row.created_at
        table.bot_only = bool(row.bot_only)
        table.claim_after = self.claim_after
        if any(e.kind == "deal" and "scheme" not in e.payload for e in entries):
            table.scheme = fairness.SCHEME_V1  # begun before client seeds: keeps its rule
        _take_seeds(table, seeds, entries)
        table.make_bots()
        if row.status != "open":
            state = fairness.new_state(row.game, row.options, seat_names(row.seats))
            _replay_entries(table, state, entries)
            table.state = state
        presence.sync(table)  # (its people count as away from now until they connect)
        return table

    async def refresh(self, table: LiveTable) -> bool:
        """Catch ``table`` up from the database (the caller holds its lock): its seats, status,
        new hand seeds and only the log entries after its version. Returns whether it changed.
        """
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
        table.stored_status = row.status
        if row.status != table.status:
            table.status = row.status
            changed = True
        if changed:
            self.lobby_version += 1
        return changed

    async def refresh_shared(self, table: LiveTable) -> None:
        """With several processes, refresh ``table`` before changing it (the caller holds its
        lock): another process may have moved it on or changed its seats."""
        if self.broadcaster.distributed:
            await self.refresh(table)

    async def catch_up(self, table: LiveTable) -> None:
        """Refresh ``table`` from the database and, if it changed, send its sockets fresh views.

        A database fault is logged and counted; the table keeps what it had.
        """
        async with table.lock:
            try:
                changed = await self.refresh(table)
            except DB_ERRORS as exc:
                self.metrics.db_errors.inc()
                log.warning("catching table %s up failed: %s", table.id, exc)
                return
            if changed:
                await table.broadcast()

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
                    .where(GameTable.status == "playing")
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
                        GameTable.status == "open",
                        GameTable.bot_only.is_(False),
                        GameTable.created_at < open_cut,
                    ),
                    and_(
                        GameTable.status.in_(("open", "playing")),
                        GameTable.bot_only.is_(True),
                        func.coalesce(last, GameTable.created_at) < idle_cut,
                    ),
                )
            )
            ids = list((await db.scalars(stale)).all())
            if ids:
                await db.execute(
                    update(GameTable).where(GameTable.id.in_(ids)).values(status="closed")
                )
                self.lobby_version += 1
        for tid in ids:
            table = self.live.get(tid)
            if table is not None and not table.clients:
                self.live.pop(tid, None)
            elif table is not None:
                async with table.lock:
                    table.status = table.stored_status = "closed"
                    await table.broadcast()
            await self.announce_id(tid)
        return ids

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
            status = "over" if st.is_over else "playing"
            if status != table.stored_status:
                w.status = status
                w.record = table.record() if st.is_over else None
        await self.writer.write(w)
        if w.status is not None:
            table.stored_status = w.status
            self.lobby_version += 1
        if entries:
            table.last_at = entries[-1]["created_at"]  # committed: the clock counts from it

    async def save_seats(
        self,
        table: LiveTable,
        seats: list[Seat],
        settings: dict[str, Any] | None = None,
    ) -> None:
        """Commit new ``seats`` (and ``settings``) of ``table``, take them in memory, reseat its
        sockets and tell the other processes (the caller holds the lock and broadcasts here).

        With several processes the caller first refreshes the table (another process may have
        changed the seats since)."""
        async with self.sessions() as db, db.begin():
            row = await db.get(GameTable, table.id)
            if row is not None:
                row.seats = seats
                if settings is not None:
                    row.settings = settings
                await add_players(db, table.id, seats, row.created_at)
            table.bot_users = await bot_accounts(db, seats)
        table.seats = seats
        self.lobby_version += 1
        if settings is not None:
            table.settings = settings
            if table.state is not None:
                table.log().note_changes(settings, table.version)
        table.reseat_clients()
        await self.announce(table)

    async def bot_takes_seat(
        self,
        table: LiveTable,
        seat: int,
        level: str,
        event: SeatChange,
        resigned: bool = False,
    ) -> None:
        """A ``level`` bot plays ``seat`` in its person's place from now on (``event``:
        abandoned, resigned, handed; ``resigned``: the bot plays it out, placed last), written
        in the table's ``seat_changes`` and committed by :meth:`save_seats` (the caller holds
        the lock and broadcasts)."""
        old = table.seats[seat]
        name = str(old.name or f"Seat {seat + 1}")
        seats = list(table.seats)
        replaced = Someone(user_id=old.user_id, name=name)
        seats[seat] = BotSeat(bot=level, name=old.name, replaced=replaced, resigned=resigned)
        settings = copy.deepcopy(table.settings or {})
        settings.setdefault("seat_changes", []).append(
            {
                "event": event,
                "seat": seat,
                "hand": table.hands_dealt() - 1,
                "seq": table.version,
                "bot": level,
                "name": name,
                "at": now().isoformat(),
            }
        )
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
        async with table.lock:
            await self.refresh_shared(table)  # seats taken through another process
            if table.status != "open":
                raise BoneyardError("the table has already started")
            if any(s.kind == "open" for s in table.seats):
                raise BoneyardError("every seat must be taken before the start")
            table.state = fairness.new_state(table.game, table.options, seat_names(table.seats))
            table.status = "playing"
            try:
                await self._advance(table, [], [])
            except Exception:
                table.state, table.status = None, "open"
                raise
            await table.broadcast()
        await self.announce(table)
        self.schedule_bots(table)

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
        async with table.lock:
            st = table.state
            if st is None:
                raise IllegalActionError("the game has not started yet")
            if table.status == "closed":
                halted = table.settings.get("halted")
                raise IllegalActionError(
                    f"this game was stopped: {halted}"
                    if halted
                    else "this table was closed: nobody played at it for too long"
                )
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
            await table.broadcast()
        self.metrics.action_seconds.observe(time.perf_counter() - started)
        await self.announce(table)
        self.schedule_bots(table)

    async def _apply(self, table: LiveTable, seat: int, action: Any) -> None:
        """Apply on a copy, commit, then move the live state (the caller holds the lock)."""
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
            table.status = "over"
            self.game_over(table)
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
        if table is None:
            return
        async with table.lock:
            if table.status not in ("open", "playing"):
                return
            async with self.sessions() as db, db.begin():
                row = await db.get(GameTable, table_id)
                if row is not None:
                    row.status = TableStatus.CLOSED
                    row.settings = {**(row.settings or {}), "halted": why[:200]}
            table.status = table.stored_status = "closed"
            table.settings = {**table.settings, "halted": why[:200]}
            await table.broadcast()
        await self.announce(table)

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
        """The client seeds of ``hand`` as the database has them (the caller holds the lock)."""
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
        async with table.lock:
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
            seed = fairness.check_client_seed(seed)
            async with self.sessions() as db, db.begin():
                row = await _hand_seed(db, table.id, hand)
                if row is None:  # pragma: no cover - the pending seed is always stored
                    raise IllegalActionError("the next hand has no committed seed")
                merged = {str(k): v for k, v in (row.client_seeds or {}).items()}
                merged[str(seat)] = seed
                row.client_seeds = merged
            # (the database's, which may hold seeds another process took)
            table.client_seeds[hand] = {int(k): v for k, v in merged.items()}
            if self.seeded_for_start(table):  # deal now: every player's seed is in
                timer = self.starters.pop(table.id, None)
                if timer is not None:
                    timer.cancel()
                self.starters[table.id] = asyncio.create_task(self.start_when_due(table))
            elif self.seeded_for_redeal(table):  # a thrown-in hand: redeal now
                timer = self.redealers.pop(table.id, None)
                if timer is not None:
                    timer.cancel()
                self.redealers[table.id] = asyncio.create_task(self.deal_awaited(table))
            return {
                "type": "seed",
                "hand": hand,
                "seat": seat,
                "seed": seed,
                "commitment": nxt[2],
                "version": table.version,
            }

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
        while not self.closing:
            st = table.state
            if st is None or table.ended or st.current_seat not in table.bots:
                return  # (a person's turn: their move starts the bots again, pace from then)
            delay = self.pace(table)
            if delay:
                await asyncio.sleep(delay)
            if self.closing:
                return
            if self.paused(table):
                return  # nobody watches any more: paused
            async with table.lock:
                st = table.state
                if st is None or table.ended or st.current_seat not in table.bots:
                    return
                if table.status != "playing":
                    return  # halted (boneyard.server.events)
                seat = st.current_seat
                try:
                    bot: Any = table.bots[seat]
                    obs: Any = st.observation(seat)
                    if not blocks(bot):  # it says it answers in microseconds: no thread
                        action = bot.choose(obs)
                    else:  # a search of up to a second, in a thread, one table at a time
                        async with self.thinking:
                            action = await asyncio.to_thread(bot.choose, obs)
                    await self._apply(table, seat, action)
                except StaleError:
                    continue
                except UnavailableError:
                    log.warning("bot at table %s waits for the database", table.id)
                    return
                except Exception:
                    log.exception("bot move failed at table %s", table.id)
                    return
                await table.broadcast()
            await self.announce(table)

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
    table = LiveTable(row.id, row.game, dict(row.options), list(row.seats), row.status)
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
