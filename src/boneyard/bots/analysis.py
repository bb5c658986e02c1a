"""Analysis of a played game and hints, by the expert bot's search.

:func:`analyse` walks a record and, at each decision of one seat with a choice, values every
legal action by PIMC search from that seat's observation only (what the player knew then),
marks the action chosen, and flags a mistake when the chosen action is worth at least
``threshold`` chips less than the best one. :func:`hint` does the same for one observation.
The values are mean chip differentials over the rest of the hand (see
:mod:`boneyard.bots.expert`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from boneyard.bots.expert import LEVELS, ActionValue, action_values, best_of
from boneyard.core.errors import BoneyardError
from boneyard.core.records import Record

DEFAULT_WORLDS = LEVELS["hard"].worlds
"""Worlds sampled per decision by default (the ``hard`` budget, without a time limit)."""


def _describe(action: Any) -> str:
    event = action.to_event()
    claim = event.get("claim")
    if claim and isinstance(claim[0], list):
        claims = "claim " + ", ".join(f"{a}+{b}" for a, b in claim)
    elif claim:
        claims = f"claim {claim[0]}+{claim[1]}"
    else:
        claims = ""
    if "play" not in event:
        return claims or ("draw" if "draw" in event else "pass")
    text = str(event["play"])
    if "on" in event:
        text += f" on {event['on']}" + (f" {event['port']}" if "port" in event else "")
    if event.get("capture") is not None:
        text += f" x {event['capture']}"
    if "cells" in event:
        text += " at " + " ".join(f"({r},{c})" for r, c in event["cells"])
        if event.get("spacer") is not None:
            text += " spacer ({},{})".format(*event["spacer"])
    return f"{claims}, {text}" if claims else text


def _value_json(v: ActionValue) -> dict[str, Any]:
    return {"action": v.action.to_event(), "value": round(v.value, 3)}


@dataclass(frozen=True, slots=True)
class Hint:
    """The best action for an observation and the value of every legal action."""

    best: Any
    values: tuple[ActionValue, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form (actions as record events)."""
        return {
            "best": self.best.to_event(),
            "values": [_value_json(v) for v in self.values],
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the analysed seat."""

    hand: int
    event: int
    """Index of the event in its hand (the action chosen)."""
    chosen: Any
    best: Any
    values: tuple[ActionValue, ...]
    loss: float
    """Value of the best action minus the value of the chosen one (0 when it was the best)."""
    mistake: bool

    def to_json(self) -> dict[str, Any]:
        """JSON form (actions as record events)."""
        return {
            "hand": self.hand,
            "event": self.event,
            "chosen": self.chosen.to_event(),
            "best": self.best.to_event(),
            "values": [_value_json(v) for v in self.values],
            "loss": round(self.loss, 3),
            "mistake": self.mistake,
        }


def hint(observation: Any, *, worlds: int = DEFAULT_WORLDS, seed: int = 0) -> Hint:
    """The expert's best action for ``observation`` and the value of each legal action."""
    values = action_values(observation, random.Random(seed), worlds)
    return Hint(best_of(values, observation), tuple(values))


def _positions(record: Record) -> Iterator[tuple[int, int, Any, Any]]:
    """``(hand, event, state before the event, action)`` for every event of a record (every
    game: the game's own record parsing and rules checks)."""
    walkers = {
        "highfive": _highfive_positions,
        "merry-go-round": _merry_go_round_positions,
        "high-fives": _high_fives_positions,
        "highrise": _highrise_positions,
    }
    walk = walkers.get(record.game)
    if walk is None:
        raise BoneyardError(f"analysis does not know the game {record.game!r}")
    return walk(record)


def _highfive_positions(record: Record) -> Iterator[tuple[int, int, Any, Any]]:
    from boneyard.core.records import tile_list
    from boneyard.core.tiles import DOUBLE_SIX
    from boneyard.games.highfive.options import HighFiveOptions
    from boneyard.games.highfive.replay import parse_event
    from boneyard.games.highfive.state import HighFiveState

    state = HighFiveState(record.num_seats, HighFiveOptions.build(record.options), record.seats)
    for h, hand in enumerate(record.hands):
        deal = [tile_list(DOUBLE_SIX, d, "a dealt tile", h) for d in hand["deal"]]
        bone = tile_list(DOUBLE_SIX, hand["boneyard"], "a boneyard tile", h)
        state.start_hand(deal, bone)
        for i, ev in enumerate(hand["events"]):
            action = parse_event(state, ev, h, i)
            yield h, i, state, action
            state.apply(action)


def _merry_go_round_positions(record: Record) -> Iterator[tuple[int, int, Any, Any]]:
    from boneyard.core.records import event_list, tile_list
    from boneyard.core.tiles import DOUBLE_SIX
    from boneyard.games.merry_go_round.replay import (
        _first_setter,
        parse_event,
        state_from_record,
    )

    state = state_from_record(record)
    for h, hand in enumerate(record.hands):
        deal = [tile_list(DOUBLE_SIX, d, "a dealt tile", h) for d in hand.get("deal", [])]
        bone = tile_list(DOUBLE_SIX, hand.get("boneyard", []), "a boneyard tile", h)
        events = event_list(hand, h)
        state.start_hand(deal, bone, _first_setter(state, events))
        for i, ev in enumerate(events):
            action = parse_event(state, ev, h, i)
            yield h, i, state, action
            state.apply(action)


def _high_fives_positions(record: Record) -> Iterator[tuple[int, int, Any, Any]]:
    from boneyard.core.records import event_list
    from boneyard.games.high_fives.replay import _new_state, _setup, _turn

    state = _new_state(record)
    for h, hand in enumerate(record.hands):
        leader, deals, layout, extra = _setup(hand, h)
        state.start_pass(leader, deals, layout, extra)
        for i, ev in enumerate(event_list(hand, h)):
            action = _turn(ev, state.options, h, i)
            yield h, i, state, action
            state.apply(action)


def _highrise_positions(record: Record) -> Iterator[tuple[int, int, Any, Any]]:
    from boneyard.core.records import event_list
    from boneyard.games.highrise.options import recorded_options
    from boneyard.games.highrise.replay import _action, _setup
    from boneyard.games.highrise.state import HighriseState

    state = HighriseState(record.num_seats, recorded_options(record.options), record.seats)
    for h, hand in enumerate(record.hands):
        state.deal(_setup(state, hand, h))
        for i, ev in enumerate(event_list(hand, h)):
            action = _action(state, ev, h, i)
            yield h, i, state, action
            state.apply(action)


def _identity(action: Any) -> Any:
    """What makes two actions the same move, whatever order a record writes them in."""
    key = getattr(action, "key", None)
    if callable(key):  # a High Fives turn: claimed pairs in any order
        return key()
    cells = getattr(action, "cells", None)
    faces = getattr(action, "faces", None)
    if cells is not None and faces is not None:  # a Highrise placement: cells in any order
        halves = sorted(zip(cells, faces, strict=True))
        return (tuple(halves), action.spacer)
    return action


def _match(action: Any, legal: tuple[Any, ...]) -> Any:
    """The legal action a record's action names (a spinner play may omit its port)."""
    for a in legal:
        if a == action:
            return a
    ident = _identity(action)
    for a in legal:
        if _identity(a) == ident:
            return a
    claim = getattr(action, "claim", ())
    if claim:  # High Fives, unlimited claims: the turn's first step is its first claim
        for a in legal:
            pair = getattr(a, "pair", None)
            if pair is not None and set(pair) == set(claim[0]):
                return a
    for a in legal:
        if getattr(a, "tile", None) == getattr(action, "tile", 0) and getattr(
            a, "on", None
        ) == getattr(action, "on", 0):
            return a
    return action


def analyse(
    record: Record,
    seat: int,
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = 0,
    threshold: float = 5.0,
) -> list[Decision]:
    """Every decision of ``seat`` that had a choice, valued by the expert's search.

    Deterministic for a given ``seed``: each decision searches with its own generator derived
    from the seed and the decision's position.
    """
    if not 0 <= seat < record.num_seats:
        raise BoneyardError(f"seat {seat} is not at this table (0–{record.num_seats - 1})")
    out: list[Decision] = []
    for h, i, state, action in _positions(record):
        if state.current_seat != seat:
            continue
        obs = state.observation(seat)
        legal = tuple(obs.legal_actions)
        if len(legal) < 2:
            continue
        chosen = _match(action, legal)
        rng = random.Random(seed * 1_000_003 + h * 1000 + i)
        values = action_values(obs, rng, worlds)
        best = best_of(values, obs)
        top = max(v.value for v in values)
        mine = next((v.value for v in values if v.action == chosen), top)
        loss = top - mine
        out.append(Decision(h, i, chosen, best, tuple(values), loss, loss >= threshold))
    return out


def describe(decision: Decision) -> str:
    """One line of text for a decision (``hand 0 event 3: played 5-5 (best 5-6, lost 4.2)``)."""
    chosen = _describe(decision.chosen)
    best = _describe(decision.best)
    flag = " MISTAKE" if decision.mistake else ""
    values = ", ".join(f"{_describe(v.action)}={v.value:+.1f}" for v in decision.values)
    return (
        f"hand {decision.hand} event {decision.event}: chose {chosen}, best {best}, "
        f"lost {decision.loss:.1f}{flag} [{values}]"
    )
