"""The events package's layers (issue 19): its service knows nothing of the web (it raises
domain errors, which the routes answer as before), and its route functions stay short (they
parse, call the service, shape the answer)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.routing import APIRoute

import boneyard.server.events as events_package
from boneyard.server.errors import DomainError, NotAllowed, NotFound, Refused
from tests.server.conftest import make_app

LONGEST = 60
"""Lines of the longest route function."""
WEBLESS = (
    "service",
    "rulings",
    "manage",
    "scorecards",
    "entry",
    "places",
    "start",
    "scheduler",
    "background",
    "timeouts",
    "settings",
    "views",
)
"""Modules of the events package that do the work, without the web framework."""


def routes(items: list[Any]) -> Iterator[APIRoute]:
    """Every API route under ``items``, included routers too."""
    for r in items:
        if isinstance(r, APIRoute):
            yield r
        inner = getattr(r, "original_router", None)  # an included router
        if inner is not None:
            yield from routes(list(inner.routes))


def test_every_events_route_function_is_short(tmp_path: Path) -> None:
    app = make_app(str(tmp_path / "b.db"))
    found = [
        r
        for r in routes(list(app.routes))
        if r.endpoint.__module__.startswith("boneyard.server.events")
    ]
    assert len(found) > 40  # (the walk reaches the included routers)
    long = {
        f"{r.endpoint.__module__}.{r.endpoint.__name__}": n
        for r in found
        if (n := len(inspect.getsourcelines(r.endpoint)[0])) > LONGEST
    }
    assert long == {}


def test_the_working_modules_import_no_web_framework() -> None:
    here = Path(events_package.__file__).parent
    for name in WEBLESS:
        tree = ast.parse((here / f"{name}.py").read_text())
        imported = {
            n.module if isinstance(n, ast.ImportFrom) else a.name
            for n in ast.walk(tree)
            if isinstance(n, ast.Import | ast.ImportFrom)
            for a in n.names
        }
        web = {m for m in imported if m and m.split(".")[0] in ("fastapi", "starlette")}
        assert web == set(), name


def test_domain_errors_carry_their_status_and_message() -> None:
    for cls, status in ((NotFound, 404), (NotAllowed, 403), (Refused, 400)):
        exc = cls("no such event")
        assert isinstance(exc, DomainError)
        assert (exc.status, exc.reason, str(exc)) == (status, "no such event", "no such event")
