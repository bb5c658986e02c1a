"""Merry-Go-Round records read back to the same game (Hypothesis): 2–4 players, partnerships or
not, several option bundles, finished or not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.round_trip import check_round_trip, play

OPTIONS = [
    {},
    {"partnerships": False, "cross_order": "any_order", "spinner_count": "alone_only"},
    {"forced_play": True, "set_double_choice": "highest", "no_double_fallback": "redeal"},
    {"boneyard_reserve": "kelley", "block_scoring": "lowest_takes_all", "target": 31},
    {"next_setter": "rotate_left", "exact_target_scope": "play_scores_only", "first_setter": 1},
]


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    options=st.sampled_from(OPTIONS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 600),
)
def test_a_record_reads_back_to_the_same_game(
    players: int, options: dict[str, object], seed: int, steps: int
) -> None:
    check_round_trip(play("merry-go-round", players, dict(options), seed, steps))
