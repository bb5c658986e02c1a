"""The PostgreSQL restart drill (issue 8) on a throwaway cluster of its own.

``bench/faults.py``'s ``scenario_postgres`` stops PostgreSQL mid-game under two ``boneyard serve``
processes and starts it again; here it runs on a :class:`bench.faults.Postgres` cluster made for
this test (initdb in a directory under /tmp, a free port), so the cluster of
``BONEYARD_TEST_POSTGRES_URL`` that the other tests share is never restarted. Needs root (the
cluster runs as user ``postgres`` through ``runuser``), PostgreSQL's ``initdb`` and
``redis-server``; ``.ci/run`` has all three.
"""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest

from bench.faults import Postgres, postgres_bin, scenario_postgres

DOWN_MESSAGE = "the database is unavailable: try again in a moment"


def missing() -> str | None:
    if os.geteuid() != 0:
        return "restarts a PostgreSQL cluster of its own: needs root (runuser -u postgres)"
    if postgres_bin() is None or shutil.which("runuser") is None:
        return "needs PostgreSQL's initdb and runuser (Debian: apt-get install postgresql)"
    if shutil.which("redis-server") is None:
        return "needs redis-server (the drill starts its own)"
    return None


pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")


def test_postgres_restart_mid_game_answers_clearly_and_recovers() -> None:
    cluster = Postgres()
    try:
        cluster.start()
        # (about 40 s on a quiet machine; the bound only stops a hang)
        report = asyncio.run(asyncio.wait_for(scenario_postgres(cluster.url), 480))
        started = (cluster.data / "postmaster.pid").exists()
    finally:
        cluster.cleanup()
    assert started, "the cluster did not come back after the drill's restart"
    # While the database was down: HTTP said so in a 503 (JSON, no traceback page)...
    assert report["http_while_down"] == (503, DOWN_MESSAGE), report
    # ...and a move over a socket opened before the outage got an error, nothing applied.
    kind, message = report["ws_move_while_down"]
    assert kind == "error" and "database unavailable" in message and "nothing changed" in message
    # Once it was back, the same socket resynced at the same version and the move went through.
    assert report["ws_resync_after"] == ("view", True), report
    assert report["ws_move_after"] == "view", report
    assert report["http_after"] == 200, report
    # The game was played to the end and every acknowledged move is in the log.
    assert report["finished"] == ["over", "over"], report
    assert report["acked_moves_in_log"] > 0, report
    assert report["tracebacks"] == 0, report
