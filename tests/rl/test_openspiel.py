"""The games under OpenSpiel, with OpenSpiel's own checks: ``random_sim_test`` with serialization
for every game and player count, pickling a game and a state, and
``serialize_game_and_state``/``deserialize_game_and_state`` (docs/bots.md lists them)."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import boneyard.rl.openspiel  # noqa: E402, F401 (registers the games)
from boneyard.games.registry import get_spec  # noqa: E402
from boneyard.rl.openspiel import options_text, short_name  # noqa: E402

SHORT: dict[str, dict[str, Any]] = {
    "highfive": {},
    "merry-go-round": {"target": 21},
    "high-fives": {"target": 15},
    "highrise": {"single_hand": True},
}
"""Options that keep a game short (High Five has none: its games go to 150)."""
CONFIGS = [
    (game, players)
    for game in SHORT
    for players in range(get_spec(game).min_players, get_spec(game).max_players + 1)
]


def load(game: str, players: int, options: dict[str, Any] | None = None) -> Any:
    opts = SHORT[game] if options is None else options
    return pyspiel.load_game(short_name(game), {"players": players, "options": json.dumps(opts)})


@pytest.mark.parametrize(("game", "players"), CONFIGS, ids=[f"{g}-{p}" for g, p in CONFIGS])
def test_openspiels_random_sim_test_with_serialization(game: str, players: int) -> None:
    """A whole game with random chance and actions, checking at every step the clone, the legal
    actions (sorted, empty for the others), the action strings, the chance outcomes, and at
    steps 1…9 and every power of two ``serialize_game_and_state`` and back."""
    pyspiel.random_sim_test(load(game, players), num_sims=1, serialize=True, verbose=False)


def playout(state: Any, seed: int, steps: int = 10_000) -> Any:
    """``state`` played on by a seeded random choice of chance outcomes and actions."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [o for o, _p in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game", list(SHORT))
def test_a_game_and_a_state_pickle_and_serialize(game: str) -> None:
    """Mid-deal (a chance node) and mid-hand, the state read back is the same state (its text,
    history, player, legal actions, tensors) and plays on the same; a pickled game makes the
    same games."""
    players = 3 if game != "highfive" else 2
    options = {**SHORT[game], **({"first_leader": 1} if game == "high-fives" else {})}
    original = load(game, players, options)
    assert original.get_parameters()["options"] == options_text(options)
    again = pickle.loads(pickle.dumps(original))
    assert str(again) == str(original) and again.get_type().short_name == short_name(game)
    drawing = playout(original.new_initial_state(), 1, 5)
    playing = playout(original.new_initial_state(), 1, 500)
    while playing.is_chance_node() or playing.is_terminal():  # a hand in play: back up
        playing = playout(original.new_initial_state(), 1, len(playing.history()) - 1)
    for state in (drawing, playing):
        text = pyspiel.serialize_game_and_state(original, state)
        copies = [
            pickle.loads(pickle.dumps(state)),
            pyspiel.deserialize_game_and_state(text)[1],
            again.deserialize_state(state.serialize()),
        ]
        for copy in copies:
            assert str(copy) == str(state) and copy.history() == state.history()
            assert copy.current_player() == state.current_player()
            if not state.is_chance_node():
                assert copy.legal_actions() == state.legal_actions()
                seat = state.current_player()
                assert copy.observation_tensor(seat) == state.observation_tensor(seat)
                assert len(state.observation_tensor(seat)) == original.observation_tensor_size()
            assert str(playout(copy, 7)) == str(playout(state.clone(), 7))
    fresh = [playout(g.new_initial_state(), 3) for g in (original, again)]
    assert str(fresh[0]) == str(fresh[1]) and fresh[0].returns() == fresh[1].returns()


def test_the_deal_is_explicit_chance_with_uniform_outcomes() -> None:
    game = load("highfive", 2)
    state = game.new_initial_state()
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_chance_outcomes() == 28 and state.is_chance_node()
    assert state.chance_outcomes() == [(k, 1 / 28) for k in range(28)]
    draws = 0
    while state.is_chance_node():
        n = len(state.chance_outcomes())
        state.apply_action(n - 1)
        draws += 1
    assert draws == 27 and state.current_player() in (0, 1)  # a shuffle of 28 is 27 draws
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'rng_seed'"):
        pyspiel.load_game("python_boneyard_highfive", {"rng_seed": 1})
