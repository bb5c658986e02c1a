"""David Galt's High Fives (Cardinal, 1996): the capture game on a double-fifteen set (RULES §3).

Each turn a player may claim a pair of matching layout tiles, then plays one tile: if it matches
a layout tile it captures it (one of the player's choice), otherwise it joins the layout. Won
tiles score a point per five pips plus one per double; the whole set is worth 100.

>>> import random
>>> from boneyard.bots import make_bot
>>> from boneyard.games.registry import play_out
>>> g = SPEC.new_game(2, {"target": 30})
>>> bots = [make_bot("greedy", random.Random(s)) for s in (1, 2)]
>>> g = play_out(g, [b.choose for b in bots], random.Random(7))
>>> g.result().winner in (0, 1), max(g.result().scores) >= 30
(True, True)
>>> from boneyard.core.records import record_from_json
>>> lines = list(SPEC.replay(record_from_json(g.record())))
>>> lines[-1]["type"], lines[-1]["scores"] == list(g.result().scores)
('game_end', True)
"""

from __future__ import annotations

from boneyard.games.high_fives.actions import Action, Claim, Turn
from boneyard.games.high_fives.replay import load, replay
from boneyard.games.high_fives.rules import (
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TITLE,
    HighFivesOptions,
    build_high_fives_options,
    points,
    schedule,
)
from boneyard.games.high_fives.state import HighFivesObservation, HighFivesState, new_game
from boneyard.games.high_fives.text import describe_action, parse_action, render
from boneyard.games.registry import GameSpec

SPEC = GameSpec(
    name=GAME,
    title=TITLE,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    new_game=new_game,
    replay=replay,
    parse_action=parse_action,
    describe_action=describe_action,
    render=render,
)
"""The High Fives entry for :mod:`boneyard.games.registry`."""

__all__ = [
    "SPEC",
    "Action",
    "Claim",
    "HighFivesObservation",
    "HighFivesOptions",
    "HighFivesState",
    "Turn",
    "build_high_fives_options",
    "describe_action",
    "load",
    "new_game",
    "parse_action",
    "points",
    "render",
    "replay",
    "schedule",
]
