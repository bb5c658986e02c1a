"""The record round trip every game must pass (each game's ``test_round_trip`` drives it with
Hypothesis): a game played some way, written as a record and read back, is the same game, and
every event of the record maps to an action and back."""

from __future__ import annotations

import json
import random
from typing import Any

from boneyard.core.records import record_from_json
from boneyard.games.registry import get_spec


def play(game: str, players: int, options: dict[str, Any], seed: int, steps: int) -> Any:
    """A game of ``game`` after ``steps`` seeded random actions (deals included), over or not,
    stopped where a record can stop: not inside a High Fives turn taken claim by claim (a claim
    step is not an event of the record; the turn that ends it is), nor before a random first
    setter has set (:func:`unnamed_setter`)."""
    rng = random.Random(seed)
    state = get_spec(game).new_game(players, options)
    last = None
    for _ in range(steps):
        if state.is_over:
            break
        if state.awaiting_deal:
            state.deal_random(rng)
            continue
        actions = state.legal_actions()
        last = state.apply(actions[rng.randrange(len(actions))])
    while last is not None and (not state.events or state.events[-1] is not last):
        actions = state.legal_actions()
        last = state.apply(actions[rng.randrange(len(actions))])
    if unnamed_setter(state, options):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def unnamed_setter(state: Any, options: dict[str, Any]) -> bool:
    """A Merry-Go-Round game between hand 0's deal and its first event, its setter drawn at
    random: a record names that setter only by its first event (RECORDS §6), so it cannot stop
    there (``boneyard play --resume`` deals such a hand again from the game's seed)."""
    return (
        state.game == "merry-go-round"
        and options.get("first_setter", "random") == "random"
        and state.hands_dealt == 1
        and not state.awaiting_deal
        and not state.is_over
        and not state.events
    )


def check_round_trip(state: Any) -> None:
    """``from_record(state.record())`` is the same game: record, scores, hand ends, result, the
    seat to act and every seat's (and a spectator's) observation; and walking the record, each
    event names an action whose event writes that record event again, and the legal action the
    record's action takes is one the state offers (also as a player's move)."""
    spec = get_spec(state.game)
    doc = json.loads(json.dumps(state.record()))
    record = record_from_json(doc)
    again = spec.from_record(record)
    assert again.record() == state.record()
    assert again.scores == state.scores and again.ends == state.ends
    assert again.result() == state.result() and again.current_seat == state.current_seat
    for seat in [None, *range(state.num_seats)]:
        assert again.observation(seat) == state.observation(seat)
        assert again.observation(seat).to_json() == state.observation(seat).to_json()
    applied: tuple[Any, dict[str, Any]] | None = None
    for pos in spec.positions(record):
        if applied is not None:
            walked, written = applied
            assert walked.events[-1].to_json() == written  # the action wrote its event back
            applied = None
        if pos.action is None:
            continue
        written = doc["hands"][pos.hand]["events"][pos.event]
        assert spec.action_from_event(pos.state, written) == pos.action
        legal = spec.legal_match(pos.state, pos.action)
        offered = pos.state.legal_actions()
        if legal in offered:  # a referee's ruling (tabletop) is not offered to a player
            assert spec.action_from_move(pos.state, legal.to_event()) == legal
        applied = (pos.state, written)
