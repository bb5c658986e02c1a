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

from collections.abc import Mapping

from boneyard.core.cards import CardRule
from boneyard.core.options import OptionsMemo, option_fields
from boneyard.games.high_fives.actions import Claim, HighFivesAction, Turn
from boneyard.games.high_fives.events import HighFivesEvent
from boneyard.games.high_fives.figures import capture_view
from boneyard.games.high_fives.handend import explain_hand_end
from boneyard.games.high_fives.learning import LEARNING
from boneyard.games.high_fives.lines import lines_of, log_lines
from boneyard.games.high_fives.observation import HighFivesObservation, observation_from_json
from boneyard.games.high_fives.record import READER
from boneyard.games.high_fives.rules import (
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TITLE,
    HighFivesOptions,
    build_high_fives_options,
    check_players,
    points,
    schedule,
)
from boneyard.games.high_fives.state import HighFivesState
from boneyard.games.high_fives.text import describe_action, parse_action, render
from boneyard.games.high_fives.worlds import SEARCH
from boneyard.games.registry import Drawing, GameSpec

COMPILED = ("actions", "events", "state", "turns", "fast", "playout")
"""The package's modules compiled with mypyc (setup.py reads this tuple from the source): its
state and events (a compiled class may only extend a compiled class, and the base state is
compiled), the rules' hot paths, the learners' fast path and the expert's play-out policy."""

_OPTIONS = OptionsMemo(build_high_fives_options)


def new_game(players: int, options: Mapping[str, object] | None = None) -> HighFivesState:
    """A fresh game awaiting its first pass; raises OptionError on bad options.

    >>> new_game(3, {"target": 50}).options.target
    50
    """
    check_players(players)
    return HighFivesState(players, _OPTIONS.get(options, players))


def options(players: int, raw: Mapping[str, object] | None) -> dict[str, object]:
    """The record form of the options chosen (the keys that differ from the defaults)."""
    check_players(players)
    return build_high_fives_options(raw, players).to_json()


def card(options: Mapping[str, object]) -> CardRule:
    """A two-player card: the winner reached the target; checked after every turn, the loser
    did not."""
    opts = build_high_fives_options(dict(options), 2)
    return CardRule(opts.target, loser_below=opts.win_check == "immediate")


SPEC: GameSpec[HighFivesState, HighFivesAction, HighFivesEvent, HighFivesObservation] = GameSpec(
    name=GAME,
    title=TITLE,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    presets=(),
    option_fields=option_fields(HighFivesOptions),
    options=options,
    new_game=new_game,
    reader=READER,
    lines_of=lines_of,
    parse_action=parse_action,
    describe_action=describe_action,
    render=render,
    observation_from_json=observation_from_json,
    syntax="the tile you play: 7-8 (its capture is implied when only one is possible), "
    "7-8 x 8-9 (capture 8-9), 5-8 leave (capture nothing, where capturing is optional); "
    "claim a pair first with claim 0-1 1-2 7-8 x 8-9 (or 7-8 x 8-9 0-1+1-2). When any number "
    "of pairs may be claimed, type each claim on its own (claim 0-1 1-2), then the tile",
    search=SEARCH,
    card=card,
    figure=capture_view,
    explain_hand_end=explain_hand_end,
    hand_word="Pass",
    drawing=Drawing("row", "capture", piles=True),
    log_lines=log_lines,
    learning=LEARNING,
)
"""The High Fives entry for :mod:`boneyard.games.registry`."""

__all__ = [
    "SPEC",
    "Claim",
    "HighFivesAction",
    "HighFivesObservation",
    "HighFivesOptions",
    "HighFivesState",
    "Turn",
    "build_high_fives_options",
    "describe_action",
    "new_game",
    "parse_action",
    "points",
    "render",
    "schedule",
]
