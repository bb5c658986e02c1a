"""The server's shape, held by its own tests (that every function, the route handlers
included, fits on a screen: tests/server/tables/test_shape.py): neither the server nor
the browser client branches on a game's name (a game is known in one place, its spec: issue 17),
the server's tests sit in a folder per package of the server, every test helper is named in one
style (issue 17), and every domain with routes gathers them in its ``router.py`` (issue 31)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from boneyard.games.registry import SHIPPED

# -- a game is known in one place (issue 17): no per-game branch in the server or the client ----

SRC = Path(__file__).resolve().parents[3] / "src" / "boneyard"
GAME_NAMES = frozenset(SHIPPED)


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
"""A script comparing something with a game's name."""
JS_NAME = re.compile(r"""["'`](""" + "|".join(map(re.escape, GAME_NAMES)) + r""")["'`]""")
"""A game's record name in a script: the client draws a game from the data its spec sends with
the table and the replay (its ``drawing``: the board's kind, how a move is picked, piles), and
names no game."""


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


def test_the_browser_client_names_no_game() -> None:
    """Not even in a table keyed by the game: a new game adds nothing to the client."""
    scripts = sorted((SRC / "web").glob("*.js"))
    found = {s.name for s in scripts if JS_NAME.search(s.read_text(encoding="utf-8"))}
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
    assert JS_NAME.search('const GAMES = { "highfive": { board: fivesBoard } };')
    assert not JS_NAME.search("const BOARDS = { layout: fivesBoard, tower: towerBoard };")
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


# -- every domain with routes gathers them in its router.py (issue 31) ---------------------------


def domains_without_router(server: Path) -> list[str]:
    """The domain packages of ``server`` (a folder with an ``__init__.py``) that make routes (an
    ``APIRouter`` is built in one of their modules) but have no ``router.py`` to gather them."""
    found = []
    for init in sorted(server.glob("*/__init__.py")):
        package = init.parent
        routes = any("APIRouter(" in m.read_text(encoding="utf-8") for m in package.rglob("*.py"))
        if routes and not (package / "router.py").exists():
            found.append(package.name)
    return found


def test_every_domain_with_routes_has_a_router() -> None:
    domains = {init.parent.name for init in (SRC / "server").glob("*/__init__.py")}
    assert {"accounts", "tables", "tournaments"} <= domains
    assert domains_without_router(SRC / "server") == []


def test_a_domain_without_its_router_is_caught(tmp_path: Path) -> None:
    """A package whose routes sit in other modules is reported; one with a ``router.py``, and
    one that makes no routes (middleware), are not."""
    for package, modules in {
        "scattered": {"pages.py": "router = APIRouter()"},
        "gathered": {"pages.py": "router = APIRouter()", "router.py": "router = APIRouter()"},
        "middleware": {"headers.py": "class Headers: ..."},
    }.items():
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").touch()
        for name, text in modules.items():
            (tmp_path / package / name).write_text(text, encoding="utf-8")
    assert domains_without_router(tmp_path) == ["scattered"]


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


# -- no sleep on an event through asyncio.wait_for --------------------------------------------


def test_no_task_sleeps_on_an_event_through_wait_for() -> None:
    """``asyncio.wait_for(event.wait(), t)`` returns normally when the event is set as its
    task is cancelled (Python 3.11), so a loop around it outlived its cancel and a shutdown
    waited for it for ever; ``asyncio.timeout`` keeps the cancel."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func) == "asyncio.wait_for"):
                continue
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Call) and ast.unparse(first.func).endswith(".wait"):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert found == []
