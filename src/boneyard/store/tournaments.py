"""Tournaments on the site: the tournaments, entrants, match games, director actions, ratings.

The bracket itself (who meets whom) is the pure :mod:`boneyard.tournament` value, kept as JSON
in :attr:`TournamentRow.bracket`; it is derived from the entrants and the final game rows
(:class:`TournamentGame` with ``final_seq`` set, applied in that order) and can always be rebuilt
from them (migration 0003; signatures, card history, co-directors and notifications: 0006).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.store.models import Base
from boneyard.store.statuses import (
    EntrantStatus,
    MailStatus,
    MatchGameKind,
    MatchGameStatus,
    OfferStatus,
    TournamentStatus,
    column_type,
    constraint,
)


class TournamentRow(Base):
    """A tournament: online (tables on the site) or over the board (score cards)."""

    __tablename__ = "events"
    __table_args__ = (constraint("events", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    format: Mapped[str] = mapped_column(String(24))  # single_elimination | swiss | round_robin
    mode: Mapped[str] = mapped_column(String(8))  # online | otb
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # game options, e.g. {"preset": "pda"}
    schedule: Mapped[str] = mapped_column(String(40))  # "pda", "bo1", "5,5,7", ...
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)  # rounds, seeding, abandon_minutes
    cap: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    status: Mapped[TournamentStatus] = mapped_column(column_type(TournamentStatus, 16), index=True)
    director_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    bracket: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Entrant(Base):
    """One entrant of an event: a person (``user_id``) or a bot (``bot``)."""

    __tablename__ = "event_entrants"
    # A person enters an event once (two registrations at once: one row; migration 0004).
    __table_args__ = (
        UniqueConstraint("event_id", "user_id", name="uq_entrants_event_user"),
        constraint("event_entrants", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[EntrantStatus] = mapped_column(column_type(EntrantStatus, 16))
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # A walk-in entered by name (no account, no bot: migration 0009): their club, and the code
    # that lets a person claim the entry for their account (gone once claimed).
    club: Mapped[str | None] = mapped_column(String(60), nullable=True)
    claim_code: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)


class TournamentGame(Base):
    """One game of a match (``match_id`` like ``"R1M3"``), or a whole-match forfeit.

    ``kind`` and ``status``: :class:`MatchGameKind` and :class:`MatchGameStatus`. ``final_seq``
    orders the results fed to the bracket.
    """

    __tablename__ = "event_games"
    __table_args__ = (constraint("event_games", "kind"), constraint("event_games", "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[str] = mapped_column(String(16))
    number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[MatchGameKind] = mapped_column(column_type(MatchGameKind, 8))
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id"), nullable=True, index=True
    )
    status: Mapped[MatchGameStatus] = mapped_column(column_type(MatchGameStatus, 12))
    side_a: Mapped[int | None] = mapped_column(Integer, nullable=True)  # entrant ids
    side_b: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat_a: Mapped[int] = mapped_column(Integer, default=0)  # the table seat of side a
    score_a: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score_b: Mapped[int | None] = mapped_column(Integer, nullable=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)  # entrant id
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    reported_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    confirmed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)
    final_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # PDA rule 11: both players sign each game (user ids and times; migration 0006).
    signed_a: Mapped[int | None] = mapped_column(Integer, nullable=True)
    signed_b: Mapped[int | None] = mapped_column(Integer, nullable=True)
    signed_a_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    signed_b_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    by_director: Mapped[bool] = mapped_column(Boolean, default=False)
    """A paper card typed in by the director."""
    history: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    """Every entry, signature, dispute and ruling of the card, oldest first (none is lost)."""
    paper: Mapped[bool] = mapped_column(Boolean, default=False)
    """Entered from the paper card both players signed (PDA rule 11; migration 0009): it counts
    as signed by both; ``reported_by`` entered it."""


class TournamentAction(Base):
    """An entry of an event's log: director actions and rulings, with their note."""

    __tablename__ = "event_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    kind: Mapped[str] = mapped_column(String(24))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentOffer(Base):
    """The director's offer of an entrant's place to a person (by username): the person takes
    the place only by accepting it (migration 0004)."""

    __tablename__ = "event_offers"
    __table_args__ = (constraint("event_offers", "status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    # None: an invitation to a new place (a late entrant; migration 0006).
    entrant_id: Mapped[int | None] = mapped_column(
        ForeignKey("event_entrants.id", ondelete="CASCADE"), nullable=True
    )
    username: Mapped[str] = mapped_column(String(40), index=True)
    status: Mapped[OfferStatus] = mapped_column(column_type(OfferStatus, 12))
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentDirector(Base):
    """A co-director of an event: runs it like its owner (``TournamentRow.director_id``), and like
    every director never plays in it (migration 0006). ``role`` ``scorekeeper`` (migration
    0009): enters paper cards and checks entrants in, and no more."""

    __tablename__ = "event_directors"

    event_id: Mapped[str] = mapped_column(
        ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    role: Mapped[str] = mapped_column(String(12), default="director")


class Notification(Base):
    """Something a person is told: their match is ready, a game of theirs ended, the director
    acted on their match (migration 0006). ``mail``: ``None`` (not for e-mail) or a
    :class:`MailStatus` (``failed``: ``mail_error`` says why)."""

    __tablename__ = "notifications"
    __table_args__ = (
        Index("ix_notifications_user_id_id", "user_id", "id"),
        constraint("notifications", "mail"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(24))
    title: Mapped[str] = mapped_column(String(160))
    body: Mapped[str | None] = mapped_column(String(500), nullable=True)
    url: Mapped[str | None] = mapped_column(String(200), nullable=True)
    event_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    mail: Mapped[MailStatus | None] = mapped_column(
        column_type(MailStatus, 12), nullable=True, index=True
    )
    mail_error: Mapped[str | None] = mapped_column(String(200), nullable=True)


class NotifyPrefs(Base):
    """A person's e-mail address for notifications, and whether to use it (migration 0006)."""

    __tablename__ = "notify_prefs"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    by_email: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerRating(Base):
    """An OpenSkill rating of one player (``u:<user id>`` or ``bot:<name>``) per game and
    player-count category (``2p``, ``3p``, ``4p``, ``partnership``)."""

    __tablename__ = "ratings"
    __table_args__ = (
        UniqueConstraint("game", "category", "player", name="uq_ratings_game_category_player"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    category: Mapped[str] = mapped_column(String(16))
    player: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(40))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Distinct opponents met in rated games (migration 0010; ``None``: rated before it was
    # counted, listed as before).
    opponents: Mapped[int | None] = mapped_column(Integer, nullable=True)


class RatedPair(Base):
    """One rated game of ``player`` against ``opponent`` (both ways, one row each): how many
    distinct opponents a player met, and how often two accounts were rated against each other
    lately (migration 0010)."""

    __tablename__ = "rated_pairs"
    __table_args__ = (
        Index("ix_rated_pairs_player_opponent_at", "player", "opponent", "rated_at"),
        Index("ix_rated_pairs_game_category_player", "game", "category", "player"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    category: Mapped[str] = mapped_column(String(16))
    player: Mapped[str] = mapped_column(String(40))
    opponent: Mapped[str] = mapped_column(String(40))
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
