"""The Highrise sampler (a Hypothesis property): every sampled world agrees with the observation,
and no hidden hand holds a tile the observation rules out (a draw or pass proves the seat held
nothing that fitted)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from boneyard.bots import GreedyBot, RandomBot
from boneyard.core.tiles import Tile
from boneyard.games.highrise import Draw, HighriseState, Pass, Place, new_game
from boneyard.games.highrise.tower import Tower
from boneyard.games.highrise.worlds import WorldSampler

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


def without_hand_order(obs: Any) -> Any:
    """The observation with the hand order forgotten (a sampled deal lists tiles by id)."""
    hand = None if obs.hand is None else tuple(sorted(obs.hand))
    return dataclasses.replace(obs, hand=hand, legal_actions=frozenset(obs.legal_actions))


def check_world(world: HighriseState) -> None:
    """Walk the world's hand from its set-up, independently of the sampler: at every draw and
    pass the seat held no tile that fitted; a drawn tile not placed at once did not fit."""
    setup = world.setup
    assert setup is not None
    tiles = world.tileset
    basement = [(tiles.index(Tile.of(u, lo)), u, lo) for u, lo in setup.basement]
    used = sum(1 for e in world.events if isinstance(e.action, Place) and e.action.spacer)
    tower = Tower.from_basement(
        world.geometry,
        basement,
        world.spacers_left + used,
        world.options.wild_on_wild_value == 7,
    )
    hands = [[tiles.index(t) for t in hand] for hand in setup.deal]
    faces = [(t.lo, t.hi) for t in tiles.tiles]

    def fits(tids: list[int]) -> bool:
        return any(tower.fits(*faces[t]) for t in tids)

    events = world.events
    for k, e in enumerate(events):
        a = e.action
        if isinstance(a, Place):
            tid = tiles.index(a.tile)
            i, j = world.geometry.index(a.cells[0]), world.geometry.index(a.cells[1])
            fa, fb = a.faces
            if i > j:
                i, j, fa, fb = j, i, fb, fa
            tower.place(tid, i, j, fa, fb)
            hands[e.seat].remove(tid)
        elif isinstance(a, Draw):
            assert not fits(hands[e.seat])
            assert a.tile is not None
            hands[e.seat].append(tiles.index(a.tile))
            placed_next = k + 1 < len(events) and isinstance(events[k + 1].action, Place)
            if not placed_next and world.current_seat != e.seat:
                assert not fits(hands[e.seat])
        else:
            assert isinstance(a, Pass)
            assert not fits(hands[e.seat])
    for s in range(world.num_seats):
        assert sorted(hands[s]) == sorted(tiles.index(t) for t in world.hand(s))


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3, 4]),
    steps=st.integers(0, 60),
    sample_seed=st.integers(0, 10**6),
    base=st.sampled_from(["4x4_two_rows", "2x8_one_row"]),
)
def test_worlds_respect_draws_and_passes(
    seed: int, players: int, steps: int, sample_seed: int, base: str
) -> None:
    rng = random.Random(seed)
    real = new_game(players, {"base_layout": base})
    real.deal_random(rng)
    play_steps(real, rng, steps)
    assume(real.current_seat is not None)
    seat = real.current_seat
    assert seat is not None
    obs = real.observation(seat)
    sampler = WorldSampler(obs)
    srng = random.Random(sample_seed)
    for _ in range(3):
        world = sampler.sample(srng)
        assert without_hand_order(world.observation(seat)) == without_hand_order(obs)
        seen = {Tile.of(u, lo) for u, lo in obs.basement} | set(obs.hand or ())
        seen |= {a.tile for _s, a in obs.history if isinstance(a, Place)}
        for other in range(players):
            if other != seat:
                assert not seen & set(world.hand(other))
                assert len(world.hand(other)) == obs.hand_sizes[other]
        assert not seen & set(world.pile())
        check_world(world)


def test_sampler_uses_draws() -> None:
    """Positions where another seat drew: the tiles that fitted then are kept out of its hand
    (unless drawn later), across many samples."""
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        real = new_game(2, {})
        real.deal_random(rng)
        play_steps(real, rng, rng.randrange(10, 40))
        seat = real.current_seat
        if seat is None:
            continue
        obs = real.observation(seat)
        if not any(isinstance(a, Draw) and s != seat for s, a in obs.history):
            continue
        sampler = WorldSampler(obs)
        for _ in range(5):
            check_world(sampler.sample(rng))
            checked += 1
    assert checked >= 20
