"""The expert's play-out policy of every game (compiled, each game's ``playout`` module) plays
as the greedy bot does: most points now, then the heaviest tile, the first such in legal
order."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.bots import GreedyBot
from boneyard.games.fives import playout as fives
from boneyard.games.high_fives import playout as high_fives
from boneyard.games.highrise import playout as highrise
from boneyard.games.registry import get_spec

POLICY = {
    "highfive": fives.greedy_action,
    "merry-go-round": fives.greedy_action,
    "highrise": highrise.greedy_action,
    "high-fives": high_fives.greedy_action,
}


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(sorted(POLICY)),
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_play_out_policy_is_the_greedy_bots_first_choice(
    game: str, players: int, seed: int
) -> None:
    state = get_spec(game).new_game(players, {})
    state.deal_random(random.Random(seed))
    rng = random.Random(seed)
    decisions = 0
    while not state.is_over and state.legal_actions() and decisions < 400:
        obs = state.observation(state.current_seat)
        actions = obs.legal_actions
        chosen = POLICY[game](state, rng)
        best = max((obs.action_points(a), obs.action_weight(a)) for a in actions)
        firsts = [a for a in actions if (obs.action_points(a), obs.action_weight(a)) == best]
        assert chosen == firsts[0]
        # the greedy bot breaks the remaining ties at random: among them, the policy's
        picks = {repr(GreedyBot(random.Random(k)).choose(obs)) for k in range(4)}
        assert picks <= {repr(a) for a in firsts}
        state.apply(chosen if decisions % 3 else actions[rng.randrange(len(actions))])
        decisions += 1
    assert decisions > 0
