"""The statuses and kinds the database stores, as ``StrEnum``s: the one list of each column's
allowed values, which the code compares and sets, and which a CHECK constraint makes the
database enforce (migration 0008; :func:`allowed`).

A member is its string (``TableStatus.OVER == "over"``), so JSON, SQL and older rows read alike.
"""

from __future__ import annotations

from enum import StrEnum

import sqlalchemy as sa


class TableStatus(StrEnum):
    """``game_tables.status``."""

    OPEN = "open"  # a seat is open: waiting for players
    PLAYING = "playing"
    OVER = "over"  # the game ended: its record is stored
    ABORTED = "aborted"  # a player aborted it before everyone moved: no result
    CLOSED = "closed"  # expired or declined unfinished
    BROKEN = "broken"  # its log no longer replays (kept for the operator to inspect)


class LogKind(StrEnum):
    """``table_log.kind``: a deal or an accepted action."""

    DEAL = "deal"
    ACTION = "action"


class SeatKind(StrEnum):
    """A seat of ``game_tables.seats`` (boneyard.store.seats)."""

    PERSON = "person"
    BOT = "bot"
    OPEN = "open"


class SeatChange(StrEnum):
    """An entry of a table's ``settings["seat_changes"]``: why a seat changed hands."""

    ABANDONED = "abandoned"  # the clock ran out on an absent person: a bot took the seat
    RESIGNED = "resigned"  # a bot plays a resigned seat out
    HANDED = "handed"  # another player handed an absent person's seat to a bot
    RECLAIMED = "reclaimed"  # the person took their seat back from the bot


class TournamentStatus(StrEnum):
    """``events.status``."""

    REGISTRATION = "registration"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EntrantStatus(StrEnum):
    """``event_entrants.status``."""

    REGISTERED = "registered"
    PLAYING = "playing"
    NO_SHOW = "no_show"
    WITHDRAWN = "withdrawn"


class MatchGameKind(StrEnum):
    """``event_games.kind``: a game of a match, or a whole-match forfeit."""

    GAME = "game"
    FORFEIT = "forfeit"


class MatchGameStatus(StrEnum):
    """``event_games.status``."""

    PLAYING = "playing"  # a table is live
    REPORTED = "reported"  # over the board: one side entered the score
    CONFIRMED = "confirmed"  # the other side signed
    DISPUTED = "disputed"
    RULED = "ruled"  # the director decided
    OVER = "over"  # a table finished
    VOID = "void"  # reopened, abandoned or superseded
    TIMEOUT = "timeout"  # a clock ran out where the director rules the result


class OfferStatus(StrEnum):
    """``event_offers.status``."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"


class MailStatus(StrEnum):
    """``notifications.mail`` (``NULL``: not for e-mail)."""

    QUEUED = "queued"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"
    SKIPPED = "skipped"  # the person turned e-mail off before it went


CHECKED: dict[tuple[str, str], type[StrEnum]] = {
    ("game_tables", "status"): TableStatus,
    ("table_log", "kind"): LogKind,
    ("events", "status"): TournamentStatus,
    ("event_entrants", "status"): EntrantStatus,
    ("event_games", "kind"): MatchGameKind,
    ("event_games", "status"): MatchGameStatus,
    ("event_offers", "status"): OfferStatus,
    ("notifications", "mail"): MailStatus,
}
"""The columns whose values the database checks, and their enum."""


def check_name(table: str, column: str) -> str:
    """The CHECK constraint's name (``ck_game_tables_status``)."""
    return f"ck_{table}_{column}"


def allowed(table: str, column: str) -> str:
    """The CHECK constraint's SQL: the column is one of its enum's values (or NULL).

    >>> allowed("table_log", "kind")
    "kind IN ('deal', 'action')"
    """
    values = ", ".join(f"'{m.value}'" for m in CHECKED[table, column])
    return f"{column} IN ({values})"


def constraint(table: str, column: str) -> sa.CheckConstraint:
    """The model's copy of the CHECK constraint (the migration adds it to the database)."""
    return sa.CheckConstraint(allowed(table, column), name=check_name(table, column))


def column_type(enum: type[StrEnum], length: int) -> sa.Enum:
    """The column type: a VARCHAR of ``length`` (as before the enums) that reads back members
    and refuses, before any SQL, a string that is not one of them."""
    return sa.Enum(
        enum,
        native_enum=False,
        create_constraint=False,  # (the named constraint of :func:`constraint` is the one)
        length=length,
        values_callable=lambda e: [m.value for m in e],
        validate_strings=True,
    )
