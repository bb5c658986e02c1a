"""A table's seats: a typed schema for ``game_tables.seats``, validated on every read and write.

The column stays JSON (one list per table, in seat order, as before: no data moves), but the
code never sees a dict: :class:`SeatsJSON` loads each stored list into :data:`Seat` values
(a person, a bot or an open seat, told apart by ``kind``) and dumps them back, so a seat that does
not fit, read or written, fails there with what is wrong, not later as a ``KeyError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from sqlalchemy import JSON
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from boneyard.store.statuses import SeatKind


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Someone(_Part):
    """A person a seat refers to: the one a bot replaces, or the bot account invited."""

    user_id: int | None
    name: str


class PersonSeat(_Part):
    """A person plays the seat (a bot account's too: its program plays for it)."""

    # Every seat answers the same questions (``seat.user_id`` is ``None`` where nobody's is).
    bot: None = None
    replaced: None = None
    resigned: Literal[False] = False
    invited: None = None

    kind: Literal[SeatKind.PERSON] = SeatKind.PERSON
    user_id: int
    name: str
    reclaimed_at: str | None = None
    """When the person took the seat back from a bot (ISO time), if they did."""


class BotSeat(_Part):
    """A site bot plays the seat; ``replaced``: the person whose seat it took over (they left,
    resigned, or their clock ran out), who still holds it for history and ratings."""

    kind: Literal[SeatKind.BOT] = SeatKind.BOT
    bot: str
    name: str | None
    replaced: Someone | None = None
    resigned: bool = False
    """The person resigned: the bot plays the seat out, placed last."""
    user_id: None = None
    reclaimed_at: None = None
    invited: None = None


class OpenSeat(_Part):
    """Nobody yet; ``invited``: the bot account challenged to it (only it may take it)."""

    kind: Literal[SeatKind.OPEN] = SeatKind.OPEN
    name: None = None
    invited: Someone | None = None
    user_id: None = None
    bot: None = None
    replaced: None = None
    resigned: Literal[False] = False
    reclaimed_at: None = None


Seat = Annotated[PersonSeat | BotSeat | OpenSeat, Field(discriminator="kind")]
"""One seat of a table."""

_SEATS: TypeAdapter[list[Seat]] = TypeAdapter(list[Seat])


class SeatsError(ValueError):
    """A seat list that does not fit the schema (stored, or about to be)."""


def load_seats(raw: object) -> list[Seat]:
    """The seats of a stored (or given) JSON list; raises SeatsError saying what is wrong.

    >>> load_seats([{"kind": "person", "user_id": 3, "name": "Ann"}, {"kind": "open"}])[1].kind
    <SeatKind.OPEN: 'open'>
    >>> load_seats([{"kind": "person", "name": "Ann"}])
    Traceback (most recent call last):
    ...
    boneyard.store.seats.SeatsError: a seat does not fit: 0.person.user_id: Field required
    """
    try:
        return _SEATS.validate_python(raw)
    except ValidationError as exc:
        why = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:3]
        )
        raise SeatsError(f"a seat does not fit: {why}") from None


def dump_seats(seats: Sequence[Seat]) -> list[dict[str, object]]:
    """The JSON stored for ``seats`` (fields at their default left out, ``kind`` always in)."""
    return [
        {"kind": s.kind.value, **s.model_dump(mode="json", exclude_defaults=True)} for s in seats
    ]


class SeatsJSON(TypeDecorator[list[Seat]]):
    """``game_tables.seats``: JSON in the database, :data:`Seat` values in the code."""

    impl = JSON
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> object:
        """Validate and dump (seats given as models, or as dicts: both are checked)."""
        if value is None:
            return None
        return dump_seats(load_seats([_plain(s) for s in value]))

    def process_result_value(self, value: object, dialect: Dialect) -> list[Seat] | None:
        """Load and validate a stored list."""
        return None if value is None else load_seats(value)


def _plain(seat: object) -> object:
    return seat.model_dump(mode="json") if isinstance(seat, BaseModel) else seat
