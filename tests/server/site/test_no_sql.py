"""No module of the server builds or runs a query (issue 31): the SQL lives in repositories in
``boneyard.store``, which the server calls with the session it holds.

The rule, as this walk reads it: a server module may hold an ``AsyncSession`` (the type comes
through ``boneyard.store.db``), open one, ``begin()``, ``commit()`` or ``rollback()`` it and pass it
to a store function. It may not import SQLAlchemy, run a statement on a session (``execute``,
``scalars``, ``scalar``, ``get``, ``add``, ``delete``, ``flush``, ...) nor build one (``.where``,
``.order_by``, ``.with_for_update``, ...). An import-linter contract in ``pyproject.toml`` holds
the import half too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import boneyard.server

SERVER = Path(boneyard.server.__file__).parent

SQL_NOT_YET_IN_STORE: tuple[str, ...] = ()
"""Packages of ``boneyard/server`` whose queries are still being moved to the store: skipped by
the walk (none: every package's queries are the store's)."""

RUNS = {
    "execute",
    "scalars",
    "scalar",
    "stream_scalars",
    "add_all",
    "merge",
    "flush",
    "get_one",
    "run_sync",
}
"""Session methods that run SQL, with names no other object of the server uses."""
RUNS_ON_A_SESSION = {"get", "add", "delete", "stream", "refresh"}
"""Session methods whose names dicts, sets and the live tables' loader share: caught when
called on a session's name."""
SESSION_NAMES = {"db", "s", "session", "sess", "conn", "connection"}
BUILDS = {
    "where",
    "filter",
    "filter_by",
    "order_by",
    "group_by",
    "having",
    "outerjoin",
    "select_from",
    "returning",
    "with_for_update",
    "on_conflict_do_update",
    "on_conflict_do_nothing",
    "execution_options",
    "scalar_subquery",
    "subquery",
}
"""Methods of SQLAlchemy's statements and columns that build a query."""


def opened_sessions(tree: ast.Module) -> set[str]:
    """The names ``tree`` gives the sessions it opens (``async with ….sessions() as name``),
    whatever they are."""
    names = set()
    for node in ast.walk(tree):
        for item in node.items if isinstance(node, ast.AsyncWith | ast.With) else ():
            call, target = item.context_expr, item.optional_vars
            made_by = call.func if isinstance(call, ast.Call) else None
            opens = isinstance(made_by, ast.Attribute) and made_by.attr == "sessions"
            if opens and isinstance(target, ast.Name):
                names.add(target.id)
    return names


def sql_in(source: str) -> Iterator[tuple[int, str]]:
    """``(line, what)`` for every import of SQLAlchemy and every query built or run in
    ``source`` (a call on a module of ``boneyard.store`` is the store's work, not reported)."""
    tree = ast.parse(source)
    stores = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("boneyard.store")
        for alias in node.names
    }
    sessions = SESSION_NAMES | opened_sessions(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "sqlalchemy":
                    yield node.lineno, f"import {alias.name}"
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] == "sqlalchemy" and node.level == 0:
                yield node.lineno, f"from {node.module} import"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            receiver = node.func.value
            if isinstance(receiver, ast.Name) and receiver.id in stores:
                continue  # a repository of the store: where the queries belong
            on_session = isinstance(receiver, ast.Name) and receiver.id in sessions
            if name in RUNS or name in BUILDS or (name in RUNS_ON_A_SESSION and on_session):
                yield node.lineno, f".{name}(...)"


def sql_in_server(root: Path = SERVER, exempt: tuple[str, ...] = SQL_NOT_YET_IN_STORE) -> list[str]:
    """``path:line: what`` for every query in the server's modules under ``root``, the packages
    ``exempt`` skipped."""
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative.parts[0] in exempt:
            continue
        for line, what in sql_in(path.read_text()):
            found.append(f"{relative}:{line}: {what}")
    return found


def test_no_server_module_builds_or_runs_a_query() -> None:
    assert sql_in_server() == []


def test_the_exempt_packages_exist() -> None:
    for package in SQL_NOT_YET_IN_STORE:
        assert (SERVER / package / "__init__.py").is_file(), f"{package} is gone: unlist it"


def test_a_planted_query_is_caught(tmp_path: Path) -> None:
    """A module that imports ``select``, one that runs a statement made elsewhere, one that
    adds a row and one that deletes through a session it named its own way are each reported; the same module in an exempt package is not, and a module that
    only holds, begins and commits a session and calls the store is clean."""
    (tmp_path / "domain").mkdir()
    (tmp_path / "domain" / "service.py").write_text(
        "from sqlalchemy import select\n"
        "from boneyard.store.models import User\n\n"
        "async def name(db, uid):\n"
        "    return await db.scalar(select(User.name).where(User.id == uid))\n"
    )
    (tmp_path / "domain" / "rows.py").write_text(
        "async def keep(db, row):\n    db.add(row)\n    await db.commit()\n"
    )
    (tmp_path / "domain" / "named.py").write_text(
        "async def drop(self, row):\n"
        "    async with self.hub.sessions() as tx, tx.begin():\n"
        "        await tx.delete(row)\n"
    )
    (tmp_path / "clean.py").write_text(
        "from boneyard.store import players, unit\n"
        "from boneyard.store.db import AsyncSession\n\n"
        "async def name(sessions, uid: int) -> str:\n"
        "    async with sessions() as db, db.begin():\n"
        "        names = {}\n"
        "        names.get(uid)\n"
        "        row = await unit.get(db, Player, uid)\n"
        "        await unit.flush(db)\n"
        "        return await players.name_of(db, uid)\n"
    )
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "manager.py").write_text("from sqlalchemy import select\n")
    found = sql_in_server(tmp_path, exempt=("tables",))
    assert found == [
        "domain/named.py:3: .delete(...)",  # a session under any name it is opened with
        "domain/rows.py:2: .add(...)",
        "domain/service.py:1: from sqlalchemy import",
        "domain/service.py:5: .scalar(...)",
        "domain/service.py:5: .where(...)",
    ]
    assert len(sql_in_server(tmp_path, exempt=())) == 6
