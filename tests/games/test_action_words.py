"""A move's words read back: for every legal action of every game, ``parse_action`` of its
``describe_action`` is that action (a Hypothesis property over random play under varied
options), and the words a player reads in the move log parse ("draw a tile", "plays 1-8 to the
layout")."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.games.registry import get_spec

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("highfive", 2, {}),
    ("highfive", 3, {"preset": "pda"}),
    ("highfive", 2, {"enforcement": "detect"}),
    ("highfive", 4, {"enforcement": "tabletop", "preset": "pda"}),
    ("merry-go-round", 2, {}),
    ("merry-go-round", 4, {"partnerships": False, "cross_order": "any_order"}),
    ("high-fives", 2, {"target": 40}),
    ("high-fives", 3, {"target": 40, "max_claims_per_turn": "unlimited"}),
    ("high-fives", 4, {"target": 40, "capture_mandatory": False}),
    ("high-fives", 5, {"claimable_pairs": "left_by_player", "max_claims_per_turn": "unlimited"}),
    ("highrise", 2, {}),
    ("highrise", 3, {"base_layout": "2x8_one_row", "single_hand": True}),
    ("highrise", 4, {"wild_on_wild_value": "inherit"}),
]


def positions(game: str, players: int, options: dict[str, Any], seed: int, steps: int) -> Any:
    """The positions of ``steps`` seeded random actions (deals included) of one game."""
    spec = get_spec(game)
    rng = random.Random(seed)
    state = spec.new_game(players, options)
    for _ in range(steps):
        if state.is_over:
            return
        if state.awaiting_deal:
            state.deal_random(rng)
            continue
        yield state
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


@settings(max_examples=80, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(1, 160),
)
def test_every_legal_action_reads_back_from_its_description(
    case: tuple[str, int, dict[str, Any]], seed: int, steps: int
) -> None:
    game, players, options = case
    spec = get_spec(game)
    for state in positions(game, players, options, seed, steps):
        observation = state.observation(state.current_seat)
        described = [spec.describe_action(a) for a in observation.legal_actions]
        assert len(set(described)) == len(described), described  # one text, one action
        for action, text in zip(observation.legal_actions, described, strict=True):
            assert spec.parse_action(observation, text) == action, text


def test_the_move_log_words_of_the_issue_parse() -> None:
    """The words of the move log: "draw a tile" (every game that draws) and "plays 1-8 to the
    layout" (High Fives)."""
    for game in ("highfive", "merry-go-round", "highrise"):
        spec = get_spec(game)
        for state in positions(game, 2, {}, 5, 400):
            observation = state.observation(state.current_seat)
            draws = [a for a in observation.legal_actions if "draw" in a.to_event()]
            if draws:
                assert spec.parse_action(observation, "draw a tile") == draws[0]
                assert spec.parse_action(observation, "Draw a tile") == draws[0]
                break
        else:
            raise AssertionError(f"no draw in {game}")
    spec = get_spec("high-fives")
    for state in positions("high-fives", 2, {"capture_mandatory": False}, 3, 200):
        observation = state.observation(state.current_seat)
        stays = [a for a in observation.legal_actions if a.to_event().get("capture") is None]
        if stays:
            tile = stays[0].to_event()["play"]
            assert spec.parse_action(observation, f"plays {tile} to the layout") in stays
            return
    raise AssertionError("no play to the layout")
