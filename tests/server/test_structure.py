"""The server's shape, held by its own tests: every route function fits on a screen (thin
handlers that parse, call a service and shape the answer; issue 19)."""

from __future__ import annotations

import importlib.util
import inspect
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from starlette.routing import BaseRoute, Mount

from tests.server.conftest import make_app

LONGEST = 60
"""Lines a route function may take (its decorators and docstring included)."""
KNOWN_LONG: set[str] = set()
"""Route functions still longer, as ``module.function``: each named with its package, to be
split there (none left)."""


def endpoints(routes: Iterable[BaseRoute]) -> Iterator[Any]:
    """Every route function under ``routes``, in included routers too (FastAPI keeps an
    included router as one route holding the ``original_router``)."""
    for route in routes:
        if isinstance(route, Mount):
            continue  # the static files: not a function of ours
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from endpoints(included.routes)
            continue
        endpoint = getattr(route, "endpoint", None)
        assert endpoint is not None, route
        yield endpoint


def lengths(routes: Iterable[BaseRoute]) -> dict[str, int]:
    """``module.function``: its length in lines, for every route function."""
    out = {}
    for endpoint in endpoints(routes):
        lines, _start = inspect.getsourcelines(endpoint)
        out[f"{endpoint.__module__}.{endpoint.__qualname__}"] = len(lines)
    return out


def test_no_route_function_is_longer_than_a_screen(tmp_path: Path) -> None:
    found = lengths(make_app(str(tmp_path / "db.sqlite")).routes)
    assert len(found) > 80  # every domain's routes were walked, included routers too
    assert "boneyard.server.lobby.router.new_table" in found
    too_long = {name: n for name, n in found.items() if n > LONGEST}
    assert set(too_long) <= KNOWN_LONG, too_long
    assert set(found) >= KNOWN_LONG, "a known exception no longer exists: remove it"


def test_a_long_route_is_caught(tmp_path: Path) -> None:
    """The walk measures the function's own source: one of 61 lines is reported."""
    body = "\n".join(f"    x{i} = {i}" for i in range(LONGEST - 2))
    module = tmp_path / "long_route.py"
    module.write_text(f"async def long_route() -> int:\n{body}\n    return 0\n")
    spec = importlib.util.spec_from_file_location("long_route", module)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    app = make_app(str(tmp_path / "db.sqlite"))
    app.add_api_route("/long", loaded.long_route)
    assert lengths(app.routes)["long_route.long_route"] == LONGEST
    module.write_text(f"async def long_route() -> int:\n{body}\n    x = 0\n    return x\n")
    spec.loader.exec_module(loaded)
    app.add_api_route("/longer", loaded.long_route)
    assert lengths(app.routes)["long_route.long_route"] == LONGEST + 1
