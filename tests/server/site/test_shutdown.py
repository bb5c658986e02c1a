"""The app's shutdown ends within its bound even when a step hangs, and says where it hung."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.server import shutdown
from boneyard.store import tables as tables_repo
from tests.server.conftest import make_app, post, register, wait_for


async def waits_for_ever() -> None:
    await asyncio.Event().wait()


async def fails() -> None:
    raise RuntimeError("a close that failed")


def test_a_step_that_hangs_or_fails_is_logged_and_the_next_steps_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ran: list[str] = []

    async def last() -> None:
        ran.append("the database")

    steps = [("the stuck one", waits_for_ever), ("the broken one", fails), ("the end", last)]
    with caplog.at_level(logging.ERROR, logger="boneyard.server"):
        overran = asyncio.run(shutdown.run_steps(steps, seconds=0.2))
    assert overran == ["the stuck one"]
    assert ran == ["the database"]
    # (the server's records: asyncio may add "Task was destroyed but it is pending!" for the
    # stuck step's task whenever the collector meets it)
    stuck, broken = [r for r in caplog.records if r.name == "boneyard.server"]
    assert "the stuck one is not done after 0.2 s" in stuck.getMessage()
    assert "waits_for_ever" in stuck.getMessage()  # where the pending task waits
    assert broken.getMessage() == "shutdown: the broken one failed"
    assert broken.exc_info is not None and "a close that failed" in str(broken.exc_info[1])


def test_the_server_stops_when_a_service_never_closes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A tournaments close that never returns (as CI once saw an app's shutdown wait 15
    minutes) costs its bound; the tables and the database still close after it."""
    monkeypatch.setattr(shutdown, "STEP_SECONDS", 0.5)
    app = make_app(str(tmp_path / "site.db"))
    with caplog.at_level(logging.ERROR, logger="boneyard.server"), TestClient(app) as c:
        register(c, "ann")
        monkeypatch.setattr(app.state.tournaments, "close", waits_for_ever)
        began = time.monotonic()
    assert time.monotonic() - began < 30
    (record,) = [r for r in caplog.records if "shutdown" in r.getMessage()]
    assert "the tournaments' scheduler and mailer is not done" in record.getMessage()
    assert app.state.tables.closing  # the live tables closed after it


def gate_opened_by_the_shutdown(app: Any, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """An event the shutdown's step for the sockets' last queries sets before it waits for
    them: a query held at it is still running when the app begins to end."""
    shielded = app.state.chat.shielded
    close, gate = shielded.close, asyncio.Event()

    async def opening_close() -> None:
        gate.set()
        await close()

    monkeypatch.setattr(shielded, "close", opening_close)
    return gate


def test_a_chat_history_read_still_running_is_waited_for_not_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket that closes at once leaves its chat history read running (shielded: a query cut
    mid-flight leaves the connection half-closed); the shutdown waits for it before the
    database closes, where the loop's end used to cancel it (its connection then finalized on
    a closed loop, an aiosqlite thread's error in later tests)."""
    app = make_app(str(tmp_path / "site.db"))
    reads: list[str] = []
    with TestClient(app) as c:
        register(c, "ann")
        chat = app.state.chat
        history = chat.history
        gate = gate_opened_by_the_shutdown(app, monkeypatch)

        async def slow(table_id: str, viewer: int | None, limit: int = 50) -> object:
            reads.append("begun")
            await gate.wait()
            rows = await history(table_id, viewer, limit)
            reads.append("done")
            return rows

        monkeypatch.setattr(chat, "history", slow)
        table = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.receive_json()
            wait_for(lambda: reads == ["begun"])
    assert reads == ["begun", "done"]
    assert not chat.shielded.running


def test_a_socket_closed_as_the_app_ends_still_writes_that_its_person_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last socket of the person seated at a waiting table closes just before the app
    ends: the write that the table is no longer attended (the lobby lists attended tables
    first) runs to its end, where the end's cancel of the socket cut it mid-query (the table
    stayed attended, and the aiosqlite thread died later on "Event loop is closed")."""
    db = tmp_path / "site.db"
    app = make_app(str(db))
    writes: list[str] = []
    set_attended = tables_repo.set_attended
    with TestClient(app) as c:
        register(c, "ann")
        gate = gate_opened_by_the_shutdown(app, monkeypatch)

        async def slow(session: Any, table_id: str, attended: bool) -> None:
            if not attended:  # (the write as the socket closes)
                writes.append("begun")
                await gate.wait()
            await set_attended(session, table_id, attended)
            writes.append(f"attended={attended}")

        monkeypatch.setattr(tables_repo, "set_attended", slow)
        seats = [{"kind": "me"}, {"kind": "open"}]
        table = post(c, "/api/tables", {"game": "highfive", "seats": seats}).json()["id"]
        with c.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.receive_json()
            wait_for(lambda: writes == ["attended=True"])
        wait_for(lambda: writes == ["attended=True", "begun"])
    assert writes == ["attended=True", "begun", "attended=False"]
    with sqlite3.connect(db) as saved:
        query = "SELECT attended FROM game_tables WHERE id = ?"
        assert saved.execute(query, (table,)).fetchall() == [(0,)]
