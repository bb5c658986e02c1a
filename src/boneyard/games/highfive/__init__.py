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
from typing import Any

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import Tile
from boneyard.games.highfive.actions import (
    DRAW,
    PASS,
    Draw,
    Pass,
    Play,
    ReturnTile,
    Ruling,
)
from boneyard.games.highfive.options import PRESETS, HighFiveOptions
from boneyard.games.highfive.render import describe, render
from boneyard.games.highfive.replay import replay
from boneyard.games.highfive.state import HighFiveObservation, HighFiveState
from boneyard.games.registry import GameSpec

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


def new_game(players: int, options: Mapping[str, Any] | None = None) -> HighFiveState:
    """A new game awaiting its first deal."""
    return HighFiveState(players, HighFiveOptions.build(options))


_WORDS = {"d": Draw, "draw": Draw, "p": Pass, "pass": Pass, "r": ReturnTile, "return": ReturnTile}


def parse_action(obs: HighFiveObservation, text: str) -> Any:
    """A typed move: ``draw``/``d``, ``pass``/``p``, ``return``/``r``, ``5-6`` (when it fits one
    end), ``5-6 on 5-5``, ``5-6 on 5-5 side_b`` or ``5-6 5`` (the end showing 5).

    >>> from boneyard.core.tiles import Tile
    >>> obs = HighFiveState(2).observation(0)
    >>> parse_action(obs, "draw")
    Traceback (most recent call last):
    ...
    boneyard.core.errors.BoneyardError: draw is not allowed now
    """
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise BoneyardError("type a move number or a tile such as 5-6")
    legal = obs.legal_actions
    if len(words) == 1 and words[0] in _WORDS:
        kind = _WORDS[words[0]]
        for a in legal:
            if isinstance(a, kind):
                return a
        raise BoneyardError(f"{words[0]} is not allowed now")
    try:
        tile = Tile.parse(words[0])
    except BoneyardError:
        raise BoneyardError(
            f"{words[0]!r} is not a move: type its number, a tile like 5-6, draw or pass"
        ) from None
    plays = [a for a in legal if isinstance(a, Play) and a.tile == tile]
    if not plays:
        if tile not in obs.hand:
            raise BoneyardError(f"you do not hold {tile}")
        ends = ", ".join(str(v) for v, _t, _p in obs.available_ends) or "none"
        raise BoneyardError(f"{tile} does not match an open end (open: {ends})")
    rest = words[1:]
    if rest and rest[0] == "on":
        rest = rest[1:]
        if not rest:
            raise BoneyardError("say which tile to play on, e.g. 5-6 on 5-5")
        try:
            on = Tile.parse(rest[0])
        except BoneyardError as exc:
            raise BoneyardError(str(exc)) from None
        plays = [a for a in plays if a.on == on]
        if len(rest) > 1:
            port = rest[1].upper()
            plays = [a for a in plays if a.port == port]
    elif rest and rest[0].isdigit():
        value = int(rest[0])
        plays = [
            a for a in plays if any(v == value and t == a.on for v, t, _p in obs.available_ends)
        ]
    if not plays:
        raise BoneyardError(f"{tile} cannot go there")
    distinct = {(a.on, a.port is not None) for a in plays}
    if len(distinct) > 1:
        options = " or ".join(f"{tile} on {a.on}" for a in plays)
        raise BoneyardError(f"{tile} fits several ends: type {options} (or its number)")
    return plays[0]


SPEC = GameSpec(
    name="highfive",
    title="High Five",
    min_players=2,
    max_players=4,
    new_game=new_game,
    replay=replay,
    parse_action=parse_action,
    describe_action=describe,
    render=render,
)
