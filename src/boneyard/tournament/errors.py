"""The one error type of tournament logic."""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.core.errors import BoneyardError


class TournamentError(BoneyardError):
    """A tournament operation that the format does not allow (nothing was changed).

    >>> str(TournamentError("match R1M1 is already over"))
    'match R1M1 is already over'
    """


def check_entrants(entrants: Sequence[str], minimum: int = 2, maximum: int = 1024) -> None:
    """Entrant ids must be non-empty distinct strings, between ``minimum`` and ``maximum``.

    >>> check_entrants(["a", "a"])  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    boneyard.tournament.errors.TournamentError: entrant 'a' is listed twice
    """
    if not minimum <= len(entrants) <= maximum:
        raise TournamentError(
            f"this format takes {minimum} to {maximum} entrants, not {len(entrants)}"
        )
    seen: set[str] = set()
    for e in entrants:
        if not isinstance(e, str) or not e:
            raise TournamentError(f"entrant ids are non-empty strings, not {e!r}")
        if e in seen:
            raise TournamentError(f"entrant {e!r} is listed twice")
        seen.add(e)
