"""Events run with people: signatures and card history, co-directors, notifications, invitations.

* ``event_games``: ``signed_a`` / ``signed_b`` (who signed for each side, PDA rule 11) and when
  (``signed_a_at`` / ``signed_b_at``), ``by_director`` (a paper card typed in by the director)
  and ``history`` (every entry, signature, dispute and ruling of the card, oldest first).
* ``event_directors``: co-directors of an event (the owner stays ``events.director_id``).
* ``notifications``: what a person is told (match ready, game over, the director acted), read
  and e-mailed marks; ``notify_prefs``: a person's e-mail address and whether to use it.
* ``event_offers.entrant_id`` may be empty: an invitation to a new place (a late entrant).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns and tables."""
    with op.batch_alter_table("event_games") as batch:
        batch.add_column(sa.Column("signed_a", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("signed_b", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("signed_a_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("signed_b_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("by_director", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("history", sa.JSON(), nullable=True))
    with op.batch_alter_table("event_offers") as batch:
        batch.alter_column("entrant_id", existing_type=sa.Integer(), nullable=True)
    op.create_table(
        "event_directors",
        sa.Column(
            "event_id",
            sa.String(32),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_event_directors_user_id", "event_directors", ["user_id"])
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("title", sa.String(160), nullable=False),
        sa.Column("body", sa.String(500), nullable=True),
        sa.Column("url", sa.String(200), nullable=True),
        sa.Column("event_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("mail", sa.String(12), nullable=True),
        sa.Column("mail_error", sa.String(200), nullable=True),
    )
    op.create_index("ix_notifications_user_id_id", "notifications", ["user_id", "id"])
    op.create_index("ix_notifications_mail", "notifications", ["mail"])
    op.create_table(
        "notify_prefs",
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("by_email", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop them again (invitations without a place go first: the column was not empty)."""
    op.drop_table("notify_prefs")
    op.drop_index("ix_notifications_mail", "notifications")
    op.drop_index("ix_notifications_user_id_id", "notifications")
    op.drop_table("notifications")
    op.drop_index("ix_event_directors_user_id", "event_directors")
    op.drop_table("event_directors")
    op.execute("DELETE FROM event_offers WHERE entrant_id IS NULL")
    with op.batch_alter_table("event_offers") as batch:
        batch.alter_column("entrant_id", existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table("event_games") as batch:
        for name in ("history", "by_director", "signed_b_at", "signed_a_at"):
            batch.drop_column(name)
        for name in ("signed_b", "signed_a"):
            batch.drop_column(name)
