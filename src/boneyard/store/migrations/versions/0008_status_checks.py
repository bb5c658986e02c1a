"""The database refuses a status or kind outside its list (boneyard.store.statuses).

A CHECK constraint per column: ``game_tables.status``, ``table_log.kind``, ``events.status``,
``event_entrants.status``, ``event_games.kind`` and ``.status``, ``event_offers.status`` and
``notifications.mail`` (NULL stays allowed where the column allows it). The lists are written out
here as they are at this revision (a value added later comes with its own migration). A stored
value outside its list stops the upgrade with the rows named (nothing is changed).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

MATCH_GAME = ("playing", "reported", "confirmed", "disputed", "ruled", "over", "void", "timeout")
ALLOWED = {
    ("game_tables", "status"): ("open", "playing", "over", "aborted", "closed", "broken"),
    ("table_log", "kind"): ("deal", "action"),
    ("events", "status"): ("registration", "running", "paused", "finished", "cancelled"),
    ("event_entrants", "status"): ("registered", "playing", "no_show", "withdrawn"),
    ("event_games", "kind"): ("game", "forfeit"),
    ("event_games", "status"): MATCH_GAME,
    ("event_offers", "status"): ("pending", "accepted", "declined", "withdrawn"),
    ("notifications", "mail"): ("queued", "sending", "sent", "failed", "skipped"),
}


def condition(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def check_stored(conn: sa.Connection) -> None:
    """Raise, naming them, if stored values fall outside the lists."""
    bad = []
    for (table, column), values in ALLOWED.items():
        t = sa.table(table, sa.column(column, sa.String))
        c = t.c[column]
        found = conn.execute(
            sa.select(c, sa.func.count()).where(c.is_not(None), c.not_in(values)).group_by(c)
        ).all()
        bad += [f"{table}.{column} = {v!r} ({n} rows)" for v, n in found]
    if bad:
        raise RuntimeError("values outside their lists, fix them first: " + "; ".join(bad))


def upgrade() -> None:
    """Check the stored values, then add the constraints."""
    check_stored(op.get_bind())
    tables: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for (table, column), values in ALLOWED.items():
        tables.setdefault(table, []).append((column, values))
    for table, columns in tables.items():
        with op.batch_alter_table(table) as batch:
            for column, values in columns:
                batch.create_check_constraint(f"ck_{table}_{column}", condition(column, values))


def downgrade() -> None:
    """Drop the constraints."""
    for table, column in reversed(ALLOWED):
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(f"ck_{table}_{column}", type_="check")
