"""Abuse of the live-table socket (issue 8 item 4).

Hypothesis generates messages (random JSON and text, near-valid moves with a wrong sequence
number, seat or action, huge strings, deep nesting, binary frames, unknown and known message
types with wrong or right fields) sent by both players and a spectator over the sockets of a
live table. Every message must get exactly one well-formed answer (an error, a view or a resync;
a chat line the server takes goes to every socket whose person has not muted its sender, and a
view asked for is followed by the chat history when there is any) with the table unchanged; the
server never fails, never closes a socket, and no frame to a spectator or a seat holds a tile of
another seat's hand or of the boneyard (save a chat line or client seed a person typed as that
tile's name, which the server may show anyone). Between batches of 100 the player to move makes a legal
move, so the abuse meets many states of the game; when a game ends the same two people start a
new table, High Five and Merry-Go-Round in turn, so it meets several games and many hands.

``BONEYARD_ABUSE_MESSAGES`` sets how many messages: by default 100,000, what CI runs (about
75 s on a 2-core machine; e.g. 2000 for a quick run; bench/abuse.py runs a million). What makes
that volume cheap: Hypothesis draws the batches in a child process while this one sends and
checks them (drawing is more than half of the work: some 0.6 ms of CPU a message, against 0.5
ms for the app's answer and the checks), and a batch goes to the app inside its event loop, one
hop from the test thread instead of two per message. The checks are the same for every frame;
what they need of a game state (each seat's hidden tiles, the legal moves) is worked out once
per state, and a frame is scanned once for all hidden tiles.

Also: the rate and size limits, a seat never acting for another, a double-submitted move.
"""

from __future__ import annotations

import contextlib
import json
import logging
import multiprocessing
import os
import queue
import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tests.server.conftest import make_app, post, register, resync, use
from tests.server.tables.test_ws import hidden_tiles, two_player_table

MESSAGES = int(os.environ.get("BONEYARD_ABUSE_MESSAGES", "100000"))
BATCH = 100  # messages per Hypothesis example; a legal move follows each example
CHUNK = 200  # Hypothesis examples per run of its engine (see draw_in_child)
GAMES = ("highfive", "merry-go-round")  # a new table of the next one when a game ends
REPLY_TYPES = {"error", "view", "resync", "mutes", "seed", "chat"}
FRAME_TYPES = REPLY_TYPES | {"chat_history"}
TILE = re.compile(r"\b(\d{1,2})-(\d{1,2})\b")
QUOTED_TILE = re.compile(r'"(?=(\d{1,2}-\d{1,2})")')  # every "a-b" string, overlaps included
EXAMPLE = re.compile(r"(like|such as|e\.g\.) \d+-\d+")  # help text, the same for everyone
SEATS: tuple[int | None, ...] = (0, 1, None)
TIMEOUT = 10.0  # seconds for an answer
BATCH_TIMEOUT = 60.0  # seconds for a batch of answers


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """(In the app's event loop.) Fail clearly when the answers inside take over ``seconds``."""
    try:
        with anyio.fail_after(seconds):
            yield
    except TimeoutError:
        raise AssertionError(f"no answer within {seconds} s: did the server fail?") from None


async def next_frame(ws: Any, timeout: float | None = TIMEOUT) -> str:
    """The next text frame of ``ws`` (in the app's event loop); fails on a close, a binary
    frame or silence (``timeout=None``: within the caller's deadline)."""
    with deadline(timeout) if timeout is not None else contextlib.nullcontext():
        message = await ws._send_rx.receive()
    assert message["type"] == "websocket.send", f"the server closed the socket: {message}"
    text = message.get("text")
    assert isinstance(text, str), f"a binary frame from the server: {message}"
    text.encode("utf-8")  # a real server must be able to send it
    return text


def recv(ws: Any, timeout: float = TIMEOUT) -> str:
    """The next text frame of ``ws``, from the test thread."""
    text: str = ws.portal.call(next_frame, ws, timeout)
    return text


async def send(ws: Any, payload: str | bytes) -> None:
    """A text or binary frame to the app (in its event loop)."""
    key = "bytes" if isinstance(payload, bytes) else "text"
    await ws._receive_tx.send({"type": "websocket.receive", key: payload})


