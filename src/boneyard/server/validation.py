"""Answers to malformed requests that cannot fail themselves.

FastAPI's own 422 answer echoes the offending input. JSON may carry a lone surrogate
(``"\\ud800"``), which Python decodes but UTF-8 cannot encode, so that echo made the error answer
itself fail with a server error (found by schemathesis, tests/server/site/test_schemathesis.py).
Here the same 422 document is built with every text made encodable first.

Also :func:`storable`: whether a text can be sent to the database at all (PostgreSQL refuses NUL
characters and both databases refuse lone surrogates), and :func:`receive_text`, the live-table
socket's frames (a binary frame is answered, not a crash).
"""

from __future__ import annotations

import json

from fastapi import FastAPI, Request, WebSocket
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect

from boneyard.store.db import DataError


def clean(value: object) -> object:
    """``value`` with every string made encodable as UTF-8 (a lone surrogate becomes ``\\ud800``).

    >>> clean({"input": ["ok", "\\ud800"]})
    {'input': ['ok', '\\\\ud800']}
    """
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {clean(k): clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean(v) for v in value]
    return value


def storable(text: str) -> bool:
    """Whether ``text`` can be stored or looked up (no NUL, encodable as UTF-8).

    >>> storable("a1b2"), storable("a\\x00b"), storable("\\ud800")
    (True, False, False)
    """
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def encodable(value: object) -> bool:
    """Whether every text in the JSON value ``value`` is encodable as UTF-8 (an answer that
    echoes it can be sent).

    >>> encodable({"seats": ["ann", "bob"]}), encodable({"seats": ["\\ud800"]})
    (True, False)
    """
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError, TypeError, RecursionError):
        return False
    return True


def size(text: str) -> int:
    """Bytes of ``text`` in UTF-8 (a lone surrogate counts as three).

    >>> size("abc"), size("é"), size("\\ud800")
    (3, 2, 3)
    """
    return len(text.encode("utf-8", "surrogatepass"))


async def receive_text(websocket: WebSocket) -> str | None:
    """The next frame of ``websocket``: its text, or ``None`` for a binary frame (Starlette's
    ``receive_text`` fails with a KeyError on one). Raises ``WebSocketDisconnect`` on a close."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


async def invalid_request(_request: Request, exc: Exception) -> JSONResponse:
    """The usual 422 document (``{"detail": [errors]}``), always encodable."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return JSONResponse({"detail": clean(jsonable_encoder(errors))}, status_code=422)


async def out_of_range(_request: Request, _exc: Exception) -> JSONResponse:
    """A value the database cannot take (a number beyond 64 bits, a NUL in text): HTTP 400."""
    return JSONResponse(
        {"detail": "a value is out of range (a number too large, or a character not allowed)"},
        status_code=400,
    )


def install(app: FastAPI) -> None:
    """Use :func:`invalid_request` for the request validation errors of ``app``, and
    :func:`out_of_range` for values its database refuses (SQLite: ``OverflowError``;
    PostgreSQL: a ``DataError``, otherwise answered 503 as if the database were down)."""
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(OverflowError, out_of_range)
    app.add_exception_handler(DataError, out_of_range)
