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

from collections.abc import Mapping, Sequence

from boneyard.core.cards import CardRule
from boneyard.core.options import OptionsMemo
from boneyard.games.highrise.actions import Draw, HighriseAction, Pass, Place
from boneyard.games.highrise.events import HighriseEvent
from boneyard.games.highrise.figures import tower_view
from boneyard.games.highrise.handend import explain_hand_end
from boneyard.games.highrise.learning import LEARNING
from boneyard.games.highrise.lines import lines_of
from boneyard.games.highrise.observation import HighriseObservation, held, observation_from_json
from boneyard.games.highrise.options import OPTION_FIELDS, HighriseOptions, build_highrise_options
from boneyard.games.highrise.record import READER
from boneyard.games.highrise.state import HandSetup, HighriseState
from boneyard.games.highrise.text import describe_action, parse_action, render
from boneyard.games.highrise.tower import GEOMETRIES, Geometry, Tower
from boneyard.games.highrise.worlds import SEARCH
from boneyard.games.registry import Drawing, GameSpec

COMPILED = ("actions", "events", "state", "tower", "fast", "playout")
"""The package's modules compiled with mypyc (setup.py reads this tuple from the source): its
state and events (a compiled class may only extend a compiled class, and the base state is
compiled), the rules' hot paths, the learners' fast path and the expert's play-out policy."""

_OPTIONS = OptionsMemo(lambda raw, players: build_highrise_options(raw))


def new_game(
    players: int,
    options: Mapping[str, object] | None = None,
    seat_names: Sequence[str] | None = None,
) -> HighriseState:
    """A fresh game awaiting its first deal; raises :class:`OptionError` on bad options."""
    return HighriseState(players, _OPTIONS.get(options, players), seat_names)


def options(players: int, raw: Mapping[str, object] | None) -> dict[str, object]:
    """The record form of the options chosen: every option, resolved."""
    return build_highrise_options(raw).to_json()


def card(options: Mapping[str, object]) -> CardRule:
    """A two-player card: the higher total wins once someone reached the target (the loser may
    have too), scores may be negative when the options allow it."""
    opts = build_highrise_options(options)
    target = None if opts.single_hand else opts.target
    return CardRule(target, loser_below=False, negative=opts.allow_negative)


SPEC: GameSpec[HighriseState, HighriseAction, HighriseEvent, HighriseObservation] = GameSpec(
    name="highrise",
    title="Highrise",
    min_players=2,
    max_players=4,
    presets=(),
    option_fields=OPTION_FIELDS,
    options=options,
    new_game=new_game,
    reader=READER,
    lines_of=lines_of,
    parse_action=parse_action,
    describe_action=describe_action,
    render=render,
    observation_from_json=observation_from_json,
    syntax="a tile: W-3 (when it fits one way) or W-3 0,1 1,1 (the first face on the first "
    "cell; a cell is row,column as the grid shows them); draw (d) or pass (p)",
    search=SEARCH,
    card=card,
    figure=tower_view,
    explain_hand_end=explain_hand_end,
    drawing=Drawing("tower", "cells"),
    held=held,
    learning=LEARNING,
)

__all__ = [
    "GEOMETRIES",
    "SPEC",
    "Draw",
    "Geometry",
    "HandSetup",
    "HighriseAction",
    "HighriseObservation",
    "HighriseOptions",
    "HighriseState",
    "Pass",
    "Place",
    "Tower",
    "build_highrise_options",
    "describe_action",
    "new_game",
    "parse_action",
    "render",
]