# -- the messages ------------------------------------------------------------------------------
# The strategies draw templates, which become messages against the table as it is when sent
# (what Hypothesis draws must not depend on the table: it changes between examples). Templates
# are plain data, so a child process can draw them; a huge payload is drawn as its few
# parameters and built when sent.

json_leaf = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
json_value = st.recursive(
    json_leaf,
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=12,
)
KEYS = ["seq", "action", "type", "seat", "play", "on", "port", "draw", "pass", "text", "hand",
        "seed", "user_id", "version"]  # fmt: skip
TYPES = [
    "resync",
    "chat",
    "mute",
    "unmute",
    "seed",
    "reclaim",
    "move",
    "ping",
    "",
    "RESYNC",
    "view",
]
keys = st.sampled_from(KEYS)
types = st.sampled_from(TYPES)
tile_text = st.builds(lambda a, b: f"{a}-{b}", st.integers(0, 12), st.integers(0, 12))
seats = st.sampled_from(SEATS)
pick = st.integers(0, 10_000)  # an index into whatever the table offers then


@dataclass
class Table:
    """What the templates need to know of the live table right now."""

    version: int
    mover: int | None
    legal: list[dict[str, Any]] = field(default_factory=list)

    def action(self, k: int) -> dict[str, Any]:
        return dict(self.legal[k % len(self.legal)]) if self.legal else {"play": "6-6"}

    def not_mover(self, k: int) -> int | None:
        others = [s for s in SEATS if s != self.mover]
        return others[k % len(others)]


Message = tuple[int | None, str | bytes]  # from the socket of a seat (None: the spectator)


@dataclass(frozen=True)
class Pieces:
    """A huge payload from small drawn parameters: each unit repeated so many times."""

    parts: tuple[tuple[Any, int], ...]

    def build(self) -> str | bytes:
        text: str | bytes = self.parts[0][0][:0].join(unit * n for unit, n in self.parts)
        return text


@dataclass(frozen=True)
class Send:
    """A drawn payload (text, bytes or pieces) from the socket of ``seat``."""

    seat: int | None
    payload: str | bytes | Pieces

    def __call__(self, _t: Table) -> Message:
        p = self.payload
        return self.seat, p.build() if isinstance(p, Pieces) else p


@dataclass(frozen=True)
class WrongSocket:
    """The right action from the wrong socket (another seat, the spectator), maybe with a claim
    to be a seat (-1: the seat to move)."""

    k: int
    j: int
    claim: int | None

    def __call__(self, t: Table) -> Message:
        msg: dict[str, Any] = {"seq": t.version, "action": t.action(self.k)}
        if self.claim is not None:
            msg["seat"] = t.mover if self.claim < 0 else self.claim
        return t.not_mover(self.j), json.dumps(msg)


@dataclass(frozen=True)
class WrongSeq:
    """An action with a sequence number that is not the table's version."""

    seat: int | None
    k: int
    how: int
    value: int

    def __call__(self, t: Table) -> Message:
        seq: Any = [t.version + (self.value or 1), str(t.version), float(t.version), None, True,
                    [t.version], t.version - 1][self.how % 7]  # fmt: skip
        return self.seat, json.dumps({"seq": seq, "action": t.action(self.k)})


@dataclass(frozen=True)
class WrongAction:
    """An action with a field missing, added or wrong, or not an object at all."""

    seat: int | None
    k: int
    how: int
    key: str
    value: Any

    def __call__(self, t: Table) -> Message:
        a = t.action(self.k)
        if self.how == 0:
            a.pop(next(iter(a)))
        elif self.how == 1:
            a[self.key] = self.value
        elif self.how == 2:
            a[next(iter(a))] = self.value
        else:
            a = self.value
        if a in t.legal:  # by chance a legal move: make it a stale one instead
            return self.seat, json.dumps({"seq": t.version + 1, "action": a})
        return self.seat, json.dumps({"seq": t.version, "action": a})


@dataclass(frozen=True)
class LongPlay:
    """A move whose tile is ``size`` characters (near the size limit)."""

    seat: int | None
    size: int

    def __call__(self, t: Table) -> Message:
        return self.seat, json.dumps({"seq": t.version, "action": {"play": "x" * self.size}})


