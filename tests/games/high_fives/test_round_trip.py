"""High Fives records read back to the same game (Hypothesis): 2–8 players, one claim or any
number per turn (claimed step by step in play, written as one turn), finished or not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.round_trip import check_round_trip, play

OPTIONS = [
    {"target": 40},
    {"target": 30, "max_claims_per_turn": "unlimited"},
    {"target": 40, "claimable_pairs": "left_by_player", "capture_mandatory": False},
    {"target": 30, "capture_choice": "first_in_row", "remainder_timing": "short_final_deal"},
    {"target": 60, "win_check": "end_of_pass", "leader_next_pass": "same"},
]


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 8),
    options=st.sampled_from(OPTIONS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 500),
)
def test_a_record_reads_back_to_the_same_game(
    players: int, options: dict[str, object], seed: int, steps: int
) -> None:
    check_round_trip(play("high-fives", players, dict(options), seed, steps))
