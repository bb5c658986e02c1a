"""The library's edges in every game: a spec reads a record in any form (the state's own JSON,
its text, a parsed record), and ``state.undo()`` takes back the last action or deal exactly
(a Hypothesis property over random play)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.bots import make_bot
from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import parse_record
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.actions import Claim
from boneyard.games.high_fives.rules import HighFivesOptions
from boneyard.games.high_fives.state import HighFivesState
from boneyard.games.registry import get_spec, play_out
from tests.games.golden import GAMES

SHORT = {"high-fives": {"target": 20}, "highrise": {"single_hand": True}}


@pytest.mark.parametrize("game", GAMES)
def test_a_spec_reads_a_record_as_json_text_or_object(game: str) -> None:
    spec = get_spec(game)
    state = spec.new_game(2, SHORT.get(game, {}))
    play_out(state, [make_bot("greedy", random.Random(k)).choose for k in (1, 2)], random.Random(3))
    doc = state.record()
    text = json.dumps(doc)
    walks = [
        [(p.hand, p.event, p.action) for p in spec.positions(form)]
        for form in (doc, text, parse_record(text))
    ]
    assert walks[0] == walks[1] == walks[2] and len(walks[0]) > 2
    assert spec.from_record(doc).record() == doc
    assert list(spec.replay(text)) == list(spec.replay(parse_record(text)))
    with pytest.raises(RecordError, match="seats must be a list of player names"):
        list(spec.positions({**doc, "seats": "Ann"}))


UNDO_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("highfive", 2, {}),
    ("highfive", 3, {"preset": "pda"}),
    ("highfive", 2, {"enforcement": "detect"}),
    ("highfive", 4, {"enforcement": "tabletop"}),
    ("merry-go-round", 2, {}),
    ("merry-go-round", 3, {"next_setter": "rotate_left"}),
    ("high-fives", 2, {"target": 30}),
    ("high-fives", 3, {"target": 30, "max_claims_per_turn": "unlimited"}),
    ("high-fives", 4, {"claimable_pairs": "left_by_player", "max_claims_per_turn": "unlimited"}),
    ("highrise", 2, {"first_player": "random"}),
    ("highrise", 3, {"base_layout": "2x8_one_row", "wild_on_wild_value": "inherit"}),
]


def snapshot(state: Any) -> tuple[Any, ...]:
    """Everything a state shows: its record (every hand's set-up: the hidden tiles and the
    boneyard's order), every seat's and a spectator's view, the legal actions, the phase."""
    views = [state.observation(s).to_json() for s in (None, *range(state.num_seats))]
    return (
        state.record(),
        views,
        list(state.legal_actions()),
        (state.current_seat, state.awaiting_deal, state.is_over, state.hands_dealt),
        state.result(),
        [e.to_json() for e in state.events],
        [e.to_json() for e in state.ends],
    )


@settings(max_examples=25, deadline=None)
@given(
    case=st.sampled_from(UNDO_CASES),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(1, 120),
)
def test_undo_gives_back_the_state_before_each_action_and_deal(
    case: tuple[str, int, dict[str, Any]], seed: int, steps: int
) -> None:
    """Random play; before some actions and deals a take-back is checked (the state after
    ``apply`` then ``undo`` is the state before), and a twin that never took anything back
    plays the same game: equal records and views at the end (a drawn tile went back on top of
    the boneyard, the deals are the same)."""
    game, players, options = case
    spec = get_spec(game)
    state, twin = spec.new_game(players, options), spec.new_game(players, options)
    deals, twin_deals, pick = random.Random(seed), random.Random(seed), random.Random(seed + 1)
    for _ in range(steps):
        if state.is_over:
            break
        check = pick.random() < 0.3 or not state.events  # (every hand's first action too)
        before = snapshot(state) if check else None
        if state.awaiting_deal:
            if check:
                state.deal_random(random.Random(seed + 2))
                state.undo()
                assert snapshot(state) == before
            state.deal_random(deals)
            twin.deal_random(twin_deals)
            continue
        k = pick.randrange(len(state.legal_actions()))
        state.apply(state.legal_actions()[k])
        if check:
            state.undo()
            assert snapshot(state) == before
            state.apply(state.legal_actions()[k])
        twin.apply(twin.legal_actions()[k])
    assert snapshot(state) == snapshot(twin)


def test_undo_with_nothing_to_take_back_is_refused() -> None:
    state = get_spec("highfive").new_game(2, {})
    with pytest.raises(BoneyardError, match="there is nothing to take back: no hand has been"):
        state.undo()
    position = HighFivesState.from_position([Tile(5, 10)], [[Tile(10, 15)], [Tile(0, 0)]])
    with pytest.raises(BoneyardError, match="a position set up with from_position has no record"):
        position.undo()


def test_undo_takes_back_one_claim_step_at_a_time() -> None:
    options = HighFivesOptions(max_claims_per_turn="unlimited")
    row = [Tile(0, 1), Tile(1, 2), Tile(3, 4), Tile(4, 5), Tile(10, 15)]
    state = HighFivesState.from_position(row, [[Tile(7, 8)], [Tile(3, 3)]], options=options)
    claims = [a for a in state.legal_actions() if isinstance(a, Claim)]
    state.apply(claims[0])
    one = snapshot_of_turn(state)
    second = next(a for a in state.legal_actions() if isinstance(a, Claim))
    state.apply(second)
    assert len(state.pending_claim) == 2
    state.undo()
    assert snapshot_of_turn(state) == one and len(state.pending_claim) == 1


def snapshot_of_turn(state: HighFivesState) -> tuple[Any, ...]:
    return (state.pending_claim, list(state.legal_actions()), state.observation(0).to_json())
