"""Hardening, round two (issue 28): sign-in notices, rating farms, the lobby's order and caps.

* ``users.failed_sign_ins`` and ``users.failed_sign_ins_since``: failed sign-ins to an account
  since its owner last signed in (the owner is told at the next sign-in).
* ``ratings.opponents``: distinct opponents met in rated games; left NULL for the ratings that
  exist (they were rated before the count: they stay listed as they were).
* ``rated_pairs``: one row per rated game and pair of players, both ways (distinct opponents,
  and how often two accounts were rated against each other lately).
* ``game_tables.created_from`` (the address a table was created from: the cap per address) and
  ``game_tables.attended`` (a table waiting for players whose seated person is connected: the
  lobby lists it first), with an index for counting an address's open tables.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns, the table and the indexes (nothing to fill: see the docstring)."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column("failed_sign_ins", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("failed_sign_ins_since", sa.DateTime(timezone=True), nullable=True)
        )
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("opponents", sa.Integer(), nullable=True))
    op.create_table(
        "rated_pairs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("opponent", sa.String(40), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_rated_pairs_player_opponent_at", "rated_pairs", ["player", "opponent", "rated_at"]
    )
    op.create_index(
        "ix_rated_pairs_game_category_player", "rated_pairs", ["game", "category", "player"]
    )
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("created_from", sa.String(64), nullable=True))
        batch.add_column(sa.Column("attended", sa.Boolean(), nullable=False, server_default="0"))
    op.create_index("ix_game_tables_created_from_status", "game_tables", ["created_from", "status"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_game_tables_created_from_status", table_name="game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("attended")
        batch.drop_column("created_from")
    op.drop_index("ix_rated_pairs_game_category_player", table_name="rated_pairs")
    op.drop_index("ix_rated_pairs_player_opponent_at", table_name="rated_pairs")
    op.drop_table("rated_pairs")
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("opponents")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("failed_sign_ins_since")
        batch.drop_column("failed_sign_ins")
