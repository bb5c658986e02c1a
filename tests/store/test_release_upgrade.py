"""The upgrade from the previous release: its databases keep everything and read through today's
code (issue 19). The fixtures were made by release 2044249 through its own API
(tests/fixtures/previous_release/make_fixtures.py); each test copies or restores one, lets
today's app migrate it at startup, and uses it as a person, a bot program and a visitor would.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from starlette.testclient import TestClient

from bench.faults import _plain
from boneyard.core.records import record_from_json
from boneyard.games import registry
from tests.server.conftest import ROOMY, make_app, post, use
from tests.services import needs_postgres, scratch_postgres
from tests.store.helpers import run_sync

FIXTURES = Path(__file__).parents[1] / "fixtures" / "previous_release"
MANIFEST = json.loads((FIXTURES / "manifest.json").read_text())
Counts = dict[str, int]


def counts_of(conn: sa.Connection) -> Counts:
    """Rows per table (Alembic's own bookkeeping left out)."""
    names = [n for n in sa.inspect(conn).get_table_names() if n != "alembic_version"]
    return {n: conn.execute(sa.text(f'SELECT count(*) FROM "{n}"')).scalar_one() for n in names}


def check_site(c: TestClient, m: dict[str, Any]) -> None:
    """Everything the old release stored reads through today's code."""
    c.get("/api/me")
    # The person signs in with the password they chose then; the guest is still there.
    r = post(c, "/api/login", {"username": "ann", "password": m["password"]})
    assert r.status_code == 200, r.text
    ann = dict(c.cookies)
    # The bot program's token still authenticates (and is still a bot's).
    c.cookies.clear()
    me = c.get("/api/me", headers={"Authorization": f"Bearer {m['token']}"}).json()["user"]
    assert me["username"] == m["bot_account"] and me["bot"] is True
    use(c, ann)
    # Each finished table's record replays, through the site and the rules engine.
    for game, tid in m["finished"].items():
        r = c.get(f"/api/tables/{tid}/record")
        assert r.status_code == 200, (game, r.text)
        record = record_from_json(r.json())
        spec = registry.get_spec(record.game)
        lines = list(spec.replay(record))  # every hand and event checked
        assert lines or game == "people", game  # (Bob resigned before a move)
        assert spec.from_record(record).is_over or record.meta.get("ending"), game
        assert c.get(f"/api/tables/{tid}/replay").status_code == 200, game
    # The live tables load as live tables: Ann's seat sees the hand in play.
    for role in ("challenge", "handed"):
        tid = m["live"][role]
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing", role
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            view = ws.receive_json()
            assert view["type"] == "view" and view["seat"] == 0, (role, view)
            assert view["view"] and not view["view"]["is_over"], role
    seats = c.get(f"/api/tables/{m['live']['handed']}").json()["seats"]
    assert [s["name"] for s in seats] == ["ann", "bob"]
    # The open tables are still open, and the challenge still kept for the bot account.
    assert c.get(f"/api/tables/{m['live']['open']}").json()["status"] == "open"
    invited = c.get(f"/api/tables/{m['live']['invited']}").json()
    assert invited["status"] == "open" and invited["seats"][1]["invited"] == m["bot_account"]
    check_events_and_ratings(c, m)


def check_events_and_ratings(c: TestClient, m: dict[str, Any]) -> None:
    online = c.get(f"/api/tournaments/{m['events']['online']}").json()
    assert online["status"] == "finished" and online["champion"] is not None
    assert [s["rank"] for s in online["standings"]] == [1, 2, 3]
    otb = c.get(f"/api/tournaments/{m['events']['otb']}").json()
    first = next(x for x in otb["rounds"][0] if x["id"] == m["events"]["otb_match"])
    assert [g["status"] for g in first["games"]] == ["confirmed", "ruled"]
    assert first["games"][1]["note"] == "score sheet checked: 145-150"
    assert [g["status"] for g in otb["rounds"][0][1]["games"]] == ["reported"]
    for eid in m["events"].values():
        if eid != m["events"]["otb_match"]:
            assert c.get(f"/tournaments/{eid}").status_code == 200
    board = c.get("/api/ratings?game=highfive&category=2p").json()["ratings"]
    assert sorted(r["name"] for r in board) == m["rated"]
    page = c.get("/leaderboard")
    assert page.status_code == 200


def old_app(db: str) -> Any:
    """Today's app on the old database, with the site's clocks stopped: the fixtures were made
    on one day and are read on any later one, when an open table would have expired, an idle
    bot table closed and a move clock run out. What the upgrade keeps is the question here, not
    what time does to it afterwards (tested elsewhere)."""
    years = 10.0**7  # minutes: some 19 years
    settings = dataclasses.replace(ROOMY, open_table_minutes=years, unwatched_minutes=years)
    return make_app(db, settings=settings, clock_scale=10.0**6)  # a minute's move: 2 years


def test_the_previous_release_sqlite_database_upgrades_with_nothing_lost(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    shutil.copy(FIXTURES / "boneyard.db", db)
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        before = counts_of(conn)
    with TestClient(old_app(str(db))) as c:
        check_site(c, MANIFEST["sqlite"])
    with engine.connect() as conn:
        after = counts_of(conn)
    assert_kept(before, after)
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []


def assert_kept(before: Counts, after: Counts) -> None:
    """Every table of the old release is still there with at least its rows (reading the site
    adds sessions, chat reads nothing; nothing is removed)."""
    assert before["game_tables"] >= 9 and before["table_log"] > 100
    assert set(before) <= set(after)
    lost = {n: (before[n], after[n]) for n in before if after[n] < before[n]}
    assert lost == {}
    grew = {n for n in before if after[n] != before[n]}
    assert grew <= {"sessions"}, grew


@needs_postgres
def test_the_previous_release_postgresql_database_upgrades_with_nothing_lost() -> None:
    with scratch_postgres() as url:
        subprocess.run(
            ["psql", "-q", "-v", "ON_ERROR_STOP=1", "-f", str(FIXTURES / "boneyard.sql"),
             _plain(url)],
            check=True, capture_output=True,
        )  # fmt: skip
        before = run_sync(url, counts_of)
        with TestClient(old_app(url)) as c:
            check_site(c, MANIFEST["postgresql"])
        assert_kept(before, run_sync(url, counts_of))
