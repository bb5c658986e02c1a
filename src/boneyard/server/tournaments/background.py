"""A periodic background task, for the tournaments' scheduler and mailer: it runs a step again and
again with the app (``start`` in its lifespan, ``stop`` at shutdown, which cancels it), sleeping
between steps as long as the step says, or until woken. A step that fails is logged and tried
again later: the database or the mail server being away never ends the task."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from boneyard.server.waiting import set_within

Step = Callable[[], Awaitable[float]]
"""One pass of the work; returns the seconds until the next one is due."""

SHORTEST = 0.05
"""The shortest sleep between two steps (a step due at once does not spin)."""


class Periodic:
    """Runs ``step`` in a loop; ``woken`` (set by anyone) cuts the sleep short. After a failed
    step the task sleeps ``retry`` seconds; ``what`` names the work in the log."""

    def __init__(
        self,
        what: str,
        step: Step,
        *,
        retry: float,
        log: logging.Logger,
        woken: asyncio.Event | None = None,
    ) -> None:
        self.what = what
        self.step = step
        self.retry = retry
        self.log = log
        self.woken = woken if woken is not None else asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Run the next step now."""
        self.woken.set()

    def start(self) -> None:
        """Start the task (once)."""
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name=self.what)

    async def stop(self) -> None:
        """Cancel the task and wait for it to end."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    async def _run(self) -> None:
        while True:
            self.woken.clear()
            try:
                delay = await self.step()
            except Exception:
                self.log.exception("%s failed", self.what)
                delay = self.retry
            await set_within(self.woken, max(SHORTEST, delay))
