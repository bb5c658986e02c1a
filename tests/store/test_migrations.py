"""Data migrations: stored games keep replaying as they were played."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from boneyard.store.db import MIGRATIONS
from boneyard.store.tournaments import TournamentRow
from tests.services import needs_postgres
from tests.store.helpers import migrate_to, on_scratch_postgres

AT = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def upgrade_to(engine: sa.Engine, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def test_highrise_tables_and_events_stored_before_keep_the_literal_block(tmp_path: Path) -> None:
    """RULES HR-10 was revised (``early_block`` now defaults to true): a Highrise table or event
    stored before, without the key, was played under ``false`` and must replay that way."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    upgrade_to(engine, "0003")
    # (the tables as revision 0003 had them: today's models have columns added since)
    tables = sa.table(
        "game_tables",
        *(sa.column(c) for c in ("id", "game", "status", "created_at")),
        sa.column("options", sa.JSON),
        sa.column("seats", sa.JSON),
    )
    events, users = (
        TournamentRow.__table__,
        sa.table(
            "users", *(sa.column(c) for c in ("id", "display_name", "is_guest", "created_at"))
        ),
    )
    old = {
        "hr-old": ("highrise", {"target": 150}),
        "hr-explicit": ("highrise", {"early_block": True}),
        "h5": ("highfive", {"preset": "pda"}),
    }
    with engine.begin() as conn:
        conn.execute(users.insert().values(id=1, display_name="Ann", is_guest=False, created_at=AT))
        for tid, (game, options) in old.items():
            conn.execute(tables.insert().values(id=tid, game=game, options=options, seats=[],
                                                status="over", created_at=AT))  # fmt: skip
        conn.execute(events.insert().values(id="ev", name="Cup", game="highrise", format="swiss",
                     mode="online", schedule="bo1", cap=8, status="registration", director_id=1,
                     rated=True, created_at=AT, options={}, settings={}))  # fmt: skip
    upgrade_to(engine, "head")
    with engine.connect() as conn:
        got = dict(conn.execute(sa.select(tables.c.id, tables.c.options)).all())
        ev = conn.execute(sa.select(events.c.options)).scalar_one()
    assert got == {
        "hr-old": {"target": 150, "early_block": False},
        "hr-explicit": {"early_block": True},
        "h5": {"preset": "pda"},
    }
    assert ev == {"early_block": False}


def bot_schema(conn: sa.Connection) -> tuple[bool, bool]:
    """Whether ``users.is_bot`` and the ``api_tokens`` table exist."""
    inspector = sa.inspect(conn)
    columns = {c["name"] for c in inspector.get_columns("users")}
    return "is_bot" in columns, inspector.has_table("api_tokens")


def bot_accounts_up_down_up(conn: sa.Connection) -> list[tuple[bool, bool]]:
    seen = []
    for up, revision in ((True, "head"), (False, "0006"), (True, "head")):
        migrate_to(conn, up, revision)
        seen.append(bot_schema(conn))
    return seen


def test_bot_accounts_migrate_up_and_down_on_sqlite(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'm.db'}")
    with engine.begin() as conn:
        assert bot_accounts_up_down_up(conn) == [(True, True), (False, False), (True, True)]


@needs_postgres
def test_bot_accounts_migrate_up_and_down_on_postgresql() -> None:
    """Revision 0007 (bot accounts) upgrades, downgrades to 0006 and upgrades again on a fresh
    PostgreSQL database;"""
    seen = on_scratch_postgres(bot_accounts_up_down_up)
    assert seen == [(True, True), (False, False), (True, True)]
