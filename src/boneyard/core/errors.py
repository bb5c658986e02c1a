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
