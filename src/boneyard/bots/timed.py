"""In-process bots under the referee's clock: a plugin gets the time a program gets.

A program in another process is stopped when it does not answer in time
(:mod:`boneyard.bots.process`); a plugin runs in this process, where nothing can stop it. So
:class:`TimedBot` asks it on a thread of its own and waits at most the time the rules give
(:class:`~boneyard.bots.referee.Rules`: ``move_seconds``, and ``start_seconds`` more for its
first answer, as a program). No answer by then is a ``timeout``
(:class:`~boneyard.bots.referee.BotFailure`), refereed as a program's: the seat forfeits or its
fallback plays on. The late plugin's thread is left to finish on its own (a daemon: it never
keeps the run from exiting) and the bot is not asked again.

>>> import random, time
>>> from boneyard.bots import GreedyBot
>>> from boneyard.bots.referee import Rules
>>> from boneyard.games.registry import get_spec
>>> state = get_spec("highfive").new_game(2, {})
>>> state.deal_random(random.Random(1))
>>> class Sleepy(GreedyBot):
...     def choose(self, observation):
...         time.sleep(0.3)
...         return super().choose(observation)
>>> bot = TimedBot(Sleepy(random.Random(1)), "sleepy", Rules(move_seconds=0.05, start_seconds=0))
>>> bot.choose(state.observation(state.current_seat))
Traceback (most recent call last):
...
boneyard.bots.referee.BotFailure: no answer within 0.05 s
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from boneyard.bots.referee import AnyBot, BotFailure, Rules, Seating
from boneyard.core.protocol import Action, Observation
from boneyard.core.records import JSON

Job = tuple[Callable[[object], object], object, "queue.SimpleQueue[tuple[bool, object]]"]


class Worker:
    """A daemon thread that runs one call at a time, for callers that wait a bounded time."""

    def __init__(self, name: str) -> None:
        self.jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            fn, arg, answer = job
            try:
                answer.put((True, fn(arg)))
            except BaseException as exc:  # handed to the caller, which reports it
                answer.put((False, exc))

    def call(self, fn: Callable[[Any], object], arg: object, seconds: float) -> Any:
        """``fn(arg)`` on the thread; its exception is raised here; :class:`BotFailure`
        (``timeout``) when it takes more than ``seconds``."""
        answer: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self.jobs.put((fn, arg, answer))
        try:
            ok, value = answer.get(timeout=max(seconds, 0.0))
        except queue.Empty:
            raise BotFailure("timeout", f"no answer within {seconds:g} s") from None
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        """Let the thread end once its call (if any) returns."""
        self.jobs.put(None)


class TimedBot:
    """An in-process bot whose every decision is bounded by ``rules`` (see the module
    docstring). ``start``, ``finish`` and ``close`` go to the bot as they are, untimed."""

    blocks = True  # it waits for the bot's thread

    def __init__(self, bot: AnyBot, label: str, rules: Rules) -> None:
        self.bot = bot
        self.name = str(getattr(bot, "name", label))
        self.rules = rules
        self.answers = 0
        self.worker: Worker | None = None

    def choose(self, observation: Observation[Action]) -> Action:
        """The bot's choice, if it comes in time."""
        seconds = self.rules.move_seconds + (self.rules.start_seconds if not self.answers else 0)
        return self.choose_within(observation, seconds)

    def choose_within(self, observation: Observation[Action], seconds: float) -> Action:
        """The bot's choice if it comes within ``seconds`` (a caller with its own clock)."""
        if self.worker is None:
            self.worker = Worker(f"bot {self.name}")
        try:
            action: Action = self.worker.call(self.bot.choose, observation, seconds)
        except BotFailure:
            late, self.worker = self.worker, None  # busy with the late answer: never asked again
            late.stop()
            raise
        self.answers += 1
        return action

    def start(self, seating: Seating) -> None:
        """Tell the bot its seat, if it wants to know."""
        hook = getattr(self.bot, "start", None)
        if callable(hook):
            hook(seating)

    def finish(self, outcome: JSON) -> None:
        """Tell the bot how the game ended, if it wants to know."""
        hook = getattr(self.bot, "finish", None)
        if callable(hook):
            hook(outcome)

    def close(self) -> None:
        """Release the thread and whatever the bot holds."""
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        hook = getattr(self.bot, "close", None)
        if callable(hook):
            hook()


__all__ = ["TimedBot", "Worker"]
