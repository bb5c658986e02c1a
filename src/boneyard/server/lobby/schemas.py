"""The lobby's request bodies: a new table and its seats, play-a-bot-now, taking a seat, quick
pairing."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from boneyard.server.tables.clock import ClockIn

MAX_BOT_PACE = 5.0
"""The longest a table may ask its bots to take over a move (seconds)."""


class SeatIn(BaseModel):
    """One seat of a new table: ``me``, an ``open`` seat for a person, a built-in ``bot``, or
    an ``account``: a seat kept for the bot account named ``account`` (a challenge it accepts
    or declines, docs/bots.md)."""

    kind: Literal["me", "open", "bot", "account"]
    bot: str = Field(default="greedy", max_length=20)
    account: str | None = Field(default=None, max_length=40)


class TableIn(BaseModel):
    """A new table."""

    game: str = Field(default="highfive", max_length=20)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=30)
    seats: list[SeatIn] = Field(min_length=2, max_length=8)
    start: bool = True
    # A seat open for a person: start as soon as the last one is taken (no Start to press).
    start_when_full: bool = False
    # The turn clock (docs/server.md): absent, a table where people play each other (a seat
    # open for a person) gets the default; null: none.
    clock: ClockIn | None = None
    private: bool = False  # not listed; reachable with its invite link (docs/server.md)
    # Seconds a bot takes a move where people play (absent: the site's default; 0: at once).
    bot_pace: float | None = Field(default=None, ge=0, le=MAX_BOT_PACE)
    guide: bool = False  # a guided first hand (boneyard.server.tables.guide)


class QuickIn(BaseModel):
    """Play a bot now, guided or not."""

    guide: bool = False


class JoinIn(BaseModel):
    """Take a seat."""

    seat: int = Field(ge=0, le=7)
    invite: str | None = Field(default=None, max_length=100)  # a private table's token


class PairIn(BaseModel):
    """Quick pairing: the pool to wait in (boneyard.server.lobby.pairing checks it)."""

    game: str = Field(default="highfive", max_length=20)
    players: int = Field(default=2, ge=0, le=100)
    clock: int = Field(default=60, ge=0, le=100_000)  # seconds a move
