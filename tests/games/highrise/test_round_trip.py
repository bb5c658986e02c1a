"""Highrise records read back to the same game (Hypothesis): 2–4 players, every base, the literal
and the early block, carried-over spacers, finished or not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.round_trip import check_round_trip, play

OPTIONS = [
    {"target": 100},
    {"target": 100, "early_block": False},
    {"base_layout": "2x8_one_row", "wild_on_wild_value": "inherit", "single_hand": True},
    {"spacers_per_hand": "carry_over", "losers_subtract_on_going_out": True, "target": 80},
    {"tie_at_target": "shared_win", "allow_negative": False, "first_player": 1, "target": 60},
]


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 4),
    options=st.sampled_from(OPTIONS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 300),
)
def test_a_record_reads_back_to_the_same_game(
    players: int, options: dict[str, object], seed: int, steps: int
) -> None:
    check_round_trip(play("highrise", players, dict(options), seed, steps))
