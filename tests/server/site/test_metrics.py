"""GET /metrics (Prometheus) and clean answers while the database is down (issue 8)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from boneyard.server.metrics import Metrics
from tests.server.conftest import METRICS_TOKEN, metric, metrics_text, post, register, until_turn


def test_metrics_count_tables_sockets_actions_and_latency(client: TestClient) -> None:
    r = client.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    for name in (
        "boneyard_live_tables",
        "boneyard_connected_sockets",
        "boneyard_actions_committed_total",
        "boneyard_action_seconds_bucket",
        "boneyard_broadcast_lag_seconds_bucket",
        "boneyard_db_errors_total",
        "boneyard_redis_up",
        "boneyard_loop_lag_seconds_bucket",
    ):
        assert name in r.text
    assert metric(r.text, "boneyard_redis_up") == -1.0  # in memory: no Redis
    register(client, "ann")
    tid = post(client, "/api/quickplay").json()["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        msg = until_turn(ws)
        text = metrics_text(client)
        assert metric(text, "boneyard_connected_sockets") == 1
        assert metric(text, "boneyard_live_tables") >= 1
        before = metric(text, "boneyard_actions_committed_total")
        assert before >= 1  # the deal
        ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
        ws.receive_json()
    text = metrics_text(client)
    assert metric(text, "boneyard_actions_committed_total") > before
    assert metric(text, "boneyard_action_seconds_count") >= 1
    assert metric(text, "boneyard_connected_sockets") == 0


def test_database_down_is_a_clear_503_and_counted(client: TestClient) -> None:
    tables = client.app.state.tables  # type: ignore[attr-defined]

    class Down:
        def __call__(self) -> Any:
            raise OperationalError("connect", {}, ConnectionRefusedError("refused"))

    tables.sessions = Down()
    r = client.get("/api/tables/0123456789abcdef")
    assert r.status_code == 503
    assert r.json() == {"detail": "the database is unavailable: try again in a moment"}
    assert metric(metrics_text(client), "boneyard_db_errors_total") >= 1


def test_a_stalled_event_loop_shows_in_the_loop_lag() -> None:
    """A blocking call of 0.3 s on the loop: the lag histogram has one observation over 0.2 s,
    and the quiet measurements before it are short."""
    m = Metrics()

    async def run() -> None:
        watch = asyncio.create_task(m.watch_loop_lag(period=0.02))
        await asyncio.sleep(0.2)  # quiet: about ten measurements
        time.sleep(0.3)  # a stall
        await asyncio.sleep(0.1)
        watch.cancel()

    asyncio.run(run())
    text = m.render().decode()
    count = metric(text, "boneyard_loop_lag_seconds_count")
    under = metric(text, 'boneyard_loop_lag_seconds_bucket{le="0.2"}')
    assert count >= 5
    assert count - under == 1  # the stall, and only it
