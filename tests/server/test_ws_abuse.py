"""Abuse of the live-table socket (issue 8 item 4).

Hypothesis generates messages (random JSON and text, near-valid moves with a wrong sequence
number, seat or action, huge strings, deep nesting, binary frames, unknown and known message
types with wrong fields) sent by both players and a spectator over real sockets of one table.
Every message must get exactly one well-formed answer (an error, a view or a resync) with the
table unchanged; the server never fails, never closes a socket, and no frame to a spectator or a
seat holds a tile of another seat's hand or of the boneyard. Between batches the player to move
makes a legal move, so the abuse meets many states of the game.

``BONEYARD_ABUSE_MESSAGES`` sets how many messages (default 10,000; bench/abuse.py runs 100,000).
Also: the rate and size limits, a seat never acting for another, a double-submitted move.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tests.server.conftest import make_app, post, register, resync, use
from tests.server.test_ws import hidden_tiles, two_player_table

MESSAGES = int(os.environ.get("BONEYARD_ABUSE_MESSAGES", "10000"))
BATCH = 100  # messages per Hypothesis example; a legal move follows each example
REPLY_TYPES = {"error", "view", "resync", "mutes", "seed"}
TILE = re.compile(r"\b(\d{1,2})-(\d{1,2})\b")
EXAMPLE = re.compile(r"(like|such as|e\.g\.) \d+-\d+")  # help text, the same for everyone
SEATS: tuple[int | None, ...] = (0, 1, None)


def recv(ws: Any, timeout: float = 10.0) -> str:
    """The next text frame of ``ws``; fails on a close, a binary frame or silence."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(get)
    except TimeoutError:
        raise AssertionError(f"no answer within {timeout} s: did the server fail?") from None
    assert message["type"] == "websocket.send", f"the server closed the socket: {message}"
    text = message.get("text")
    assert isinstance(text, str), f"a binary frame from the server: {message}"
    text.encode("utf-8")  # a real server must be able to send it
    return text


# -- the messages ------------------------------------------------------------------------------
# The strategies draw templates, which become messages against the table as it is when sent
# (what Hypothesis draws must not depend on the table: it changes between examples).

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


Template = Callable[[Table], tuple[int | None, str | bytes]]


def _wrong_socket(k: int, j: int, claim: int | None) -> Template:
    """The right action from the wrong socket (another seat, the spectator), maybe with a claim
    to be the seat to move."""

    def make(t: Table) -> tuple[int | None, str]:
        msg: dict[str, Any] = {"seq": t.version, "action": t.action(k)}
        if claim is not None:
            msg["seat"] = t.mover if claim < 0 else claim
        return t.not_mover(j), json.dumps(msg)

    return make


def _wrong_seq(seat: int | None, k: int, how: int, value: int) -> Template:
    def make(t: Table) -> tuple[int | None, str]:
        seq: Any = [t.version + (value or 1), str(t.version), float(t.version), None, True,
                    [t.version], t.version - 1][how % 7]  # fmt: skip
        return seat, json.dumps({"seq": seq, "action": t.action(k)})

    return make


def _wrong_action(seat: int | None, k: int, how: int, key: str, value: Any) -> Template:
    def make(t: Table) -> tuple[int | None, str]:
        a = t.action(k)
        if how == 0:
            a.pop(next(iter(a)))
        elif how == 1:
            a[key] = value
        elif how == 2:
            a[next(iter(a))] = value
        else:
            a = value
        if a in t.legal:  # by chance a legal move: make it a stale one instead
            return seat, json.dumps({"seq": t.version + 1, "action": a})
        return seat, json.dumps({"seq": t.version, "action": a})

    return make


def _fixed(seat: int | None, payload: str | bytes) -> Template:
    return lambda _t: (seat, payload)


def _with_version(seat: int | None, make: Callable[[int], Any]) -> Template:
    return lambda t: (seat, json.dumps(make(t.version)))


