"""Waiting on an event for at most a while, without losing a cancel.

Python 3.11's ``asyncio.wait_for(event.wait(), t)`` returns normally when the event is set in
the same turn of the loop as its task is cancelled: the cancel is lost, and a loop around it
outlives the ``stop`` that cancelled it (the tournaments scheduler did, and a shutdown waited
for it for ever: docs/server.md). ``asyncio.timeout`` keeps the cancel, so every sleep on an
event goes through :func:`set_within` (tests/server/site/test_structure.py keeps ``wait_for``
off events)."""

from __future__ import annotations

import asyncio
import contextlib


async def set_within(event: asyncio.Event, seconds: float) -> bool:
    """Wait until ``event`` is set or ``seconds`` have passed; whether it is set."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()
    return event.is_set()
