"""Build script: compiles the rules engine's hot modules with mypyc.

The core's are listed here; each game package lists its own in its ``COMPILED`` tuple, so that
adding a game touches no build file.

The compiled modules behave exactly as their Python sources (the tests run against them) and are
several times faster. An editable install (``pip install -e .``) stays pure Python, so that edited
sources take effect; ``BONEYARD_PURE=1`` gives a pure-Python regular install too.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup

CORE_MODULES = [
    # The base state and event values: every game state and event class extends them, and a
    # compiled class may only extend another compiled class.
    "src/boneyard/core/state.py",
    "src/boneyard/core/chance.py",
    # The learners' batches: self-play reads every decision through them, and a game's fast
    # path through its methods (each game's subclass is compiled with it).
    "src/boneyard/games/reading.py",
    "src/boneyard/games/batch.py",
    # The expert's reading of the plays: every candidate deal's likelihood, 1,200 a decision
    # at three and four seats of High Five.
    "src/boneyard/games/inference.py",
]
GAMES = Path("src/boneyard/games")


def compiled(package: Path) -> list[str]:
    """The modules a game package (or a package the games share) names in its ``COMPILED``
    tuple, read from its source: the package is not imported while it is being built."""
    init = package / "__init__.py"
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets
        ):
            names = ast.literal_eval(node.value)
            return [(package / f"{name}.py").as_posix() for name in names]
    return []


def hot_modules() -> list[str]:
    """The core's compiled modules, then every games package's (shared ones first: a
    package's name sorts them, and the Fives package ``fives`` comes before its games)."""
    out = list(CORE_MODULES)
    for package in sorted(p.parent for p in GAMES.glob("*/__init__.py")):
        out.extend(compiled(package))
    return out


def ext_modules() -> list[Any]:
    """The mypyc extensions, unless this is an editable or a pure install."""
    pure = os.environ.get("BONEYARD_PURE", "0") not in ("", "0")
    if pure or "editable_wheel" in sys.argv:
        return []
    from mypyc.build import mypycify

    return list(mypycify(hot_modules(), opt_level="3", debug_level="0"))


setup(ext_modules=ext_modules())
