"""Hypothesis properties: legal turns against an oracle written from RULES §3.2, tile
conservation, captures and claims always matching, points adding up."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.core.errors import IllegalActionError
from boneyard.core.tiles import DOUBLE_FIFTEEN, Tile
from boneyard.games.high_fives import (
    Claim,
    HighFivesOptions,
    HighFivesState,
    Turn,
    new_game,
    points,
)
from boneyard.games.high_fives.turns import claim_sets

ALL = list(DOUBLE_FIFTEEN)


def share(a: Tile, b: Tile) -> bool:
    return bool({a.lo, a.hi} & {b.lo, b.hi})


def oracle(
    hand: list[Tile], layout: list[Tile], opts: HighFivesOptions, left: set[frozenset[Tile]] | None
) -> set[tuple[Tile, Tile | None, frozenset[frozenset[Tile]]]]:
    """Every legal whole turn, straight from RULES §3.2 (brute force)."""
    pairs = [
        frozenset((a, b))
        for a, b in itertools.combinations(layout, 2)
        if share(a, b) and (left is None or frozenset((a, b)) in left)
    ]
    claims: list[frozenset[frozenset[Tile]]] = [frozenset()]
    if opts.max_claims_per_turn == 1:
        claims += [frozenset([p]) for p in pairs]
    else:
        for r in range(1, len(pairs) + 1):
            for combo in itertools.combinations(pairs, r):
                tiles = [t for p in combo for t in p]
                if len(tiles) == len(set(tiles)):
                    claims.append(frozenset(combo))
    out = set()
    for t in hand:
        for c in claims:
            taken = {x for p in c for x in p}
            matching = [x for x in layout if x not in taken and share(x, t)]
            if not matching:
                out.add((t, None, c))
                continue
            for x in matching if opts.capture_choice == "player" else matching[:1]:
                out.add((t, x, c))
            if not opts.capture_mandatory:
                out.add((t, None, c))
    return out


def oracle_ok(
    turn: Turn,
    hand: list[Tile],
    layout: list[Tile],
    opts: HighFivesOptions,
    left: set[frozenset[Tile]] | None,
) -> bool:
    """Whether one whole turn is legal, straight from RULES §3.2."""
    if turn.tile not in hand:
        return False
    if opts.max_claims_per_turn == 1 and len(turn.claim) > 1:
        return False
    taken: list[Tile] = [t for pair in turn.claim for t in pair]
    if len(taken) != len(set(taken)) or not set(taken) <= set(layout):
        return False
    for a, b in turn.claim:
        if not share(a, b) or (left is not None and frozenset((a, b)) not in left):
            return False
    matching = [x for x in layout if x not in taken and share(x, turn.tile)]
    if turn.capture is None:
        return not matching or not opts.capture_mandatory
    if turn.capture not in matching:
        return False
    return opts.capture_choice == "player" or turn.capture == matching[0]


def key(a: Turn) -> tuple[Tile, Tile | None, frozenset[frozenset[Tile]]]:
    return a.tile, a.capture, frozenset(frozenset(p) for p in a.claim)


def whole_turns(state: HighFivesState) -> Iterator[Turn]:
    """Every whole turn reachable through claim steps (``unlimited``)."""
    for a in state.legal_actions():
        if isinstance(a, Claim):
            nxt = state.copy()
            nxt.apply(a)
            yield from whole_turns(nxt)
        else:
            yield a


options_st = st.builds(
    HighFivesOptions,
    capture_mandatory=st.booleans(),
    max_claims_per_turn=st.sampled_from([1, "unlimited"]),
    claimable_pairs=st.sampled_from(["any", "left_by_player"]),
    capture_choice=st.sampled_from(["player", "first_in_row"]),
)


@st.composite
def positions(
    draw: Any,
) -> tuple[list[Tile], list[Tile], HighFivesOptions, list[tuple[Tile, Tile]]]:
    opts = draw(options_st)
    # few numbers, so that tiles match often
    numbers = draw(st.integers(min_value=2, max_value=15))
    pool = [t for t in ALL if t.hi <= numbers]
    picked = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=9, unique=True))
    split = draw(st.integers(min_value=1, max_value=min(3, len(picked) - 1)))
    hand, layout = picked[:split], picked[split:]
    left = [
        (a, b) for a, b in itertools.combinations(layout, 2) if share(a, b) and draw(st.booleans())
    ]
    return hand, layout, opts, left


def state_from_position(
    hand: list[Tile], layout: list[Tile], opts: HighFivesOptions, left: Any
) -> HighFivesState:
    spare = [t for t in ALL if t not in hand and t not in layout]
    return HighFivesState.from_position(
        layout, [hand, spare[: len(hand)]], options=opts, left_pairs=left
    )


@settings(max_examples=300, deadline=None)
@given(positions())
def test_legal_turns_match_the_oracle(pos: Any) -> None:
    hand, layout, opts, left = pos
    state = state_from_position(hand, layout, opts, left)
    allowed = None if opts.claimable_pairs == "any" else {frozenset(p) for p in left}
    expected = oracle(hand, layout, opts, allowed)
    if opts.max_claims_per_turn == 1:
        got = [key(a) for a in state.legal_actions()]  # type: ignore[arg-type]
        assert len(got) == len(set(got)), "a turn is listed twice"
        assert set(got) == expected
    else:
        got = [key(a) for a in whole_turns(state)]
        assert set(got) == expected
    # the listed steps and the whole turns all apply
    for a in state.legal_actions():
        state.copy().apply(a)


@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(min_value=0, max_value=2**32))
def test_apply_accepts_exactly_the_legal_turns(pos: Any, seed: int) -> None:
    hand, layout, opts, left = pos
    rnd = random.Random(seed)
    state = state_from_position(hand, layout, opts, left)
    allowed = None if opts.claimable_pairs == "any" else {frozenset(p) for p in left}
    before = state.observation(0)
    for _ in range(25):
        tile = rnd.choice(hand + layout[:1])
        capture = rnd.choice([None, *layout, *hand])
        pairs = [(a, b) for a, b in itertools.combinations(layout, 2)]
        n_claims = rnd.choice([0, 0, 1, 1, 2])
        claim = tuple(rnd.sample(pairs, min(n_claims, len(pairs))))
        turn = Turn(tile, capture, claim)
        trial = state.copy()
        try:
            trial.apply(turn)
        except IllegalActionError:
            assert not oracle_ok(turn, hand, layout, opts, allowed)
            assert trial.observation(0) == before  # nothing half-applied
        else:
            assert oracle_ok(turn, hand, layout, opts, allowed)
            won = turn.won_tiles()
            assert trial.scores[0] == sum(points(t) for t in won)


def test_claim_sets_are_each_listed_once() -> None:
    pairs = [(0, 1), (1, 2), (2, 3), (0, 3), (4, 5)]
    sets = claim_sets(pairs, True)
    keys = [frozenset(p) for _, p in sets]
    assert len(keys) == len(set(keys)) == 1 + 5 + 4 + 2 + 2  # empty, singles, pairs, triples
    assert claim_sets(pairs, False) == [
        (0, ()),
        *[((1 << a) | (1 << b), ((a, b),)) for a, b in pairs],
    ]


bundles = st.fixed_dictionaries(
    {
        "capture_mandatory": st.booleans(),
        "max_claims_per_turn": st.sampled_from([1, "unlimited"]),
        "claimable_pairs": st.sampled_from(["any", "left_by_player"]),
        "capture_choice": st.sampled_from(["player", "first_in_row"]),
        "remainder_timing": st.sampled_from(["with_last_deal", "short_final_deal"]),
    }
)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=8), bundles, st.integers(min_value=0, max_value=10**6))
def test_a_pass_conserves_tiles_and_scores(players: int, bundle: dict[str, Any], seed: int) -> None:
    state = new_game(players, {**bundle, "target": 1000})
    rng = random.Random(seed)
    state.deal_random(rng)
    hand_doc = state.record()["hands"][0]
    deals = [[[Tile.parse(t) for t in tiles] for tiles in deal] for deal in hand_doc["deals"]]
    extra = {Tile.parse(t) for t in hand_doc["extra"]}
    while state.current_seat is not None:
        seat = state.current_seat
        obs = state.observation(None)
        hands = [set(state.observation(s).hand) for s in range(players)]
        layout = set(obs.layout)
        piles = [set(p) for p in obs.piles]
        pending = {t for pair in obs.claimed_this_turn for t in pair}
        groups = [*hands, layout, pending, *piles]
        seen = set().union(*groups)
        assert sum(len(g) for g in groups) == len(seen)  # nobody shares a tile
        undealt = set(ALL) - seen
        assert len(undealt) == obs.undealt
        future = {t for deal in deals[state.deal_index + 1 :] for tiles in deal for t in tiles}
        if state.deal_index < state.schedule.last:
            future |= extra
        assert undealt == future
        for s in range(players):
            assert state.scores[s] == sum(points(t) for t in piles[s])
        action = rng.choice(state.legal_actions())
        before = state.scores[seat]
        layout_before = list(state.layout)
        state.apply(action)
        if isinstance(action, Claim):
            a, b = action.pair
            assert share(a, b) and a != b and {a, b} <= set(layout_before)
            continue
        for a, b in action.claim:
            assert share(a, b) and a != b
        if action.capture is not None:
            assert share(action.tile, action.capture)
            assert action.capture not in {t for p in action.claim for t in p}
        gained = state.scores[seat] - before
        assert gained == sum(points(t) for t in action.won_tiles())
    assert state.end_reason == "played_out"
    # every tile ends in a pile or on the layout; the piles score what their tiles are worth
    final = state.observation(None)
    assert len(final.layout) + sum(len(p) for p in final.piles) == 136
    assert sum(state.scores) == 100 - sum(points(t) for t in final.layout)
