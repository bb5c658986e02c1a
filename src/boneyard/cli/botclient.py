"""``boneyard bot connect``: the reference client of a bot account (docs/bots.md, "Bot accounts").

It opens the account's event stream (``GET /api/bot/stream`` with ``Authorization: Bearer``),
accepts the challenges it is sent (``--accept none``: declines them), and plays every table the
stream names over the table's WebSocket. Its seat gets ``act`` messages (botapi.service);
each is answered by the bot given with ``--bots``:

* ``cmd:COMMAND``: a program speaking ``boneyard-bot/1``, relayed unchanged — a ``start`` before
  its first ``act`` of a table, each ``act``, the ``end`` when the game is over;
* a library bot (``expert``, ``greedy``, a plugin): it is given the observation the JSON decodes
  to (the game's ``observation_from_json``) and its action goes back as a move.

Message types it does not know are ignored, so a newer server does not break it. The client exits
when the server refuses its token (revoked: exit code 1), or after ``--games`` games.
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
from websockets.exceptions import ConnectionClosed

from boneyard.bots.plugins import command_argv, is_command, make
from boneyard.bots.process import Program, _answer
from boneyard.bots.referee import PROTOCOL, BotFailure, Seating
from boneyard.core.errors import BoneyardError
from boneyard.core.records import JSON
from boneyard.games.registry import get_spec

Log = Callable[[str], None]


class Refused(BoneyardError):
    """The server refused the token (unknown or revoked)."""


class Decider:
    """Answers one table's ``act`` messages with the chosen bot (one per table)."""

    def __init__(self, bot: str, move_seconds: float = 5.0) -> None:
        self.bot = bot
        self.move_seconds = move_seconds
        self.program: Program | None = None
        self.player: Any = None
        self.started = False

    def choose(self, start: JSON, act: JSON) -> JSON:
        """The move (an entry of ``act["legal_actions"]``) for ``act``."""
        if is_command(self.bot):
            return self._relay(start, act)
        spec = get_spec(str(start["game"]))
        if self.player is None:
            self.player = make(self.bot, random.Random(int(start["seed"])), local=True)
            begin = getattr(self.player, "start", None)
            if callable(begin):
                fields = {k: v for k, v in start.items() if k not in ("type", "protocol")}
                begin(Seating(**{**fields, "names": tuple(fields["names"])}))
        doc = {**act["observation"], "legal_actions": act["legal_actions"]}
        try:
            obs = spec.observation_from_json(doc)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise BoneyardError(f"the site's observation could not be read ({exc!r})") from None
        try:
            action = self.player.choose(obs)
        except Exception as exc:  # a plugin's own error: it fails like a crashed program
            raise BotFailure("crash", f"{self.bot} raised {exc!r}") from None
        if action not in obs.legal_actions:
            raise BotFailure("illegal", f"{self.bot} chose {action!r}, not a legal action")
        return dict(action.to_event())

    def _relay(self, start: JSON, act: JSON) -> JSON:
        seconds = self.move_seconds + (0 if self.started else 10.0)
        deadline = time.monotonic() + seconds
        if self.program is None:
            self.program = Program(command_argv(self.bot), None)
        if not self.started:
            self.program.send(start, deadline)
            self.started = True
        events = list(act["legal_actions"])
        message = {
            "type": "act",
            "observation": act["observation"],
            "legal_actions": events,
        }
        self.program.send(message, deadline)
        line = self.program.read(deadline, seconds)
        return dict(events[_answer(line, events)])

    def finish(self, end: JSON) -> None:
        """Tell the bot how the game ended and let it go."""
        if self.program is not None:
            with contextlib.suppress(BotFailure):
                self.program.send(end, time.monotonic() + self.move_seconds)
            self.program.stop()
            self.program = None
        done = getattr(self.player, "finish", None)
        if callable(done):
            done(end)


def start_message(view: JSON, seed: int) -> JSON:
    """The ``boneyard-bot/1`` ``start`` message of a table's first view."""
    table = view["table"]
    clock = (view.get("clock") or {}) if isinstance(view.get("clock"), dict) else {}
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
        "move_seconds": float(clock.get("per_move") or 5.0),
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


