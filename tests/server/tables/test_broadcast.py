"""Broadcasters and catching a table up from the log (issue 8, item 1), in one process.

Two apps on one SQLite file stand for two processes: a move at one, then the other catches up
from the log entries after its version. The Redis broadcaster is tested against
``BONEYARD_TEST_REDIS_URL`` (skipped when unset; .ci/run sets it) and against a dead port.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from starlette.testclient import TestClient

from bench.faults import free_port
from boneyard.server.tables.broadcast import (
    InMemoryBroadcaster,
    RedisBroadcaster,
    make_broadcaster,
)
from boneyard.server.tables.commands import Act
from tests.server.conftest import make_app, post, register, use
from tests.services import needs_redis, redis_url


def test_make_broadcaster_refuses_an_unknown_url() -> None:
    with pytest.raises(ValueError, match="unknown broadcast URL"):
        make_broadcaster("kafka://x")
    assert isinstance(make_broadcaster(None), InMemoryBroadcaster | RedisBroadcaster)


def test_in_memory_delivers_here_unless_told_not_to() -> None:
    got: list[tuple[str, dict[str, Any]]] = []

    async def handler(tid: str, msg: dict[str, Any]) -> None:
        got.append((tid, msg))

    async def run() -> None:
        b = InMemoryBroadcaster()
        await b.start(handler)
        await b.publish("t1", {"type": "chat", "text": "hi"})
        await b.publish("t1", {"type": "table", "version": 3}, local=False)
        await b.close()

    asyncio.run(run())
    assert got == [("t1", {"type": "chat", "text": "hi"})]


def test_a_second_process_catches_up_from_the_log_and_forwards_other_events(
    db_path: str,
) -> None:
    with TestClient(make_app(db_path)) as a, TestClient(make_app(db_path)) as b:
        a.get("/api/me")
        b.get("/api/me")
        ann = register(a, "ann")
        t = post(a, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
        tid = t["id"]
        bob = register(a, "bob")
        assert post(a, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 200
        use(a, ann)
        assert post(a, f"/api/tables/{tid}/start").status_code == 200
        tables_a = a.app.state.tables  # type: ignore[attr-defined]
        tables_b = b.app.state.tables  # type: ignore[attr-defined]
        live_a = tables_a.live[tid]
        # B has the table at the start; A moves on.
        for k, v in bob.items():
            b.cookies.set(k, v)
        with b.websocket_connect(f"/ws/tables/{tid}") as bob_ws:
            first = bob_ws.receive_json()
            live_b = tables_b.live[tid]
            assert first["version"] == live_a.version == live_b.version
            # A (another process) commits the next move of whoever is to play.
            mover = live_a.state.current_seat
            event = live_a.state.legal_actions()[0].to_event()
            a.portal.call(live_a.ask, Act(mover, live_a.version, event))  # type: ignore[union-attr]
            ahead, behind, tables_behind, client_behind = live_a, live_b, tables_b, b
            assert behind.version < ahead.version
            client_behind.portal.call(  # type: ignore[union-attr]
                tables_behind.on_event, tid, {"type": "table", "version": ahead.version}
            )
            assert behind.version == ahead.version
            for seat in (None, 0, 1):
                assert (
                    behind.state.observation(seat).to_json()
                    == ahead.state.observation(seat).to_json()
                )
            if behind is live_b:
                fresh = bob_ws.receive_json()
                assert fresh["type"] == "view" and fresh["version"] == ahead.version
            # Any other event type goes to the table's sockets as it is, or to its handler.
            b.portal.call(  # type: ignore[union-attr]
                tables_b.on_event, tid, {"type": "note", "text": "hello"}
            )
            assert bob_ws.receive_json() == {"type": "note", "text": "hello"}
            seen: list[Any] = []

            async def handler(table: Any, message: dict[str, Any]) -> None:
                seen.append((table.id, message["text"]))

            tables_b.on_message("note", handler)
            b.portal.call(  # type: ignore[union-attr]
                tables_b.on_event, tid, {"type": "note", "text": "again"}
            )
            assert seen == [(tid, "again")]


@needs_redis
def test_redis_fans_out_to_the_other_process_only() -> None:
    redis = redis_url()
    got: dict[str, list[Any]] = {"one": [], "two": []}
    lags: list[float] = []

    def handler(name: str) -> Any:
        async def h(tid: str, msg: dict[str, Any]) -> None:
            got[name].append((tid, msg))

        return h

    async def run() -> None:
        one = RedisBroadcaster(redis, channel="boneyard:test:" + os.urandom(4).hex())
        two = RedisBroadcaster(redis, channel=one.channel)
        two.lag_observer = lags.append
        await one.start(handler("one"))
        await two.start(handler("two"))
        assert one.status == two.status == "up"
        await one.publish("t", {"type": "table", "version": 7}, local=False)
        await one.publish("t", {"type": "chat", "text": "hi"})
        for _ in range(100):
            if len(got["two"]) == 2:
                break
            await asyncio.sleep(0.02)
        await one.close()
        await two.close()

    asyncio.run(run())
    assert got["two"] == [
        ("t", {"type": "table", "version": 7}),
        ("t", {"type": "chat", "text": "hi"}),
    ]
    assert got["one"] == [("t", {"type": "chat", "text": "hi"})]  # its own, locally, once
    assert len(lags) == 2 and all(0 <= x < 5 for x in lags)


def test_redis_down_is_reported_and_publish_never_raises(caplog: Any) -> None:
    got: list[Any] = []

    async def h(tid: str, msg: dict[str, Any]) -> None:
        got.append(msg)

    async def run() -> str:
        b = RedisBroadcaster(f"redis://127.0.0.1:{free_port()}/0", retry=0.1)
        await b.start(h)
        await b.publish("t", {"type": "chat", "text": "local still works"})
        for _ in range(500):  # (its retries every 0.1 s find the port dead)
            if b.status == "down":
                break
            await asyncio.sleep(0.02)
        status = b.status
        await b.close()
        return status

    assert asyncio.run(run()) == "down"
    assert got == [{"type": "chat", "text": "local still works"}]
    assert "Redis subscription lost" in caplog.text