near_valid = st.one_of(
    st.builds(_wrong_socket, pick, pick, st.sampled_from([None, 0, 1, -1])),
    st.builds(_wrong_seq, seats, pick, pick, st.integers()),
    st.builds(_wrong_action, seats, pick, st.integers(0, 3), keys, json_value | tile_text),
)
typed = st.one_of(
    st.builds(lambda ty, extra: {"type": ty, **extra}, types, st.dictionaries(keys, json_value, max_size=3)),
    st.builds(lambda text: {"type": "chat", "text": text},
              st.none() | st.integers() | st.sampled_from(["", "   ", "x" * 600, "\x00", "a\x07b", "\ud800"])),
    st.builds(lambda ty, uid: {"type": ty, "user_id": uid}, st.sampled_from(["mute", "unmute"]),
              st.none() | st.text(max_size=3) | st.just(True) | st.integers() | st.sampled_from([0, 2**31, 2**63])),
    st.builds(lambda hand, seed: {"type": "seed", "hand": hand, "seed": seed}, json_value, json_value),
)  # fmt: skip
texts = st.one_of(
    json_value.map(json.dumps),
    st.text(max_size=40),
    typed.map(json.dumps),
    # JSON escapes of lone surrogates and NULs: valid JSON, not encodable as UTF-8
    st.sampled_from(['{"type": "chat", "text": "\\ud800"}', '{"seq": 0, "action": {"play": "\\udfff"}}',
                     '{"type": "\\ud800"}', '["\\u0000"]', '{"seq": 1, "action": {"\\ud800": 1}}']),
    # huge: over the size limit
    st.builds(lambda n, c: c * n, st.integers(4000, 70_000), st.sampled_from(["x", "[", "{", "é", '"'])),
    # deep nesting (the size limit allows some 2,000 levels)
    st.builds(lambda d: "[" * d + "]" * d, st.integers(1, 2048)),
    st.builds(lambda d: '{"a":' * d + "1" + "}" * d, st.integers(1, 800)),
)  # fmt: skip
binary = st.binary(max_size=64) | st.builds(lambda n: b"\xff\xfe" * n, st.integers(1, 40_000))
frames = st.one_of(
    st.builds(_fixed, seats, texts),
    st.builds(_fixed, seats, binary),
    near_valid,
    near_valid,
    # a move whose tile is near the size limit; an unknown type on a move
    st.builds(_with_version, seats, st.integers(0, 4100).map(
        lambda n: lambda v: {"seq": v, "action": {"play": "x" * n}})),
    st.builds(_with_version, seats, st.tuples(types, tile_text).map(
        lambda tt: lambda v: {"type": tt[0], "seq": v, "action": {"play": tt[1]}})),
)  # fmt: skip


# -- the checks --------------------------------------------------------------------------------


@dataclass
class Harness:
    """One table of two people with a spectator, and what the test has seen."""

    client: TestClient
    live: Any
    sockets: dict[int | None, Any]
    sent: int = 0
    replies: dict[str, int] = field(default_factory=dict)
    moves: int = 0
    failure: tuple[int | None, str | bytes, BaseException] | None = None

    def table(self) -> Table:
        st_ = self.live.state
        legal = [a.to_event() for a in st_.legal_actions()] if not st_.is_over else []
        return Table(self.live.version, st_.current_seat, legal)

    def check_frame(self, seat: int | None, text: str, sent: str | None = None) -> dict[str, Any]:
        msg = json.loads(text)
        assert isinstance(msg, dict) and msg.get("type") in REPLY_TYPES | {"chat_history"}, msg
        hidden = hidden_tiles(self.live, seat)
        if msg["type"] == "error":
            assert isinstance(msg["message"], str) and msg["message"], msg
            assert msg["version"] == self.live.version
            # An error may name what was sent, never a hidden tile that was not.
            for a, b in TILE.findall(EXAMPLE.sub("", msg["message"])):
                named = {f"{a}-{b}", f"{b}-{a}"}
                if named & hidden:
                    assert sent is not None and any(n in sent for n in named), (seat, msg)
        else:
            for t in hidden:
                a, b = t.split("-")
                assert f'"{t}"' not in text and f'"{b}-{a}"' not in text, (seat, t, msg["type"])
        if msg["type"] in ("view", "resync"):
            assert msg["seat"] == seat and msg["version"] == self.live.version
            if seat is None:
                assert msg["view"]["hand"] == [] and msg["moves"] == []
        return msg

    def abuse(self, seat: int | None, payload: str | bytes) -> None:
        ws = self.sockets[seat]
        before = (self.live.version, self.live.state.current_seat)
        if isinstance(payload, bytes):
            ws.send_bytes(payload)
            sent = None
        else:
            ws.send_text(payload)
            sent = payload
        msg = self.check_frame(seat, recv(ws), sent)
        self.sent += 1
        self.replies[msg["type"]] = self.replies.get(msg["type"], 0) + 1
        assert (self.live.version, self.live.state.current_seat) == before, (payload[:200], msg)

    def legal_move(self) -> None:
        """The player to move makes a legal move; every socket gets one view of it."""
        st_ = self.live.state
        if st_.is_over:
            return
        mover = st_.current_seat
        actions = st_.legal_actions()
        action = actions[self.moves % len(actions)]
        version = self.live.version
        self.sockets[mover].send_json({"seq": version, "action": action.to_event()})
        for seat, ws in self.sockets.items():
            msg = self.check_frame(seat, recv(ws))
            assert msg["type"] == "view" and msg["version"] > version, msg
        self.moves += 1


