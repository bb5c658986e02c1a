"""The Merry-Go-Round sampler: every sampled world is consistent with the observation."""

from __future__ import annotations

import random

import pytest

from boneyard.bots import GreedyBot, RandomBot
from boneyard.games.merry_go_round.state import MerryGoRoundState
from boneyard.games.merry_go_round.worlds import WorldSampler


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options", [{}, {"forced_play": True, "set_double_choice": "highest"}], ids=["free", "forced"]
)
def test_samples_match_the_observation(players: int, options: dict[str, object]) -> None:
    rng = random.Random(players)
    checked = 0
    for g in range(6):
        s = MerryGoRoundState(players, options)
        s.deal_random(rng)
        bots = [GreedyBot(random.Random(g)) if i % 2 else RandomBot(rng) for i in range(players)]
        while s.current_seat is not None:
            seat = rng.randrange(players)
            obs = s.observation(seat)
            world = WorldSampler(obs).sample(rng)
            assert world.observation(seat) == obs
            checked += 1
            to_move = s.current_seat
            s.apply(bots[to_move].choose(s.observation(to_move)))
    assert checked > 20
