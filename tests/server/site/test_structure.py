"""The server's shape, held by its own tests: every route function fits on a screen (thin
handlers that parse, call a service and shape the answer; issue 19), and neither the server nor
the browser client branches on a game's name (a game is known in one place, its spec: issue 17),
and the server's tests sit in a folder per package of the server, and every test helper is
named in one style (issue 17)."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from starlette.routing import BaseRoute, Mount

from boneyard.games.registry import MODULES
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


# -- a game is known in one place (issue 17): no per-game branch in the server or the client ----

SRC = Path(__file__).resolve().parents[3] / "src" / "boneyard"
GAME_NAMES = frozenset(MODULES)


def game_names_in(node: ast.AST) -> set[str]:
    """The games' record names ``node`` states: a string, or one in a tuple, list or set."""
    if isinstance(node, ast.Constant) and node.value in GAME_NAMES:
        return {node.value}
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(game_names_in(e) for e in node.elts))
    return set()


def branches_on_a_game(source: str) -> list[int]:
    """The lines of ``source`` that branch on a game's name: a comparison with it, a dict keyed
    by it or a ``case`` of it (a default value or a docstring example is no branch)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
        elif isinstance(node, ast.Dict):
            sides = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.MatchValue):
            sides = [node.value]
        else:
            continue
        if any(game_names_in(side) for side in sides):
            found.append(node.lineno)
    return found


JS_BRANCH = re.compile(r"""[!=]==?\s*["'](%s)["']|["'](%s)["']\s*[!=]==?""" % (("|".join(map(re.escape, GAME_NAMES)),) * 2))  # fmt: skip
"""A script comparing something with a game's name (its ``GAMES`` table, keyed by the name every
view gives, is how the client dispatches)."""


def test_the_server_never_branches_on_a_games_name() -> None:
    """What a game says or does is asked of its spec (a hand's end in words, what it calls a
    hand...): no module of the server compares a game's name, nor keys a table by it."""
    modules = sorted((SRC / "server").rglob("*.py"))
    assert len(modules) > 50
    found = {
        str(m.relative_to(SRC)): lines
        for m in modules
        if (lines := branches_on_a_game(m.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_learning_adapters_bots_and_terminal_never_branch_on_a_games_name() -> None:
    """They too ask a game's spec (its ``learning``, ``search``, ``render``...): no module of
    ``rl``, ``bots`` or ``cli`` compares a game's name, nor keys a table by it."""
    areas = {area: sorted((SRC / area).rglob("*.py")) for area in ("rl", "bots", "cli")}
    assert all(len(modules) >= 5 for modules in areas.values()), areas
    found = {
        str(m.relative_to(SRC)): lines
        for modules in areas.values()
        for m in modules
        if (lines := branches_on_a_game(m.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_browser_client_compares_no_games_name() -> None:
    scripts = sorted((SRC / "web").glob("*.js"))
    assert any(s.name == "fairness.js" for s in scripts)
    found = {s.name for s in scripts if JS_BRANCH.search(s.read_text(encoding="utf-8"))}
    assert found == set()


def test_a_branch_on_a_games_name_is_caught() -> None:
    """The walk finds each way of branching, and lets a default value and a docstring be."""
    source = '''
def f(game: str = "highfive") -> str:
    """>>> f("highrise")"""
    if game == "high-fives":
        return "Pass"
    if game in ("highfive", "merry-go-round"):
        return "x"
    match game:
        case "highrise":
            return "y"
    return {"highrise": "worth"}.get(game, "pips")
'''
    assert branches_on_a_game(source) == [4, 6, 9, 11]
    assert JS_BRANCH.search('const unit = msg.table.game === "high-fives" ? "Pass" : "Hand";')
    assert not JS_BRANCH.search('const GAMES = { "highfive": { board: fivesBoard } };')
    assert not JS_BRANCH.search("const unit = msg.table.hand_word || 'Hand';")


# -- the server's tests mirror its packages (issue 17) ------------------------------------------

TESTS = Path(__file__).resolve().parents[1]
WHOLE_SITE = frozenset({"site", "ops"})
"""Folders for the tests of the site as a whole: ``site`` in process (and in Chromium), ``ops``
against real ``boneyard serve`` processes (nginx, several processes, fault drills, backups)."""


def misplaced_tests(tests: Path, server: Path) -> list[str]:
    """The test modules under ``tests`` that are not in an area folder (with its ``__init__.py``)
    named for a package of ``server`` or one of :data:`WHOLE_SITE`, one level down."""
    areas = {init.parent.name for init in server.glob("*/__init__.py")} | WHOLE_SITE
    found = []
    for module in [*tests.rglob("test_*.py"), *tests.rglob("*_test.py")]:
        parts = module.relative_to(tests).parts
        if len(parts) != 2 or parts[0] not in areas or not (module.parent / "__init__.py").exists():
            found.append("/".join(parts))
    return sorted(found)


def test_every_server_test_sits_in_its_packages_folder() -> None:
    assert len(list(TESTS.rglob("test_*.py"))) > 50
    assert misplaced_tests(TESTS, SRC / "server") == []


def test_a_misplaced_test_is_caught(tmp_path: Path) -> None:
    """A module at the top, in a folder named for no package, too deep or in a folder that is no
    package is reported; one in a package's folder or a whole-site folder is not."""
    server = tmp_path / "src"
    (server / "tables").mkdir(parents=True)
    (server / "tables" / "__init__.py").touch()
    tests = tmp_path / "tests"
    for folder in ("tables", "site", "ops", "chat", "tables/deep"):
        (tests / folder).mkdir(parents=True)
        (tests / folder / "__init__.py").touch()
    (tests / "nopackage").mkdir()
    for path in ("tables/test_a.py", "site/test_b.py", "ops/c_test.py", "test_top.py",
                 "chat/test_d.py", "tables/deep/test_e.py", "nopackage/test_f.py"):  # fmt: skip
        (tests / path).touch()
    assert misplaced_tests(tests, server) == [
        "chat/test_d.py",
        "nopackage/test_f.py",
        "tables/deep/test_e.py",
        "test_top.py",
    ]


# -- one naming style for test helpers (issue 17) -----------------------------------------------

ALL_TESTS = Path(__file__).resolve().parents[2]


def underscored_helpers(source: str) -> list[str]:
    """The module-level functions and classes of ``source`` whose name starts with an underscore
    (a dunder excepted): a test module has no public interface to hide its helpers from, so
    they are named in one style, public, whether a test module, a shared helper or a conftest."""
    return [
        node.name
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.name.startswith("_")
        and not (node.name.startswith("__") and node.name.endswith("__"))
    ]


def test_no_test_helper_has_a_leading_underscore() -> None:
    modules = sorted(ALL_TESTS.rglob("*.py"))
    assert len(modules) > 150 and any(m.name == "conftest.py" for m in modules)
    found = {
        str(m.relative_to(ALL_TESTS)): names
        for m in modules
        if (names := underscored_helpers(m.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_an_underscored_helper_is_caught() -> None:
    """Functions, coroutines and classes at module level are reported; a nested helper, a
    method, a dunder and a private constant are not."""
    source = """
_LIMIT = 3
def _play(): ...
async def _serve(): ...
class _View:
    def _shown(self): ...
def public():
    def _inner(): ...
def __getattr__(name): ...
"""
    assert underscored_helpers(source) == ["_play", "_serve", "_View"]
