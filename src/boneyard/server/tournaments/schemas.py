"""The request bodies of the event routes (pydantic): what each action takes, with its bounds."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import Path as PathParam
from pydantic import BaseModel, BeforeValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from boneyard.server import validation

MAX_ID = 2**31 - 1
RowId = Annotated[int, PathParam(ge=0, le=MAX_ID)]

Format = Literal["single_elimination", "double_elimination", "swiss", "round_robin", "pools"]
Timeout = Literal["lose", "bot", "director"]


class Clean(BaseModel):
    """A request body whose texts the database can store (no NUL, no lone surrogate)."""

    @model_validator(mode="after")
    def _storable(self) -> Clean:
        for value in self.__dict__.values():
            texts = [value] if isinstance(value, str) else []
            if isinstance(value, dict):
                texts = [str(k) for k in value] + [v for v in value.values() if isinstance(v, str)]
            for text in texts:
                if not validation.storable(text):
                    raise ValueError("a text contains a character that cannot be stored")
        return self


class Settings(Clean):
    """The settings a director may change before the start (all optional: ``None`` keeps)."""

    schedule: str | None = Field(default=None, max_length=40)
    cap: int | None = Field(default=None, ge=2, le=256)
    starts_at: datetime | None = None
    auto_start: bool | None = None
    checkin_opens_at: datetime | None = None
    checkin_closes_at: datetime | None = None
    rounds: int | None = Field(default=None, ge=1, le=20)
    double: bool | None = None
    seeding: Literal["rating", "random", "manual"] | None = None
    rated: bool | None = None
    max_tables: int | None = Field(default=None, ge=1, le=512)
    grace_minutes: float | None = Field(default=None, ge=0, le=120)
    per_move: int | None = Field(default=None, ge=5, le=3600)
    move_grace: int | None = Field(default=None, ge=0, le=3600)
    timeout: Timeout | None = None
    third_place: bool | None = None
    reset: bool | None = None
    pools: int | None = Field(default=None, ge=1, le=128)
    advance: int | None = Field(default=None, ge=1, le=64)
    bracket_format: Literal["single", "double"] | None = None
    bracket_schedule: str | None = Field(default=None, max_length=40)
    bye_points: float | None = Field(default=None, ge=0, le=1, multiple_of=0.5)
    late_entry: bool | None = None
    bot_accounts: bool | None = None
    signatures: Literal["paper", "screen"] | None = None


class TournamentIn(Settings):
    """A new event: a name, the game and format, and any setting."""

    name: str = Field(min_length=1, max_length=80)
    game: str = Field(default="highfive", max_length=20)
    format: Format = "single_elimination"
    mode: Literal["online", "otb"] = "online"
    preset: str | None = Field(default=None, max_length=20)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=30)


class TournamentEdit(Settings):
    """An edit of an event: the name at any time; the game, format and mode before the start."""

    name: str | None = Field(default=None, min_length=1, max_length=80)
    game: str | None = Field(default=None, max_length=20)
    format: Format | None = None
    mode: Literal["online", "otb"] | None = None
    preset: str | None = Field(default=None, max_length=20)
    options: dict[str, str | int | bool] | None = Field(default=None, max_length=30)


class BotsIn(Clean):
    """Bot entrants added by the director."""

    bot: str = Field(default="greedy", max_length=20)
    count: int = Field(default=1, ge=1, le=256)


class NoteIn(Clean):
    """A note for the event log."""

    note: str = Field(default="", max_length=500)


class ForfeitIn(NoteIn):
    """The entrant who forfeits a match."""

    loser: int = Field(ge=0, le=MAX_ID)


class ReplaceIn(NoteIn):
    """Who takes an entrant's place: a registered person (``username``) or a ``bot``."""

    username: str | None = Field(default=None, max_length=30)
    bot: str | None = Field(default=None, max_length=20)


