"""The app's exception handlers: where a refusal raised anywhere becomes its HTTP answer.

A domain error (boneyard.server.errors) is answered with its class's status and its reason; a
rate limit with 429 and ``Retry-After``; a database that is down with 503; a race on a unique
key with 409. Every answer is ``{"detail": reason}``.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from boneyard.server.errors import DomainError
from boneyard.server.metrics import Metrics
from boneyard.server.ratelimit import TooMany
from boneyard.store.db import IntegrityError


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
    """The handlers of the module docstring on ``app`` (``db_errors``: the exceptions of a
    database that is down); refusals and database errors are counted in ``metrics``."""
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
