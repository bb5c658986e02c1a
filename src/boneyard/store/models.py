"""The database schema (SQLAlchemy 2 declarative models).

Kept in step with ``migrations/versions`` by hand: a new column needs a new migration.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of every model."""


class User(Base):
    """A person: a registered account (``password_hash`` set) or a guest (no password)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str | None] = mapped_column(String(40), unique=True, nullable=True)
    display_name: Mapped[str] = mapped_column(String(40))
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    is_guest: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Session(Base):
    """A signed-in browser: the cookie holds a random token, the database only its sha256."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameTable(Base):
    """A table: game, options, seats (person/bot/open), status and, once over, its record."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open | playing | over
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Table settings that are not game options: e.g. ``{"clock": {...}}`` (migration 0002).
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    invite_token: Mapped[str | None] = mapped_column(String(64), nullable=True)


class HandSeed(Base):
    """The server seed of one hand: secret until the hand ends, then revealed in the record."""

    __tablename__ = "hand_seeds"
    __table_args__ = (UniqueConstraint("table_id", "hand", name="uq_hand_seeds_table_hand"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    hand: Mapped[int] = mapped_column(Integer)
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    # Seeds the seated players added before the deal, by seat (migration 0002).
    client_seeds: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class LogEntry(Base):
    """One step of a table: a deal (``kind="deal"``) or an accepted action (``kind="action"``)."""

    __tablename__ = "table_log"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_table_log_table_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMessage(Base):
    """One table-chat line (kept: nothing accepted is lost)."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMute(Base):
    """``user_id`` does not want to see chat from ``muted_user_id`` (on every table)."""

    __tablename__ = "chat_mutes"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    muted_user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# The tournament models (migration 0003) live in their own module; importing it here puts them
# in Base.metadata, which the Alembic environment uses.
from boneyard.store import events as _events  # noqa: E402,F401
