"""Highrise games and events stored before ``early_block`` defaulted to true keep ``false``.

RULES HR-10 was revised (2026-11): ``highrise.early_block`` now defaults to ``true``. A table or
an event stored earlier with no ``early_block`` key was set up (and its log played) under the
old default, ``false``; this writes that ``false`` into its options, so that rebuilding the table
from its log replays exactly what was played. Tables created from now on keep whatever options
they are given: an absent key then means today's default.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``early_block: false`` to the options of every stored Highrise table and event."""
    conn = op.get_bind()
    for name in ("game_tables", "events"):
        table = sa.table(name, sa.column("id", sa.String), sa.column("game", sa.String),
                         sa.column("options", sa.JSON))  # fmt: skip
        rows = conn.execute(
            sa.select(table.c.id, table.c.options).where(table.c.game == "highrise")
        )
        for row_id, options in rows.all():
            if isinstance(options, dict) and "early_block" not in options:
                fixed = {**options, "early_block": False}
                conn.execute(table.update().where(table.c.id == row_id).values(options=fixed))


def downgrade() -> None:
    """Nothing to undo: an explicit ``false`` means under the old default what absence meant."""
