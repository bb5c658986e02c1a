"""A test's app is let go once the test ends (tests/conftest.py, ``apps_let_go``): the test
suite's workers stay small, so that their garbage collections stay short."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from starlette.testclient import TestClient

from tests.conftest import let_go_of_apps
from tests.server.conftest import make_app, register


def a_used_app(db: Path) -> weakref.ref[object]:
    """A weak reference to the tables of an app (its endpoints' closures hold them, and its
    engine) that served a sign-up and a page, then closed."""
    app = make_app(str(db))
    with TestClient(app) as c:
        c.get("/api/me")
        register(c, "Pat")
        c.get("/api/games")
    return weakref.ref(app.state.tables)


def test_an_app_no_test_holds_is_collected_once_fastapis_caches_let_go(tmp_path: Path) -> None:
    tables = a_used_app(tmp_path / "a.db")
    gc.collect()
    assert tables() is not None, "FastAPI's endpoint caches hold a closed app's (the reason)"
    let_go_of_apps()
    gc.collect()
    assert tables() is None, "something else holds a closed app's tables"
