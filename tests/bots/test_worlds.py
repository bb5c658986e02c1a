"""The High Five sampler: every sampled world is consistent with the observation."""

from __future__ import annotations

import random

import pytest

from boneyard.bots import GreedyBot, RandomBot
from boneyard.games.fives import PIP_MASK
from boneyard.games.highfive.state import HighFiveState
from boneyard.games.highfive.worlds import WorldSampler, sample_world


def _positions(players: int, seed: int, count: int) -> list[HighFiveState]:
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


def _check(real: HighFiveState, world: HighFiveState, seat: int) -> None:
    obs = real.observation(seat)
    assert world.observation(seat) == obs
    # Every hidden hand of the world fits the draws and passes of its seat (strict rules).
    for ev in world.events:
        assert ev[0] in ("play", "draw", "pass")
    # Tiles are a partition of the set.
    total = sum(h.bit_count() for h in world.hands) + len(world.layout.order)
    assert total + len(world.boneyard) - world.bpos == 28


@pytest.mark.parametrize("players", [2, 3, 4])
def test_samples_match_the_observation(players: int) -> None:
    rng = random.Random(7)
    for real in _positions(players, players, 40):
        seat = rng.randrange(players)
        obs = real.observation(seat)
        sampler = WorldSampler(obs)
        for _ in range(3):
            world = sampler.sample(rng)
            _check(real, world, seat)


def test_drawing_seat_holds_no_tile_matching_the_ends_it_drew_at() -> None:
    """A hand-built check of the inference, independent of the replay."""
    rng = random.Random(3)
    found = 0
    for real in _positions(2, 11, 300):
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
            lay_world.advantage = world.events[0][1] if world.events else me
            lay_world._start([list(h) for h in deal], list(bone))
            for ev in world.events:
                if ev[1] == other and ev[0] in ("draw", "pass"):
                    ends = lay_world.layout.available(lay_world.policy)
                    mask = 0
                    for v, _a, _c in ends:
                        mask |= PIP_MASK[v]
                    assert held & mask == 0
                if ev[0] == "draw":
                    if ev[1] == other:
                        held |= 1 << ev[2]
                    pos += 1
                    lay_world.apply(lay_world.legal_actions()[0])
                elif ev[0] == "play":
                    if ev[1] == other:
                        held &= ~(1 << ev[2])
                    lay_world.apply(_play_of(ev))
                else:
                    lay_world.apply(lay_world.legal_actions()[0])
    assert found >= 5


def _play_of(ev: tuple[object, ...]) -> object:
    from boneyard.games.fives_play import PLAYS

    _k, _seat, tile, anchor, code = ev[:5]
    assert isinstance(tile, int) and isinstance(anchor, int) and isinstance(code, int)
    return PLAYS.get(tile, anchor, code)


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


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options", [{}, {"forced_play": True, "set_double_choice": "highest"}], ids=["free", "forced"]
)
def test_merry_go_round_samples_match_the_observation(
    players: int, options: dict[str, object]
) -> None:
    from boneyard.games.merry_go_round.state import MerryGoRoundState
    from boneyard.games.merry_go_round.worlds import WorldSampler as MgrSampler

    rng = random.Random(players)
    checked = 0
    for g in range(6):
        s = MerryGoRoundState(players, options)
        s.deal_random(rng)
        bots = [GreedyBot(random.Random(g)) if i % 2 else RandomBot(rng) for i in range(players)]
        while s.current_seat is not None:
            seat = rng.randrange(players)
            obs = s.observation(seat)
            world = MgrSampler(obs).sample(rng)
            assert world.observation(seat) == obs
            checked += 1
            to_move = s.current_seat
            s.apply(bots[to_move].choose(s.observation(to_move)))
    assert checked > 20


def test_first_hand_deals_no_double_above_the_lead() -> None:
    from boneyard.games.fives import IS_DOUBLE, TILE_ID

    rng = random.Random(9)
    checked = 0
    for real in _positions(2, 17, 80):
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
