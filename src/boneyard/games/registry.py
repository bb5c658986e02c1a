"""Find a game by its record name; games are imported on first use."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON, GameState
from boneyard.core.records import Record

MODULES: dict[str, str] = {
    "highfive": "boneyard.games.highfive",
    "merry-go-round": "boneyard.games.merry_go_round",
    "high-fives": "boneyard.games.high_fives",
    "highrise": "boneyard.games.highrise",
}


@dataclass(frozen=True)
class GameSpec:
    """What the CLI, bots and replay need to know about one game."""

    name: str
    title: str
    min_players: int
    max_players: int
    new_game: Callable[[int, Mapping[str, Any] | None], GameState]
    """``new_game(players, options)``: a fresh game awaiting its first deal; raises OptionError."""
    replay: Callable[[Record], Iterator[JSON]]
    """Replay output lines of RECORDS.md §5; raises RecordError at the first fault."""
    parse_action: Callable[[Any, str], Any]
    """``parse_action(observation, text)``: a player's typed move in tile notation, matched
    against ``observation.legal_actions``; raises BoneyardError with a player-facing reason."""
    describe_action: Callable[[Any], str]
    """A short human description of an action (``5-5 on the spinner's side``); it must not
    reveal hidden tiles (a draw is "draws a tile")."""
    render: Callable[[Any, Sequence[str]], str]
    """``render(observation, seat_names)``: the table as that seat sees it, as text with Rich
    markup (layout, own hand, others' tile counts, scores). Pure: no I/O, no rich import."""


def get_spec(name: str) -> GameSpec:
    """The spec of a game by record name (``highfive``, ``merry-go-round``, ...)."""
    if name not in MODULES:
        raise BoneyardError(f"game {name!r} is unknown (games: {', '.join(MODULES)})")
    try:
        module = importlib.import_module(MODULES[name])
    except ModuleNotFoundError as exc:
        if exc.name == MODULES[name]:
            raise BoneyardError(f"{name} is not available yet in this version") from None
        raise
    spec: GameSpec = module.SPEC
    return spec


def available_games() -> list[str]:
    """Record names of the games this installation has."""
    out = []
    for name in MODULES:
        try:
            get_spec(name)
        except BoneyardError:
            continue
        out.append(name)
    return out


def play_out(
    state: GameState,
    choose: Sequence[Callable[[Any], Any]],
    rng: random.Random,
    max_steps: int = 1_000_000,
) -> GameState:
    """Drive ``state`` to its end: deals from ``rng``; seat ``i`` acts by ``choose[i](obs)``."""
    steps = 0
    while not state.is_over:
        if state.awaiting_deal:
            state.deal_random(rng)
            continue
        seat = state.current_seat
        assert seat is not None
        state.apply(choose[seat](state.observation(seat)))
        steps += 1
        if steps > max_steps:  # pragma: no cover - a rules bug, not a user error
            raise RuntimeError("the game did not end")
    return state
