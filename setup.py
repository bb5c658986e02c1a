"""Build script: compiles the rules engine's hot modules with mypyc.

The compiled modules behave exactly as their Python sources (the tests run against them) and are
several times faster. An editable install (``pip install -e .``) stays pure Python, so that edited
sources take effect; ``BONEYARD_PURE=1`` gives a pure-Python regular install too.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup

HOT_MODULES = [
    # The base state and event values: every game state and event class extends them, and a
    # compiled class may only extend another compiled class, so the whole hierarchy is here.
    "src/boneyard/core/state.py",
    "src/boneyard/core/chance.py",
    "src/boneyard/games/fives/layout.py",
    "src/boneyard/games/fives/play.py",
    "src/boneyard/games/fives/events.py",
    "src/boneyard/games/fives/state.py",
    "src/boneyard/games/highfive/events.py",
    "src/boneyard/games/highfive/state.py",
    "src/boneyard/games/highfive/actions.py",
    "src/boneyard/games/highfive/settlement.py",
    "src/boneyard/games/merry_go_round/layout.py",
    "src/boneyard/games/merry_go_round/state.py",
    "src/boneyard/games/merry_go_round/actions.py",
    "src/boneyard/games/merry_go_round/scoring.py",
    "src/boneyard/games/high_fives/actions.py",
    "src/boneyard/games/high_fives/events.py",
    "src/boneyard/games/high_fives/state.py",
    "src/boneyard/games/high_fives/turns.py",
    "src/boneyard/games/highrise/actions.py",
    "src/boneyard/games/highrise/events.py",
    "src/boneyard/games/highrise/state.py",
    "src/boneyard/games/highrise/tower.py",
    # The learners' fast paths and batches: self-play reads every decision through them.
    "src/boneyard/games/batch.py",
    "src/boneyard/games/fives/fast.py",
    "src/boneyard/games/highfive/fast.py",
    "src/boneyard/games/merry_go_round/fast.py",
    "src/boneyard/games/high_fives/fast.py",
    "src/boneyard/games/highrise/fast.py",
]


def ext_modules() -> list[Any]:
    """The mypyc extensions, unless this is an editable or a pure install."""
    pure = os.environ.get("BONEYARD_PURE", "0") not in ("", "0")
    if pure or "editable_wheel" in sys.argv:
        return []
    from mypyc.build import mypycify

    return list(mypycify(HOT_MODULES, opt_level="3", debug_level="0"))


setup(ext_modules=ext_modules())
