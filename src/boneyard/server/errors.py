"""The errors a service raises, and the one place they become HTTP answers.

A service (``server/*/service.py``) knows nothing of HTTP: it refuses a request by raising one
of these, with the reason in a player's words. :func:`install` maps each class to its status
code and answers ``{"detail": reason}`` — the same shape FastAPI gives its own errors, so the
client reads every refusal alike.
"""

from __future__ import annotations

from typing import Any, ClassVar

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError

from boneyard.server.metrics import Metrics
from boneyard.server.ratelimit import TooMany

ERRORS: dict[int | str, dict[str, Any]] = {
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


async def answer(_request: Request, exc: Exception) -> JSONResponse:
    """The HTTP answer of a :class:`DomainError`."""
    assert isinstance(exc, DomainError)
    return JSONResponse({"detail": exc.reason}, exc.status)


async def conflict(_request: Request, _exc: Exception) -> JSONResponse:
    """A unique key refused a row: the same thing was done at the same moment (a race)."""
    return JSONResponse(
        {"detail": "that was just done by another request: reload the page and look"}, 409
    )


def install(app: FastAPI, metrics: Metrics, db_errors: tuple[type[Exception], ...]) -> None:
    """Answer every :class:`DomainError` of ``app``'s routes with its status and reason; a
    rate limit with 429 and ``Retry-After``; a database down with 503 (``db_errors``); a race
    on a unique key with 409. Refusals and database errors are counted in ``metrics``."""
    app.add_exception_handler(DomainError, answer)
    app.add_exception_handler(IntegrityError, conflict)

    async def database_down(_request: Request, _exc: Exception) -> JSONResponse:
        metrics.db_errors.inc()
        return JSONResponse({"detail": "the database is unavailable: try again in a moment"}, 503)

    for exc_class in db_errors:
        app.add_exception_handler(exc_class, database_down)

    async def too_many(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, TooMany)
        metrics.refused.labels(exc.name or "limit").inc()
        return JSONResponse(
            {"detail": str(exc)}, 429, headers={"Retry-After": str(exc.retry_after)}
        )

    app.add_exception_handler(TooMany, too_many)