@dataclass(frozen=True)
class TypedMove:
    """A move with a ``type`` (never taken for a move)."""

    seat: int | None
    type: str
    tile: str

    def __call__(self, t: Table) -> Message:
        msg = {"type": self.type, "seq": t.version, "action": {"play": self.tile}}
        return self.seat, json.dumps(msg)


near_valid = st.one_of(
    st.builds(WrongSocket, pick, pick, st.sampled_from([None, 0, 1, -1])),
    st.builds(WrongSeq, seats, pick, pick, st.integers()),
    st.builds(WrongAction, seats, pick, st.integers(0, 3), keys, json_value | tile_text),
)
typed = st.one_of(
    st.builds(lambda ty, extra: {"type": ty, **extra}, types, st.dictionaries(keys, json_value, max_size=3)),
    # chat: junk, and lines the server takes (as many as its rate limit lets through)
    st.builds(lambda text: {"type": "chat", "text": text},
              st.none() | st.integers() | st.sampled_from(["", "   ", "x" * 600, "\x00", "a\x07b", "\ud800"])
              | st.text(max_size=12)),
    # user 1 and 2 are the two players (a mute changes which sockets get a chat line), 3 nobody
    st.builds(lambda ty, uid: {"type": ty, "user_id": uid}, st.sampled_from(["mute", "unmute"]),
              st.none() | st.text(max_size=3) | st.just(True) | st.integers()
              | st.sampled_from([0, 1, 2, 3, 2**31, 2**63])),
    st.builds(lambda hand, seed: {"type": "seed", "hand": hand, "seed": seed}, json_value, json_value),
    # a hand's end, a claim, a rematch with wrong fields (a seat's right ones change the table)
    st.builds(lambda hand: {"type": "continue", "hand": hand}, st.none() | st.text(max_size=3) | st.floats()
              | st.sampled_from([-1, 99, [0], True])),
    st.builds(lambda ty, extra: {"type": ty, **extra}, st.sampled_from(["claim", "rematch"]),
              st.dictionaries(st.sampled_from(["seat", "how", "hand"]), json_value, max_size=3)),
)  # fmt: skip
# The spectator may send anything of these: all refused (a seat's resign or abort would end it).
ENDINGS = ["continue", "resign", "abort", "claim", "rematch"]
texts = st.one_of(
    json_value.map(json.dumps),
    st.text(max_size=40),
    typed.map(json.dumps),
    # JSON escapes of lone surrogates and NULs: valid JSON, not encodable as UTF-8
    st.sampled_from(['{"type": "chat", "text": "\\ud800"}', '{"seq": 0, "action": {"play": "\\udfff"}}',
                     '{"type": "\\ud800"}', '["\\u0000"]', '{"seq": 1, "action": {"\\ud800": 1}}']),
    # huge: over the size limit
    st.builds(lambda n, c: Pieces(((c, n),)), st.integers(4000, 70_000), st.sampled_from(["x", "[", "{", "é", '"'])),
    # deep nesting (the size limit allows some 2,000 levels)
    st.builds(lambda d: Pieces((("[", d), ("]", d))), st.integers(1, 2048)),
    st.builds(lambda d: Pieces((('{"a":', d), ("1", 1), ("}", d))), st.integers(1, 800)),
)  # fmt: skip
binary = st.binary(max_size=64) | st.builds(lambda n: Pieces(((b"\xff\xfe", n),)), st.integers(1, 40_000))  # fmt: skip
frames = st.one_of(
    st.builds(Send, seats, texts),
    st.builds(
        Send,
        st.just(None),
        st.builds(
            lambda ty, extra: json.dumps({"type": ty, **extra}),
            st.sampled_from(ENDINGS),
            st.dictionaries(st.sampled_from(["seat", "how", "hand"]), json_value, max_size=3),
        ),
    ),
    st.builds(Send, seats, binary),
    near_valid,
    near_valid,
    st.builds(LongPlay, seats, st.integers(0, 4100)),
    # ("move" is a move's own type: a legal tile sent with it is played, as it must be)
    st.builds(TypedMove, seats, st.sampled_from([t for t in TYPES if t != "move"]), tile_text),
)


