"""Bots in another process, in any language: the ``boneyard-bot/1`` line protocol.

A bot program reads JSON messages, one per line, on its standard input and answers on its
standard output (docs/bots.md has the whole protocol, with examples):

* ``{"type": "start", ...}``: the game, its options, the players, the bot's seat and a seed;
* ``{"type": "act", "observation": {...}, "legal_actions": [...]}``: its turn; it answers one
  line, ``{"action": <one of legal_actions, as written>}`` or ``{"index": <its position>}``;
* ``{"type": "end", ...}``: the game's end (winner, scores, reason, a forfeit).

Another ``start`` may follow an ``end`` (a program plays several games in a row, as a chess
engine does over UCI); its standard input closes when it is no longer needed. Everything it
writes to standard error is kept aside and its last lines quoted when it fails.

A :class:`ProcessBot` holds one program while a game lasts and gives it back to a small pool of
idle programs of the same command when the game ends well, so an arena of many games starts
few processes. The referee's rules (:class:`~boneyard.bots.referee.Rules`) bound each answer
in time; an answer that is not a legal move, no answer in time, or a program that dies raises
:class:`~boneyard.bots.referee.BotFailure` (``illegal``, ``timeout``, ``crash``) and the program
is stopped.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import selectors
import subprocess
import tempfile
import time
from collections.abc import Sequence
from typing import IO

from boneyard.bots.referee import BotFailure, Rules, Seating
from boneyard.core.protocol import Action, Observation
from boneyard.core.records import JSON

MAX_LINE = 1_000_000
"""The longest answer line read (bytes)."""
IDLE_PER_COMMAND = 16
STDERR_LINES = 5
"""Lines of a failed program's standard error quoted in its failure."""


