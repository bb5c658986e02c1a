"""Move generation: golden perft counts, and step-by-step agreement with the reference model."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from boneyard.games.highrise import Draw, HighriseState, Pass, Place, new_game
from tests.games.highrise.helpers import (
    T15_DEAL,
    RefGame,
    dealt,
    engine_placements,
    perft,
)

LITERAL = {"early_block": False}
"""The reference model plays the literal rule (RULES HR-10, ``early_block: false``): a hand on
a dead tower goes on with draws, then passes, which the positions below need."""


def position(players: int, options: dict[str, Any], seed: int, moves: int) -> HighriseState:
    """A seeded deal followed by ``moves`` seeded random legal actions (literal rule)."""
    state = new_game(players, {**LITERAL, **options})
    rng = random.Random(seed)
    state.deal_random(rng)
    for _ in range(moves):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def ref_perft(game: RefGame, depth: int) -> int:
    if depth == 0 or game.over:
        return 1
    legal = game.legal()
    if legal == "draw":
        actions: list[Any] = [Draw()]
    elif legal == "pass":
        actions = [Pass()]
    else:
        assert isinstance(legal, dict)
        actions = []
        for _tile, where, spacer in legal:
            (ca, fa), (cb, fb) = sorted(where)
            actions.append(Place((fa, fb), (ca, cb), spacer))
    total = 0
    for action in actions:
        child = copy.deepcopy(game)
        child.apply(action)
        total += ref_perft(child, depth - 1)
    return total


PERFT = [
    # (name, state builder, counts at depth 1, 2, 3, ...)
    ("T-HR-15 start", lambda: dealt(T15_DEAL), [9, 118, 755, 3758]),
    ("2p deal seed 1", lambda: position(2, {}, 1, 0), [29, 391, 8628]),
    ("3p 2x8 seed 2", lambda: position(3, {"base_layout": "2x8_one_row"}, 2, 0), [24, 434, 6942]),
    ("4p inherit", lambda: position(4, {"wild_on_wild_value": "inherit"}, 3, 6), [9, 97, 539]),
    ("3p one spacer", lambda: position(3, {"spacers_per_hand": 1}, 5, 10), [2, 2, 2]),
    ("must draw", lambda: position(2, {}, 3, 16), [1, 9, 34]),
    ("must place the drawn tile", lambda: position(2, {}, 1, 10), [2, 3, 3]),
    ("must pass", lambda: position(2, {}, 0, 34), [1, 1, 1, 1]),
]


@pytest.mark.parametrize(("name", "build", "counts"), PERFT, ids=[p[0] for p in PERFT])
def test_perft_golden(name: str, build: Any, counts: list[int]) -> None:
    state = build()
    assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("name", "build", "counts"), PERFT, ids=[p[0] for p in PERFT])
def test_perft_agrees_with_reference(name: str, build: Any, counts: list[int]) -> None:
    state = build()
    depth = 2 if counts[1] > 150 else 3
    assert ref_perft(RefGame(state), depth) == counts[depth - 1]


def test_perft_positions_are_what_their_names_say() -> None:
    assert isinstance(position(2, {}, 3, 16).legal_actions()[0], Draw)
    drawn = position(2, {}, 1, 10)
    assert drawn.drawn is not None
    assert {a.tile for a in drawn.legal_actions()} == {drawn.drawn}
    assert position(2, {}, 0, 34).legal_actions() == (Pass(),)
    assert position(3, {"spacers_per_hand": 1}, 5, 10).spacers_left == 0


CROSS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"base_layout": "2x8_one_row"}),
    (3, {"wild_on_wild_value": "inherit"}),
    (4, {"base_layout": "2x8_one_row", "wild_on_wild_value": "inherit"}),
    (2, {"spacers_per_hand": 2}),
    (3, {"tileset": [f"{a}-{b}" for a in range(8) for b in range(a, 8)]}),
]


@pytest.mark.parametrize(("players", "options"), CROSS)
def test_every_step_matches_the_reference(players: int, options: dict[str, Any]) -> None:
    """Whole hands of random play: at every step the engine's legal placements (cells, faces,
    spacer, level, points) equal the reference model's, and draws/passes/hand ends agree."""
    steps = 0
    for seed in range(6):
        rng = random.Random(1000 * players + seed)
        state = new_game(players, {**LITERAL, **options})
        state.deal_random(rng)
        ref = RefGame(state)
        while not state.hand_over:
            actions = state.legal_actions()
            legal = ref.legal()
            if isinstance(legal, dict):
                assert engine_placements(actions) == legal
                assert all(isinstance(a, Place) for a in actions)
            else:
                assert actions == ((Draw(),) if legal == "draw" else (Pass(),))
            action = actions[rng.randrange(len(actions))]
            state.apply(action)
            ref.apply(action)
            if isinstance(action, Place):
                assert (
                    state.events[-1].points
                    == legal[  # type: ignore[index]
                        (
                            action.tile,
                            frozenset(zip(action.cells, action.faces, strict=True)),
                            action.spacer,
                        )
                    ][1]
                )
            steps += 1
        assert ref.over
    assert steps > 100


def test_placements_are_listed_once_in_canonical_order() -> None:
    for seed in range(20):
        state = position(3, {}, seed, seed % 7)
        places = [a for a in state.legal_actions() if isinstance(a, Place)]
        keys = [(a.tile, frozenset(zip(a.cells, a.faces, strict=True))) for a in places]
        assert len(keys) == len(set(keys))
        assert all(a.cells[0] < a.cells[1] for a in places)
