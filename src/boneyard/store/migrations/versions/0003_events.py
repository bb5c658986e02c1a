"""Tournament events: events, entrants, match games, director actions and ratings.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _now_cols() -> list[sa.Column]:  # type: ignore[type-arg]
    return [sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)]


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("format", sa.String(24), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("schedule", sa.String(40), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("cap", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("director_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bracket", sa.JSON(), nullable=True),
        *_now_cols(),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_events_status", "events", ["status"])
    op.create_table(
        "event_entrants",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "event_id",
            sa.String(32),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("bot", sa.String(20), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("checked_in", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        *_now_cols(),
    )
    op.create_index("ix_event_entrants_event_id", "event_entrants", ["event_id"])
    op.create_table(
        "event_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "event_id",
            sa.String(32),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id"), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("side_a", sa.Integer(), nullable=True),
        sa.Column("side_b", sa.Integer(), nullable=True),
        sa.Column("seat_a", sa.Integer(), nullable=False),
        sa.Column("score_a", sa.Integer(), nullable=True),
        sa.Column("score_b", sa.Integer(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("reported_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("confirmed_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("final_seq", sa.Integer(), nullable=True),
        *_now_cols(),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_event_games_event_id", "event_games", ["event_id"])
    op.create_index("ix_event_games_table_id", "event_games", ["table_id"])
    op.create_table(
        "event_actions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "event_id",
            sa.String(32),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        *_now_cols(),
    )
    op.create_index("ix_event_actions_event_id", "event_actions", ["event_id"])
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game", "category", "player", name="uq_ratings_game_category_player"),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("ratings")
    op.drop_index("ix_event_actions_event_id", "event_actions")
    op.drop_table("event_actions")
    op.drop_index("ix_event_games_table_id", "event_games")
    op.drop_index("ix_event_games_event_id", "event_games")
    op.drop_table("event_games")
    op.drop_index("ix_event_entrants_event_id", "event_entrants")
    op.drop_table("event_entrants")
    op.drop_index("ix_events_status", "events")
    op.drop_table("events")
