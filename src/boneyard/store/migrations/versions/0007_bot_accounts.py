"""Bot accounts: ``users.is_bot`` and ``api_tokens`` (the tokens a bot program connects with).

* ``users.is_bot``: the account is played by a program (docs/bots.md, "Bot accounts").
* ``api_tokens``: per token its sha256 (never the token), a short prefix shown to its owner, a
  name, when it was made and last used, and when it was revoked.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column and the table."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column("is_bot", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_tokens_user_id", "api_tokens", ["user_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_api_tokens_user_id", "api_tokens")
    op.drop_table("api_tokens")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("is_bot")
