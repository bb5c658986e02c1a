"""Events at a venue: walk-in entrants, paper cards, scorekeepers (docs/tournaments-site.md).

* ``event_entrants``: ``club`` and ``claim_code`` — an entrant the director entered by name (no
  account) may come from a club, and a person claims the entry for their account with its code
  (the code is gone once claimed).
* ``event_games.paper``: the card was entered from the paper card both players signed (PDA rule
  11): it counts as signed by both.
* ``event_directors.role``: ``director`` (as before) or ``scorekeeper`` (enters cards and checks
  entrants in, and no more).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns (every existing row keeps its meaning: no club, no code, not a paper
    card, a director)."""
    with op.batch_alter_table("event_entrants") as batch:
        batch.add_column(sa.Column("club", sa.String(60), nullable=True))
        batch.add_column(sa.Column("claim_code", sa.String(16), nullable=True))
        batch.create_index("ix_event_entrants_claim_code", ["claim_code"])
    with op.batch_alter_table("event_games") as batch:
        batch.add_column(
            sa.Column("paper", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("event_directors") as batch:
        batch.add_column(
            sa.Column("role", sa.String(12), nullable=False, server_default="director")
        )


def downgrade() -> None:
    """Drop them (a scorekeeper would become a director: they are removed first)."""
    op.execute("DELETE FROM event_directors WHERE role <> 'director'")
    with op.batch_alter_table("event_directors") as batch:
        batch.drop_column("role")
    with op.batch_alter_table("event_games") as batch:
        batch.drop_column("paper")
    with op.batch_alter_table("event_entrants") as batch:
        batch.drop_index("ix_event_entrants_claim_code")
        batch.drop_column("claim_code")
        batch.drop_column("club")
