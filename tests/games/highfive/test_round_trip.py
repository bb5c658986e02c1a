"""High Five records read back to the same game (Hypothesis): strict, detect and tabletop games,
every preset, 2–4 players, finished or not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.round_trip import check_round_trip, play

OPTIONS = [
    {"preset": "box"},
    {"preset": "pda"},
    {"preset": "box", "enforcement": "detect"},
    {"preset": "pda", "enforcement": "detect"},
    {"preset": "box", "enforcement": "tabletop"},
    {"preset": "box", "spinner_ends_need_both_sides": False, "lead_after_lock": "lock_winner"},
    {"preset": "box", "multiplayer_lock": "per_pair", "payment_cap": "uncapped"},
]


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    options=st.sampled_from(OPTIONS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 400),
)
def test_a_record_reads_back_to_the_same_game(
    players: int, options: dict[str, object], seed: int, steps: int
) -> None:
    check_round_trip(play("highfive", players, dict(options), seed, steps))