class Program:
    """One running bot program and its pipes (reads and writes bounded in time)."""

    def __init__(self, argv: Sequence[str], cwd: str | None) -> None:
        self.argv = tuple(argv)
        self.errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (the program's lifetime)
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.errors,
                cwd=cwd,
                bufsize=0,
            )
        except OSError as exc:
            self.errors.close()
            raise BotFailure(
                "crash", f"cannot start {self.argv[0]!r}: {exc.strerror or exc}"
            ) from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin = self.proc.stdin.fileno()
        self.stdout = self.proc.stdout.fileno()
        os.set_blocking(self.stdin, False)
        self.buffer = b""
        self.answers = 0

    def alive(self) -> bool:
        """Whether the program still runs."""
        return self.proc.poll() is None

    def send(self, message: JSON, deadline: float) -> None:
        """Write one message line (a program that stops reading is a timeout)."""
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        with selectors.DefaultSelector() as sel:
            sel.register(self.stdin, selectors.EVENT_WRITE)
            while data:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise BotFailure("timeout", "it stopped reading its input")
                try:
                    data = data[os.write(self.stdin, data) :]
                except BrokenPipeError:
                    raise self.died() from None

    def read(self, deadline: float, seconds: float) -> bytes:
        """One answer line, or :class:`BotFailure` (``timeout`` after ``seconds``, ``crash``)."""
        with selectors.DefaultSelector() as sel:
            sel.register(self.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise BotFailure("timeout", f"no answer within {seconds:g} s")
                chunk = os.read(self.stdout, 65536)
                if not chunk:
                    raise self.died()
                self.buffer += chunk
                if len(self.buffer) > MAX_LINE:
                    raise BotFailure("illegal", f"an answer longer than {MAX_LINE} bytes")
        line, _, self.buffer = self.buffer.partition(b"\n")
        self.answers += 1
        return line

    def died(self) -> BotFailure:
        """The failure of a program that has stopped, with its exit code and last errors."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:  # (its output closed but it still runs)
            self.kill()
            code = self.proc.returncode
        what = f"the program exited (code {code})"
        tail = self.stderr_tail()
        return BotFailure("crash", f"{what}: {tail}" if tail else what)

    def stderr_tail(self) -> str:
        """The last lines the program wrote to its standard error."""
        try:
            self.errors.seek(0, os.SEEK_END)
            size = self.errors.tell()
            self.errors.seek(max(0, size - 4096))
            text = self.errors.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        lines = [x for x in text.splitlines() if x.strip()][-STDERR_LINES:]
        return " | ".join(lines)

    def kill(self) -> None:
        """Stop the program at once and close its pipes."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._close_pipes()

    def stop(self) -> None:
        """End politely: close its input and let it exit (killed if it lingers)."""
        self._close_pipes()
        try:
            self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.kill()

    def _close_pipes(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout, self.errors):
            if stream is not None and not stream.closed:
                with contextlib.suppress(OSError):  # (a pipe already broken)
                    stream.close()


_IDLE: dict[tuple[tuple[str, ...], str | None], list[Program]] = {}


def _take(argv: Sequence[str], cwd: str | None) -> Program:
    idle = _IDLE.get((tuple(argv), cwd), [])
    while idle:
        program = idle.pop()
        if program.alive():
            return program
        program.kill()
    return Program(argv, cwd)


def _give_back(program: Program, cwd: str | None) -> None:
    idle = _IDLE.setdefault((program.argv, cwd), [])
    if program.alive() and len(idle) < IDLE_PER_COMMAND:
        idle.append(program)
    else:
        program.stop()


@atexit.register
def stop_idle() -> None:
    """Stop every idle program (at exit, and between tests)."""
    for programs in _IDLE.values():
        while programs:
            programs.pop().stop()


class ProcessBot:
    """A bot played by a program in another process (see the module docstring)."""

    blocks = True  # waits for the program's answer

    def __init__(
        self, argv: Sequence[str], label: str, rules: Rules, cwd: str | None = None
    ) -> None:
        if not argv:
            raise BotFailure("crash", "give the command to run after cmd:")
        self.argv = tuple(argv)
        self.name = label
        self.rules = rules
        self.cwd = cwd
        self.seating: Seating | None = None
        self.program: Program | None = None

    def start(self, seating: Seating) -> None:
        """Remember the game; the ``start`` message goes with the first decision."""
        self.seating = seating

    def choose(self, observation: Observation[Action]) -> Action:
        """Send the observation and legal actions; read and check the answer."""
        started = self.program is not None
        program = self.program or self._begin()
        actions = list(observation.legal_actions)
        events = [a.to_event() for a in actions]
        view = dict(observation.to_json())
        view.pop("legal_actions", None)
        seconds = self.rules.move_seconds
        if program.answers == 0:
            seconds += self.rules.start_seconds
        deadline = time.monotonic() + seconds
        try:
            if not started:
                program.send(self._seating(observation).to_json(), deadline)
            program.send({"type": "act", "observation": view, "legal_actions": events}, deadline)
            line = program.read(deadline, seconds)
            return actions[_answer(line, events)]
        except BotFailure:
            self.close()
            raise

    def finish(self, outcome: JSON) -> None:
        """Tell the program how the game ended and give it back to the pool."""
        program, self.program = self.program, None
        if program is None:
            return
        try:
            program.send(outcome, time.monotonic() + self.rules.move_seconds)
        except BotFailure:
            program.kill()
            return
        _give_back(program, self.cwd)

    def close(self) -> None:
        """Stop the program (after a failure, or a game left unfinished)."""
        program, self.program = self.program, None
        if program is not None:
            program.kill()

    def _begin(self) -> Program:
        self.program = _take(self.argv, self.cwd)
        return self.program

    def _seating(self, observation: Observation[Action]) -> Seating:
        """The seating told by the referee, or what the observation says of it."""
        if self.seating is not None:
            return self.seating
        view = observation.to_json()
        players = len(view.get("hand_sizes") or []) or int(view.get("num_seats") or 0)
        seat = observation.seat if observation.seat is not None else 0
        return Seating(
            observation.game, observation.game, players, seat, (), {}, 0, self.rules.move_seconds
        )


def _answer(line: bytes, events: list[JSON]) -> int:
    """The index of the legal action an answer line names; :class:`BotFailure` if none."""
    shown = line.decode("utf-8", "replace").strip()
    if len(shown) > 160:
        shown = shown[:157] + "..."
    try:
        answer: object = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BotFailure("illegal", f"it answered {shown!r}, which is not JSON") from None
    if not isinstance(answer, dict) or ("action" not in answer and "index" not in answer):
        raise BotFailure(
            "illegal", f'it answered {shown}; answer {{"action": ...}} or {{"index": ...}}'
        )
    if "index" in answer and "action" in answer:
        raise BotFailure(
            "illegal",
            f'it answered {shown}; answer {{"action": ...}} or {{"index": ...}}, not both',
        )
    if "index" in answer:
        k = answer["index"]
        if type(k) is int and 0 <= k < len(events):
            return k
        raise BotFailure(
            "illegal", f"it answered index {k!r}; there are {len(events)} legal actions (0-based)"
        )
    wanted = answer["action"]
    for k, event in enumerate(events):
        if event == wanted:
            return k
    raise BotFailure("illegal", f"it answered {shown}, which is not one of its legal actions")
