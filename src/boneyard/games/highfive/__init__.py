"""High Five™ (RULES §1): the Fundex box rules and the PDA tournament rules.

>>> import random
>>> from boneyard.games.registry import play_out
>>> from boneyard.bots import GreedyBot
>>> state = HighFiveState(2, {"preset": "pda"})
>>> bots = [GreedyBot(random.Random(1)).choose, GreedyBot(random.Random(2)).choose]
>>> result = play_out(state, bots, random.Random(7)).result()
>>> result is not None and max(result.scores) == 150
True
"""

from __future__ import annotations

from collections.abc import Mapping

from boneyard.core.cards import CardRule
from boneyard.core.options import OptionsMemo, option_fields
from boneyard.core.records import JSON
from boneyard.core.tiles import Tile
from boneyard.games.fives.figures import fives_view
from boneyard.games.fives.layout import Availability
from boneyard.games.fives.text import after_on, at_value, open_values, parse_move
from boneyard.games.highfive.actions import (
    DRAW,
    PASS,
    Draw,
    HighFiveAction,
    Pass,
    Play,
    ReturnTile,
    Ruling,
)
from boneyard.games.highfive.events import HighFiveEvent
from boneyard.games.highfive.handend import explain_hand_end
from boneyard.games.highfive.learning import LEARNING
from boneyard.games.highfive.lines import lines_of
from boneyard.games.highfive.observation import HighFiveObservation, observation_from_json
from boneyard.games.highfive.options import PRESETS, HighFiveOptions
from boneyard.games.highfive.record import READER
from boneyard.games.highfive.render import describe, render
from boneyard.games.highfive.settlement import TARGET
from boneyard.games.highfive.state import HighFiveState
from boneyard.games.highfive.worlds import SEARCH
from boneyard.games.registry import Drawing, GameSpec

COMPILED = ("events", "state", "actions", "settlement", "fast", "endgame")
"""The package's modules compiled with mypyc (setup.py reads this tuple from the source): its
state and events (a compiled class may only extend a compiled class, and the base state is
compiled), the rules' hot paths, the exact end of a hand (a solve the expert's cap of positions
refuses costs 0.7 s of CPU compiled against 1.4 s pure: bench/endgame.py) and the learners'
fast path."""

__all__ = [
    "DRAW",
    "PASS",
    "PRESETS",
    "SPEC",
    "Draw",
    "HighFiveObservation",
    "HighFiveOptions",
    "HighFiveState",
    "Pass",
    "Play",
    "ReturnTile",
    "Ruling",
    "parse_action",
]


_OPTIONS = OptionsMemo(lambda raw, players: HighFiveOptions.build(raw))


def new_game(players: int, options: Mapping[str, object] | None = None) -> HighFiveState:
    """A new game awaiting its first deal (options are built once per distinct mapping)."""
    return HighFiveState(players, _OPTIONS.get(options, players))


_WORDS = {"d": Draw, "draw": Draw, "p": Pass, "pass": Pass, "r": ReturnTile, "return": ReturnTile}


def parse_action(obs: HighFiveObservation, text: str) -> HighFiveAction:
    """A typed move: ``draw``/``d``, ``pass``/``p``, ``return``/``r``, ``5-6`` (when it fits one
    end), ``5-6 on 5-5``, ``5-6 on 5-5 side_b`` or ``5-6 5`` (the end showing 5); a move's own
    description reads back too (``lead 6-6``, ``5-6 on the spinner 5-5, side b``,
    ``draw a tile``).

    >>> from boneyard.core.tiles import Tile
    >>> obs = HighFiveState(2).observation(0)
    >>> parse_action(obs, "draw")
    Traceback (most recent call last):
    ...
    boneyard.core.errors.BoneyardError: draw is not allowed now
    """
    return parse_move(obs, text, _WORDS, _no_fit, _narrow)


def _no_fit(obs: HighFiveObservation, tile: Tile) -> str:
    return f"{tile} does not match an open end (open: {open_values(obs)})"


def _narrow(obs: HighFiveObservation, plays: list[Play], rest: list[str]) -> list[Play]:
    """``on 5-5`` (then a port name, ``side_b``) or the value of an end, ``5``."""
    if rest and rest[0] == "on":
        plays, rest = after_on(plays, rest, "spinner")
        if rest:
            port = rest[0].upper()
            plays = [a for a in plays if a.port == port]
    elif rest and rest[0].isdigit():
        plays = at_value(obs, plays, int(rest[0]))
    return plays


def options(players: int, raw: Mapping[str, object] | None) -> dict[str, object]:
    """The record form of the options chosen (the preset and what differs from it)."""
    return HighFiveOptions.build(raw).to_json()


def card(options: Mapping[str, object]) -> CardRule:
    """A two-player card: to 150 in fives; with chips (the box and PDA) exactly 150; PDA's bogus
    play ends the game 150-100."""
    opts = HighFiveOptions.build(options)
    bogus = (TARGET, 100) if opts.bogus_effect == "end_game_150_100" else None
    return CardRule(TARGET, exact=opts.payment_cap == "chips", step=5, bogus=bogus)


def figure(words: str) -> JSON:
    """A rules-page picture: a layout built by ``words`` (the count scores when a multiple of 5)."""
    view = fives_view(words, Availability.SIDES_FIRST)
    view["points"] = view["count"] if view["count"] and view["count"] % 5 == 0 else 0
    return view


SPEC: GameSpec[HighFiveState, HighFiveAction, HighFiveEvent, HighFiveObservation] = GameSpec(
    name="highfive",
    title="High Five",
    min_players=2,
    max_players=4,
    presets=tuple(PRESETS),
    option_fields=option_fields(HighFiveOptions, PRESETS),
    options=options,
    new_game=new_game,
    reader=READER,
    lines_of=lines_of,
    parse_action=parse_action,
    describe_action=describe,
    render=render,
    observation_from_json=observation_from_json,
    syntax="a tile: 5-6 (when it fits one end), 5-6 on 5-5 (the tile it joins), "
    "5-6 on 5-5 side_b (an edge of the spinner: side_a, side_b, end_a, end_b) or 5-6 5 "
    "(on the end showing 5); draw (d), pass (p), or return (r: put back a tile drawn while "
    "holding a playable one, where the rules allow it)",
    search=SEARCH,
    card=card,
    figure=figure,
    explain_hand_end=explain_hand_end,
    drawing=Drawing("layout", "end"),
    learning=LEARNING,
)
