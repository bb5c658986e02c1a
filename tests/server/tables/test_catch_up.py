"""A catch-up that cannot replay what another process wrote takes none of it: the table keeps
its state, hand scores, seeds, version and move log (``LiveTable.checkpoint``/``roll_back``,
the same rollback a failed commit uses)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert
from starlette.testclient import TestClient

from boneyard.store.models import LogEntry
from boneyard.store.writer import entry_row
from tests.server.conftest import make_app, post, receive_until, register


def test_a_catch_up_that_does_not_replay_changes_nothing(tmp_path: Path) -> None:
    with TestClient(make_app(str(tmp_path / "t.db"))) as c:
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        tables: Any = c.app.state.tables  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            mine = receive_until(ws, lambda m: m["type"] == "view" and bool(m["moves"]))
        table = tables.live[tid]  # (quiet: the bot waits for Ann's move)
        v = table.version
        assert mine["version"] == v
        # "Another process" wrote Ann's move, then an entry that does not replay after it.
        rows = [
            entry_row(tid, v + 1, "action", 0, mine["moves"][0]["event"], datetime.now(UTC)),
            entry_row(tid, v + 2, "action", 1, {"type": "nonsense"}, datetime.now(UTC)),
        ]

        async def plant() -> None:
            async with tables.sessions() as db, db.begin():
                await db.execute(insert(LogEntry), rows)

        c.portal.call(plant)  # type: ignore[union-attr]
        before = (table.state, list(table.hand_scores), dict(table.seeds), table.log().mark())
        with pytest.raises(Exception):  # noqa: B017 (the game's own refusal of the entry)
            c.portal.call(tables.loader.refresh, table)  # type: ignore[union-attr]
        after = (table.state, table.hand_scores, table.seeds, table.log().mark())
        assert after == before and after[0] is before[0]
        assert table.version == v
