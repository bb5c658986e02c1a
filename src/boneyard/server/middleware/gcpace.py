"""Garbage-collector pacing for a server process: no long full collections under load.

CPython's cycle collector now and then runs a full (generation 2) collection, which walks every
tracked object of the process. With 1,000 live tables and their sockets that took 200-300 ms,
during which the event loop serves nobody: these pauses were the p99 latency of bench/load.py.

:class:`GcPacer` moves every object that has lived about a second into the collector's permanent
generation (:func:`gc.freeze`, a constant-time list splice), so the automatic collections only
walk recent objects. Frozen objects are still freed by reference counting as usual; only frozen
objects that die inside a reference cycle wait. Every ``full_every`` seconds the pacer unfreezes
everything and runs one full collection, which frees those: one pause of the old kind every ten
minutes instead of one every few seconds.
"""

from __future__ import annotations

import asyncio
import gc
import time

FREEZE_EVERY = 1.0
FULL_EVERY = 600.0


class GcPacer:
    """Freeze the survivors every ``freeze_every`` seconds; a full collection every
    ``full_every`` seconds.

    >>> p = GcPacer()
    >>> p.last_full = 0.0
    >>> p.step(now=1.0); gc.get_freeze_count() > 0
    True
    >>> p.step(now=FULL_EVERY + 1); p.full_collections
    1
    >>> gc.unfreeze()
    """

    def __init__(self, freeze_every: float = FREEZE_EVERY, full_every: float = FULL_EVERY) -> None:
        self.freeze_every = freeze_every
        self.full_every = full_every
        self.last_full = time.monotonic()
        self.full_collections = 0
        self.task: asyncio.Task[None] | None = None

    def step(self, now: float | None = None) -> None:
        """One beat: a full collection if one is due, then freeze what is alive."""
        now = time.monotonic() if now is None else now
        if now - self.last_full >= self.full_every:
            gc.unfreeze()
            gc.collect()
            self.last_full = now
            self.full_collections += 1
        gc.freeze()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.freeze_every)
            self.step()

    def start(self) -> None:
        """Run in the background of the current event loop."""
        self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop, and hand every frozen object back to the collector."""
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None
        gc.unfreeze()
