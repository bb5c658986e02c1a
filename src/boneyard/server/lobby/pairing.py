"""Quick pairing, as lichess's pools: choose a game, the number of players and a clock, and be
seated with the people waiting for the same.

A pool is ``game/players/clock`` (:class:`Pool`; the clocks are :data:`CLOCKS`, seconds a move:
strangers play on a clock, so that one who leaves is replaced by a bot). A person waits in one
pool at most (``pairing_waits``' key is the person). Joining runs in one transaction that locks
the pool's row first (boneyard.store.pairing): it adds the wait, and when the pool then holds as
many fresh waits as the game has players, it stores their table (every seat taken, seats drawn
by chance, the pool's clock) and marks those waits paired, all in that transaction. Two
processes joining one pool therefore run one after the other: nobody is seated twice, and two
people are never left waiting apart in one pool.

The waiting page asks :meth:`Pairing.status` with ``hold``: the answer waits up to :data:`HOLD`
seconds for news (a pairing in this process or, through the broadcaster, another), so the page
hears of its table at once and a wait whose page is gone (no question for :data:`STALE`
seconds) no longer counts or pairs. After ``pairing_bot_after`` seconds the page is offered a
bot; the person may take one at any time (:meth:`Pairing.bot_instead`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.games.registry import available_games, get_spec
from boneyard.server.accounts.service import Me
from boneyard.server.errors import NotAllowed, OverLimit, Refused
from boneyard.server.lobby.schemas import SeatIn, TableIn
from boneyard.server.lobby.service import Lobby, store_table
from boneyard.server.tables.clock import ClockIn, clock_settings
from boneyard.server.tables.live import now
from boneyard.server.tables.manager import SITE
from boneyard.server.waiting import set_within
from boneyard.store import pairing as repo
from boneyard.store import unit
from boneyard.store.models import PairingWait
from boneyard.store.seats import PersonSeat, Seat

log = logging.getLogger("boneyard.server.lobby.pairing")
Gone = Callable[[], Awaitable[bool]]
"""Whether the page that asked has gone away (its connection closed)."""

CLOCKS = (30, 60, 120)
"""The clocks of the pools: seconds a move (then the usual grace)."""
HOLD = 20.0
"""Seconds a waiting page's question is held open for news."""
SLICE = 5.0
"""Seconds between two looks at the database while a question is held (news from another
process normally wakes it sooner)."""
STALE = 15.0
"""Seconds after its page's last question that a wait stops counting."""
PAIRED_KEPT = 600.0
"""Seconds a paired wait is kept for its page to read its table."""
JUST_PAIRED = 60.0
"""A person paired less than this ago who asks for a game again is sent to that table."""
POOLS_FRESH = 1.0
"""Seconds the pools' counts are served again before they are read anew."""


@dataclass(frozen=True, slots=True)
class Pool:
    """A quick-pairing pool: a game, its number of players and a clock (seconds a move)."""

    game: str
    players: int
    clock: int

    @property
    def key(self) -> str:
        """The pool's name in the database.

        >>> Pool("highfive", 2, 60).key
        'highfive/2/60'
        """
        return f"{self.game}/{self.players}/{self.clock}"

    @classmethod
    def parse(cls, key: str) -> Pool | None:
        """The pool named ``key``, or ``None``.

        >>> Pool.parse("highrise/3/30"), Pool.parse("nonsense")
        (Pool(game='highrise', players=3, clock=30), None)
        """
        game, _, rest = key.partition("/")
        players, _, clock = rest.partition("/")
        if not (players.isdigit() and clock.isdigit()):
            return None
        return cls(game, int(players), int(clock))

    def to_json(self) -> JSON:
        """The pool as the home page shows it."""
        return {
            "key": self.key,
            "game": self.game,
            "title": get_spec(self.game).title,
            "players": self.players,
            "clock": self.clock,
        }


