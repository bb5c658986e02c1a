"""Rate limits that hold across server processes (the ``limits`` library).

Every limit has a name and a rate in the ``limits`` notation (``"10/minute"``, several joined by
``;``). With Redis configured (``--broadcast redis://…``) the counters live in Redis, so N
processes behind nginx allow what one would; otherwise in this process's memory. The defaults
(:data:`DEFAULT_LIMITS`) are documented in docs/operations.md; ``create_app(limits={...})``
overrides them by name.

A limit is hit with a key (an address, an account, a person); :meth:`Limits.hit` answers whether
it is within every rate of the limit, :meth:`Limits.check` raises :class:`TooMany` with the
seconds to wait. The sign-in limit per account counts failures only (:meth:`Limits.allowed`
before, :meth:`Limits.hit` after a wrong password).

When Redis cannot be reached, each process counts in its own memory until Redis answers again
(tried again every :data:`RETRY` seconds): the site keeps working, limits stay in force.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TypeVar

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from limits.util import WindowStats

from boneyard.core.errors import BoneyardError

log = logging.getLogger("boneyard.server.ratelimit")
T = TypeVar("T")
RETRY = 5.0
"""Seconds between two attempts to reach Redis after it failed."""

DEFAULT_LIMITS: dict[str, str] = {
    "register": "5/hour",  # new accounts per address
    "venue_signups": "20/minute;300/day",  # new accounts per event, with its join code
    "claims": "10/minute;30/day",  # walk-in claim codes tried per account
    "guest": "20/hour",  # new guests per address
    "login": "10/minute",  # sign-in attempts per address
    "login_account": "5/15 minutes;20/day",  # failed sign-ins per account
    "tables": "10/minute;60/hour",  # new tables per person
    "events": "3/hour;10/day",  # new events per account
    "chat": "5/10 seconds",  # chat lines per person
    "ws": "30/5 seconds",  # socket messages per socket
    "ws_person": "60/5 seconds",  # socket messages per person (or address), all sockets
    "uploads": "10/minute",  # record uploads (replay, analysis) per address
    "api_tokens": "10/hour",  # new API tokens per bot account
    "bot_stream": "20/minute",  # event streams opened per bot account
}
"""Every limit by name; docs/operations.md explains each."""


class TooMany(BoneyardError):
    """Limit ``name`` was reached; ``retry_after`` is the whole seconds to wait."""

    def __init__(self, message: str, retry_after: int, name: str = "") -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.name = name


class LocalStorage(MemoryStorage):
    """``limits``' in-memory storage, without the sweep it starts after every hit (a pass over
    every key, each in a thread of its own: with thousands of sockets or addresses, far more work
    than the hit itself). Expired entries are dropped by :meth:`trim` instead, which
    :class:`Limits` runs every :data:`TRIM` seconds."""

    async def _MemoryStorage__schedule_expiry(self) -> None:  # (the base class's private hook)
        return None

    def trim(self) -> None:
        """Drop every expired entry, and the keys left empty."""
        now = time.time()
        for key in list(self.events):
            kept = [e for e in self.events[key] if e.expiry > now]
            if kept:
                self.events[key] = kept
            else:
                del self.events[key]
                self.locks.pop(key, None)


TRIM = 30.0
"""Seconds between two trims of the in-memory counters."""


def storage_for(url: str | None) -> Storage:
    """Redis storage for a ``redis://`` URL (the broadcast one), else memory.

    >>> type(storage_for(None)).__name__, type(storage_for("memory://")).__name__
    ('LocalStorage', 'LocalStorage')
    """
    if url and url.startswith(("redis://", "rediss://")):
        return RedisStorage(
            f"async+{url}",
            implementation="redispy",
            key_prefix="BONEYARD",
            wrap_exceptions=True,
            socket_timeout=0.5,
            socket_connect_timeout=0.5,
        )
    return LocalStorage()


class Limits:
    """The site's rate limits on one storage (see the module docstring)."""

    def __init__(self, storage: Storage, overrides: Mapping[str, str] | None = None) -> None:
        rates = {**DEFAULT_LIMITS, **(overrides or {})}
        unknown = set(overrides or {}) - set(DEFAULT_LIMITS)
        if unknown:
            raise BoneyardError(f"unknown rate limit {sorted(unknown)[0]!r}")
        self.items: dict[str, list[RateLimitItem]] = {k: parse_many(v) for k, v in rates.items()}
        self.limiter = MovingWindowRateLimiter(storage)
        self.fallback = LocalStorage()
        self.local = MovingWindowRateLimiter(self.fallback)  # while Redis is unreachable
        self.down_until = 0.0
        self.memories = [s for s in (storage, self.fallback) if isinstance(s, LocalStorage)]
        self.trimmed = time.monotonic()

    async def _use(self, op: Callable[[MovingWindowRateLimiter], Awaitable[T]]) -> T:
        """``op`` on the shared counters, or on this process's own while they are unreachable."""
        t = time.monotonic()
        if t - self.trimmed > TRIM:
            self.trimmed = t
            for memory in self.memories:
                memory.trim()
        if t >= self.down_until:
            try:
                return await op(self.limiter)
            except StorageError as exc:
                self.down_until = time.monotonic() + RETRY
                log.warning("rate limits: Redis unreachable (%s), counting here for now", exc)
        return await op(self.local)

    async def hit(self, name: str, key: str) -> bool:
        """Count one event of ``name`` for ``key``; false when over a rate (each rate is counted
        atomically, in Redis too; a refused event is not counted by the rate that refused it)."""
        for item in self.items[name]:

            async def hit(lim: MovingWindowRateLimiter, item: RateLimitItem = item) -> bool:
                return await lim.hit(item, name, key)

            if not await self._use(hit):
                return False
        return True

    async def allowed(self, name: str, key: str) -> bool:
        """Whether one more event of ``name`` for ``key`` is within every rate (nothing counted)."""
        for item in self.items[name]:

            async def test(lim: MovingWindowRateLimiter, item: RateLimitItem = item) -> bool:
                return await lim.test(item, name, key)

            if not await self._use(test):
                return False
        return True

    async def wait(self, name: str, key: str) -> int:
        """Whole seconds until ``key`` may act again under ``name`` (at least 1)."""
        longest = 1.0
        for item in self.items[name]:

            async def stats(
                lim: MovingWindowRateLimiter, item: RateLimitItem = item
            ) -> WindowStats:
                return await lim.get_window_stats(item, name, key)

            window = await self._use(stats)
            if window.remaining <= 0:
                longest = max(longest, window.reset_time - time.time())
        return max(1, math.ceil(longest))

    async def check(self, name: str, key: str, message: str) -> None:
        """:meth:`hit`, raising :class:`TooMany` (``message``, then how long to wait) when over."""
        if not await self.hit(name, key):
            await self.refuse(name, key, message)

    async def refuse(self, name: str, key: str, message: str) -> None:
        """Raise :class:`TooMany` for ``name`` and ``key`` with the time to wait."""
        seconds = await self.wait(name, key)
        raise TooMany(f"{message}: try again in {_duration(seconds)}", seconds, name)


def _duration(seconds: int) -> str:
    """A wait in words.

    >>> _duration(1), _duration(45), _duration(61), _duration(7200)
    ('1 second', '45 seconds', '2 minutes', '2 hours')
    """
    if seconds < 60:
        return f"{seconds} second" + ("s" if seconds != 1 else "")
    if seconds < 3600:
        minutes = math.ceil(seconds / 60)
        return f"{minutes} minute" + ("s" if minutes != 1 else "")
    hours = math.ceil(seconds / 3600)
    return f"{hours} hour" + ("s" if hours != 1 else "")