def draw_in_child(out: Any, batches: int) -> None:
    """(In a child process.) Put ``batches`` lists of BATCH templates drawn by Hypothesis on
    ``out``, then the CPU seconds it took (or the traceback of a failure).

    Hypothesis runs a chunk of examples at a time, each run with a seed of its own (the same
    ones on every run where its settings derandomize, as on CI): one run keeps a tree of all it
    drew, which would take gigabytes for a million messages."""
    started = time.process_time()
    first = 0 if settings.default.derandomize else random.getrandbits(32)

    def run(examples: int, number: int) -> None:
        @seed(first + number)
        @settings(
            max_examples=examples,
            deadline=None,
            database=None,
            phases=[Phase.generate],  # no replay or shrinking: the table's state moves on
            suppress_health_check=list(HealthCheck),
        )
        @given(st.lists(frames, min_size=BATCH, max_size=BATCH))
        def draw(templates: list[Any]) -> None:
            out.put(templates)

        draw()

    try:
        for number, at in enumerate(range(0, batches, CHUNK)):
            run(min(CHUNK, batches - at), number)
    except BaseException:
        import traceback

        out.put(traceback.format_exc())
        raise
    out.put(time.process_time() - started)


@dataclass
class Drawn:
    """The batches of templates a child process draws (ahead, while this one sends and
    checks), and the CPU seconds drawing took once they are all in."""

    out: Any
    child: Any
    cpu: float | None = None

    def __iter__(self) -> Iterator[list[Any]]:
        while True:
            try:
                item = self.out.get(timeout=1.0)
            except queue.Empty:
                if self.child.is_alive():
                    continue
                try:  # (what it put just before it ended may still be on its way)
                    item = self.out.get(timeout=1.0)
                except queue.Empty:
                    raise AssertionError(
                        f"the drawing process ended ({self.child.exitcode})"
                    ) from None
            if isinstance(item, float):
                self.cpu = item
                return
            assert not isinstance(item, str), f"drawing failed:\n{item}"
            yield item


@contextlib.contextmanager
def drawn(batches: int) -> Iterator[Drawn]:
    """Start drawing ``batches`` batches in a child process (stopped on the way out)."""
    ctx = multiprocessing.get_context("spawn")  # (this process has threads: no fork)
    out = ctx.Queue(maxsize=8)
    child = ctx.Process(target=draw_in_child, args=(out, batches), daemon=True, name="abuse-draw")
    child.start()
    try:
        yield Drawn(out, child)
    finally:
        child.kill()
        child.join()
        out.close()


# -- the checks --------------------------------------------------------------------------------


