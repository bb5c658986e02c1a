"""The app's shutdown: its steps in order, each within a bound, and whatever overruns named in
the log with where every pending task waits.

A step that waits for ever (a task whose cancel was lost, as Python 3.11's ``wait_for`` lost
the tournaments scheduler's: :mod:`boneyard.server.waiting`; or a database call that never
returns, as aiosqlite 0.22's did: docs/server.md) would keep the process from exiting until its
supervisor kills it, and say nothing of why. Here each step has :data:`STEP_SECONDS`; one not
done by then is left behind, the stack of every task still pending is logged (what each one
awaits), and the next step runs, so that the database is still closed last. A step that fails
is logged and the others still run."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence

log = logging.getLogger("boneyard.server")

STEP_SECONDS = 30.0
"""How long one step of the shutdown may take (the bots' last moves take at most 5 s, the
queued writes 10 s)."""

Step = tuple[str, Callable[[], Awaitable[object]]]
"""A step's name in the log, and the call that does it."""


async def run_steps(steps: Sequence[Step], seconds: float | None = None) -> list[str]:
    """Run ``steps`` one after the other; the names of those that overran ``seconds``
    (:data:`STEP_SECONDS` when not given: read at the call, so a test may shorten it)."""
    bound = STEP_SECONDS if seconds is None else seconds
    overran = []
    for name, step in steps:
        task = asyncio.ensure_future(step())
        done, _ = await asyncio.wait({task}, timeout=bound)
        if not done:
            overran.append(name)
            log.error(
                "shutdown: %s is not done after %g s; going on without it. Pending tasks:\n%s",
                name,
                bound,
                pending_stacks(),
            )
        elif not task.cancelled() and task.exception() is not None:
            log.error("shutdown: %s failed", name, exc_info=task.exception())
    return overran


def pending_stacks() -> str:
    """Each pending task of the running loop (but the caller's) with the stack it waits in."""
    out = io.StringIO()
    me = asyncio.current_task()
    for task in asyncio.all_tasks():
        if task is not me:
            task.print_stack(limit=12, file=out)
    return out.getvalue()
