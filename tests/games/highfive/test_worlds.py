"""The High Five sampler: every sampled world is consistent with the observation."""

from __future__ import annotations

import random

import pytest

from boneyard.bots import GreedyBot, RandomBot
from boneyard.games.fives.events import Drew, Passed, Placed
from boneyard.games.fives.layout import PIP_MASK, TILE_ID
from boneyard.games.highfive import Play
from boneyard.games.highfive.state import HighFiveState
from boneyard.games.highfive.worlds import WorldSampler, sample_world


def midhand_positions(players: int, seed: int, count: int) -> list[HighFiveState]:
    """Mid-hand states reached by random and greedy play (many with draws and passes)."""
    rng = random.Random(seed)
    out: list[HighFiveState] = []
    while len(out) < count:
        s = HighFiveState(players)
        s.deal_random(rng)
        bots = [RandomBot(rng) if rng.random() < 0.5 else GreedyBot(rng) for _ in range(players)]
        while s.current_seat is not None:
            if rng.random() < 0.15:
                out.append(s.copy())
            seat = s.current_seat
            s.apply(bots[seat].choose(s.observation(seat)))
    return out


def check_world(real: HighFiveState, world: HighFiveState, seat: int) -> None:
    obs = real.observation(seat)
    assert world.observation(seat) == obs
    # Every hidden hand of the world fits the draws and passes of its seat (strict rules).
    for ev in world.events:
        assert isinstance(ev, Placed | Drew | Passed)
    # Tiles are a partition of the set.
    total = sum(h.bit_count() for h in world.hands) + len(world.layout.order)
    assert total + len(world.boneyard) - world.bpos == 28


@pytest.mark.parametrize("players", [2, 3, 4])
def test_samples_match_the_observation(players: int) -> None:
    rng = random.Random(7)
    for real in midhand_positions(players, players, 40):
        seat = rng.randrange(players)
        obs = real.observation(seat)
        sampler = WorldSampler(obs)
        for _ in range(3):
            world = sampler.sample(rng)
            check_world(real, world, seat)


def test_drawing_seat_holds_no_tile_matching_the_ends_it_drew_at() -> None:
    """A hand-built check of the inference, independent of the replay."""
    rng = random.Random(3)
    found = 0
    for real in midhand_positions(2, 11, 300):
        me = real.current_seat
        assert me is not None
        other = 1 - me
        obs = real.observation(me)
        if not any(e.kind in ("draw", "pass") and e.seat == other for e in obs.history):
            continue
        found += 1
        for _ in range(3):
            world = sample_world(obs, rng)
            # Replay the world's hand, tracking the other seat's hand at each of its draws.
            deal, bone, _ = world.hands_doc[-1]
            held = 0
            for t in deal[other]:
                held |= 1 << t
            pos = 0
            lay_world = HighFiveState(2)
            lay_world.advantage = world.events[0].seat if world.events else me
            lay_world._begin([list(h) for h in deal], list(bone))
            for ev in world.events:
                if ev.seat == other and isinstance(ev, Drew | Passed):
                    ends = lay_world.layout.available(lay_world.policy)
                    mask = 0
                    for v, _a, _c in ends:
                        mask |= PIP_MASK[v]
                    assert held & mask == 0
                if isinstance(ev, Drew):
                    if ev.seat == other:
                        held |= 1 << TILE_ID[ev.tile]
                    pos += 1
                    lay_world.apply(lay_world.legal_actions()[0])
                elif isinstance(ev, Placed):
                    if ev.seat == other:
                        held &= ~(1 << TILE_ID[ev.tile])
                    lay_world.apply(Play(ev.tile, ev.on, ev.port))
                else:
                    lay_world.apply(lay_world.legal_actions()[0])
    assert found >= 5


def test_big6_pending_keeps_higher_doubles_out_of_other_hands() -> None:
    rng = random.Random(5)
    for seed in range(30):
        real = HighFiveState(3)
        real.deal_random(random.Random(seed))
        seat = real.current_seat
        assert seat is not None
        obs = real.observation(seat)
        assert obs.big6_lead
        for _ in range(3):
            world = sample_world(obs, rng)
            assert world.observation(seat) == obs
            assert world.turn == seat


def test_first_hand_deals_no_double_above_the_lead() -> None:
    from boneyard.games.fives.layout import IS_DOUBLE

    rng = random.Random(9)
    checked = 0
    for real in midhand_positions(2, 17, 80):
        if real.hand_number != 0 or not real.events:
            continue
        seat = real.current_seat
        assert seat is not None
        obs = real.observation(seat)
        assert obs.history[0].tile is not None
        lead = TILE_ID[obs.history[0].tile]
        for _ in range(3):
            world = sample_world(obs, rng)
            deal = world.hands_doc[-1][0]
            for hand in deal:
                assert not any(IS_DOUBLE[t] and t > lead for t in hand)
            checked += 1
    assert checked > 30
