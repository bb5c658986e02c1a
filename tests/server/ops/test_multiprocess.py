"""Several `boneyard serve` processes on one PostgreSQL and one Redis (issue 8, items 1 and 3).

Real processes on 127.0.0.1 free ports, real WebSockets (the ``websockets`` package). Needs
``BONEYARD_TEST_POSTGRES_URL`` (a superuser URL: each test makes and drops a scratch database) and
``BONEYARD_TEST_REDIS_URL``; the fault drills start their own ``redis-server`` so that they can
stop it. ``.ci/run`` sets both variables. The full drills are ``bench/faults.py``.
"""

from __future__ import annotations

import asyncio
import json
import random

import httpx

from bench.faults import (
    read_log,
    scenario_kills,
    scenario_redis,
    scratch_database,
    seat_two,
    servers,
)
from tests.services import needs, needs_postgres, needs_redis, postgres_url, redis_url

pytestmark = [needs_postgres, needs_redis]
needs_redis_server = needs("redis-server")
"""The fault drills start their own redis-server."""


def test_two_processes_one_table_played_to_the_end() -> None:
    admin, redis = postgres_url(), redis_url()

    async def run() -> None:
        async with scratch_database(admin) as url:
            with servers(2, url, redis) as srv:
                a, b = srv
                # The table is created on A and joined on B.
                ann, bob, tid, players = await seat_two(srv, random.Random(5))
                ends = await asyncio.wait_for(
                    asyncio.gather(players[0].play(a.ws_base), players[1].play(b.ws_base)), 120
                )
                assert ends == ["over", "over"]
                log = await read_log(url, tid)
                last = max(log)
                for p in players:
                    # Both saw the end, and every move: each of the other's moves arrived over
                    # Redis as a fresh view (a catch-up may cover several log entries at once).
                    assert p.versions[-1] == last
                    assert p.versions == sorted(p.versions)
                    assert p.acked
                    for seq, event in p.acked.items():
                        assert log[seq][0] == "action" and log[seq][2] == event
                ann_moves = set(players[0].acked)
                bob_seen = set(players[1].versions)
                assert all(any(v >= s for v in bob_seen) for s in ann_moves)
                assert len(players[1].versions) >= len(ann_moves)
                assert players[0].last and players[1].last
                assert players[0].last["result"] == players[1].last["result"]
                # The finished record is the same from either process.
                recs = [
                    httpx.get(f"{s.base}/api/tables/{tid}/record", timeout=10).json()
                    for s in (a, b)
                ]
                assert json.dumps(recs[0], sort_keys=True) == json.dumps(recs[1], sort_keys=True)
                metrics = httpx.get(f"{b.base}/metrics", timeout=10).text
                assert "boneyard_redis_up 1.0" in metrics
                await ann.close()
                await bob.close()

    asyncio.run(run())


@needs_redis_server
def test_kill_9_mid_game_loses_no_acknowledged_move() -> None:
    report = asyncio.run(scenario_kills(postgres_url(), kills=2))
    assert report["kills"] == 2
    assert report["tables"] >= 1
    assert report["acked_moves"] > 0
    assert report["tracebacks"] == 0, report


@needs_redis_server
def test_redis_outage_degrades_and_loses_nothing() -> None:
    report = asyncio.run(scenario_redis(postgres_url()))
    assert report["finished"] == ["over", "over"]
    assert report["redis_up_metric_while_down"][-1] == "boneyard_redis_up 0.0"
    assert report["redis_up_metric_after"][-1] == "boneyard_redis_up 1.0"
    assert report["logged_outage"]
    assert report["tracebacks"] == 0, report
