"""Toy Line: a game that lives in the tests only, to show that a game is one package and one
registry line (docs/games.md). Its rules: :mod:`tests.toygame.rules`.

The tests register it (``register(GAME, "tests.toygame")``, the fixture in ``conftest.py``) and
play it in the engine, the arena, the server and the browser, which learn everything about it
from this ``SPEC``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.options import option_fields
from boneyard.core.records import JSON, Record
from boneyard.core.tiles import Tile
from boneyard.games.registry import Drawing, GameSpec
from tests.toygame.rules import (
    GAME,
    HAND,
    TILES,
    Moved,
    Pass,
    Play,
    ToyAction,
    ToyObservation,
    ToyOptions,
    ToyState,
)


def new_game(players: int, options: Mapping[str, Any] | None = None) -> ToyState:
    """A new game awaiting its first deal."""
    return ToyState(players, ToyOptions.build(options))


def options(players: int, raw: Mapping[str, Any] | None) -> JSON:
    """The record form of the options chosen."""
    return {"target": ToyOptions.build(raw).target}


def action_of(event: Mapping[str, Any]) -> ToyAction:
    """The action a record event (or a move's fields) names; KeyError or ValueError when it
    names none."""
    if event.get("pass") is True:
        return Pass()
    on = event.get("on")
    return Play(Tile.parse(event["play"]), None if on is None else Tile.parse(on))


class Reader:
    """How Toy Line reads its records (:class:`boneyard.games.walk.RecordReader`)."""

    def new_state(self, record: Record) -> ToyState:
        """The game a record's envelope sets up."""
        try:
            return ToyState(record.num_seats, ToyOptions.build(record.options), list(record.seats))
        except BoneyardError as exc:
            raise RecordError(str(exc), None, None) from None

    def deal(self, state: ToyState, record: Record, h: int) -> list[JSON]:
        """Deal hand ``h`` after its checks; its events."""
        if not state.awaiting_deal:
            raise RecordError("the previous hand is not finished", h, None)
        doc = record.hands[h]
        deal = doc.get("deal")
        try:
            hands = [[Tile.parse(t) for t in seat] for seat in deal or ()]
        except (TypeError, ValueError):
            raise RecordError("the deal names a tile that is not one", h, None) from None
        dealt = [t for seat in hands for t in seat]
        if len(hands) != state.n or any(len(seat) != HAND for seat in hands):
            raise RecordError(f"each seat is dealt {HAND} tiles", h, None)
        if len(set(dealt)) != len(dealt) or not set(dealt) <= set(TILES):
            raise RecordError("the deal holds a tile twice or one not in the set", h, None)
        state.deal_hand(hands)
        events = doc.get("events") or []
        return list(events)

    def action(self, state: ToyState, event: JSON, h: int, i: int) -> ToyAction:
        """The action event ``i`` names."""
        if state.current_seat is None or event.get("seat") != state.current_seat:
            raise RecordError(f"it is not seat {event.get('seat')}'s turn", h, i)
        try:
            return action_of(event)
        except (KeyError, TypeError, ValueError):
            raise RecordError("an event plays a tile or passes", h, i) from None

    def legal_match(self, state: ToyState, action: ToyAction) -> ToyAction:
        """A record writes each move one way only."""
        return action


def lines_of(event: Moved, hand: int, index: int) -> list[JSON]:
    """The replay line of a move."""
    line: JSON = {"hand": hand, "event": index, "seat": event.seat}
    action = event.action
    if isinstance(action, Play):
        line["type"] = "play" if action.on is not None else "lead"
        line["tile"] = str(action.tile)
    else:
        line["type"] = "pass"
    line["points"] = event.points
    return [line]


def describe_action(action: ToyAction) -> str:
    """A move in words: ``lead 1-3``, ``2-3 on 1-3``, ``pass``."""
    if isinstance(action, Pass):
        return "pass"
    return f"lead {action.tile}" if action.on is None else f"{action.tile} on {action.on}"


def parse_action(obs: ToyObservation, text: str) -> ToyAction:
    """A typed move: ``pass`` (``p``), a tile (``2-3``: when it fits one end), ``2-3 on 1-3``,
    or a move's own words (``lead 1-3``)."""
    words = text.strip().lower().removeprefix("lead ").split()
    if words in (["pass"], ["p"]):
        if Pass() in obs.legal_actions:
            return Pass()
        raise BoneyardError("you may pass only when no tile fits")
    try:
        tile = Tile.parse(words[0]) if words else None
        on = Tile.parse(words[2]) if len(words) == 3 and words[1] == "on" else None
    except ValueError:
        raise BoneyardError(f"{text!r} is not a move: type a tile (2-3) or pass") from None
    plays = [a for a in obs.legal_actions if isinstance(a, Play) and a.tile == tile]
    plays = [a for a in plays if on is None or a.on == on]
    if len(plays) != 1:
        fits = "fits more than one end: say on which" if plays else "cannot be played now"
        raise BoneyardError(f"{words[0] if words else text} {fits}")
    return plays[0]


def render(obs: ToyObservation, names: Sequence[str], width: int | None) -> str:
    """The table as text: the line, the hand, the scores."""
    line = " ".join(str(t) for t in obs.line) or "(empty)"
    hand = " ".join(str(t) for t in obs.hand or ())
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, obs.scores, strict=False))
    text = f"Line: {line}\nYour tiles: {hand}\nScores: {scores}"
    return "\n".join(row[:width] for row in text.splitlines()) if width else text


def observation_from_json(doc: JSON) -> ToyObservation:
    """The observation whose ``to_json()`` is ``doc``."""
    hand = doc["hand"]
    return ToyObservation(
        doc["game"],
        doc["seat"],
        tuple(action_of(e) for e in doc["legal_actions"]),
        tuple(Tile.parse(t) for t in doc["line"]),
        None if hand is None else tuple(Tile.parse(t) for t in hand),
        tuple(doc["hand_sizes"]),
        tuple(doc["scores"]),
        doc["current_seat"],
        doc["is_over"],
        doc["target"],
    )


RULES = """# Toy Line

A line game for two on the ten tiles of a double-four set without its doubles, three each.

Lead any tile; then play a tile that matches an open end of the line, or pass when none does.
Going out scores 1 and the pips the other player holds; when both pass, the fewer pips score 1
and the difference.

## Options

| option | choices | what it does |
|---|---|---|
| The winning score<br>`target` | **`5`**, 1 to 100 | The first to reach it wins. |
"""


SPEC: GameSpec[ToyState, ToyAction, Moved, ToyObservation] = GameSpec(  # type: ignore[type-var]
    name=GAME,
    title="Toy Line",
    min_players=2,
    max_players=2,
    presets=(),
    option_fields=option_fields(ToyOptions),
    options=options,
    new_game=new_game,
    reader=Reader(),
    lines_of=lines_of,
    parse_action=parse_action,
    describe_action=describe_action,
    render=render,
    observation_from_json=observation_from_json,
    syntax="a tile: 2-3 (when it fits one end) or 2-3 on 1-3; pass (p)",
    rules=RULES,
    drawing=Drawing("layout", "end"),
)
