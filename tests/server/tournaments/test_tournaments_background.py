"""The events' periodic background task (scheduler and mailer): it sleeps as long as a step
says unless woken, a failing step is logged and the task goes on, and stop cancels it."""

from __future__ import annotations

import asyncio
import logging

import pytest

from boneyard.server.tournaments.background import Periodic


def test_a_step_that_fails_is_logged_and_the_task_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> list[int]:
        runs: list[int] = []
        third = asyncio.Event()

        async def step() -> float:
            runs.append(len(runs))
            if len(runs) == 1:
                raise OSError("the database is away")
            if len(runs) == 3:
                third.set()
            return 3600.0  # (only a wake runs the next step)

        task = Periodic("the test work", step, retry=0.0, log=logging.getLogger("t"))
        task.start()
        task.start()  # (once)
        while len(runs) < 2:  # the failed step is retried after `retry`
            await asyncio.sleep(0.01)
        task.wake()
        await asyncio.wait_for(third.wait(), 10)
        running = task.task
        await task.stop()
        assert running is not None and running.cancelled() and task.task is None
        await task.stop()  # (stopping twice is harmless)
        return runs

    with caplog.at_level(logging.ERROR, logger="t"):
        assert asyncio.run(main()) == [0, 1, 2]
    assert "the test work failed" in caplog.text
    assert "the database is away" in caplog.text


async def asleep_after_a_step() -> tuple[Periodic, list[int]]:
    """A started task whose step asks for an hour's sleep, once its first step has run; the
    list grows by one at each step."""
    runs: list[int] = []

    async def step() -> float:
        runs.append(len(runs))
        return 3600.0

    task = Periodic("idle work", step, retry=1.0, log=logging.getLogger("t"))
    task.start()
    while not runs:
        await asyncio.sleep(0.01)
    return task, runs


def test_the_sleep_is_what_the_step_said_unless_woken() -> None:
    async def main() -> int:
        task, runs = await asleep_after_a_step()
        for _ in range(20):  # an hour's sleep: nothing runs meanwhile
            await asyncio.sleep(0.01)
        seen = len(runs)
        await task.stop()
        return seen

    assert asyncio.run(main()) == 1


def test_a_wake_at_the_moment_of_the_stop_does_not_keep_the_task_running() -> None:
    """The event set and the task cancelled in one turn of the loop: the task ends. (With
    Python 3.11's ``asyncio.wait_for`` the sleep returned as woken, the cancel was lost, and
    ``stop`` waited for ever: a CI run's shutdown hung 15 minutes so.)"""

    async def main() -> None:
        task, _runs = await asleep_after_a_step()
        await asyncio.sleep(0.01)  # (asleep in the wait now)
        running = task.task
        assert running is not None
        task.wake()
        stopping = asyncio.ensure_future(task.stop())  # (its cancel in the same turn)
        done, _ = await asyncio.wait({stopping}, timeout=5)  # (a timeout cancels nothing)
        running.cancel()  # (so that a failure ends the loop too)
        await stopping
        assert done, "the task went on after its stop"
        assert running.cancelled()

    asyncio.run(main())
