"""The errors a service raises, each with the HTTP status it is answered with.

A service (``server/*/service.py``) knows nothing of HTTP: it refuses a request by raising one
of these, with the reason in a player's words. One exception handler
(:func:`boneyard.server.handlers.install`) answers them all ``{"detail": reason}`` with the
class's status — the same shape FastAPI gives its own errors, so the client reads every
refusal alike. This module imports no web framework, so that every service may raise them.
"""

from __future__ import annotations

from typing import ClassVar

ERRORS: dict[int | str, dict[str, object]] = {
    400: {"description": "A request the rules or the server refuse, with the reason"},
    401: {"description": "Not signed in"},
    403: {"description": "Not allowed (or a missing CSRF token)"},
    404: {"description": "No such table"},
    409: {"description": "Done at the same moment by another request"},
    413: {"description": "The request is too large"},
    429: {"description": "Too many attempts, or a limit of the site reached"},
}
"""The refusals every API route documents (OpenAPI ``responses``)."""


class DomainError(Exception):
    """A request refused, with the reason in a player's words (``str(error)``)."""

    status: ClassVar[int] = 400

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Refused(DomainError):
    """The rules or the site refuse it (400)."""


class NotSignedIn(DomainError):
    """Nobody is signed in, or not the right kind of account (401)."""

    status = 401


class NotAllowed(DomainError):
    """This person may not do that (403)."""

    status = 403


class NotFound(DomainError):
    """No such thing, or one this person may not see (404)."""

    status = 404


class Gone(DomainError):
    """It existed and is no longer served (410)."""

    status = 410


class OverLimit(DomainError):
    """A cap of the site is reached (429; rate limits are ratelimit.TooMany)."""

    status = 429


class Busy(DomainError):
    """The server cannot take the work now: try again (503)."""

    status = 503
