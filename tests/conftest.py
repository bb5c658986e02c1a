"""Shared test helpers."""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import services

RECORDS = Path(__file__).parent / "records"


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture
def records_dir() -> Path:
    return RECORDS


@pytest.fixture
def postgres_url() -> str:
    """The scratch PostgreSQL server (tests make and drop databases on it); skips without one."""
    return services.postgres_url()


@pytest.fixture
def redis_url() -> str:
    """The scratch Redis server; skips without one."""
    return services.redis_url()


@pytest.fixture(autouse=True)
def apps_let_go() -> Iterator[None]:
    """After each test, FastAPI's caches of what each endpoint is (``lru_cache`` of up to 4,096
    callables in ``fastapi.dependencies.models``) let go of the apps the test made: they held
    their endpoints' closures, and through them each app's tables, engine and compiled
    statements, some forty apps at a time (two million objects in a worker, whose every full
    garbage collection then took 1-4 s; the last, after the worker's last test, could outlast
    the 5 s pytest-xdist waits for it and be interrupted). A site has one app: nothing grows."""
    yield
    let_go_of_apps()


def let_go_of_apps() -> None:
    """Empty FastAPI's caches of endpoints (:func:`apps_let_go`)."""
    models = sys.modules.get("fastapi.dependencies.models")  # (a test without an app: none)
    for cached in vars(models).values() if models else ():
        if callable(getattr(cached, "cache_clear", None)):
            cached.cache_clear()


USES = ("axe_violations", "postgres_url", "redis_url", "scratch_postgres", "program(", "require(")
"""What a test's own code calls when it uses an optional piece (tests/services.py)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--optional-pieces",
        action="store_true",
        help="run only the tests that use an optional piece (a service, axe-core, a program "
        "other than Chromium): .ci/run runs them without any, where they must pass or skip",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs(*pieces): skips where an optional piece is missing (tests/services.py)"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs"):
        why = services.missing(*mark.args)
        if why is not None:
            pytest.skip(why)


def uses_optional_piece(item: pytest.Item) -> bool:
    """Whether ``item`` is marked as needing a piece other than Chromium, asks for a service's
    fixture, or calls one of :data:`USES` in its own code."""
    if any(set(m.args) - {"chromium"} for m in item.iter_markers("needs")):
        return True
    if {"postgres_url", "redis_url"} & set(getattr(item, "fixturenames", ())):
        return True
    try:
        source = inspect.getsource(item.function)  # type: ignore[attr-defined]
    except (AttributeError, OSError, TypeError):
        return False
    return any(use in source for use in USES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--optional-pieces"):
        return
    keep = [uses_optional_piece(i) for i in items]
    config.hook.pytest_deselected(items=[i for i, k in zip(items, keep, strict=True) if not k])
    items[:] = [i for i, k in zip(items, keep, strict=True) if k]
