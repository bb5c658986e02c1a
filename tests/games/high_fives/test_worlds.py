"""The High Fives sampler (a Hypothesis property): every sampled world agrees with the
observation, and no hidden hand holds a tile the observation shows elsewhere."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from boneyard.bots import GreedyBot, RandomBot
from boneyard.games.high_fives.rules import ALL_MASK, TILE_ID, mask_of
from boneyard.games.high_fives.state import HighFivesState
from boneyard.games.high_fives.worlds import WorldSampler

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


def play_steps(state: Any, rng: random.Random, steps: int) -> Any:
    """Play ``steps`` actions by a random mix of random and greedy bots (dealing as needed)."""
    bots = [RandomBot(rng), GreedyBot(rng)]
    for _ in range(steps):
        if state.is_over:
            break
        if state.awaiting_deal:
            state.deal_random(rng)
            continue
        seat = state.current_seat
        state.apply(bots[rng.randrange(2)].choose(state.observation(seat)))
    return state


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3, 4, 5, 7]),
    steps=st.integers(0, 250),
    sample_seed=st.integers(0, 10**6),
)
def test_worlds_match_the_observation(
    seed: int, players: int, steps: int, sample_seed: int
) -> None:
    rng = random.Random(seed)
    real = HighFivesState(players)
    real.deal_random(rng)
    play_steps(real, rng, steps)
    assume(real.current_seat is not None)
    seat = rng.randrange(players)
    obs = real.observation(seat)
    world = WorldSampler(obs).sample(random.Random(sample_seed))
    assert world.observation(seat) == obs
    seen = mask_of([TILE_ID[t] for t in (*obs.hand, *obs.layout)])
    for pile in obs.piles:
        seen |= mask_of([TILE_ID[t] for t in pile])
    hidden_real = ALL_MASK & ~seen
    hidden_world = 0
    for other in range(players):
        if other == seat:
            continue
        hand = mask_of([TILE_ID[t] for t in world.hand(other)])
        assert hand & seen == 0
        assert hand.bit_count() == obs.hand_sizes[other]
        assert hand & hidden_world == 0
        hidden_world |= hand
    for deal in world.deals[world.deal_index + 1 :]:
        for tiles in deal:
            m = mask_of(tiles)
            assert m & (seen | hidden_world) == 0
            hidden_world |= m
    hidden_world |= mask_of(world.extra) if obs.extra_to_come else 0
    assert hidden_world == hidden_real
