"""Highrise (RULES.md §4; options §6.4; records RECORDS.md §4 and §6 "Highrise").

Dominoes are stacked on a base: each placement covers halves of two different top dominoes, with
matching faces (a wild matches anything), at most one level apart (a clear spacer fills the gap),
and scores its level × the values it covers. Rule decisions: docs/rules-notes.md (Highrise).

>>> import random
>>> from boneyard.bots import make_bot
>>> from boneyard.games.registry import play_out
>>> rng = random.Random(1)
>>> state = SPEC.new_game(3, {"target": 100})
>>> bots = [make_bot("greedy", rng).choose for _ in range(3)]
>>> play_out(state, bots, rng).is_over
True
"""

from __future__ import annotations

from boneyard.games.highrise.options import HighriseOptions, build_highrise_options
from boneyard.games.highrise.replay import load, replay
from boneyard.games.highrise.state import (
    Draw,
    HandEnd,
    HandSetup,
    HighriseObservation,
    HighriseState,
    Pass,
    Place,
    new_game,
)
from boneyard.games.highrise.text import describe_action, parse_action, render
from boneyard.games.highrise.tower import GEOMETRIES, Geometry, Tower
from boneyard.games.registry import GameSpec

SPEC = GameSpec(
    name="highrise",
    title="Highrise",
    min_players=2,
    max_players=4,
    new_game=new_game,
    replay=replay,
    parse_action=parse_action,
    describe_action=describe_action,
    render=render,
)

__all__ = [
    "GEOMETRIES",
    "SPEC",
    "Draw",
    "Geometry",
    "HandEnd",
    "HandSetup",
    "HighriseObservation",
    "HighriseOptions",
    "HighriseState",
    "Pass",
    "Place",
    "Tower",
    "build_highrise_options",
    "describe_action",
    "load",
    "new_game",
    "parse_action",
    "render",
    "replay",
]
