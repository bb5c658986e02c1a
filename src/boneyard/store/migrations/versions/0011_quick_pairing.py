"""Quick pairing: ``pairing_pools`` and ``pairing_waits`` (boneyard.server.lobby.pairing).

* ``pairing_pools``: one row per pool (``game/players/clock``), locked by every change to the
  pool's waits: two processes never pair the same people, nor leave two people waiting apart.
* ``pairing_waits``: who waits in which pool (one row per person: the primary key), from which
  address, since when, when their page last asked, and the table made for them once paired.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two tables."""
    op.create_table(
        "pairing_pools",
        sa.Column("pool", sa.String(40), primary_key=True),
        sa.Column("paired", sa.Integer(), nullable=False, server_default="0"),
    )
    op.create_table(
        "pairing_waits",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("pool", sa.String(40), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=True,
        ),
    )
    op.create_index("ix_pairing_waits_pool", "pairing_waits", ["pool", "table_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_pairing_waits_pool", "pairing_waits")
    op.drop_table("pairing_waits")
    op.drop_table("pairing_pools")
