"""Properties of Merry-Go-Round over random play: tile conservation, the target is never passed,
only the cross ports are offered during the cross, the greedy view is right, hidden tiles stay
hidden, and every game's record replays to itself."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.bots import GreedyBot, RandomBot
from boneyard.core.records import record_from_json
from boneyard.games.fives.events import Placed
from boneyard.games.fives.layout import NUM_TILES, SIDE_A, SIDE_B, ids_of
from boneyard.games.merry_go_round import SPEC, MerryGoRoundState, Play
from boneyard.games.merry_go_round.observation import count_with
from boneyard.games.registry import play_out
from tests.games.merry_go_round.helpers import replay_lines

BUNDLES: list[dict[str, Any]] = [
    {},
    {"forced_play": True, "set_double_choice": "highest", "block_scoring": "lowest_takes_all"},
    {"cross_order": "any_order", "spinner_count": "alone_only", "boneyard_reserve": "kelley"},
    {
        "block_scoring": "lowest_takes_all",
        "boneyard_reserve": "kelley",
        "split_half_rounding": "down",
        "next_setter": "rotate_left",
    },
    {"block_scoring": "lowest_minus_own", "no_double_fallback": "redeal", "first_setter": 1},
    {
        "exact_target_scope": "play_scores_only",
        "domino_bonus_rounding": "per_opponent",
        "partner_pips": "ignore",
        "score_floor_zero": False,
        "block_vs": "all_others",
    },
    {"partnerships": False, "target": 31, "first_setter": 0, "forced_play": True},
]


def check_conservation(s: MerryGoRoundState) -> None:
    seen = 0
    total = 0
    for h in s.hands:
        assert not seen & h
        seen |= h
        total += h.bit_count()
    for t in s.layout.order:
        assert not (seen >> t) & 1
        seen |= 1 << t
    for t in s.boneyard[s.bpos :]:
        assert not (seen >> t) & 1
        seen |= 1 << t
    total += len(s.layout.order) + len(s.boneyard) - s.bpos
    assert total == NUM_TILES and seen == (1 << NUM_TILES) - 1


def check_cross(s: MerryGoRoundState) -> None:
    lay = s.layout
    stage = s.stage()
    if stage not in ("cross_sides", "cross_ends", "cross"):
        return
    spinner = lay.first_spinner
    assert spinner is not None
    connected = lay.connected[spinner]
    allowed = {"SIDE_A", "SIDE_B", "END_A", "END_B"}
    if stage == "cross_sides":
        allowed = {"SIDE_A", "SIDE_B"}
    elif stage == "cross_ends":
        assert (connected >> SIDE_A) & 1 and (connected >> SIDE_B) & 1
        allowed = {"END_A", "END_B"}
    for a in s.legal_actions():
        if isinstance(a, Play):
            assert a.key[1] == spinner
            assert a.port in allowed


def check_points(s: MerryGoRoundState) -> None:
    """The greedy view scores each play exactly as applying it does, and the count the engine
    keeps agrees with the count recomputed from the joints."""
    obs = s.observation(s.turn)
    for a in obs.legal_actions:
        if not isinstance(a, Play):
            continue
        t = s.copy()
        event = t.apply(a)
        assert isinstance(event, Placed)
        assert event.points == obs.action_points(a) == s.points_if(a)
        assert event.count == count_with(s.layout, s.alone_only, *a.key)
        if not s.alone_only:
            assert event.count == t.layout.brute_count()


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    bundle=st.sampled_from(range(len(BUNDLES))),
)
def test_random_play_invariants(seed: int, players: int, bundle: int) -> None:
    options = BUNDLES[bundle]
    rng = random.Random(seed)
    s = MerryGoRoundState(players, options)
    target = s.target
    exact = s.options.exact_target_scope == "all_scores"
    steps = 0
    while not s.is_over and steps < 400:
        if s.awaiting_deal:
            s.deal_random(rng)
            continue
        check_conservation(s)
        check_cross(s)
        if steps % 7 == 0:
            check_points(s)
        acts = s.legal_actions()
        assert acts
        s.apply(acts[rng.randrange(len(acts))])
        steps += 1
        if exact:
            assert max(s.scores) <= target
        if s.options.score_floor_zero:
            assert min(s.scores) >= 0
        if not s.is_over:
            assert max(s.scores) < target
    if s.is_over:
        result = s.result()
        assert result is not None and result.winner is not None
        assert s.scores[result.winner] >= target
        if exact:
            assert s.scores[result.winner] == target


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    steps=st.integers(0, 60),
    reserve=st.booleans(),
)
def test_hidden_tiles_never_reach_another_seat(
    seed: int, players: int, steps: int, reserve: bool
) -> None:
    rng = random.Random(seed)
    s = MerryGoRoundState(players, {"boneyard_reserve": "kelley"} if reserve else {})
    s.deal_random(rng)
    for _ in range(steps):
        if not s.in_hand:
            break
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
    if not s.in_hand:
        return
    for seat in [*range(players), None]:
        obs = s.observation(seat)
        other = s.copy()
        hidden: list[int] = []
        sizes = []
        for i in range(players):
            if i != seat:
                hidden += ids_of(other.hands[i])
                sizes.append((i, other.hands[i].bit_count()))
        rest = len(other.boneyard) - other.bpos
        hidden += other.boneyard[other.bpos :]
        rng.shuffle(hidden)
        for i, k in sizes:
            chosen, hidden = hidden[:k], hidden[k:]
            other.hands[i] = sum(1 << t for t in chosen)
        other.boneyard = other.boneyard[: other.bpos] + hidden
        assert len(hidden) == rest
        again = other.observation(seat)
        assert again == obs
        assert again.to_json() == obs.to_json()
        if seat is None:
            assert obs.hand == () and obs.legal_actions == ()


def play_game(players: int, options: dict[str, Any], seed: int) -> MerryGoRoundState:
    rng = random.Random(seed)
    state = SPEC.new_game(players, options)
    assert isinstance(state, MerryGoRoundState)
    kinds = (GreedyBot, RandomBot)
    bots = [kinds[(i + seed) % 2](random.Random(seed * 7 + i)) for i in range(players)]
    play_out(state, [b.choose for b in bots], rng)
    return state


@pytest.mark.parametrize("bundle", range(len(BUNDLES)))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_selfplay_every_bundle(players: int, bundle: int) -> None:
    for seed in range(4):
        state = play_game(players, BUNDLES[bundle], seed)
        result = state.result()
        assert result is not None
        record = state.record()
        lines = replay_lines(record)
        assert lines[-1] == {
            "type": "game_end",
            "winner": result.winner,
            "scores": list(result.scores),
        }
        # record -> replay -> the same record
        again = SPEC.from_record(record_from_json(record))
        assert again.record() == record
        assert again.result() == result


def test_unfinished_game_round_trip() -> None:
    rng = random.Random(9)
    s = MerryGoRoundState(3, {"boneyard_reserve": "kelley"}, ["A", "B", "C"])
    for _ in range(150):
        if s.is_over:
            break
        if s.awaiting_deal:
            s.deal_random(rng)
            continue
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
    record = s.record()
    again = SPEC.from_record(record_from_json(record))
    assert again.record() == record
    assert again.observation(0) == s.observation(0)


def test_copy_is_independent() -> None:
    rng = random.Random(2)
    s = MerryGoRoundState(2)
    s.deal_random(rng)
    record = s.record()
    t = s.copy()
    while t.in_hand:
        acts = t.legal_actions()
        t.apply(acts[rng.randrange(len(acts))])
    assert s.record() == record


def test_bundles_cover_every_option_value() -> None:
    import dataclasses
    import typing

    from boneyard.games.merry_go_round.options import MerryGoRoundOptions

    hints = typing.get_type_hints(MerryGoRoundOptions)
    for f in dataclasses.fields(MerryGoRoundOptions):
        tp = hints[f.name]
        if tp is bool:
            values: list[Any] = [True, False]
        elif typing.get_origin(tp) is typing.Literal:
            values = [v for v in typing.get_args(tp) if not isinstance(v, int) or v < 2]
        else:
            values = [f.default, "other"]
        seen = {f.default} | {b[f.name] for b in BUNDLES if f.name in b}
        if values == [f.default, "other"]:
            assert len(seen) >= 2, f.name
        else:
            assert set(values) <= seen, (f.name, set(values) - seen)
