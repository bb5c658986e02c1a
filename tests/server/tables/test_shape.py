"""The live tables' code keeps its shape: a manager that only composes its collaborators, functions
that fit on a screen, and no SQL outside the store (the collaborators' imports are checked by the
import-linter contracts in pyproject.toml)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import boneyard.server.tables as tables_package

TABLES = Path(tables_package.__file__).parent
LONGEST = 60
"""Lines a function may have (its own: a nested function is counted on its own)."""
QUERY_BUILDERS = {"select", "insert", "update", "delete", "text", "func", "and_", "or_"}
"""What builds a query: the store's (boneyard.store) to use."""
ALLOWED_SQLALCHEMY = ("sqlalchemy.exc", "sqlalchemy.ext.asyncio")
"""What a server module may take from SQLAlchemy: its errors and the session's types."""


def modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(TABLES.glob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def own_length(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of ``fn`` without those of the functions defined inside it."""
    assert fn.end_lineno is not None
    inner = sum(
        own.end_lineno - own.lineno + 1
        for own in ast.walk(fn)
        if own is not fn
        and isinstance(own, ast.FunctionDef | ast.AsyncFunctionDef)
        and own.end_lineno is not None
    )
    return fn.end_lineno - fn.lineno + 1 - inner


def queries(tree: ast.Module) -> list[str]:
    """Where ``tree`` builds or runs SQL: SQLAlchemy's query builders imported, or a session
    (``async with ….sessions() as db``) used for anything but its transaction."""
    found = []
    sessions: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
            module = node.module or ""
            if not module.startswith(ALLOWED_SQLALCHEMY):
                names = {a.name for a in node.names}
                found.append(f"line {node.lineno}: from {module} import {', '.join(sorted(names))}")
        if isinstance(node, ast.AsyncWith):
            for item in node.items:
                call = item.context_expr
                made_by = call.func if isinstance(call, ast.Call) else None
                target = item.optional_vars
                opens = isinstance(made_by, ast.Attribute) and made_by.attr == "sessions"
                if opens and isinstance(target, ast.Name):
                    sessions.add(target.id)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id in sessions and node.func.attr != "begin":
                found.append(f"line {node.lineno}: {owner.id}.{node.func.attr}(...)")
            if isinstance(owner, ast.Name) and owner.id == "sqlalchemy":
                found.append(f"line {node.lineno}: sqlalchemy.{node.func.attr}(...)")
    return found


def test_the_manager_only_composes_its_collaborators() -> None:
    lines = (TABLES / "manager.py").read_text(encoding="utf-8").count("\n")
    assert lines < 300, f"manager.py has {lines} lines: its work belongs to a collaborator"


def test_every_function_of_the_live_tables_fits_on_a_screen() -> None:
    long = [
        f"{path.name}:{fn.lineno} {fn.name} ({own_length(fn)} lines)"
        for path, tree in modules()
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and own_length(fn) > LONGEST
    ]
    assert not long, f"functions over {LONGEST} lines: {long}"


def test_no_module_of_the_live_tables_builds_or_runs_a_query() -> None:
    found = {path.name: q for path, tree in modules() if (q := queries(tree))}
    assert not found, f"SQL belongs in boneyard.store: {found}"


def test_the_query_check_catches_a_planted_query() -> None:
    planted = ast.parse(
        "from sqlalchemy import select\n"
        "async def token(self, t):\n"
        "    async with self.tables.sessions() as db, db.begin():\n"
        "        db.add(t)\n"
        "        return await db.scalar(select(Table.id).where(Table.token == t))\n"
    )
    assert queries(planted) == [
        "line 1: from sqlalchemy import select",
        "line 4: db.add(...)",
        "line 5: db.scalar(...)",
    ]
    clean = ast.parse(
        "from sqlalchemy.exc import IntegrityError\n"
        "async def token(self, t):\n"
        "    async with self.tables.sessions() as db, db.begin():\n"
        "        return await tables_repo.by_invite(db, t)\n"
    )
    assert queries(clean) == []