def whole(low: int, high: int, what: str) -> BeforeValidator:
    """A whole number from ``low`` to ``high``, refused in a player's words (``what``: "a
    score") — not pydantic's "Input should be greater than or equal to 0"."""

    def check(value: object) -> int:
        number = value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            number = int(value.strip())
        if isinstance(number, bool) or not isinstance(number, int):
            raise PydanticCustomError("number", f"{what} is a whole number, not {value!r}")
        if number < low:
            why = "cannot be negative" if low == 0 else f"is at least {low}"
            raise PydanticCustomError("number", f"{what} {why} (you gave {number})")
        if number > high:
            raise PydanticCustomError("number", f"{what} is at most {high} (you gave {number})")
        return number

    return BeforeValidator(check)


Score = Annotated[int, whole(0, 10_000, "A score")]


class ReportIn(BaseModel):
    """A game's final score as entered over the board (side a, side b of the match);
    ``reason``: ``target`` (a side reached it) or ``bogus`` (PDA 8c-e, 150-100)."""

    score_a: Score
    score_b: Score
    reason: Literal["target", "bogus"] = "target"


class CardGameIn(ReportIn):
    """One game of a paper card: its scores, how it ended and, as the card says, who won
    (an entrant of the match: checked against the scores)."""

    winner: int | None = Field(default=None, ge=0, le=MAX_ID)


class CardIn(BaseModel):
    """A match's paper card as a director or scorekeeper types it in: its games, in order
    (or one game's ``score_a``, ``score_b``, ``reason``), and whether both players signed it
    on paper (PDA rule 11: then it counts at once)."""

    games: list[CardGameIn] = Field(default_factory=list, max_length=15)
    score_a: Score | None = None
    score_b: Score | None = None
    reason: Literal["target", "bogus"] = "target"
    paper: bool = False

    @model_validator(mode="after")
    def _one_game(self) -> CardIn:
        if not self.games and self.score_a is not None and self.score_b is not None:
            one = CardGameIn(score_a=self.score_a, score_b=self.score_b, reason=self.reason)
            self.games = [one]
        if not self.games:
            raise PydanticCustomError("card", "the card has no game: type each game's scores")
        return self


class RulingIn(NoteIn):
    """A director's ruling on a game.

    ``kind="bogus"``: ``offender`` committed PDA bogus play; the official score is 150 to the
    opponent, 100 to the offender. ``kind="score"``: the given scores stand (``winner`` breaks a
    tie). ``game_id``: the game ruled on (a disputed card, a table in play); none: a new game.
    """

    kind: Literal["score", "bogus"] = "score"
    game_id: int | None = Field(default=None, ge=0, le=MAX_ID)
    offender: int | None = Field(default=None, ge=0, le=MAX_ID)
    winner: int | None = Field(default=None, ge=0, le=MAX_ID)
    score_a: Score = 0
    score_b: Score = 0


class PenaltyIn(NoteIn):
    """PDA 9b: the hand ends and the other player gets ``points`` (at least 50: the larger of
    50 and the offender's pips, rounded to 5)."""

    offender: int = Field(ge=0, le=MAX_ID)
    points: Annotated[int, whole(50, 150, "A 9b penalty (PDA: the larger of 50 and the pips)")] = 50


class CheckIn(NoteIn):
    """The director checks an entrant in (``present``) or out."""

    present: bool = True


class CheckinWindow(NoteIn):
    """The director opens or closes check-in by hand, or lets the set times decide."""

    state: Literal["open", "closed", "times"]


class SeedsIn(Clean):
    """Manual seeding: entrant ids in seed order (seed 1 first), or ``by="rating"`` to fill
    the order from the ratings (to adjust by hand afterwards)."""

    order: list[Annotated[int, Field(ge=0, le=MAX_ID)]] = Field(
        default_factory=list, max_length=256
    )
    by: Literal["rating", "order"] = "order"


class UsernameIn(Clean):
    """A person named by username (a co-director, a late entrant)."""

    username: str = Field(min_length=1, max_length=30)
