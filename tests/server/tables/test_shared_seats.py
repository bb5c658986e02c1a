"""Seat changes reach the other processes (issue 6/8): the turn clock's substitution made in one
process and the reclaim made in another, each announced after its commit and taken by the other
process's copy of the table (its seats, its bots, its sockets' seats).

Two apps on one SQLite file stand for two processes; their broadcasters are linked by hand (each
message published for the other processes is delivered to the other app's handler), which is
what Redis does between real processes (tests/server/ops/test_multiprocess.py).
"""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from boneyard.server.tables.broadcast import Broadcaster, JSONMessage
from tests.server.conftest import make_app, post, receive_until, register, use, wait_for


class Linked(Broadcaster):
    """Another process may hold the same tables; what is sent to them is kept for the test."""

    distributed = True

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, JSONMessage]] = []

    def _send_remote(self, table_id: str, message: JSONMessage) -> None:
        self.sent.append((table_id, message))


def linked_app(db: str, **kw: Any) -> tuple[Any, Linked]:
    app = make_app(db, **kw)
    bus = Linked()
    app.state.tables.broadcaster = bus
    return app, bus


def deliver(sender: Linked, receiver: TestClient, tid: str) -> int:
    """Deliver what ``sender`` published about ``tid`` to the other process; how many."""
    msgs = [m for t, m in sender.sent if t == tid]
    sender.sent.clear()
    tables = receiver.app.state.tables  # type: ignore[attr-defined]
    for m in msgs:
        receiver.portal.call(tables.on_event, tid, m)  # type: ignore[union-attr]
    return len(msgs)


def test_clock_substitution_and_reclaim_reach_the_other_process(db_path: str) -> None:
    # A's clock runs fast (1,000 s → 10 s: time for B's socket to be seated first, even on a
    # loaded machine); B's at full length, so only A's runs out. The bots take 2 s a move in
    # both: once both seats are bots, the game must not end before she reclaims hers (at 0.2 s
    # in A and at once in B it once did while a loaded machine ran the test: "the game is over").
    app_a, bus_a = linked_app(db_path, clock_scale=0.01, bot_delay=2.0)
    app_b, bus_b = linked_app(db_path, bot_delay=2.0)
    with TestClient(app_a) as a, TestClient(app_b) as b:
        a.get("/api/me")
        ann = register(a, "ann")
        body = {
            "game": "highfive",
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}],
            "clock": {"per_move": 1000, "grace": 0, "bot": "greedy"},
        }
        tid = post(a, "/api/tables", body).json()["id"]
        use(b, ann)
        with b.websocket_connect(f"/ws/tables/{tid}") as ws:
            receive_until(ws, lambda m: m["type"] == "view" and m["seat"] == 0, limit=500)
            live_a = a.app.state.tables.live[tid]  # type: ignore[attr-defined]
            live_b = b.app.state.tables.live[tid]  # type: ignore[attr-defined]
            assert live_b.bots.keys() == {1}
            # Ann never moves: A's clock gives her seat to a bot and tells the other processes.
            wait_for(lambda: live_a.seats[0].kind == "bot", seconds=120)
            assert deliver(bus_a, b, tid) >= 1
            assert live_b.seats[0].kind == "bot" and live_b.seats[0].replaced.name == "ann"
            assert live_b.bots.keys() == {0, 1}
            assert [x["event"] for x in live_b.settings["seat_changes"]] == ["abandoned"]
            # Her socket on B now watches: no hand, no moves.
            taken = receive_until(
                ws, lambda m: m["type"] == "view" and m["seat"] is None, limit=500
            )
            assert taken["table"]["seats"][0]["kind"] == "bot"
            # She takes the seat back through B; A learns it and its bots leave her seat.
            ws.send_json({"type": "reclaim"})
            receive_until(ws, lambda m: m["type"] == "view" and m["seat"] == 0, limit=500)
            assert deliver(bus_b, a, tid) >= 1
            assert live_a.seats[0].kind == "person" and live_a.seats[0].user_id is not None
            assert 0 not in live_a.bots
            events = [x["event"] for x in live_a.settings["seat_changes"]]
            assert events == ["abandoned", "reclaimed"]
