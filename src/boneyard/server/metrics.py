"""Prometheus metrics of one server process, served at ``GET /metrics`` (docs/operations.md).

Each app has its own registry (tests build many apps in one process).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
LAG_PERIOD = 0.1
"""Seconds between two measurements of the event loop's lag."""
REDIS_STATES = {"memory": -1.0, "down": 0.0, "up": 1.0}


class Metrics:
    """The counters, histograms and gauges of one process.

    >>> m = Metrics()
    >>> m.actions.inc()
    >>> b"boneyard_actions_committed_total 1.0" in m.render()
    True
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._play(self.registry)
        self._health(self.registry)

    def _play(self, r: CollectorRegistry) -> None:
        """The tables, their sockets and how long a move and a commit take."""
        self.live_tables = Gauge("boneyard_live_tables", "Tables held in memory", registry=r)
        self.sockets = Gauge("boneyard_connected_sockets", "Open table sockets", registry=r)
        self.actions = Counter(
            "boneyard_actions_committed", "Actions and deals committed to the log", registry=r
        )
        self.action_seconds = Histogram(
            "boneyard_action_seconds",
            "A move from its arrival to the views sent (lock, rules, commit, broadcast)",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.commit_seconds = Histogram(
            "boneyard_commit_seconds",
            "One group commit of the log writer (every table's writes queued meanwhile)",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.commit_writes = Histogram(
            "boneyard_commit_writes",
            "Table writes in one group commit",
            buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500),
            registry=r,
        )
        self.broadcast_lag = Histogram(
            "boneyard_broadcast_lag_seconds",
            "From another process's publish to its arrival here",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )

    def _health(self, r: CollectorRegistry) -> None:
        """What went wrong or was refused, and what the loop and Redis are doing."""
        self.db_errors = Counter(
            "boneyard_db_errors", "Database operations that failed (not counting races)", registry=r
        )
        self.loop_lag = Histogram(
            "boneyard_loop_lag_seconds",
            "How late the event loop ran a timer (every socket's messages wait as long)",
            buckets=(0.001, *LATENCY_BUCKETS),
            registry=r,
        )
        self.broken_tables = Gauge(
            "boneyard_broken_tables",
            "Tables set aside because their log no longer replays (boneyard tables broken)",
            registry=r,
        )
        self.refused = Counter(
            "boneyard_refused",
            "Requests refused by a rate limit or a cap, by its name",
            ["limit"],
            registry=r,
        )
        self.login_failed = Counter(
            "boneyard_login_failed",
            "Failed sign-ins (a wrong password or no such account)",
            registry=r,
        )
        self.login_slowed = Counter(
            "boneyard_login_slowed",
            "Sign-in attempts made to wait: from an address failing on an account that fails "
            "from many",
            registry=r,
        )
        self.jobs = Counter(
            "boneyard_jobs",
            "Heavy jobs (record replays) by outcome: ok, error, busy, timeout",
            ["outcome"],
            registry=r,
        )
        self.redis_up = Gauge(
            "boneyard_redis_up",
            "Broadcast status: 1 up, 0 down, -1 in memory (no Redis)",
            registry=r,
        )

    def watch_connections(self, gate: Any) -> None:
        """Report the connection gate's (middleware.connections): its connections and client
        addresses at each scrape, its refusals as they happen (``boneyard_refused_total``)."""
        Gauge(
            "boneyard_connections", "Connections open (HTTP and WebSocket)", registry=self.registry
        ).set_function(lambda: float(len(gate)))
        Gauge(
            "boneyard_connection_addresses",
            "Client addresses holding connections",
            registry=self.registry,
        ).set_function(lambda: float(len(gate.held)))
        gate.refused = lambda reason: self.refused.labels(reason).inc()

    def bind(
        self,
        live_tables: Callable[[], float],
        sockets: Callable[[], float],
        broadcast_status: Callable[[], str],
    ) -> None:
        """Read the gauges from the running process at each scrape."""
        self.live_tables.set_function(live_tables)
        self.sockets.set_function(sockets)
        self.redis_up.set_function(lambda: REDIS_STATES.get(broadcast_status(), 0.0))

    async def watch_loop_lag(self, period: float = LAG_PERIOD) -> None:
        """Observe, every ``period`` seconds, how late the running loop wakes a timer (until
        cancelled): a stall of the loop (a blocking call, a long collection) shows here."""
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + period
            await asyncio.sleep(period)
            self.loop_lag.observe(max(0.0, loop.time() - due))

    def render(self) -> bytes:
        """The text exposition format."""
        return generate_latest(self.registry)
