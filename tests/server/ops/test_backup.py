"""Backups restore into a fresh database and the restored server resumes the table
(docs/operations.md): SQLite's online backup, and pg_dump/pg_restore on PostgreSQL."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from bench.faults import scratch_database
from tests.server.conftest import make_app, post, register, until_turn, use
from tests.services import needs, needs_postgres, postgres_url


def play_some(db: str) -> tuple[str, dict[str, Any], int, Any]:
    """A quickplay table with a few moves; returns its id, the player's cookies, the version
    and the player's view."""
    with TestClient(make_app(db)) as c:
        c.get("/api/me")
        ann = register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            for _ in range(3):
                msg = until_turn(ws)
                ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
            last = until_turn(ws)  # ann's turn again: no bot move is pending
            assert last["moves"]
        return tid, ann, last["version"], last["view"]


def resumes(db: str, tid: str, jar: dict[str, Any], version: int, view: Any) -> None:
    """A fresh server on the restored database has the table as it was and accepts a move."""
    with TestClient(make_app(db)) as c:
        use(c, jar)
        live = c.app.state.tables.live[tid]  # type: ignore[attr-defined]
        assert live.version == version
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            first = ws.receive_json()
            assert first["version"] == version and first["view"] == view
            msg = first if first["moves"] else until_turn(ws)
            if not msg["view"]["is_over"]:
                ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
                after = ws.receive_json()
                assert after["type"] == "view" and after["version"] > msg["version"]


def test_sqlite_backup_restores_and_the_table_resumes(tmp_path: Path) -> None:
    src, dst = tmp_path / "site.db", tmp_path / "restored.db"
    tid, jar, version, view = play_some(str(src))
    # What docs/operations.md says: sqlite3 site.db ".backup restored.db" (the online backup
    # API, safe while the server runs); here through Python's binding of the same API.
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    if shutil.which("sqlite3"):
        cli = tmp_path / "cli.db"
        subprocess.run(["sqlite3", str(src), f".backup {cli}"], check=True)
        resumes(str(cli), tid, jar, version, view)
    resumes(str(dst), tid, jar, version, view)


@needs_postgres
@needs("pg_dump")
def test_pg_dump_restores_into_a_fresh_database_and_the_table_resumes(tmp_path: Path) -> None:
    admin = postgres_url()

    async def run() -> None:
        async with scratch_database(admin) as src, scratch_database(admin) as dst:
            tid, jar, version, view = await asyncio.to_thread(play_some, src)
            dump = tmp_path / "boneyard.dump"
            plain = src.replace("postgresql+asyncpg://", "postgresql://")
            subprocess.run(["pg_dump", "-Fc", "-f", str(dump), plain], check=True)
            target = dst.replace("postgresql+asyncpg://", "postgresql://")
            subprocess.run(
                ["pg_restore", "--no-owner", "--exit-on-error", "-d", target, str(dump)],
                check=True,
            )
            await asyncio.to_thread(resumes, dst, tid, jar, version, view)

    asyncio.run(run())
