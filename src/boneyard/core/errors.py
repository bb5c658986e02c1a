"""Typed errors. Every message is written for a player, not a programmer."""

from __future__ import annotations


class BoneyardError(ValueError):
    """Base class of every error Boneyard raises on bad input."""


class IllegalActionError(BoneyardError):
    """An action that the rules do not allow in this state; nothing was changed.

    >>> str(IllegalActionError("6-1 does not match an open end (open: 5, 6, 4)"))
    '6-1 does not match an open end (open: 5, 6, 4)'
    """


class OptionError(BoneyardError):
    """An unknown option, or a value the option does not take."""


class RecordError(BoneyardError):
    """A game record that breaks the format or the rules.

    ``hand`` and ``event`` locate the fault (``None`` when the fault is in the envelope, or
    in a hand's set-up for ``event``).
    """

    def __init__(self, why: str, hand: int | None = None, event: int | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.hand = hand
        self.event = event

    def to_json(self) -> dict[str, object]:
        """The replay error line of RECORDS.md §5."""
        return {"error": self.why, "hand": self.hand, "event": self.event}


def check_seat(seat: object, players: int) -> None:
    """Refuse anything but a seat of a ``players``-seat table or ``None`` (a spectator).

    A negative number is not "count from the end" here: that would show another seat's hand.

    >>> check_seat(1, 2); check_seat(None, 2)
    >>> check_seat(-1, 2)
    Traceback (most recent call last):
    ...
    boneyard.core.errors.BoneyardError: there is no seat -1 (seats 0-1)
    """
    if seat is None or (type(seat) is int and 0 <= seat < players):
        return
    raise BoneyardError(f"there is no seat {seat!r} (seats 0-{players - 1})")


class FigureError(BoneyardError):
    """A picture of a rules page that the game does not allow (a fault of the page, not of a
    player): a play that does not fit, a count or score the engine does not give."""
