"""Reading the table: the likelihood of hidden hands given the other seats' plays
(boneyard.games.inference) and the samplers that weigh worlds by it."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from boneyard.bots import GreedyBot, RandomBot
from boneyard.bots.expert import READING
from boneyard.games.fives.events import Drew
from boneyard.games.fives.layout import PIP_MASK, TILE_ID
from boneyard.games.highfive.state import HighFiveState
from boneyard.games.highfive.worlds import WorldSampler
from boneyard.games.highrise import new_game as new_highrise
from boneyard.games.highrise.worlds import WorldSampler as HighriseSampler
from boneyard.games.inference import (
    Choice,
    PlayModel,
    Style,
    choice_log_p,
    effective_size,
    log_likelihood,
)

SHARP = PlayModel(((1.0, Style(20.0, 0.5, 0.0)),))
"""A greedy player made exact: it would put every scoring tile in a hand if it could."""


def positions(players: int, seed: int, count: int, keep: float = 0.2) -> list[HighFiveState]:
    """Mid-hand High Five states (copies) of greedy and random play."""
    rng = random.Random(seed)
    out: list[HighFiveState] = []
    while len(out) < count:
        s = HighFiveState(players)
        s.deal_random(rng)
        bots = [GreedyBot(rng) if rng.random() < 0.7 else RandomBot(rng) for _ in range(players)]
        while s.current_seat is not None and len(out) < count:
            if rng.random() < keep and len(s.legal_actions()) > 1:
                out.append(s.copy())
            seat = s.current_seat
            s.apply(bots[seat].choose(s.observation(seat)))
    return out


def test_a_hand_that_drew_on_fives_never_holds_a_five_in_any_inferred_world() -> None:
    """The plays are weighed softly, the draws stay hard: however much a model would like the
    seat to hold a 5 (a greedy model made exact), no world it draws gives it one."""
    rng = random.Random(1)
    checked = 0
    for real in positions(2, 3, 2000, keep=0.5):
        me = real.current_seat
        assert me is not None
        other = 1 - me
        if real.bpos == len(real.boneyard) or not real.events:
            continue
        events = real.events
        draws = [k for k, e in enumerate(events) if isinstance(e, Drew) and e.seat == other]
        if not draws or not fives_only_at(real, draws[-1]):
            continue
        sampler = WorldSampler(real.observation(me))
        for world in sampler.infer(rng, 6, 60, SHARP) + sampler.infer(rng, 6, 60, READING):
            held_then = world.hands[other]
            # The tiles it drew at that draw or later are exempt.
            for k, e in enumerate(world.events):
                if isinstance(e, Drew) and e.seat == other and k >= draws[-1]:
                    held_then &= ~(1 << TILE_ID[e.tile])
            assert held_then & PIP_MASK[5] == 0
        checked += 1
        if checked >= 12:
            break
    assert checked >= 5


def fives_only_at(s: HighFiveState, index: int) -> bool:
    """Whether only 5s were open to play at event ``index`` of the hand."""
    replay = HighFiveState(2)
    deal, bone, _ = s.hands_doc[-1]
    replay.advantage = s.hand_start_advantage
    replay._begin([list(h) for h in deal], list(bone))
    for ev in s.events[:index]:
        replay.apply(replay_action(replay, ev))
    values = {v for v, _a, _c in replay.layout.available(replay.policy)}
    return values == {5}


def replay_action(state: HighFiveState, ev: Any) -> Any:
    """The action behind a High Five event (a draw's tile is the next in the boneyard)."""
    from boneyard.games.highfive import Play

    if type(ev).__name__ == "Placed":
        return Play(ev.tile, ev.on, ev.port)
    return state.legal_actions()[0]


def test_the_model_gives_a_seats_legal_plays_probabilities_that_sum_to_one() -> None:
    """For any hand a seat might have held at one of its plays, the probabilities the model
    gives to every legal placement of that hand add up to 1."""
    rng = random.Random(2)
    checked = 0
    for real in positions(2, 5, 60):
        me = real.current_seat
        assert me is not None
        sampler = WorldSampler(real.observation(me))
        for c in sampler.choices:
            options = dict(c.options)
            tiles = [t for t in options if (c.later >> t) & 1 or rng.random() < 0.3]
            hand = sum(1 << t for t in tiles)
            if not hand:
                continue
            for style in (Style(0.7, 0.4, 0.05), Style(3.0, 0.5, 0.0), Style(0.0, 0.0, 1.0)):
                total = 0.0
                for t in tiles:
                    for points, pips in options[t]:
                        alt = Choice(
                            c.seat, c.moment, c.later, c.draw_from, (points, pips), c.options
                        )
                        total += math.exp(choice_log_p(style.weigh([alt])[0], hand))
                assert total == pytest.approx(1.0)
                checked += 1
    assert checked > 50


def test_posterior_weights_sum_to_one_and_favour_the_hands_the_plays_point_to() -> None:
    rng = random.Random(3)
    checked = 0
    for real in positions(2, 7, 40):
        me = real.current_seat
        assert me is not None
        sampler = WorldSampler(real.observation(me))
        if not sampler.choices:
            continue
        deals = sampler.weighed_deals(rng, 50, READING)
        assert sum(w for _h, _d, w in deals) == pytest.approx(1.0)
        weighed = READING.weigh(sampler.choices)
        logs = [log_likelihood(weighed, h, d) for h, d, _w in deals]
        # The weights follow the likelihoods.
        best = max(range(len(deals)), key=lambda k: logs[k])
        assert deals[best][2] == max(w for _h, _d, w in deals)
        checked += 1
    assert checked > 20


def test_a_deal_seen_with_every_hand_known_gets_weight_one() -> None:
    """With two players and the boneyard empty the other hand is every unseen tile: every
    candidate is that deal, and its weight is 1 whatever the plays were."""
    rng = random.Random(4)
    checked = 0
    for real in positions(2, 9, 3000, keep=0.3):
        me = real.current_seat
        assert me is not None
        if real.bpos < len(real.boneyard):
            continue
        sampler = WorldSampler(real.observation(me))
        assert sampler.determined
        weights: dict[int, float] = {}
        for hands, _draws, w in sampler.weighed_deals(rng, 20, SHARP):
            weights[hands[1 - me]] = weights.get(hands[1 - me], 0.0) + w
        assert weights == {real.hands[1 - me]: pytest.approx(1.0)}
        checked += 1
        if checked >= 8:
            break
    assert checked >= 3


def test_the_model_prefers_the_true_hands_of_a_greedy_player() -> None:
    """Against greedy records the true hidden hands are on average more likely under the
    expert's model than under random consistent sampling (the bench measures how much)."""
    rng = random.Random(5)
    gains = []
    for real in positions(2, 11, 80):
        me = real.current_seat
        assert me is not None
        sampler = WorldSampler(real.observation(me))
        if not sampler.choices:
            continue
        other = 1 - me
        draws = [TILE_ID[e.tile] for e in real.events if isinstance(e, Drew) and e.seat == other]
        weighed = READING.weigh(sampler.choices)
        true = log_likelihood(weighed, {other: real.hands[other]}, {other: draws})
        logs = [log_likelihood(weighed, h, d) for h, d in sampler.candidates(rng, 100)]
        top = max(logs)
        gains.append(true - top - math.log(sum(math.exp(x - top) for x in logs) / len(logs)))
    assert len(gains) > 20
    assert sum(gains) / len(gains) > 0.2


def test_highrise_reads_the_plays_of_the_other_seats() -> None:
    rng = random.Random(6)
    read = 0
    for seed in range(6):
        state = new_highrise(2, {})
        state.deal_random(random.Random(seed))
        greedy = GreedyBot(random.Random(seed))
        for _ in range(14):
            if state.hand_over or state.is_over:
                break
            state.apply(greedy.choose(state.observation(state.current_seat)))
        if state.hand_over or state.is_over:
            continue
        me = state.current_seat
        obs = state.observation(me)
        sampler = HighriseSampler(obs)
        read += len(sampler.choices)
        for world in sampler.infer(rng, 4, 40, READING):
            assert sorted(world.observation(me).hand) == sorted(obs.hand)
    assert read > 5


def test_the_effective_size_counts_equal_weights_and_one_dominant_weight_as_one() -> None:
    """Kish's size, as bench/inference.py reports it: run against the compiled module too (CI
    installs it), where ``sum(...) ** 2`` once raised a TypeError."""
    assert effective_size([0.0] * 4) == pytest.approx(4.0)
    assert effective_size([math.log(3.0), 0.0]) == pytest.approx(16 / 10)
    assert effective_size([0.0, -50.0, -60.0]) == pytest.approx(1.0)
