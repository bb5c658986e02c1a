"""Every game's observation survives its JSON: ``observation_from_json(to_json())`` is equal to
the observation, and the library bots choose the same action from either (a bot account's client
runs them on the site's JSON: boneyard.cli.botclient).

Positions come from random play under varied options; every seat's view is checked (the seat to
move, the others, a spectator), and the seat to move is asked for a move by greedy and by the
expert (a fixed number of worlds, no time budget: deterministic under its seed).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.bots import GreedyBot
from boneyard.bots.expert import ExpertBot
from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import GameState
from boneyard.core.tiles import Tile
from boneyard.games.fives.play import Play
from boneyard.games.registry import get_spec

SETTINGS = settings(max_examples=25, deadline=None)


def position(game: str, players: int, options: dict[str, Any], seed: int, steps: int) -> Any:
    """The state after ``steps`` random actions (fewer if the game ends first)."""
    state: GameState = get_spec(game).new_game(players, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        if state.awaiting_deal:
            state.deal_random(rng)
            continue
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    if state.awaiting_deal and not state.is_over:
        state.deal_random(rng)
    return state


def check(game: str, players: int, options: dict[str, Any], seed: int, steps: int) -> None:
    spec = get_spec(game)
    state = position(game, players, options, seed, steps)
    for seat in [None, *range(players)]:
        obs = state.observation(seat)
        doc = json.loads(json.dumps(obs.to_json()))  # as it crosses the wire
        back = spec.observation_from_json(doc)
        assert back == obs
        assert back.to_json() == obs.to_json()
        if not obs.legal_actions:
            continue
        assert [back.action_points(a) for a in back.legal_actions] == [
            obs.action_points(a) for a in obs.legal_actions
        ]
        assert [back.action_weight(a) for a in back.legal_actions] == [
            obs.action_weight(a) for a in obs.legal_actions
        ]
        greedy = GreedyBot(random.Random(seed)).choose(back)
        assert greedy == GreedyBot(random.Random(seed)).choose(obs)
        if spec.search is not None and options.get("enforcement", "strict") == "strict":
            expert = {"level": "easy", "worlds": 3, "time_budget": None}
            mine = ExpertBot(random.Random(seed), **expert).choose(back)  # type: ignore[arg-type]
            theirs = ExpertBot(random.Random(seed), **expert).choose(obs)  # type: ignore[arg-type]
            assert mine == theirs


SEEDS = st.integers(0, 2**32 - 1)
STEPS = st.integers(0, 120)


@SETTINGS
@given(
    players=st.integers(2, 4),
    options=st.fixed_dictionaries(
        {
            "preset": st.sampled_from(["box", "pda"]),
            "enforcement": st.sampled_from(["strict", "strict", "detect", "tabletop"]),
            "spinner_ends_need_both_sides": st.booleans(),
            "payment_cap": st.sampled_from(["chips", "uncapped"]),
        }
    ),
    seed=SEEDS,
    steps=STEPS,
)
def test_high_five(players: int, options: dict[str, Any], seed: int, steps: int) -> None:
    check("highfive", players, options, seed, steps)


@SETTINGS
@given(
    players=st.integers(2, 4),
    options=st.fixed_dictionaries(
        {
            "cross_order": st.sampled_from(["sides_then_ends", "any_order"]),
            "spinner_count": st.sampled_from(["fives", "alone_only"]),
            "forced_play": st.booleans(),
            "boneyard_reserve": st.sampled_from(["none", "kelley"]),
        }
    ),
    partners=st.booleans(),
    seed=SEEDS,
    steps=STEPS,
)
def test_merry_go_round(
    players: int, options: dict[str, Any], partners: bool, seed: int, steps: int
) -> None:
    if players == 4 and partners:
        options = {**options, "partnerships": True}
    check("merry-go-round", players, options, seed, steps)


@SETTINGS
@given(
    players=st.integers(2, 6),
    options=st.fixed_dictionaries(
        {
            "max_claims_per_turn": st.sampled_from([1, "unlimited"]),
            "claimable_pairs": st.sampled_from(["any", "left_by_player"]),
            "capture_mandatory": st.booleans(),
        }
    ),
    seed=SEEDS,
    steps=st.integers(0, 60),
)
def test_high_fives(players: int, options: dict[str, Any], seed: int, steps: int) -> None:
    check("high-fives", players, options, seed, steps)


@SETTINGS
@given(
    players=st.integers(2, 4),
    options=st.fixed_dictionaries(
        {
            "base_layout": st.sampled_from(["4x4_two_rows", "2x8_one_row"]),
            "wild_on_wild_value": st.sampled_from([7, "inherit"]),
            "spacers_per_hand": st.sampled_from([12, 0, "carry_over"]),
            "losers_subtract_on_going_out": st.booleans(),
        }
    ),
    seed=SEEDS,
    steps=st.integers(0, 60),
)
def test_highrise(players: int, options: dict[str, Any], seed: int, steps: int) -> None:
    check("highrise", players, options, seed, steps)


def test_a_wrong_bone_left_on_the_table_is_refused_clearly() -> None:
    """Under tabletop enforcement a tile laid against an end it does not match stays on the table
    (uncaught): no legal play builds that layout, so the JSON cannot be decoded — said so."""
    spec = get_spec("highfive")
    for seed in range(40):
        state = spec.new_game(2, {"enforcement": "tabletop"})
        state.deal_random(random.Random(seed))
        state.apply(state.legal_actions()[0])  # the Big 6 lead: a double
        lead = Tile.parse(state.observation(None).to_json()["layout"][0]["tile"])
        hand = state.observation(state.current_seat).hand
        wrong = [t for t in hand if not t.has(lead.lo) and t.lo != t.hi]
        if wrong:
            break
    state.apply(Play(wrong[0], lead, "SIDE_A", touch=wrong[0].hi))
    doc = json.loads(json.dumps(state.observation(state.current_seat).to_json()))
    with pytest.raises(BoneyardError, match="cannot be rebuilt"):
        spec.observation_from_json(doc)