@contextlib.contextmanager
def harness(db: str) -> Iterator[Harness]:
    with TestClient(make_app(db)) as c:
        c.get("/api/me")
        tid, ann, bob = two_player_table(c)
        live = c.app.state.tables.live[tid]  # type: ignore[attr-defined]
        with contextlib.ExitStack() as stack:
            sockets: dict[int | None, Any] = {}
            for seat, jar in ((0, ann), (1, bob), (None, None)):
                use(c, jar)
                sockets[seat] = stack.enter_context(c.websocket_connect(f"/ws/tables/{tid}"))
            h = Harness(c, live, sockets)
            for seat, ws in sockets.items():
                assert h.check_frame(seat, recv(ws))["type"] == "view"
            yield h


def test_generated_messages_never_break_the_table(
    db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    started = time.monotonic()
    with harness(db_path) as h:

        @settings(
            max_examples=max(1, MESSAGES // BATCH),
            deadline=None,
            database=None,
            phases=[Phase.generate],  # no replay or shrinking: the table's state moves on
            suppress_health_check=list(HealthCheck),
        )
        @given(data=st.data())
        def batch(data: st.DataObject) -> None:
            for template in data.draw(st.lists(frames, min_size=BATCH, max_size=BATCH)):
                seat, payload = template(h.table())
                try:
                    h.abuse(seat, payload)
                except BaseException as exc:
                    h.failure = h.failure or (seat, payload, exc)
                    raise
            h.legal_move()

        try:
            batch()
        except BaseException:
            if h.failure is None:
                raise
            seat, payload, exc = h.failure  # (the table moved on: Hypothesis cannot replay it)
            raise AssertionError(f"seat {seat} sent {payload[:300]!r}: {exc!r}") from exc
        record = h.live.state.record()
        for ws in h.sockets.values():  # every socket is still open and answers
            assert resync(ws)["version"] == h.live.version
        assert h.live.state.record() == record
    seconds = time.monotonic() - started
    print(f"abuse: {h.sent} messages, {h.moves} legal moves, {seconds:.1f} s, replies {h.replies}")
    assert h.sent >= MESSAGES * 0.9
    assert h.replies.get("error", 0) > h.sent // 2
    assert h.moves >= 3
    problems = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not problems, [r.getMessage() for r in problems]


# -- the limits and the rules of the socket ---------------------------------------------------


def test_too_many_messages_get_a_clear_error_and_the_socket_lives_on(db_path: str) -> None:
    with TestClient(make_app(db_path, ws_rate=(5, 0.5))) as c:
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
            time.sleep(0.6)  # the window passes: the same socket is served again
            ws.send_json({"type": "resync"})
            again = json.loads(recv(ws))
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