class Client:
    """One bot account's connection to a site (see the module docstring)."""

    def __init__(
        self, server: str, token: str, bot: str, games: int | None, accept: bool, log: Log
    ) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.bot = bot
        self.games = games
        self.accept = accept
        self.log = log
        self.playing: set[str] = set()
        self.finished = 0
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
            detail = exc.read().decode("utf-8", "replace")[:300]
            raise BoneyardError(f"{method} {path}: {exc.code} {detail}") from None

    def _read_stream(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[Any]) -> None:
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
                else BoneyardError(f"the event stream: HTTP {exc.code}")
            )
            loop.call_soon_threadsafe(queue.put_nowait, failure)
        except Exception as exc:  # the connection broke
            loop.call_soon_threadsafe(queue.put_nowait, BoneyardError(f"the event stream: {exc}"))

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

    async def on_event(self, event: JSON, tasks: set[asyncio.Task[None]]) -> None:
        """One event of the stream (unknown types are ignored)."""
        kind = event.get("type")
        if kind == "bye":
            raise Refused(str(event.get("reason") or "the server ended the stream"))
        if kind == "challenge":
            verb = "accept" if self.accept else "decline"
            self.log(f"challenge at table {event['table']} ({event.get('game')}): {verb}")
            try:
                await asyncio.to_thread(
                    self._request, "POST", f"/api/bot/challenges/{event['table']}/{verb}"
                )
            except Refused:
                raise
            except BoneyardError as exc:
                self.log(f"could not {verb}: {exc}")
        elif kind in ("seat", "game_start") and event["table"] not in self.playing:
            self.playing.add(event["table"])
            task = asyncio.create_task(self.play(str(event["table"])))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    async def play(self, table_id: str) -> None:
        """Play the bot's seat at ``table_id`` until its game is over."""
        url = self.server.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        decider = Decider(self.bot)
        start: JSON | None = None
        try:
            async with connect(
                url, additional_headers={"Authorization": f"Bearer {self.token}"}
            ) as ws:
                async for raw in ws:
                    msg = json.loads(raw)
                    kind = msg.get("type")
                    if kind in ("view", "resync") and msg.get("seat") is not None:
                        await self.seed(ws, table_id, msg)
                    if kind in ("view", "resync") and msg.get("view") is not None:
                        if start is None and msg.get("seat") is not None:
                            start = start_message(msg, self.rng.randrange(2**31))
                        if msg.get("result") is not None:
                            await asyncio.to_thread(decider.finish, end_message(msg))
                            self.log(f"table {table_id}: game over {msg['result']}")
                            break
                    elif kind == "act" and start is not None:
                        move = await asyncio.to_thread(decider.choose, start, msg)
                        await ws.send(json.dumps({"seq": msg["version"], "action": move}))
                    elif kind == "error":
                        self.log(f"table {table_id}: {msg.get('message')}")
        except BoneyardError as exc:  # the bot failed, or this position cannot be decoded
            why = str(exc)
            if isinstance(exc, BotFailure):
                why = f"the bot failed ({exc.kind}: {exc.detail})"
            self.log(
                f"table {table_id}: {why}; the client leaves this table: the table's turn clock "
                "plays the seat as a person's who walked away (a table with no clock waits: "
                "connect again to take the seat back)"
            )
            decider.finish(end_message({}))
            self.left += 1
        except (ConnectionClosed, OSError) as exc:
            self.log(f"table {table_id}: {exc}")
            decider.finish(end_message({}))
            return
        self.finished += 1
        if self.games is not None and self.finished >= self.games:
            self.done.set()

    async def seed(self, ws: Any, table_id: str, msg: JSON) -> None:
        """Send a client seed for the coming hand when the table asks for one (docs/fairness.md:
        a table waits for every seated player's seed, at most its seed window)."""
        coming = next((f for f in msg.get("fairness") or [] if f.get("next")), None)
        if coming is None or coming.get("my_seed") or (table_id, coming["hand"]) in self.seeded:
            return
        self.seeded.add((table_id, coming["hand"]))
        await ws.send(json.dumps({"type": "seed", "hand": coming["hand"], "seed": token_hex(16)}))


def connect_and_play(
    server: str, token: str, bot: str, games: int | None, accept: bool, log: Log
) -> int:
    """Run :class:`Client` until it is done (raises :class:`Refused` for a refused token); the
    number of tables it left after the bot failed."""
    client = Client(server, token, bot, games, accept, log)
    asyncio.run(_checked(client))
    return client.left


async def _checked(client: Client) -> None:
    me = await asyncio.to_thread(client._request, "GET", "/api/me")
    user = (me or {}).get("user")
    if not user:
        raise Refused("the server refused the token (unknown or revoked)")
    client.log(f"connected as {user['display_name']} (bot account)")
    await client.run()


def bot_command(
    connect_to: str, token: str, bots: str, games: int | None, accept: bool, log: Log
) -> int:
    """``boneyard bot connect``: 0 when done, 1 when the token is refused, 2 on a bad bot, 3
    when the bot failed at a table (the table was left to its turn clock)."""
    try:
        if not is_command(bots):
            make(bots, random.Random(0), local=True)  # an unknown name is refused now
        left = connect_and_play(connect_to, token, bots, games, accept, log)
    except Refused as exc:
        log(f"error: {exc}")
        return 1
    except BoneyardError as exc:
        log(f"error: {exc}")
        return 2
    return 3 if left else 0
