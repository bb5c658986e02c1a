"""Hypothesis properties of the High Five engine (RULES §1): Hypothesis picks the deals and every
choice of action, so failures shrink to a short game."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boneyard.core.records import record_from_json
from boneyard.core.tiles import DOUBLE_SIX
from boneyard.games.fives.layout import NUM_TILES, TILES, ids_of
from boneyard.games.highfive import SPEC, HighFiveState
from boneyard.games.highfive.state import TARGET

OPTION_BUNDLES: list[dict[str, Any]] = [
    {"preset": "box"},
    {"preset": "pda"},
    {"preset": "box", "spinner_ends_need_both_sides": False, "lead_after_lock": "lock_winner"},
    {"preset": "box", "multiplayer_lock": "per_pair", "fourp_bonus_from": "all_opponents"},
    {"preset": "box", "domino_play_scores_first": False, "lock_tie_compare": "rounded"},
    {"preset": "box", "payment_cap": "uncapped"},
]

settings.register_profile(
    "engine", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def conserved(state: HighFiveState) -> bool:
    seen: list[int] = []
    for h in state.hands:
        seen.extend(ids_of(h))
    seen.extend(state.layout.order)
    seen.extend(state.boneyard[state.bpos :])
    return sorted(seen) == list(range(NUM_TILES))


@st.composite
def games(draw: st.DrawFn) -> tuple[HighFiveState, list[tuple[int, ...]]]:
    """A game played to its end with every deal and choice drawn by Hypothesis; returns the
    state and the sequence of (scores + chips) snapshots."""
    players = draw(st.sampled_from([2, 3, 4]))
    options = draw(st.sampled_from(OPTION_BUNDLES))
    state = HighFiveState(players, options)
    snapshots: list[tuple[int, ...]] = []
    steps = 0
    while not state.is_over and steps < 3000:
        if state.awaiting_deal:
            order = draw(st.permutations(range(NUM_TILES)))
            k = state.hand_size()
            hands = [[TILES[t] for t in order[i * k : (i + 1) * k]] for i in range(players)]
            state.deal_hand(hands, [TILES[t] for t in order[players * k :]])
            continue
        actions = state.legal_actions()
        state.apply(actions[draw(st.integers(0, len(actions) - 1))])
        steps += 1
        if not state.awaiting_deal and not state.is_over:
            assert conserved(state)
        assert state.layout.count == state.layout.brute_count()
        snapshots.append(tuple(state.scores) + tuple(state.chips))
    return state, snapshots


@settings(settings.get_profile("engine"))
@given(games())
def test_every_payment_is_a_multiple_of_5_and_capped(game: tuple[HighFiveState, Any]) -> None:
    state, snapshots = game
    assert state.is_over
    n = state.n
    prev = (0,) * n + (150,) * n
    for snap in snapshots:
        for a, b in zip(snap, prev, strict=True):
            assert (a - b) % 5 == 0
        if state.capped:
            assert all(0 <= c <= 150 for c in snap[n:])
            paid = [150 - c for c in snap[n:]]
            assert sum(snap[:n]) == sum(paid)
        prev = snap


@settings(settings.get_profile("engine"))
@given(games())
def test_the_game_ends_exactly_when_someone_reaches_150(game: tuple[HighFiveState, Any]) -> None:
    state, snapshots = game
    n = state.n
    for snap in snapshots[:-1]:
        assert max(snap[:n]) < TARGET
    result = state.result()
    assert result is not None and result.winner is not None
    assert result.scores[result.winner] >= TARGET
    if state.capped:
        assert result.scores[result.winner] == TARGET


@settings(settings.get_profile("engine"))
@given(games())
def test_record_replays_to_the_same_record(game: tuple[HighFiveState, Any]) -> None:
    state, _ = game
    record = json.loads(json.dumps(state.record()))
    lines = list(SPEC.replay(record_from_json(record)))
    result = state.result()
    assert result is not None
    assert lines[-1] == {"type": "game_end", "winner": result.winner, "scores": list(result.scores)}
    again = SPEC.from_record(record_from_json(record))
    assert again.record() == state.record()


def hidden_redealt(state: HighFiveState, seat: int, rng: random.Random) -> HighFiveState:
    """The same game as ``seat`` knows it, with every tile it cannot see moved at random."""
    other = state.copy()
    slots: list[tuple[int, int]] = []
    pool: list[int] = []
    for j, h in enumerate(other.hands):
        if j != seat:
            for t in ids_of(h):
                slots.append((j, t))
                pool.append(t)
    rest = other.boneyard[other.bpos :]
    pool.extend(rest)
    rng.shuffle(pool)
    hands = [h if j == seat else 0 for j, h in enumerate(other.hands)]
    for (j, _), t in zip(slots, pool, strict=False):
        hands[j] |= 1 << t
    other.hands = hands
    other.boneyard = other.boneyard[: other.bpos] + pool[len(slots) :]
    return other


@settings(settings.get_profile("engine"))
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.sampled_from(OPTION_BUNDLES))
def test_observation_does_not_change_when_hidden_tiles_are_redealt(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    state = HighFiveState(players, options)
    for _ in range(rng.randrange(1, 60)):
        if state.is_over:
            break
        if state.awaiting_deal:
            state.deal_random(rng)
            continue
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    for seat in [*range(players), None]:
        view = state.observation(seat)
        for _ in range(3):
            other = hidden_redealt(state, -1 if seat is None else seat, rng)
            assert other.observation(seat).to_json() == view.to_json()
            assert other.observation(seat) == view


def test_spectators_and_other_seats_never_see_a_hand() -> None:
    rng = random.Random(5)
    state = HighFiveState(3)
    state.deal_random(rng)
    for _ in range(8):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    spectator = json.dumps(state.observation(None).to_json())
    seat0 = state.observation(0).to_json()
    for t in ids_of(state.hands[1]) + ids_of(state.hands[2]) + state.boneyard[state.bpos :]:
        assert f'"{TILES[t]}"' not in spectator
        assert str(TILES[t]) not in seat0["hand"]
    assert seat0["hand"] == [str(t) for t in DOUBLE_SIX if TILES.index(t) in ids_of(state.hands[0])]
