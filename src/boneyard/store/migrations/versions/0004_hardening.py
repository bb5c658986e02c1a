"""Hardening: unique display names, session renewal, a shared secret, the per-person table index.

* ``users.display_key``: ``name_key(display_name)``, unique. Existing duplicates (names that
  differ only in case or Unicode form) keep the oldest account's name; later ones get " (2)",
  " (3)" … appended, so that no account is lost.
* ``sessions.last_seen_at`` and ``sessions.label`` (listing and renewing sessions).
* ``site_secrets``: secrets every server process shares (the CSRF signing key).
* ``uq_entrants_event_user``: a person enters an event once (later duplicates are dropped).
* ``event_offers``: a director's offer of an entrant's place, taken only when accepted.
* ``table_players``: who sat at which table, filled from every table's seats (a person's history
  is read from it, not from a window over the newest tables).
* ``ix_game_tables_created_by_status``: counting a person's open tables; ``game_tables.bot_only``
  (a table with no person seated and no seat open: capped, paused while nobody watches).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from boneyard.store.models import name_key

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns, tables and indexes, and fill them from the existing rows."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("display_key", sa.String(120), nullable=True))
    _fill_display_keys()
    with op.batch_alter_table("users") as batch:
        batch.alter_column("display_key", existing_type=sa.String(120), nullable=False)
        batch.create_unique_constraint("uq_users_display_key", ["display_key"])
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("label", sa.String(120), nullable=True))
    op.create_table(
        "site_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.create_table(
        "table_players",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_players_user_created", "table_players", ["user_id", "created_at"])
    _fill_table_players()
    op.create_table(
        "event_offers",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "event_id",
            sa.String(32),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "entrant_id",
            sa.Integer(),
            sa.ForeignKey("event_entrants.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("username", sa.String(40), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_event_offers_event_id", "event_offers", ["event_id"])
    _drop_duplicate_entrants()
    with op.batch_alter_table("event_entrants") as batch:
        batch.create_unique_constraint("uq_entrants_event_user", ["event_id", "user_id"])
    op.create_index("ix_event_offers_username", "event_offers", ["username"])
    op.create_index("ix_game_tables_created_by_status", "game_tables", ["created_by", "status"])
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("bot_only", sa.Boolean(), nullable=False, server_default="0"))


def _fill_display_keys() -> None:
    """Set every user's ``display_key``, renaming later duplicates (oldest account first)."""
    conn = op.get_bind()
    users = sa.table("users", sa.column("id"), sa.column("display_name"), sa.column("display_key"))
    taken: set[str] = set()
    rows = conn.execute(sa.select(users.c.id, users.c.display_name).order_by(users.c.id)).all()
    for uid, name in rows:
        new, n = name, 1
        while name_key(new) in taken:
            n += 1
            suffix = f" ({n})"
            new = name[: 30 - len(suffix)] + suffix
        taken.add(name_key(new))
        conn.execute(
            users.update()
            .where(users.c.id == uid)
            .values(display_name=new, display_key=name_key(new))
        )


def _drop_duplicate_entrants() -> None:
    """A person entered twice in one event (two registrations at once): the later rows go
    (they never had a match: the draw keys on the first)."""
    conn = op.get_bind()
    entrants = sa.table(
        "event_entrants", sa.column("id"), sa.column("event_id"), sa.column("user_id")
    )
    seen: set[tuple[str, int]] = set()
    rows = conn.execute(
        sa.select(entrants.c.id, entrants.c.event_id, entrants.c.user_id)
        .where(entrants.c.user_id.is_not(None))
        .order_by(entrants.c.id)
    ).all()
    for eid, event, user in rows:
        if (event, user) in seen:
            conn.execute(entrants.delete().where(entrants.c.id == eid))
        seen.add((event, user))


def _fill_table_players() -> None:
    """One row per person per table, from the seats (a replaced person counts as seated)."""
    conn = op.get_bind()
    tables = sa.table(
        "game_tables", sa.column("id"), sa.column("seats", sa.JSON), sa.column("created_at")
    )
    players = sa.table(
        "table_players",
        sa.column("table_id"),
        sa.column("user_id"),
        sa.column("seat"),
        sa.column("created_at"),
    )
    rows: list[dict[str, Any]] = []
    for tid, seats, created in conn.execute(
        sa.select(tables.c.id, tables.c.seats, tables.c.created_at)
    ):
        seen: set[int] = set()
        for i, seat in enumerate(seats or []):
            for uid in (seat.get("user_id"), (seat.get("replaced") or {}).get("user_id")):
                if isinstance(uid, int) and uid not in seen:
                    seen.add(uid)
                    rows.append({"table_id": tid, "user_id": uid, "seat": i, "created_at": created})
    if rows:
        conn.execute(players.insert(), rows)


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("bot_only")
    op.drop_index("ix_game_tables_created_by_status", "game_tables")
    with op.batch_alter_table("event_entrants") as batch:
        batch.drop_constraint("uq_entrants_event_user", type_="unique")
    op.drop_table("event_offers")
    op.drop_index("ix_table_players_user_created", "table_players")
    op.drop_table("table_players")
    op.drop_table("site_secrets")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("label")
        batch.drop_column("last_seen_at")
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("uq_users_display_key", type_="unique")
        batch.drop_column("display_key")
