"""The table actor (boneyard.server.tables.actor): one command at a time, then the events."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from boneyard.server.tables.actor import (
    Command,
    Moved,
    Seated,
    Shown,
    StatusChanged,
    TableActor,
    TableEvent,
)


@dataclass
class Table:
    """The facts the actor watches, as a live table has them."""

    version: int = 0
    status: str = "playing"
    seats: list[str] = field(default_factory=lambda: ["ann", "bob"])
    settings: dict[str, Any] = field(default_factory=dict)
    break_until: float | None = None
    continued: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Step(Command):
    """Move the table on by one version, taking a turn of the loop half-way (as a commit does)."""

    name: str


@dataclass(frozen=True)
class Fail(Command):
    """Change the seats, then fail."""


@dataclass(frozen=True)
class Finish(Command):
    """End the game."""


class Harness:
    def __init__(self) -> None:
        self.table = Table()
        self.trace: list[str] = []
        self.heard: list[tuple[str, list[TableEvent]]] = []
        self.actor = TableActor(self.table, self.handle, self.react)

    async def handle(self, command: Command) -> Any:
        match command:
            case Step(name=name):
                self.trace.append(f"begin {name}")
                await asyncio.sleep(0)  # another command may be asked meanwhile: it waits
                self.table.version += 1
                self.trace.append(f"end {name}")
                return self.table.version
            case Fail():
                self.table.seats = ["ann", "a bot"]
                raise ValueError("refused half-way")
            case Finish() if self.table.status != "over":
                self.table.status = "over"
                self.table.settings = {"ending": "resign"}
        return None

    async def react(self, command: Command, events: Sequence[TableEvent]) -> None:
        self.heard.append((type(command).__name__, list(events)))
        self.trace.append(f"react {type(command).__name__}")


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_commands_run_one_at_a_time_in_the_order_asked() -> None:
    async def go() -> tuple[Harness, list[Any]]:
        h = Harness()
        answers = await asyncio.gather(*(h.actor.ask(Step(n)) for n in "abc"))
        return h, answers

    h, answers = run(go())
    assert answers == [1, 2, 3]
    assert h.trace == [
        "begin a", "end a", "react Step",
        "begin b", "end b", "react Step",
        "begin c", "end c", "react Step",
    ]  # fmt: skip
    assert [events for _, events in h.heard] == [[Moved(1)], [Moved(2)], [Moved(3)]]


def test_the_events_say_what_changed_and_nothing_is_emitted_when_nothing_did() -> None:
    async def go() -> Harness:
        h = Harness()
        await h.actor.ask(Finish())
        await h.actor.ask(Finish())  # (over already: nothing changes)
        return h

    h = run(go())
    assert h.heard == [("Finish", [StatusChanged("playing", "over"), Shown()])]


def test_a_failed_command_reaches_its_caller_after_its_events_and_the_actor_goes_on() -> None:
    async def go() -> tuple[Harness, int]:
        h = Harness()
        with pytest.raises(ValueError, match="refused half-way"):
            await h.actor.ask(Fail())
        return h, await h.actor.ask(Step("next"))

    h, version = run(go())
    assert h.heard[0] == ("Fail", [Seated()])  # (what changed before the failure, changed)
    assert version == 1 and not h.actor.busy


def test_a_reaction_that_fails_does_not_stop_the_table() -> None:
    async def go() -> tuple[Harness, list[Any]]:
        h = Harness()

        async def broken(_c: Command, _e: Sequence[TableEvent]) -> None:
            raise RuntimeError("a socket blew up")

        h.actor.react = broken
        return h, [await h.actor.ask(Step("a")), await h.actor.ask(Step("b"))]

    _h, answers = run(go())
    assert answers == [1, 2]


def test_a_caller_that_goes_away_does_not_take_its_command_back() -> None:
    async def go() -> Harness:
        h = Harness()
        first = asyncio.create_task(h.actor.ask(Step("a")))
        second = asyncio.create_task(h.actor.ask(Step("b")))
        await asyncio.sleep(0)
        second.cancel()  # (its socket closed while it waited)
        await first
        while h.actor.busy:
            await asyncio.sleep(0)
        return h

    h = run(go())
    assert h.table.version == 2 and "end b" in h.trace
