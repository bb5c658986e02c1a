"""Hypothesis properties of Highrise play: never one domino covered, no level gap over 1, spacers
within the supply and at most one per turn, score = level × value, tiles conserved, illegal
actions change nothing."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.core.errors import IllegalActionError
from boneyard.core.tiles import Tile
from boneyard.games.highrise import Draw, HighriseState, Pass, Place, new_game
from tests.games.highrise.helpers import BUNDLES, W

games = st.tuples(
    st.integers(2, 4),
    st.sampled_from(range(len(BUNDLES))),
    st.integers(0, 2**32 - 1),
)


def check_placement(state: HighriseState, a: Place) -> None:
    tower = state.tower
    geo = state.geometry
    i, j = geo.index(a.cells[0]), geo.index(a.cells[1])
    assert geo.adjacent(i, j)
    assert tower.dom[i] != tower.dom[j], "covers a single domino"
    li, lj = tower.level[i], tower.level[j]
    assert abs(li - lj) <= 1, "level gap over 1"
    if li == lj:
        assert a.spacer is None
    else:
        assert tower.spacers_left >= 1
        assert a.spacer == (a.cells[0] if li < lj else a.cells[1])
    for f, c in zip(a.faces, (i, j), strict=True):
        assert f == W or tower.face[c] == W or f == tower.face[c]
    level = max(li, lj) + 1

    def v(face: int, cell: int) -> int:
        if face != W:
            return face
        if tower.face[cell] != W:
            return tower.face[cell]
        return 7 if state.options.wild_on_wild_value == 7 else tower.wv[cell]

    assert a.level == level
    assert a.points == level * (v(a.faces[0], i) + v(a.faces[1], j))


def all_tiles(state: HighriseState) -> Counter[Tile]:
    """Every tile once: hands, pile, and every domino in the tower (basement and placed)."""
    setup = state.setup
    assert setup is not None
    tiles: Counter[Tile] = Counter()
    for s in range(state.num_seats):
        tiles.update(state.hand(s))
    tiles.update(state.pile())
    tiles.update(Tile.of(u, lo) for u, lo in setup.basement)
    tiles.update(e.action.tile for e in state.events if isinstance(e.action, Place))
    return tiles


@settings(max_examples=60, deadline=None)
@given(games)
def test_play_invariants(game: tuple[int, int, int]) -> None:
    players, bundle, seed = game
    rng = random.Random(seed)
    state = new_game(players, BUNDLES[bundle])
    state.deal_random(rng)
    supply = state.spacers_left
    everything = Counter(state.tileset)
    assert all_tiles(state) == everything
    while not state.hand_over:
        actions = state.legal_actions()
        assert actions
        places = [a for a in actions if isinstance(a, Place)]
        if places:
            assert len(places) == len(actions)
            for a in places:
                check_placement(state, a)
        else:
            assert len(actions) == 1 and isinstance(actions[0], Draw | Pass)
        before = state.spacers_left
        action = actions[rng.randrange(len(actions))]
        turn_seat = state.current_seat
        state.apply(action)
        assert before - state.spacers_left in (0, 1)
        assert before - state.spacers_left == (1 if getattr(action, "spacer", None) else 0)
        assert 0 <= state.spacers_left <= supply <= 12
        assert sum(state.tower.spacers) == supply - state.spacers_left
        if isinstance(action, Place):
            logged = state.events[-1]
            assert (logged.level, logged.points) == (action.level, action.points)
        if isinstance(action, Draw) and state.drawn is not None:
            assert state.current_seat == turn_seat  # the same seat must place the drawn tile
        assert all_tiles(state) == everything
    # a turn is one placement, a draw, a draw and the placement of the drawn tile, or a pass
    places: Counter[int] = Counter()
    spacers: Counter[int] = Counter()
    turn = -1
    previous: Any = None
    for e in state.events:
        continues = (
            previous is not None
            and isinstance(previous.action, Draw)
            and isinstance(e.action, Place)
            and previous.seat == e.seat
        )
        if not continues:
            turn += 1
        if isinstance(e.action, Place):
            places[turn] += 1
            spacers[turn] += e.action.spacer is not None
        previous = e
    assert all(n <= 1 for n in places.values())
    assert all(n <= 1 for n in spacers.values())


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32 - 1))
def test_illegal_placements_are_rejected_and_change_nothing(
    game: tuple[int, int, int], seed2: int
) -> None:
    players, bundle, seed = game
    rng = random.Random(seed)
    state = new_game(players, BUNDLES[bundle])
    state.deal_random(rng)
    probe = random.Random(seed2)
    geo = state.geometry
    cells = geo.cells
    steps = 0
    while not state.hand_over and steps < 40:
        legal = set(state.legal_actions())
        seat = state.current_seat
        assert seat is not None
        hand = state.hand(seat)
        record, obs = state.record(), state.observation(seat)
        for _ in range(15):
            tile = hand[probe.randrange(len(hand))]
            faces = (tile.lo, tile.hi) if probe.randrange(2) else (tile.hi, tile.lo)
            i = probe.randrange(geo.size)
            j = probe.randrange(geo.size)
            spacer: Any = None if probe.randrange(2) else cells[probe.choice((i, j))]
            action = Place(faces, (cells[i], cells[j]), spacer)
            flipped = Place((faces[1], faces[0]), (cells[j], cells[i]), spacer)
            if action in legal or flipped in legal:
                continue
            tower = state.tower
            single = tower.dom[i] == tower.dom[j]
            gap = abs(tower.level[i] - tower.level[j]) > 1
            try:
                state.apply(action)
            except IllegalActionError as exc:
                assert str(exc)
                if geo.adjacent(i, j) and (single or gap) and state.drawn in (None, tile):
                    assert "one domino" in str(exc) or "gap" in str(exc)
            else:
                raise AssertionError(f"{action} was accepted but is not legal")
            assert state.record() == record
            assert state.observation(seat) == obs
        for bad in (Draw(), Pass()):
            if bad not in legal:
                try:
                    state.apply(bad)
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"{bad} was accepted but is not legal")
                assert state.record() == record
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        steps += 1


@settings(max_examples=30, deadline=None)
@given(games)
def test_copy_is_independent(game: tuple[int, int, int]) -> None:
    players, bundle, seed = game
    rng = random.Random(seed)
    state = new_game(players, BUNDLES[bundle])
    state.deal_random(rng)
    for _ in range(rng.randrange(12)):
        if state.hand_over:
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    if state.hand_over:
        return
    record = state.record()
    seat = state.current_seat
    obs = state.observation(seat)
    child = state.copy()
    while not child.hand_over:
        actions = child.legal_actions()
        child.apply(actions[rng.randrange(len(actions))])
    assert state.record() == record
    assert state.observation(seat) == obs
