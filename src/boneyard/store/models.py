"""The database schema (SQLAlchemy 2 declarative models).

Kept in step with ``migrations/versions`` by hand: a new column needs a new migration.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from boneyard.store.seats import Seat, SeatsJSON
from boneyard.store.statuses import LogKind, TableStatus, column_type, constraint


def name_key(name: str) -> str:
    """The form two display names are compared in: Unicode-normalised (NFKC), case-folded,
    with runs of spaces as one (so "ＡＮＮ", "ann" and "Ann " are the same name).

    >>> name_key("  ＡＮＮ   Lee ") == name_key("ann lee")
    True
    """
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(folded.split())


class Base(DeclarativeBase):
    """Declarative base of every model."""


class User(Base):
    """A person: a registered account (``password_hash`` set) or a guest (no password)."""

    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("display_key", name="uq_users_display_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str | None] = mapped_column(String(40), unique=True, nullable=True)
    display_name: Mapped[str] = mapped_column(String(40))
    # name_key(display_name): display names are unique in this form (migration 0004).
    display_key: Mapped[str] = mapped_column(String(120))
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    is_guest: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # A bot account (migration 0007): played by a program through API tokens, labelled as a bot.
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # Failed sign-ins to this account since its owner last signed in, and since when (migration
    # 0010): the owner is told at their next sign-in.
    failed_sign_ins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    failed_sign_ins_since: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class ApiToken(Base):
    """A bot account's API token: the program sends the token, the database keeps its sha256,
    a short prefix to recognise it by, and when it was made, last used and revoked."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Session(Base):
    """A signed-in browser: the cookie holds a random token, the database only its sha256."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # When it was last renewed, and the browser it was made in (migration 0004).
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    label: Mapped[str | None] = mapped_column(String(120), nullable=True)


class SiteSecret(Base):
    """A secret every server process of the site shares (e.g. the CSRF signing key)."""

    __tablename__ = "site_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class GameTable(Base):
    """A table: game, options, seats (person/bot/open), status and, once over, its record."""

    __tablename__ = "game_tables"
    __table_args__ = (
        Index("ix_game_tables_created_by_status", "created_by", "status"),
        Index("ix_game_tables_created_from_status", "created_from", "status"),
        constraint("game_tables", "status"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Seat]] = mapped_column(SeatsJSON)  # boneyard.store.seats
    status: Mapped[TableStatus] = mapped_column(column_type(TableStatus, 16), index=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Table settings that are not game options: e.g. ``{"clock": {...}}`` (migration 0002).
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    invite_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # No person seated and no seat open (migration 0004): capped, paused while unwatched.
    bot_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # The address it was created from (the lobby's cap per address) and, while it waits for
    # players, whether a person seated at it is connected (the lobby lists those first; 0010).
    created_from: Mapped[str | None] = mapped_column(String(64), nullable=True)
    attended: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")


class TablePlayer(Base):
    """A person who sat at a table (or whose seat a bot took over): the index behind a person's
    game history, so that it never depends on how many other tables the site has."""

    __tablename__ = "table_players"
    __table_args__ = (Index("ix_table_players_user_created", "user_id", "created_at"),)

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # the table's


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
    __table_args__ = (
        UniqueConstraint("table_id", "seq", name="uq_table_log_table_seq"),
        constraint("table_log", "kind"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[LogKind] = mapped_column(column_type(LogKind, 8))
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
from boneyard.store import tournaments as _tournaments  # noqa: E402,F401


class PairingPool(Base):
    """A quick-pairing pool (``game/players/clock``): the row every change to the pool's waits
    locks first, so that two processes never pair the same people or leave two of them waiting
    apart (boneyard.server.lobby.pairing)."""

    __tablename__ = "pairing_pools"

    pool: Mapped[str] = mapped_column(String(40), primary_key=True)
    paired: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # tables made


class PairingWait(Base):
    """A person waiting in a quick-pairing pool, or just paired (``table_id``: the table made for
    them, which their page reads). One row per person: nobody waits twice (migration 0011)."""

    __tablename__ = "pairing_waits"
    __table_args__ = (Index("ix_pairing_waits_pool", "pool", "table_id"),)

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(String(40))
    address: Mapped[str] = mapped_column(String(64))  # where it came from (a cap per address)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The waiting page asks every few seconds; a wait not seen for a while no longer counts.
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=True
    )
