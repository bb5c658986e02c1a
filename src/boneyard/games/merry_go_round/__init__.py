"""Merry-Go-Round (RULES.md §2; options §6.2; records RECORDS.md §2 and §6).

All Fives scoring (1 point per 5 pips, exactly 61 to win) with the Sebastopol opening: the first
tile of a hand is a double, the *set*, and its four edges are covered before play opens. It lies
on the shared Fives layout (:mod:`boneyard.games.fives.layout`). Rule decisions:
docs/rules-notes.md (Merry-Go-Round).

>>> import random
>>> from boneyard.bots import make_bot
>>> from boneyard.games.registry import play_out
>>> rng = random.Random(3)
>>> state = SPEC.new_game(4, {"forced_play": True})
>>> result = play_out(state, [make_bot("greedy", rng).choose for _ in range(4)], rng).result()
>>> result is not None and max(result.scores) == 61
True
"""

from __future__ import annotations

from collections.abc import Mapping

from boneyard.core.cards import CardRule
from boneyard.core.errors import BoneyardError
from boneyard.core.options import OptionsMemo, option_fields
from boneyard.core.records import JSON
from boneyard.core.tiles import Tile
from boneyard.games.fives.events import FivesEvent
from boneyard.games.fives.figures import fives_view
from boneyard.games.fives.layout import Availability
from boneyard.games.fives.lines import fives_lines
from boneyard.games.fives.play import Play as AnyPlay
from boneyard.games.fives.text import after_on, at_value, open_values, parse_move
from boneyard.games.merry_go_round.actions import (
    DRAW,
    PASS,
    Draw,
    MerryGoRoundAction,
    Pass,
    Play,
)
from boneyard.games.merry_go_round.handend import explain_hand_end
from boneyard.games.merry_go_round.learning import LEARNING
from boneyard.games.merry_go_round.observation import MerryGoRoundObservation, observation_from_json
from boneyard.games.merry_go_round.options import MerryGoRoundOptions
from boneyard.games.merry_go_round.record import READER
from boneyard.games.merry_go_round.render import describe, render
from boneyard.games.merry_go_round.state import MerryGoRoundState
from boneyard.games.merry_go_round.worlds import SEARCH
from boneyard.games.registry import Drawing, GameSpec

COMPILED = ("layout", "state", "actions", "scoring", "fast")
"""The package's modules compiled with mypyc (setup.py reads this tuple from the source): its
state and events (a compiled class may only extend a compiled class, and the base state is
compiled), the rules' hot paths and the learners' fast path."""

__all__ = [
    "DRAW",
    "PASS",
    "SPEC",
    "Draw",
    "MerryGoRoundObservation",
    "MerryGoRoundOptions",
    "MerryGoRoundState",
    "Pass",
    "Play",
    "new_game",
    "parse_action",
]


_OPTIONS = OptionsMemo(MerryGoRoundOptions.build)


def new_game(players: int, options: Mapping[str, object] | None = None) -> MerryGoRoundState:
    """A new game awaiting its first deal; raises OptionError on a bad option."""
    return MerryGoRoundState(players, _OPTIONS.get(options, players))


_WORDS = {"d": Draw, "draw": Draw, "p": Pass, "pass": Pass}
_PORTS = {
    "side_a": "SIDE_A",
    "side_b": "SIDE_B",
    "end_a": "END_A",
    "end_b": "END_B",
    "sa": "SIDE_A",
    "sb": "SIDE_B",
    "ea": "END_A",
    "eb": "END_B",
}


