"""``boneyard bot connect``: the reference client of a bot account (docs/bots.md, "Bot accounts").

It opens the account's event stream (``GET /api/bot/stream`` with ``Authorization: Bearer``),
accepts the challenges it is sent (``--accept none``: declines them), and plays every table the
stream names over the table's WebSocket. Its seat gets ``act`` messages (botapi.service);
each is answered by the bot given with ``--bots``:

* ``cmd:COMMAND``: a program speaking ``boneyard-bot/1``, relayed unchanged — a ``start`` before
  its first ``act`` of a table, each ``act``, the ``end`` when the game is over;
* a library bot (``expert``, ``greedy``, a plugin): it is given the observation the JSON decodes
  to (the game's ``observation_from_json``) and its action goes back as a move.

**Time.** Each answer must come within the time the table's clock leaves the seat (the
``remaining`` seconds of its view, less :func:`safety`), and within ``--move-time`` when that is
given; a table without a clock allows ``--move-time`` or :data:`UNTIMED`. A bot that does not
answer in time fails there (a ``timeout``), before the table's clock plays the seat for it.

**Games.** ``--games N`` takes on at most N games (the tables it still holds a seat at when it
connects, then challenges) and stops once they are finished — played to their end, left
after the bot failed there, or ended before it joined them (a game can start and end between two
looks of the stream: its ``game_finish`` says so); a challenge that comes after that is left for
another run.

Message types it does not know are ignored, so a newer server does not break it. The client exits
when the server refuses its token (unknown or revoked: exit code 1), or after ``--games`` games;
an unreachable server or a bad bot is one line and exit code 2.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from secrets import token_hex
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from boneyard.bots.plugins import command_argv, is_command, make
from boneyard.bots.process import Program, _answer
from boneyard.bots.referee import PROTOCOL, BotFailure, Rules, Seating
from boneyard.bots.timed import TimedBot
from boneyard.core.errors import BoneyardError
from boneyard.core.records import JSON
from boneyard.games.registry import get_spec

Log = Callable[[str], None]

UNTIMED = 60.0
"""Seconds a move may take at a table without a clock (unless ``--move-time`` says)."""
START_SECONDS = 10.0
"""More for a program's first answer (it may be starting up), within the table's clock."""
MIN_MOVE = 0.5
"""The least time given to a move, however little the clock leaves."""


def safety(remaining: float) -> float:
    """What the client keeps back from the clock's ``remaining`` seconds, for the move to
    travel to the server in time: a second and a twentieth.

    >>> safety(30.0)
    2.5
    """
    return 1.0 + 0.05 * remaining


class Refused(BoneyardError):
    """The server refused the token (unknown or revoked)."""


class Unreachable(BoneyardError):
    """The server cannot be reached (a wrong address, or it is down)."""


class Decider:
    """Answers one table's ``act`` messages with the chosen bot (one per table), each within
    the seconds it is given."""

    def __init__(self, bot: str) -> None:
        self.bot = bot
        self.program: Program | None = None
        self.player: TimedBot | None = None
        self.started = False

    def choose(self, start: JSON, act: JSON, seconds: float) -> JSON:
        """The move (an entry of ``act["legal_actions"]``) for ``act``, within ``seconds``."""
        if is_command(self.bot):
            return self._relay(start, act, seconds)
        spec = get_spec(str(start["game"]))
        if self.player is None:
            made = make(self.bot, random.Random(int(start["seed"])), local=True)
            self.player = TimedBot(made, self.bot, Rules(UNTIMED, 0.0))
            fields = {k: v for k, v in start.items() if k not in ("type", "protocol")}
            self.player.start(Seating(**{**fields, "names": tuple(fields["names"])}))
        doc = {**act["observation"], "legal_actions": act["legal_actions"]}
        try:
            obs = spec.observation_from_json(doc)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise BoneyardError(f"the site's observation could not be read ({exc!r})") from None
        try:
            action = self.player.choose_within(obs, seconds)
        except BotFailure:
            raise
        except Exception as exc:  # a plugin's own error: it fails like a crashed program
            raise BotFailure("crash", f"{self.bot} raised {exc!r}") from None
        if action not in obs.legal_actions:
            raise BotFailure("illegal", f"{self.bot} chose {action!r}, not a legal action")
        return dict(action.to_event())

    def _relay(self, start: JSON, act: JSON, seconds: float) -> JSON:
        deadline = time.monotonic() + seconds
        if self.program is None:
            self.program = Program(command_argv(self.bot), None)
        if not self.started:
            self.program.send(start, deadline)
            self.started = True
        events = list(act["legal_actions"])
        message = {"type": "act", "observation": act["observation"], "legal_actions": events}
        self.program.send(message, deadline)
        line = self.program.read(deadline, round(seconds, 1))
        return dict(events[_answer(line, events)])

    def finish(self, end: JSON) -> None:
        """Tell the bot how the game ended and let it go."""
        if self.program is not None:
            with contextlib.suppress(BotFailure):
                self.program.send(end, time.monotonic() + 5.0)
            self.program.stop()
            self.program = None
        if self.player is not None:
            self.player.finish(end)
            self.player.close()


class Timing:
    """The time of the bot's next answer at one table, from its clock (see the module
    docstring): ``ceiling`` is ``--move-time`` (``None``: none)."""

    def __init__(self, ceiling: float | None) -> None:
        self.ceiling = ceiling
        self.until: float | None = None
        """When the clock's time for the seat's move ends (``time.monotonic()``), if it runs."""
        self.answers = 0

    def saw(self, view: JSON) -> None:
        """Read the clock of a view of the table (the last view before an ``act`` is its)."""
        clock = view.get("clock")
        seat = view.get("seat")
        if isinstance(clock, dict) and seat is not None and clock.get("seat") == seat:
            left = float(clock.get("remaining") or 0.0)
            self.until = time.monotonic() + max(0.0, left - safety(left))
        else:
            self.until = None

    def seconds(self, program: bool) -> float:
        """The seconds the next answer may take (a program's first answer gets more, within
        the clock)."""
        first = program and self.answers == 0
        self.answers += 1
        cap = UNTIMED if self.ceiling is None else self.ceiling
        if first:
            cap += START_SECONDS
        if self.until is None:
            return cap
        return max(MIN_MOVE, min(cap, self.until - time.monotonic()))

    def per_move(self, view: JSON) -> float:
        """The ``start`` message's ``move_seconds``: the clock's time per move less the safety
        margin, within ``--move-time``."""
        clock = view.get("clock")
        cap = UNTIMED if self.ceiling is None else self.ceiling
        if not isinstance(clock, dict) or not clock.get("per_move"):
            return cap
        per_move = float(clock["per_move"])
        return round(max(MIN_MOVE, min(cap, per_move - safety(per_move))), 3)


def start_message(view: JSON, seed: int, move_seconds: float) -> JSON:
    """The ``boneyard-bot/1`` ``start`` message of a table's first view."""
    table = view["table"]
    return {
        "type": "start",
        "protocol": PROTOCOL,
        "game": table["game"],
        "title": table.get("title", table["game"]),
        "players": len(table["seats"]),
        "seat": view["seat"],
        "names": [s.get("name") or f"Seat {s['seat'] + 1}" for s in table["seats"]],
        "options": table.get("options") or {},
        "seed": seed,
        "move_seconds": move_seconds,
    }


