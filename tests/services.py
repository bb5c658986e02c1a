"""The optional pieces some tests use, each found (or the test skipped with a reason) where it
is used, so that a new test cannot forget the skip.

The README's test command passes on a machine without them: PostgreSQL and Redis come from the
URLs ``.ci/run`` exports (``BONEYARD_TEST_POSTGRES_URL``, ``BONEYARD_TEST_REDIS_URL``), Chromium
from ``CHROMIUM`` (Debian's ``/usr/bin/chromium``), axe-core and brackets-manager from
``npm ci --prefix tests/js``, and programs such as ``nginx`` or ``node`` from ``PATH``.

Two ways to the same skip: a test (or module, or parameter) marked ``needs("postgres", ...)``
skips before its setup (tests/conftest.py); the helpers below (:func:`postgres_url`,
:func:`redis_url`, :func:`program`, the browser's ``launch`` and ``axe_violations``) skip where
they are called. ``pytest --optional-pieces`` runs only the tests that use one (.ci/run runs
them once more in a fresh clone without any).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

POSTGRES_VAR = "BONEYARD_TEST_POSTGRES_URL"
REDIS_VAR = "BONEYARD_TEST_REDIS_URL"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
AXE = Path(__file__).resolve().parent / "js" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, pinned in tests/js/package.json; ``npm ci --prefix tests/js`` installs it."""
BRACKETS = Path(__file__).resolve().parent / "js" / "node_modules" / "brackets-memory-db"
"""brackets-manager and its in-memory storage, the reference double-elimination charts (pinned
in tests/js/package.json; the same ``npm ci`` installs them)."""


def which(name: str) -> str | None:
    """The path of the program ``name`` on ``PATH`` or in /usr/sbin (nginx lives there)."""
    return shutil.which(name) or next(
        (p for d in ("/usr/sbin", "/usr/local/sbin") if os.access(p := f"{d}/{name}", os.X_OK)),
        None,
    )


def missing_program(name: str, package: str) -> Callable[[], str | None]:
    """Why a test needing the program ``name`` skips (install ``package``), or ``None``."""
    return lambda: None if which(name) else f"needs {name} (Debian: apt-get install {package})"


MISSING: dict[str, Callable[[], str | None]] = {
    "postgres": lambda: (
        None
        if os.environ.get(POSTGRES_VAR)
        else f"needs PostgreSQL: set {POSTGRES_VAR} (.ci/run starts one and sets it)"
    ),
    "redis": lambda: (
        None
        if os.environ.get(REDIS_VAR)
        else f"needs Redis: set {REDIS_VAR} (.ci/run starts one and sets it)"
    ),
    "chromium": lambda: (
        None
        if Path(CHROMIUM).exists()
        else f"{CHROMIUM} is missing (Debian: apt-get install chromium)"
    ),
    "axe": lambda: None if AXE.exists() else "axe-core is missing (npm ci --prefix tests/js)",
    "brackets-manager": lambda: (
        None
        if (BRACKETS.parent / "brackets-manager").exists() and BRACKETS.exists()
        else "brackets-manager is missing (npm ci --prefix tests/js)"
    ),
    "nginx": missing_program("nginx", "nginx"),
    "node": missing_program("node", "nodejs"),
    "redis-server": missing_program("redis-server", "redis-server"),
    "pg_dump": missing_program("pg_dump", "postgresql-client"),
    "pdftotext": missing_program("pdftotext", "poppler-utils"),
}
"""Each optional piece: why a test that needs it skips here, or ``None`` when it is here."""


def missing(*pieces: str) -> str | None:
    """Why a test that needs ``pieces`` cannot run here (the first one missing), or ``None``."""
    return next((why for p in pieces if (why := MISSING[p]()) is not None), None)


def needs(*pieces: str) -> pytest.MarkDecorator:
    """Mark a test, a module (``pytestmark``) or a parameter as needing ``pieces`` (keys of
    :data:`MISSING`): it skips before its setup where one is missing."""
    unknown = set(pieces) - set(MISSING)
    assert not unknown, f"no such optional piece: {unknown}"
    return pytest.mark.needs(*pieces)


needs_postgres = needs("postgres")
needs_redis = needs("redis")


def require(piece: str) -> None:
    """Skip the calling test unless ``piece`` is here."""
    why = MISSING[piece]()
    if why is not None:
        pytest.skip(why)


def postgres_url() -> str:
    """The scratch PostgreSQL server's URL (a superuser: tests make and drop databases on it),
    or skip the test that asked."""
    require("postgres")
    return os.environ[POSTGRES_VAR]


def redis_url() -> str:
    """The scratch Redis server's URL, or skip the test that asked."""
    require("redis")
    return os.environ[REDIS_VAR]


def has_postgres() -> bool:
    """Whether :func:`postgres_url` would give a URL (for decisions taken at collection)."""
    return MISSING["postgres"]() is None


def program(name: str) -> str:
    """The path of the program ``name`` (a key of :data:`MISSING`), or skip the test that asked."""
    require(name)
    found = which(name)
    assert found is not None
    return found


@contextlib.contextmanager
def scratch_postgres() -> Iterator[str]:
    """A fresh PostgreSQL database on the scratch server, dropped afterwards (or skip)."""
    from bench.faults import create_database, drop_database

    admin = postgres_url()
    url = asyncio.run(create_database(admin))
    try:
        yield url
    finally:
        asyncio.run(drop_database(admin, url))
