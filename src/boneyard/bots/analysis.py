"""Analysis of a played game and hints, by the expert bot's search.

:func:`analyse` walks a record (its game's positions, one walk) and, at each decision of one
seat with a choice, values every legal action by PIMC search from that seat's observation only
(what the player knew then), marks the action chosen, and flags a mistake when the chosen action
is worth at least ``threshold`` chips less than the best one. :func:`hint` does the same for one
observation. The values are mean chip differentials over the rest of the hand (see
:mod:`boneyard.bots.expert`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from boneyard.bots.expert import LEVELS, ActionValue, action_values, best_of
from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import Action, Observation
from boneyard.core.records import JSON, Record
from boneyard.games.registry import get_spec

DEFAULT_WORLDS = LEVELS["hard"].worlds
"""Worlds sampled per decision by default (the ``hard`` budget, without a time limit)."""


def _value_json(v: ActionValue[Action]) -> JSON:
    return {"action": v.action.to_event(), "value": round(v.value, 3)}


@dataclass(frozen=True, slots=True)
class Hint:
    """The best action for an observation and the value of every legal action."""

    best: Action
    values: tuple[ActionValue[Action], ...]

    def to_json(self) -> JSON:
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
    chosen: Action
    best: Action
    values: tuple[ActionValue[Action], ...]
    loss: float
    """Value of the best action minus the value of the chosen one (0 when it was the best)."""
    mistake: bool

    def to_json(self) -> JSON:
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


def hint(observation: Observation[Action], *, worlds: int = DEFAULT_WORLDS, seed: int = 0) -> Hint:
    """The expert's best action for ``observation`` and the value of each legal action."""
    values = action_values(observation, random.Random(seed), worlds)
    return Hint(best_of(values, observation), tuple(values))


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
    decisions, _total = analyse_part(record, seat, worlds=worlds, seed=seed, threshold=threshold)
    return decisions


def analyse_part(
    record: Record,
    seat: int,
    first: int = 0,
    count: int | None = None,
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = 0,
    threshold: float = 5.0,
) -> tuple[list[Decision], int]:
    """Decisions ``first`` … ``first + count - 1`` of ``seat`` (all from ``first`` when
    ``count`` is ``None``), and how many decisions with a choice the seat had in all: the
    analysis in parts, each a bounded job (the replay viewer's progress), the same values as
    :func:`analyse` gives them."""
    if not 0 <= seat < record.num_seats:
        raise BoneyardError(f"seat {seat + 1} is not at this table (seats 1–{record.num_seats})")
    spec = get_spec(record.game)
    out: list[Decision] = []
    total = 0
    for pos in spec.positions(record):
        state, action = pos.state, pos.action
        if action is None or state.current_seat != seat:
            continue
        obs = state.observation(seat)
        if len(obs.legal_actions) < 2:
            continue
        total += 1
        if total - 1 < first or (count is not None and total - 1 >= first + count):
            continue
        chosen = spec.legal_match(state, action)
        rng = random.Random(seed * 1_000_003 + pos.hand * 1000 + pos.event)
        values = action_values(obs, rng, worlds)
        best = best_of(values, obs)
        top = max(v.value for v in values)
        mine = next((v.value for v in values if v.action == chosen), top)
        loss = top - mine
        out.append(
            Decision(pos.hand, pos.event, chosen, best, tuple(values), loss, loss >= threshold)
        )
    return out, total


def describe(decision: Decision, describe_action: Callable[[Action], str]) -> str:
    """One line of text for a decision, its actions in the game's words and its place numbered
    from 1 (``hand 1 move 4: chose 5-5 on 6-5, best 5-6 on the spinner 6-6, side b, lost 4.2``)."""
    chosen = describe_action(decision.chosen)
    best = describe_action(decision.best)
    flag = " MISTAKE" if decision.mistake else ""
    values = "; ".join(f"{describe_action(v.action)} {v.value:+.1f}" for v in decision.values)
    return (
        f"hand {decision.hand + 1} move {decision.event + 1}: chose {chosen}, best {best}, "
        f"lost {decision.loss:.1f}{flag} [{values}]"
    )


def decision_json(decision: Decision, describe_action: Callable[[Action], str]) -> JSON:
    """A decision as JSON with every action's words (``text``) beside its record form."""
    doc = decision.to_json()
    doc["chosen_text"] = describe_action(decision.chosen)
    doc["best_text"] = describe_action(decision.best)
    for value, v in zip(doc["values"], decision.values, strict=True):
        value["text"] = describe_action(v.action)
    return doc
