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


def first_line(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Where ``fn``'s source begins: its first decorator, else its ``def``."""
    return min([d.lineno for d in fn.decorator_list] + [fn.lineno])


def own_length(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of ``fn`` (its decorators and docstring included) without those of the functions
    defined inside it (a router's route functions are each measured on their own)."""
    assert fn.end_lineno is not None
    inner = sum(
        own.end_lineno - first_line(own) + 1
        for own in ast.walk(fn)
        if own is not fn
        and isinstance(own, ast.FunctionDef | ast.AsyncFunctionDef)
        and own.end_lineno is not None
    )
    return fn.end_lineno - first_line(fn) + 1 - inner


def too_long(path: Path, tree: ast.Module) -> list[str]:
    """``path:line name (n lines)`` for each function of ``tree`` over :data:`LONGEST`."""
    return [
        f"{path.relative_to(SERVER)}:{fn.lineno} {fn.name} ({own_length(fn)} lines)"
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and own_length(fn) > LONGEST
    ]


def test_the_manager_only_composes_its_collaborators() -> None:
    lines = (TABLES / "manager.py").read_text(encoding="utf-8").count("\n")
    assert lines < 300, f"manager.py has {lines} lines: its work belongs to a collaborator"


def test_every_function_of_the_server_fits_on_a_screen() -> None:
    long = [line for path, tree in modules() for line in too_long(path, tree)]
    assert not long, f"functions over {LONGEST} lines: {long}"


def test_a_long_function_is_caught() -> None:
    """A route of 60 lines (its decorator included) passes; one of 61 is reported, and the
    router around it is measured without it."""
    body = "\n".join(f"        x{i} = {i}" for i in range(LONGEST - 3))
    source = "def router(r):\n    @r.get('/long')\n    def long_route():\n{}\n        return 0\n"
    fits = ast.parse(source.format(body))
    assert too_long(SERVER / "router.py", fits) == []
    longer = ast.parse(source.format(body + "\n        x = 0"))
    assert too_long(SERVER / "router.py", longer) == ["router.py:3 long_route (61 lines)"]
