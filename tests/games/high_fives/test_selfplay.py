"""Seeded self-play over every player count and every bundle of the §6.3 options."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from boneyard.bots import make_bot
from boneyard.core.records import record_from_json
from boneyard.games.high_fives import SPEC, new_game
from boneyard.games.registry import play_out

CHOICES: dict[str, list[Any]] = {
    "capture_mandatory": [True, False],
    "max_claims_per_turn": [1, "unlimited"],
    "claimable_pairs": ["any", "left_by_player"],
    "capture_choice": ["player", "first_in_row"],
    "remainder_timing": ["with_last_deal", "short_final_deal"],
    "win_check": ["immediate", "end_of_pass"],
    "leader_next_pass": ["rotate_left", "same"],
}
BUNDLES = [
    dict(zip(CHOICES, values, strict=True)) for values in itertools.product(*CHOICES.values())
]


def play_bots(players: int, options: dict[str, Any], seed: int) -> Any:
    state = new_game(players, options)
    bots = [
        make_bot(("random", "greedy")[(i + seed) % 2], random.Random(seed * 8 + i))
        for i in range(players)
    ]
    return play_out(state, [b.choose for b in bots], random.Random(seed))


@pytest.mark.parametrize("players", range(2, 9))
def test_every_option_bundle(players: int) -> None:
    for k, bundle in enumerate(BUNDLES):
        options = {**bundle, "target": 12, "first_leader": k % players if k % 3 else "random"}
        state = play_bots(players, options, k)
        result = state.result()
        assert result is not None, bundle
        assert max(result.scores) >= 12 and result.scores[result.winner] == max(result.scores)
        if k % 16 == 0:  # the replay check is slower; a spread of bundles is enough here
            doc = state.record()
            lines = list(SPEC.replay(record_from_json(doc)))
            assert lines[-1] == {
                "type": "game_end",
                "winner": result.winner,
                "scores": list(result.scores),
            }
            assert SPEC.from_record(record_from_json(doc)).record() == doc


@pytest.mark.parametrize("players", range(2, 9))
def test_default_games_to_100(players: int) -> None:
    for seed in range(2):
        state = play_bots(players, {}, seed)
        result = state.result()
        assert result is not None and result.scores[result.winner] >= 100
        assert state.end_reason == "game_over"