def end_message(view: JSON) -> JSON:
    """The ``end`` message of a finished table's view."""
    result = view.get("result") or {}
    return {
        "type": "end",
        "winner": result.get("winner"),
        "scores": result.get("scores"),
        "reason": result.get("reason"),
        "forfeit": None,
    }


def _detail(exc: urllib.error.HTTPError) -> str:
    """The server's reason (its ``{"detail": ...}``), else the HTTP status."""
    try:
        doc = json.loads(exc.read() or b"null")
    except (ValueError, OSError):
        doc = None
    if isinstance(doc, dict) and isinstance(doc.get("detail"), str):
        return str(doc["detail"])
    return f"HTTP {exc.code}"


class Client:
    """One bot account's connection to a site (see the module docstring)."""

    def __init__(
        self,
        server: str,
        token: str,
        bot: str,
        games: int | None,
        accept: bool,
        log: Log,
        move_time: float | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.bot = bot
        self.games = games
        self.accept = accept
        self.log = log
        self.move_time = move_time
        self.playing: set[str] = set()
        """Tables being played now."""
        self.taken: set[str] = set()
        """Tables taken on (resumed, or challenges accepted): at most ``games``."""
        self.over: set[str] = set()
        """Tables done with: played to their end, left, or ended before the client joined."""
        self.left = 0
        """Tables left to their turn clock after the bot failed there."""
        self.seeded: set[tuple[str, int]] = set()
        self.done = asyncio.Event()
        self.rng = random.Random()

    def _request(self, method: str, path: str) -> Any:
        req = urllib.request.Request(
            self.server + path,
            method=method,
            headers={"Authorization": f"Bearer {self.token}", "Accept": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as exc:
            if exc.code == 401:
                raise Refused("the server refused the token (unknown or revoked)") from None
            raise BoneyardError(_detail(exc)) from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise self.unreachable(exc) from None

    def unreachable(self, exc: BaseException) -> Unreachable:
        """The one-line error of a server that cannot be reached."""
        why = getattr(exc, "reason", None) or exc
        text = getattr(why, "strerror", None) or str(why) or type(why).__name__
        return Unreachable(f"cannot reach the server at {self.server}: {text}")

    def _read_stream(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[object]) -> None:
        """(A thread.) The event stream's lines, put on ``queue``; then ``None`` or the error."""
        req = urllib.request.Request(
            self.server + "/api/bot/stream", headers={"Authorization": f"Bearer {self.token}"}
        )
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                for raw in resp:
                    if raw.strip():
                        loop.call_soon_threadsafe(queue.put_nowait, json.loads(raw))
            loop.call_soon_threadsafe(queue.put_nowait, None)
        except urllib.error.HTTPError as exc:
            failure: Exception = (
                Refused("the server refused the token (unknown or revoked)")
                if exc.code == 401
                else BoneyardError(f"the event stream: {_detail(exc)}")
            )
            loop.call_soon_threadsafe(queue.put_nowait, failure)
        except Exception as exc:  # the connection broke
            loop.call_soon_threadsafe(queue.put_nowait, self.unreachable(exc))

    async def run(self) -> None:
        """Follow the event stream until the games are played (or the token is refused)."""
        queue: asyncio.Queue[Any] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        threading.Thread(target=self._read_stream, args=(loop, queue), daemon=True).start()
        tasks: set[asyncio.Task[None]] = set()
        while not self.done.is_set():
            getter = asyncio.ensure_future(queue.get())
            waiter = asyncio.ensure_future(self.done.wait())
            await asyncio.wait({getter, waiter}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if not getter.done():
                getter.cancel()
                break
            event = getter.result()
            if isinstance(event, Exception):
                raise event
            if event is None:
                raise BoneyardError("the server closed the event stream")
            await self.on_event(event, tasks)
        for task in tasks:
            task.cancel()

    @property
    def finished(self) -> int:
        """How many tables the client is done with."""
        return len(self.over)

    def full(self) -> bool:
        """Whether ``--games`` games are taken on already."""
        return self.games is not None and len(self.taken) >= self.games

    async def on_event(self, event: JSON, tasks: set[asyncio.Task[None]]) -> None:
        """One event of the stream (unknown types are ignored)."""
        kind = event.get("type")
        if kind == "bye":
            raise Refused(str(event.get("reason") or "the server ended the stream"))
        table = str(event.get("table"))
        if kind == "challenge":
            await self.challenge(table, str(event.get("game")))
        elif kind == "game_finish" and table in self.taken and table not in self.playing:
            self.ended(table, f"the game ended ({event.get('status')}) before the client joined it")
        elif kind in ("seat", "game_start") and table not in self.playing | self.over:
            if table not in self.taken:
                if self.full():
                    self.log(f"table {table}: not taken on (--games {self.games} already are)")
                    return
                self.taken.add(table)
            self.playing.add(table)
            task = asyncio.create_task(self.play(table))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    async def challenge(self, table: str, game: str) -> None:
        """Accept (or decline) a challenge; one taken on counts towards ``--games``."""
        if self.accept and self.full():
            self.log(f"challenge at table {table} ({game}): left for another run (--games)")
            return
        verb = "accept" if self.accept else "decline"
        self.log(f"challenge at table {table} ({game}): {verb}")
        if self.accept:
            self.taken.add(table)
        try:
            await asyncio.to_thread(self._request, "POST", f"/api/bot/challenges/{table}/{verb}")
        except (Refused, Unreachable):
            raise
        except BoneyardError as exc:
            self.taken.discard(table)
            self.log(f"challenge at table {table}: the server refused to {verb} it: {exc}")

    async def play(self, table_id: str) -> None:
        """Play the bot's seat at ``table_id`` until its game is over (or the bot fails)."""
        decider = Decider(self.bot)
        try:
            await self._play(table_id, decider)
        except BoneyardError as exc:  # the bot failed, or this position cannot be decoded
            why = str(exc)
            if isinstance(exc, BotFailure):
                why = f"the bot failed ({exc.kind}: {exc.detail})"
            self.log(
                f"table {table_id}: {why}; the client leaves this table: the table's turn clock "
                "plays the seat as a person's who walked away (a table with no clock waits: "
                "connect again to take the seat back)"
            )
            await asyncio.to_thread(decider.finish, end_message({}))
            self.left += 1
        except (WebSocketException, OSError) as exc:
            self.log(f"table {table_id}: the connection ended ({exc})")
            await asyncio.to_thread(decider.finish, end_message({}))
        except Exception as exc:  # the client's own fault: said, never a silent hang
            self.log(f"table {table_id}: the client failed ({exc!r}); it leaves this table")
            await asyncio.to_thread(decider.finish, end_message({}))
            self.left += 1
        self.playing.discard(table_id)
        self.ended(table_id)

    def ended(self, table_id: str, why: str | None = None) -> None:
        """Done with ``table_id`` (``why``: said first); the client stops after ``--games``."""
        if table_id in self.over:
            return
        if why is not None:
            self.log(f"table {table_id}: {why}")
        self.over.add(table_id)
        if self.full() and not self.playing:
            self.done.set()

    async def _play(self, table_id: str, decider: Decider) -> None:
        url = self.server.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        timing = Timing(self.move_time)
        start: JSON | None = None
        headers = {"Authorization": f"Bearer {self.token}"}
        async with connect(url, additional_headers=headers) as ws:
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind in ("view", "resync") and msg.get("seat") is not None:
                    timing.saw(msg)
                    await self.seed(ws, table_id, msg)
                if kind in ("view", "resync") and msg.get("view") is not None:
                    if start is None and msg.get("seat") is not None:
                        seed = self.rng.randrange(2**31)
                        start = start_message(msg, seed, timing.per_move(msg))
                    if msg.get("result") is not None:
                        await asyncio.to_thread(decider.finish, end_message(msg))
                        self.log(f"table {table_id}: game over {msg['result']}")
                        return
                elif kind == "act" and start is not None:
                    seconds = timing.seconds(is_command(self.bot))
                    move = await asyncio.to_thread(decider.choose, start, msg, seconds)
                    await ws.send(json.dumps({"seq": msg["version"], "action": move}))
                elif kind == "error":
                    self.log(f"table {table_id}: {msg.get('message')}")

    async def seed(self, ws: Any, table_id: str, msg: JSON) -> None:
        """Send a client seed for the coming hand when the table asks for one (docs/fairness.md:
        a table waits for every seated player's seed, at most its seed window)."""
        coming = next((f for f in msg.get("fairness") or [] if f.get("next")), None)
        if coming is None or coming.get("my_seed") or (table_id, coming["hand"]) in self.seeded:
            return
        self.seeded.add((table_id, coming["hand"]))
        await ws.send(json.dumps({"type": "seed", "hand": coming["hand"], "seed": token_hex(16)}))


async def _checked(client: Client) -> None:
    me = await asyncio.to_thread(client._request, "GET", "/api/me")
    user = (me or {}).get("user")
    if not user:
        raise Refused("the server refused the token (unknown or revoked)")
    client.log(f"connected as {user['display_name']} (bot account)")
    await client.run()


def bot_command(
    connect_to: str,
    token: str,
    bots: str,
    games: int | None,
    accept: bool,
    log: Log,
    move_time: float | None = None,
) -> int:
    """``boneyard bot connect``: 0 when done, 1 when the token is refused, 2 on a bad bot or a
    server that cannot be reached, 3 when the bot failed at a table (the table was left to its
    turn clock), 130 when stopped (Ctrl-C)."""
    try:
        if not is_command(bots):
            make(bots, random.Random(0), local=True)  # an unknown name is refused now
        client = Client(connect_to, token, bots, games, accept, log, move_time)
        asyncio.run(_checked(client))
    except KeyboardInterrupt:
        log("stopped")
        return 130
    except Refused as exc:
        log(f"error: {exc}")
        return 1
    except BoneyardError as exc:
        log(f"error: {exc}")
        return 2
    return 3 if client.left else 0