def parse_action(obs: MerryGoRoundObservation, text: str) -> MerryGoRoundAction:
    """A typed move: ``draw``/``d``, ``pass``/``p``, ``5-5`` (the set, or a tile that fits one
    end), ``5-6 on 5-5``, ``5-6 on 5-5 side_b`` (or ``sb``), or ``5-6 5`` (the end showing 5);
    a move's own description reads back too (``set 5-5``, ``5-6 on the set 5-5, side b``,
    ``draw a tile``).

    >>> from boneyard.core.tiles import DOUBLE_SIX
    >>> deal = ["5-5 5-6 3-5 1-2 1-3 1-4 2-3".split(), "0-5 4-5 0-2 0-1 0-3 0-4 0-6".split()]
    >>> rest = [t for t in DOUBLE_SIX if not any(str(t) in h for h in deal)]
    >>> s = MerryGoRoundState(2, {"first_setter": 0})
    >>> s.deal_hand([[Tile.parse(t) for t in h] for h in deal], rest)
    >>> parse_action(s.observation(0), "5-5")
    Play(tile=Tile(lo=5, hi=5), on=None, port=None, touch=None, call=None)
    >>> s.apply(parse_action(s.observation(0), "5-5")).points  # the set 5-5 counts 10: 2 points
    2
    >>> parse_action(s.observation(1), "0-5 sb")
    Play(tile=Tile(lo=0, hi=5), on=Tile(lo=5, hi=5), port='SIDE_B', touch=None, call=None)
    >>> parse_action(s.observation(1), "0-2")
    Traceback (most recent call last):
    ...
    boneyard.core.errors.BoneyardError: 0-2 does not match an end you may play on (open: 5, 5)
    """
    return parse_move(obs, text, _WORDS, _no_fit, _narrow, lead="set")


def _no_fit(obs: MerryGoRoundObservation, tile: Tile) -> str:
    if not obs.layout:
        if not tile.is_double:
            return f"the set must be a double, and {tile} is not"
        return f"{tile} cannot be set now"
    return f"{tile} does not match an end you may play on (open: {open_values(obs)})"


def _narrow(obs: MerryGoRoundObservation, plays: list[AnyPlay], rest: list[str]) -> list[AnyPlay]:
    """``on 5-5``, then (or alone) an edge of the set (``side_b``, ``sb``) or an end's value."""
    if rest and rest[0] == "on":
        plays, rest = after_on(plays, rest, "set")
    if rest and rest[0] in _PORTS:
        plays = [a for a in plays if a.port == _PORTS[rest[0]]]
    elif rest and rest[0].isdigit():
        plays = at_value(obs, plays, int(rest[0]))
    elif rest:
        raise BoneyardError(f"{' '.join(rest)!r} is not an end: use on 5-5, side_a ... end_b")
    return plays


def options(players: int, raw: Mapping[str, object] | None) -> dict[str, object]:
    """The record form of the options chosen (the keys that differ from the defaults)."""
    return MerryGoRoundOptions.build(raw, players).to_json()


def card(options: Mapping[str, object]) -> CardRule:
    """A two-player card: the winner reached the target (exactly, when the bust rule covers
    every score)."""
    opts = MerryGoRoundOptions.build(options, 2)
    return CardRule(opts.target, exact=opts.exact_target_scope == "all_scores")


def figure(words: str) -> JSON:
    """A rules-page picture: a layout built by ``words`` under the cross order (a point for
    every five of the count)."""
    view = fives_view(words, Availability.CROSS_SIDES_THEN_ENDS)
    view["points"] = view["count"] // 5 if view["count"] % 5 == 0 else 0
    return view


SPEC: GameSpec[MerryGoRoundState, MerryGoRoundAction, FivesEvent, MerryGoRoundObservation] = (
    GameSpec(
        name="merry-go-round",
        title="Merry-Go-Round",
        min_players=2,
        max_players=4,
        presets=(),
        option_fields=option_fields(MerryGoRoundOptions),
        options=options,
        new_game=new_game,
        reader=READER,
        lines_of=fives_lines,
        parse_action=parse_action,
        describe_action=describe,
        render=render,
        observation_from_json=observation_from_json,
        syntax="a tile: 5-5 (the set, or a tile that fits one end), 5-6 on 5-5 (the tile it "
        "joins), 5-6 on 5-5 side_b (an edge of the set: side_a, side_b, end_a, end_b, or sa, sb, "
        "ea, eb) or 5-6 5 (on the end showing 5); draw (d) or pass (p)",
        search=SEARCH,
        card=card,
        figure=figure,
        explain_hand_end=explain_hand_end,
        drawing=Drawing("layout", "end"),
        learning=LEARNING,
    )
)