def check_pool(game: str, players: int, clock: int) -> Pool:
    """The pool, or :class:`Refused` with what is wrong in a player's words.

    >>> check_pool("highfive", 2, 60).key
    'highfive/2/60'
    >>> check_pool("highfive", 9, 60)
    Traceback (most recent call last):
    boneyard.server.errors.Refused: High Five is for 2 to 4 players
    """
    if game not in available_games():
        raise Refused(f"there is no game {game!r} (games: {', '.join(available_games())})")
    spec = get_spec(game)
    if not spec.min_players <= players <= spec.max_players:
        raise Refused(f"{spec.title} is for {spec.min_players} to {spec.max_players} players")
    if clock not in CLOCKS:
        words = ", ".join(f"{c} s" for c in CLOCKS)
        raise Refused(f"quick pairing plays with {words} a move: choose one of these")
    return Pool(game, players, clock)


class Pairing:
    """The quick-pairing pools of one site (see the module docstring)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.tables = lobby.tables
        self.settings = lobby.settings
        self.limits = lobby.accounts.limits
        # One pairing transaction at a time in this process (SQLite has one writer); between
        # processes the pool's row lock decides.
        self.lock = asyncio.Lock()
        self.held: dict[int, set[asyncio.Event]] = {}  # person -> their held questions here
        self.hold = HOLD  # (the tests shorten these)
        self.slice = SLICE
        self._counted: JSON | None = None
        self._counted_at = -1.0
        self.tables.site_handlers["paired"] = self._paired

    # -- joining, asking, leaving ----------------------------------------------------------------

    async def join(self, user: Me, pool: Pool, address: str) -> JSON:
        """Wait in ``pool`` (a wait elsewhere ends first); seated at once when the pool fills."""
        if user.is_bot:
            raise NotAllowed("bot accounts are challenged to a table, not paired")
        await self.limits.check("pairing", str(user.id), "too many quick pairings")
        async with self.tables.sessions() as db:
            mine = await repo.wait_of(db, user.id)
        if (mine is not None and mine.pool != pool.key) or _paired_long_ago(mine):
            left = await self._leave(user)
            if left is not None:  # paired a moment ago: that table is theirs
                return {"waiting": None, "table": left}
        paired = await self._enter(user, pool, address)
        self._counted = None
        if paired is not None:
            await self._opened(*paired)
        return await self._look(user)

    async def _enter(self, user: Me, pool: Pool, address: str) -> tuple[str, list[int]] | None:
        """Add or renew ``user``'s wait in ``pool``, and seat the pool's first players when it
        is full: the table's id and its people, or ``None``."""
        at = now()
        fresh = at - timedelta(seconds=STALE)
        async with self.lock, self.tables.sessions() as db, db.begin():
            await repo.lock_pool(db, pool.key)
            await repo.drop_stale(db, pool.key, fresh, at - timedelta(seconds=PAIRED_KEPT))
            mine = await repo.wait_of(db, user.id, lock=True)
            if mine is not None and mine.table_id is not None:
                return None  # (paired just now: the answer says where)
            if mine is not None and mine.pool != pool.key:
                raise Refused("you are waiting for another game: cancel that wait first")
            if mine is None:
                others = await repo.from_address(db, address, fresh, user.id)
                if others >= self.settings.pairing_per_address:
                    self.tables.metrics.refused.labels("pairing_address").inc()
                    raise OverLimit("too many people wait for a game from your address just now")
                unit.add(db, PairingWait(user_id=user.id, pool=pool.key, address=address[:64],
                                   created_at=at, seen_at=at))  # fmt: skip
                await unit.flush(db)
            else:
                mine.seen_at = at
            group = list(await repo.waiting(db, pool.key, fresh))[: pool.players]
            if len(group) < pool.players:
                return None
            people = [w.user_id for w in group]
            tid = await self._store(db, pool, people)
            await repo.mark_paired(db, pool.key, people, tid, at)
        return tid, people

    async def _store(self, db: Any, pool: Pool, people: list[int]) -> str:
        """Store the table of ``people`` in ``pool`` (in the pairing's transaction): its seats
        drawn by chance, the pool's clock, dealt once its players' seeds are in."""
        names = await repo.names_of(db, people)
        order = list(people)
        random.SystemRandom().shuffle(order)
        seats: list[Seat] = [PersonSeat(user_id=u, name=names[u]) for u in order]
        try:
            clock = clock_settings(ClockIn(per_move=pool.clock), pool.game)
        except BoneyardError as exc:
            raise Refused(str(exc)) from None
        settings = self.lobby.start_settings(seats, {"clock": clock, "paired": pool.key}, True)
        tid = secrets.token_hex(8)
        await store_table(db, tid, pool.game, {}, seats, settings, False, None)
        return tid

    async def _opened(self, tid: str, people: list[int]) -> None:
        """After the pairing's commit: the table is armed to start, and every process wakes its
        questions held for these people."""
        try:
            await self.lobby.opened(tid)
        except Exception:  # (stored with its start time: a restart or a seed starts it)
            log.exception("starting paired table %s failed", tid)
        self._counted = None
        await self.tables.broadcaster.publish(SITE, {"type": "paired", "users": people})

    async def status(self, user: Me, hold: bool = False, gone: Gone | None = None) -> JSON:
        """Where ``user`` stands: waiting (since when, how many with them, whether a bot is
        offered) or paired (the table). With ``hold``, the answer waits up to :data:`HOLD`
        seconds for the pairing or the bot offer; ``gone`` says whether the page that asked
        went away meanwhile (its wait is then no longer kept fresh)."""
        await self.limits.check("pairing_poll", str(user.id), "too many questions")
        if not hold:
            return await self._look(user)
        woken = asyncio.Event()
        self.held.setdefault(user.id, set()).add(woken)
        end = time.monotonic() + self.hold
        try:
            offered = None
            while True:
                found = await self._look(user)
                waiting = found["waiting"]
                left = end - time.monotonic()
                if waiting is None or left <= 0 or offered not in (None, waiting["bot_offered"]):
                    return found  # (paired, gone, time's up, or the bot is offered now)
                offered = waiting["bot_offered"]
                offer_in = self.settings.pairing_bot_after - waiting["waited"]
                due = offer_in if offer_in > 0 else left  # (offered already: nothing due)
                if await set_within(woken, max(min(left, self.slice, due), 0.05)):
                    return await self._look(user)
                if gone is not None and await gone():
                    await self._gone(user)
                    return found  # (nobody hears it)
        finally:
            self.held[user.id].discard(woken)
            if not self.held[user.id]:
                del self.held[user.id]

    async def _gone(self, user: Me) -> None:
        """The page holding ``user``'s question closed: their wait stops counting until a page
        of theirs asks again (a reload asks at once; a closed tab never does)."""
        async with self.tables.sessions() as db, db.begin():
            await repo.touch(db, user.id, now() - timedelta(seconds=STALE), waiting_only=True)
        self._counted = None

    async def _look(self, user: Me) -> JSON:
        """``user``'s wait as the page shows it (their page is still there: noted)."""
        at = now()
        async with self.tables.sessions() as db:
            mine = await repo.wait_of(db, user.id)
            if mine is None:
                return {"waiting": None, "table": None}
            if mine.table_id is not None:
                return {"waiting": None, "table": mine.table_id}
            fresh = at - timedelta(seconds=STALE)
            with_them = (await repo.counts(db, fresh, mine.pool)).get(mine.pool, 0)
            if (at - _aware(mine.seen_at)).total_seconds() > 1:
                await repo.touch(db, user.id, at)
                await db.commit()
        pool = Pool.parse(mine.pool)
        assert pool is not None
        waited = (at - _aware(mine.created_at)).total_seconds()
        return {
            "waiting": {
                "pool": pool.to_json(),
                "since": _aware(mine.created_at).isoformat(),
                "waited": round(waited, 1),
                "here": max(with_them, 1),
                "bot_offered": waited >= self.settings.pairing_bot_after,
                "bot_after": self.settings.pairing_bot_after,
            },
            "table": None,
        }

    async def leave(self, user: Me) -> JSON:
        """Stop waiting; if the pool filled meanwhile, the table (the person is seated)."""
        await self.limits.check("pairing", str(user.id), "too many quick pairings")
        paired = await self._leave(user)
        self._counted = None
        return {"waiting": None, "table": paired}

    async def _leave(self, user: Me) -> str | None:
        """End ``user``'s wait under its pool's lock; the table they were paired at a moment
        ago, if so (that wait is kept: their page reads it)."""
        async with self.tables.sessions() as db:
            mine = await repo.wait_of(db, user.id)
        if mine is None:
            return None
        at = now()
        async with self.lock, self.tables.sessions() as db, db.begin():
            await repo.lock_pool(db, mine.pool)
            row = await repo.wait_of(db, user.id, lock=True)
            if row is None:
                return None
            if row.pool != mine.pool:
                raise Refused("your wait just changed: look again")
            if row.table_id is not None and not _paired_long_ago(row, at):
                return row.table_id
            await unit.delete(db, row)
        return None

    async def bot_instead(self, user: Me) -> JSON:
        """Stop waiting and play the pool's game against bots now (the bot that takes an absent
        player's seat), unless the pool filled meanwhile: then that table."""
        async with self.tables.sessions() as db:
            mine = await repo.wait_of(db, user.id)
        pool = Pool.parse(mine.pool) if mine is not None else None
        if mine is None or pool is None:
            raise Refused("you are not waiting for a game")
        left = await self.leave(user)
        if left["table"] is not None:
            return left
        level = (clock_settings(ClockIn(per_move=pool.clock), pool.game) or {})["bot"]
        bots = [SeatIn(kind="bot", bot=level)] * (pool.players - 1)
        body = TableIn(game=pool.game, seats=[SeatIn(kind="me"), *bots], clock=None)
        table = await self.lobby.create(body, user)
        return {"waiting": None, "table": table.id}

    # -- the pools' counts -----------------------------------------------------------------------

    async def pools(self) -> JSON:
        """The pools someone waits in, with how many wait; the clocks; when a bot is offered.
        Home pages ask every few seconds: kept :data:`POOLS_FRESH` seconds."""
        if self._counted is not None and time.monotonic() - self._counted_at < POOLS_FRESH:
            return dict(self._counted)
        async with self.tables.sessions() as db:
            counts = await repo.counts(db, now() - timedelta(seconds=STALE))
        pools = []
        for key, n in sorted(counts.items()):
            pool = Pool.parse(key)
            if pool is not None and pool.game in available_games():
                pools.append({**pool.to_json(), "waiting": n})
        self._counted = {
            "pools": pools,
            "clocks": list(CLOCKS),
            "bot_after": self.settings.pairing_bot_after,
        }
        self._counted_at = time.monotonic()
        return dict(self._counted)

    async def _paired(self, message: dict[str, Any]) -> None:
        """A pool filled (here or in another process): wake the questions held for its people."""
        self._counted = None
        for uid in message.get("users") or []:
            for woken in self.held.get(uid, set()) if isinstance(uid, int) else set():
                woken.set()


def _aware(t: datetime) -> datetime:
    """``t`` with its zone (SQLite drops it: stored times are UTC)."""
    return t if t.tzinfo is not None else t.replace(tzinfo=now().tzinfo)


def _paired_long_ago(wait: PairingWait | None, at: datetime | None = None) -> bool:
    """Whether ``wait`` was paired more than :data:`JUST_PAIRED` seconds ago (its person, asking
    again, wants a new game)."""
    if wait is None or wait.table_id is None:
        return False
    return ((at or now()) - _aware(wait.seen_at)).total_seconds() > JUST_PAIRED