@dataclass
class Harness:
    """Tables of two people with a spectator, one after another, and what the test has seen.

    The methods whose names start with ``a`` run in the app's event loop (``portal.call``):
    a message is sent, answered and checked there, with no thread hop per message.
    """

    client: TestClient
    stack: contextlib.ExitStack
    jars: dict[int | None, Any] = field(default_factory=dict)  # cookie jars by seat
    users: dict[int | None, int | None] = field(default_factory=dict)  # user ids by seat
    live: Any = None
    sockets: dict[int | None, Any] = field(default_factory=dict)
    sent: int = 0
    replies: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    games: list[str] = field(default_factory=list)
    hands: int = 0
    hands_ended: int = 0  # hands whose end stayed on the board until both continued
    rematches: int = 0
    failure: tuple[Any, Message, BaseException] | None = None
    # Chat: who muted whom, the senders of this table's lines, and the texts the server took
    # (chat lines, client seeds), which it may show anyone.
    mutes: dict[int | None, set[int]] = field(default_factory=dict)
    lines: list[int] = field(default_factory=list)
    echoed: set[str] = field(default_factory=set)
    # What the checks need of the current state, worked out once per state.
    _known: tuple[Any, int] | None = None
    _table: Table | None = None
    _hidden: dict[int | None, set[str]] = field(default_factory=dict)

    # -- tables, from the test thread --------------------------------------------------------

    def open_table(self, game: str, rematch: str | None = None) -> None:
        """A new started table of ``game`` for the two people (or the ``rematch`` they agreed
        on), with their sockets and a spectator's."""
        c = self.client
        if rematch is not None:
            tid = rematch
            portal = c.portal
            assert portal is not None
            portal.call(self.a_dealt, tid)
        elif not self.jars:
            tid, ann, bob = two_player_table(c, game)
            self.jars = {0: ann, 1: bob, None: None}
        else:
            use(c, self.jars[0])
            seats = [{"kind": "me"}, {"kind": "open"}]
            tid = post(c, "/api/tables", {"game": game, "seats": seats}).json()["id"]
            use(c, self.jars[1])
            assert post(c, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 200
            use(c, self.jars[0])
            assert post(c, f"/api/tables/{tid}/start").status_code == 200
        self.live = c.app.state.tables.live[tid]  # type: ignore[attr-defined]
        self.users = {s: self.live.seats[s].user_id for s in (0, 1)} | {None: None}
        self.lines = []
        self.games.append(game)
        for seat, jar in self.jars.items():
            use(c, jar)
            self.sockets[seat] = self.stack.enter_context(c.websocket_connect(f"/ws/tables/{tid}"))
        c.portal.call(self.a_first_views)  # type: ignore[union-attr]

    def close_table(self) -> None:
        """Every socket still answers; the record did not change; the sockets close."""
        self.client.portal.call(self.a_last_views)  # type: ignore[union-attr]
        self.hands += len(self.live.state.record()["hands"])
        self.stack.close()
        self.sockets = {}

    def play(self, templates: list[Any]) -> None:
        """A batch of abuse, then a legal move; a new table when the game is over."""
        portal = self.client.portal
        assert portal is not None
        try:
            portal.call(self.a_abuse, templates)
        except BaseException:
            if self.failure is None:
                raise
            template, (seat, payload), exc = self.failure  # (the table moved on: no replay)
            raise AssertionError(
                f"seat {seat} sent {payload[:300]!r} ({str(template)[:300]}): {exc!r}"
            ) from exc
        portal.call(self.a_legal_move)
        if self.live.state.is_over:
            # Every other game: the same two ask for a rematch (their sockets, its views).
            rematch = portal.call(self.a_rematch) if len(self.games) % 2 else None
            game = self.games[-1] if rematch else GAMES[len(self.games) % len(GAMES)]
            self.close_table()
            self.open_table(game, rematch)

    # -- what the checks need of the current state --------------------------------------------

    def _current(self) -> None:
        key = (self.live.state, self.live.version)
        if self._known is None or self._known[0] is not key[0] or self._known[1] != key[1]:
            st_ = self.live.state
            legal = [a.to_event() for a in st_.legal_actions()] if not st_.is_over else []
            self._known = key
            self._table = Table(self.live.version, st_.current_seat, legal)
            self._hidden = {}

    def table(self) -> Table:
        self._current()
        assert self._table is not None
        return self._table

    def hidden(self, seat: int | None) -> set[str]:
        """The tiles ``seat`` may not see, each both ways round (``3-5`` and ``5-3``)."""
        self._current()
        if seat not in self._hidden:
            tiles = hidden_tiles(self.live, seat)
            self._hidden[seat] = tiles | {"-".join(t.split("-")[::-1]) for t in tiles}
        return self._hidden[seat]

    def snapshot(self) -> tuple[int, int, int | None]:
        """The version, the state object (the same one: nothing replaced it) and the mover."""
        return self.live.version, id(self.live.state), self.live.state.current_seat

    def history_for(self, seat: int | None) -> bool:
        """Whether the chat history the socket of ``seat`` gets has a line."""
        muted = self.mutes.get(self.users[seat], set())
        return any(sender not in muted for sender in self.lines)

    # -- the checks ---------------------------------------------------------------------------

    def check_frame(self, seat: int | None, text: str, sent: str | None = None) -> dict[str, Any]:
        msg = json.loads(text)
        assert isinstance(msg, dict) and msg.get("type") in FRAME_TYPES, msg
        hidden = self.hidden(seat)
        if msg["type"] == "error":
            assert isinstance(msg["message"], str) and msg["message"], msg
            assert msg["version"] == self.live.version
            # An error may name what was sent, never a hidden tile that was not.
            for a, b in TILE.findall(EXAMPLE.sub("", msg["message"])):
                named = {f"{a}-{b}", f"{b}-{a}"}
                if named & hidden:
                    assert sent is not None and any(n in sent for n in named), (seat, msg)
        else:
            if msg["type"] == "chat":
                self.echoed.add(msg["text"])
            elif msg["type"] == "seed":
                self.echoed.add(msg["seed"])
            # Any other frame names no hidden tile ("3-5" or "5-3"), scanned for all at once;
            # the move log's entries of hands that ended are public history (their tiles are
            # dealt again in later hands): those of the hand in play are scanned.
            if isinstance(msg.get("log"), dict):
                hand = self.live.state.hands_dealt - 1
                entries = [e for e in msg["log"]["entries"] if e.get("hand") == hand]
                text = json.dumps({**msg, "log": {"entries": entries}})
            leaked = hidden.intersection(QUOTED_TILE.findall(text)) - self.echoed
            assert not leaked, (seat, sorted(leaked), msg["type"])
        if msg["type"] in ("view", "resync"):
            assert msg["seat"] == seat and msg["version"] == self.live.version
            if seat is None:
                assert msg["view"]["hand"] == [] and msg["moves"] == []
        return msg

    async def a_frame(self, seat: int | None, sent: str | None = None) -> dict[str, Any]:
        """The next frame to the socket of ``seat``, checked (the caller sets a deadline)."""
        return self.check_frame(seat, await next_frame(self.sockets[seat], None), sent)

    async def a_abuse(self, templates: list[Any]) -> None:
        """Each template becomes a message against the table as it is then, sent and checked.
        (One deadline for the batch: a time limit per frame costs more than the checks.)"""
        template: Any = None
        message: Message = (None, "")
        try:
            with deadline(BATCH_TIMEOUT):
                for template in templates:
                    message = template(self.table())
                    await self.a_message(*message)
        except BaseException as exc:
            self.failure = self.failure or (template, message, exc)
            raise

    async def a_message(self, seat: int | None, payload: str | bytes) -> dict[str, Any]:
        """Send ``payload`` from the socket of ``seat``: exactly one well-formed answer, the
        table unchanged (and what a chat line or a view asked for brings to the sockets)."""
        before = self.snapshot()
        await send(self.sockets[seat], payload)
        msg = await self.a_frame(seat, payload if isinstance(payload, str) else None)
        kind = msg["type"]
        assert kind in REPLY_TYPES, msg
        self.sent += 1
        self.replies[kind] += 1
        assert self.snapshot() == before, (payload[:200], msg)
        if kind == "chat":  # a line the server took: to every socket but the muting ones
            sender = self.users[seat]
            assert sender is not None and msg["user_id"] == sender and msg["seat"] == seat
            self.lines.append(sender)
            for other in self.sockets:
                if other != seat and sender not in self.mutes.get(self.users[other], set()):
                    line = await self.a_frame(other)
                    assert line == msg, (other, line, msg)
        elif kind == "mutes":
            self.mutes[self.users[seat]] = {m["user_id"] for m in msg["muted"]}
        elif kind == "view" and self.history_for(seat):  # a resync asked for: the chat too
            history = await self.a_frame(seat)
            assert history["type"] == "chat_history" and history["messages"], history
        return msg

    async def a_legal_move(self) -> None:
        """The player to move makes a legal move (at a hand's end, both press Continue); every
        socket gets one view of it, and no other frame is waiting."""
        st_ = self.live.state
        if st_.is_over:
            return
        if self.live.break_until is not None:
            await self.a_continue(st_.hands_dealt - 1)
            return
        actions = st_.legal_actions()
        action = actions[self.moves % len(actions)]
        version = self.live.version
        move = json.dumps({"seq": version, "action": action.to_event()})
        with deadline(TIMEOUT):
            await send(self.sockets[st_.current_seat], move)
            for seat, ws in self.sockets.items():
                msg = await self.a_frame(seat)
                assert msg["type"] == "view" and msg["version"] > version, msg
                assert ws._send_rx.statistics().current_buffer_used == 0, "a frame too many"
        self.moves += 1

    async def a_continue(self, hand: int) -> None:
        """Both players press Continue after ``hand``: a view to every socket each time (the
        second deals the next hand); the hand's end shown meanwhile names what each seat kept."""
        self.hands_ended += 1
        with deadline(TIMEOUT):
            for seat in (0, 1):
                version = self.live.version
                await send(self.sockets[seat], json.dumps({"type": "continue", "hand": hand}))
                for other, ws in self.sockets.items():
                    msg = await self.a_frame(other)
                    assert msg["type"] == "view" and msg["version"] >= version, msg
                    assert ws._send_rx.statistics().current_buffer_used == 0, "a frame too many"
        # The next hand is dealt; a deal thrown in (nobody holds a double when no seat has the
        # lead, about one in 350 at two seats) is dealt again at once: every deal before the
        # last since the hand's end is one, a hand with no events in the record.
        live, dealt = self.live, self.live.hands_dealt()
        assert live.break_until is None and dealt >= hand + 2, (dealt, hand)
        assert live.state.hands_dealt == dealt and not live.state.awaiting_deal
        thrown = live.state.record()["hands"][hand + 1 : dealt - 1] if dealt > hand + 2 else []
        assert not any(h["events"] for h in thrown), (dealt, hand)

    async def a_rematch(self) -> str:
        """Both players accept a rematch: a view to every socket each time, the second naming
        the new table."""
        msg: dict[str, Any] = {}
        with deadline(TIMEOUT):
            for seat in (0, 1):
                await send(self.sockets[seat], json.dumps({"type": "rematch"}))
                for other, ws in self.sockets.items():
                    msg = await self.a_frame(other)
                    assert msg["type"] == "view" and msg["rematch"]["accepted"], msg
                    assert ws._send_rx.statistics().current_buffer_used == 0, "a frame too many"
        self.rematches += 1
        return str(msg["rematch"]["table"])

    async def a_dealt(self, tid: str) -> None:
        """The rematch's table is dealt (once its players' seeds are in, or at once here)."""
        tables = self.client.app.state.tables  # type: ignore[attr-defined]
        with deadline(TIMEOUT):
            while tables.live[tid].state is None:
                await anyio.sleep(0.01)

    async def a_first_views(self) -> None:
        with deadline(TIMEOUT):
            for seat in self.sockets:
                assert (await self.a_frame(seat))["type"] == "view"

    async def a_last_views(self) -> None:
        record = self.live.state.record()
        with deadline(TIMEOUT):
            for seat in self.sockets:  # every socket is still open and answers
                await self.a_message(seat, json.dumps({"type": "resync"}))
                # Answered once the resync's work is all done (its chat history query), so
                # closing the socket cancels no query in flight.
                await self.a_message(seat, "{}")
        for ws in self.sockets.values():
            assert ws._send_rx.statistics().current_buffer_used == 0, "a frame too many"
        assert self.live.state.record() == record


def test_generated_messages_never_break_the_table(
    db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    started, cpu_started = time.monotonic(), time.process_time()
    batches = max(1, MESSAGES // BATCH)
    with (
        drawn(batches) as templates,
        TestClient(make_app(db_path, hand_pause=600)) as c,
        contextlib.ExitStack() as stack,
    ):
        c.get("/api/me")
        h = Harness(c, stack)
        h.open_table(GAMES[0])
        for batch in templates:
            h.play(batch)
        h.close_table()
    seconds = time.monotonic() - started
    cpu = time.process_time() - cpu_started
    games = ", ".join(f"{n} {game}" for game, n in Counter(h.games).items())
    print(
        f"abuse: {h.sent} messages, {h.moves} legal moves, {len(h.games)} games ({games}), "
        f"{h.hands} hands ({h.hands_ended} ended on the board), {h.rematches} rematches, "
        f"{seconds:.1f} s (CPU: {cpu:.1f} s sending and checking, "
        f"{templates.cpu or 0:.1f} s drawing), replies {dict(h.replies.most_common())}"
    )
    assert h.sent >= MESSAGES * 0.9
    assert h.replies["error"] > h.sent // 2
    assert h.moves >= min(3, batches)
    problems = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not problems, [r.getMessage() for r in problems]


# -- the limits and the rules of the socket ---------------------------------------------------


def test_too_many_messages_get_a_clear_error_and_the_socket_lives_on(db_path: str) -> None:
    with TestClient(make_app(db_path, limits={"ws": "5/second"})) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        live = c.app.state.tables.live[tid]  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            json.loads(recv(ws))
            replies = []
            for _ in range(200):  # a flood: junk and valid requests alike
                ws.send_text("junk")
                replies.append(json.loads(recv(ws)))
            version = live.version
            slowed = [r for r in replies if r["message"] == "too many messages: slow down"]
            assert len(slowed) >= 190
            assert all(r["type"] == "error" and r["version"] == version for r in replies)
            for _ in range(50):  # the window passes: the same socket is served again
                time.sleep(0.1)
                ws.send_json({"type": "resync"})
                again = json.loads(recv(ws))
                if again["type"] != "error":
                    break
            assert again["type"] == "view" and again["version"] == live.version


def test_oversized_binary_and_deeply_nested_messages_are_refused(client: TestClient) -> None:
    register(client, "ann")
    tid = post(client, "/api/quickplay").json()["id"]
    live = client.app.state.tables.live[tid]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        view = json.loads(recv(ws))
        version = view["version"]
        cases: list[tuple[str | bytes, str]] = [
            ("x" * 1_000_000, "message too large"),
            (json.dumps({"seq": version, "action": {"play": "é" * 3000}}), "message too large"),
            (b"\x00\xff" * 10, "a message is JSON text"),  # was: KeyError, the socket closed
            (b"x" * 100_000, "a message is JSON text"),
            ("[" * 2000 + "]" * 2000, "nested too deeply"),  # was: RecursionError
            ('{"seq": 1, "action": ' + "[" * 1500 + "]" * 1500 + "}", "nested too deeply"),
        ]
        for payload, expected in cases:
            if isinstance(payload, bytes):
                ws.send_bytes(payload)
            else:
                ws.send_text(payload)
            reply = json.loads(recv(ws))
            assert reply["type"] == "error" and expected in reply["message"], (payload[:40], reply)
            assert reply["version"] == version == live.version
        assert resync(ws)["version"] == version


def test_errors_never_carry_text_a_real_socket_cannot_send(client: TestClient) -> None:
    """A lone surrogate (a valid JSON escape) echoed in an error could not be sent as UTF-8."""
    register(client, "ann")
    tid = post(client, "/api/quickplay").json()["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        view = json.loads(recv(ws))
        for text in (
            '{"seq": VERSION, "action": {"play": "\\ud800"}}',
            '{"seq": VERSION, "action": {"play": "6-\\udfff"}}',
            '{"type": "chat", "text": "\\ud800"}',
            '{"type": "seed", "hand": 1, "seed": "\\ud800"}',
        ):
            ws.send_text(text.replace("VERSION", str(view["version"])))
            reply = json.loads(recv(ws))  # recv checks the frame encodes as UTF-8
            assert reply["type"] == "error", reply


def test_a_seat_never_acts_for_another(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    live = client.app.state.tables.live[tid]  # type: ignore[attr-defined]
    mover = live.state.current_seat
    jars = {0: ann, 1: bob}
    use(client, jars[1 - mover])
    with client.websocket_connect(f"/ws/tables/{tid}") as other:
        json.loads(recv(other))
        version = live.version
        legal = [a.to_event() for a in live.state.legal_actions()]
        for event in legal:
            for claim in ({}, {"seat": mover}, {"seat": mover, "user_id": 1}):
                other.send_json({"seq": version, "action": event, **claim})
                reply = json.loads(recv(other))
                assert reply == {
                    "type": "error",
                    "message": "it is not your turn",
                    "version": version,
                }
    use(client, None)
    with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
        json.loads(recv(watcher))
        watcher.send_json({"seq": version, "action": legal[0], "seat": mover})
        reply = json.loads(recv(watcher))
        assert reply["type"] == "error" and "watching" in reply["message"]
    assert live.version == version
    assert all(not h["events"] for h in live.state.record()["hands"])


def test_a_double_submitted_move_is_applied_once(client: TestClient) -> None:
    """The same message twice in a row, before the first answer is read: one move, one resync."""
    tid, ann, bob = two_player_table(client)
    live = client.app.state.tables.live[tid]  # type: ignore[attr-defined]
    mover = live.state.current_seat
    use(client, ann if mover == 0 else bob)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        view = json.loads(recv(ws))
        version = view["version"]
        move = {"seq": version, "action": view["moves"][0]["event"]}
        ws.send_json(move)
        ws.send_json(move)
        first, second = json.loads(recv(ws)), json.loads(recv(ws))
    assert first["type"] == "view" and first["version"] == version + 1
    assert second["type"] == "resync" and second["version"] == version + 1
    assert second["message"].startswith("the table moved on")
    events = [e for h in live.state.record()["hands"] for e in h["events"]]
    assert len(events) == 1 and events[0]["seat"] == mover
