"""The server's code keeps its shape: the live tables' manager only composes its collaborators,
and every function of the server fits on a screen (the collaborators' imports are checked by the import-linter
contracts in pyproject.toml; that no SQL is built outside the store, by tests/server/site/
test_no_sql.py)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import boneyard.server as server_package

SERVER = Path(server_package.__file__).parent
TABLES = SERVER / "tables"
LONGEST = 60
"""Lines a function may have (its own: a nested function is counted on its own)."""


def modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(SERVER.rglob("*.py")):
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


def test_the_manager_only_composes_its_collaborators() -> None:
    lines = (TABLES / "manager.py").read_text(encoding="utf-8").count("\n")
    assert lines < 300, f"manager.py has {lines} lines: its work belongs to a collaborator"


def test_every_function_of_the_server_fits_on_a_screen() -> None:
    long = [
        f"{path.relative_to(SERVER)}:{fn.lineno} {fn.name} ({own_length(fn)} lines)"
        for path, tree in modules()
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and own_length(fn) > LONGEST
    ]
    assert not long, f"functions over {LONGEST} lines: {long}"
