"""The reinforcement-learning adapters: action ids, observation tensors, PettingZoo's api_test
for every game and batched self-play (OpenSpiel: test_openspiel.py)."""

from __future__ import annotations

import dataclasses
import gc
import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import boneyard.rl.codec  # noqa: E402
from boneyard.core.errors import BoneyardError, IllegalActionError  # noqa: E402
from boneyard.games.registry import get_spec  # noqa: E402
from boneyard.rl.pettingzoo import env  # noqa: E402
from boneyard.rl.table import Table  # noqa: E402
from boneyard.rl.vector import SelfPlay  # noqa: E402

GAMES = [
    ("highfive", 2, {}),
    ("highfive", 4, {"preset": "pda"}),
    ("merry-go-round", 3, {}),
    ("high-fives", 2, {"target": 20}),
    ("high-fives", 3, {"target": 20, "max_claims_per_turn": "unlimited"}),
    ("highrise", 2, {"single_hand": True}),
    ("highrise", 3, {"single_hand": True, "base_layout": "2x8_one_row"}),
]
KNOWN = ("Observation is not a NumPy array", "Observation space for each agent probably")
"""PettingZoo's warnings for a dict observation (action masks), which its own classic games
avoid only by being on its list."""


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_pettingzoo_api_test(game: str, players: int, options: dict[str, object]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game, players, options), num_cycles=5000)
    other = [str(w.message) for w in caught if not str(w.message).startswith(KNOWN)]
    assert other == []


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_every_legal_action_has_its_own_ids_and_a_whole_game_sums_to_zero(
    game: str, players: int, options: dict[str, object]
) -> None:
    table = Table(game, players, options)
    table.reset(random.Random(3))
    rng = random.Random(4)
    steps = 0
    while not table.over:
        seat = table.seat
        assert seat is not None
        mask = table.mask()
        assert mask.shape == (table.codec.size,) and mask.dtype == np.int8
        first = {path[0] for path in table.paths}
        assert set(np.flatnonzero(mask)) == first and mask.sum() >= 1
        assert len(table.paths) == len(table.state.legal_actions())
        x = table.observe(seat)
        assert x.shape == (table.features.size,) and x.dtype == np.float32
        assert np.all(np.abs(x) <= 10)
        token = int(rng.choice(list(np.flatnonzero(mask))))
        assert table.codec.name(token)
        table.step(token)
        steps += 1
    rewards = table.rewards()
    assert abs(sum(rewards)) < 1e-9 and max(rewards) > 0
    assert steps > 5


def test_an_illegal_id_is_refused_and_changes_nothing() -> None:
    table = Table("highfive", 2)
    table.reset(random.Random(1))
    before = table.state.record()
    illegal = int(np.flatnonzero(table.mask() == 0)[0])
    with pytest.raises(ValueError, match=f"action id {illegal} is not legal now"):
        table.step(illegal)
    assert table.state.record() == before


def test_a_game_the_adapters_cannot_play_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(BoneyardError, match=r"game 'chess' is unknown \(games: highfive, "):
        env("chess")
    bare = dataclasses.replace(get_spec("highrise"), learning=None)
    monkeypatch.setattr(boneyard.rl.codec, "get_spec", lambda name: bare)
    with pytest.raises(
        BoneyardError, match=r"^the reinforcement-learning adapters cannot play Highrise yet$"
    ):
        Table("highrise", 2)


def test_batched_self_play_plays_many_games_at_once() -> None:
    play = SelfPlay("highfive", games=16, seed=2)
    rng = np.random.default_rng(0)
    totals = np.zeros(2)
    while play.finished < 20:
        obs, mask, seats = play.observe()
        assert set(seats) <= {0, 1}
        assert obs.shape == (16, play.filler.size) and mask.shape == (16, play.actions)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        rewards, done = play.step(actions)
        assert np.allclose(rewards.sum(axis=1), 0)
        assert np.all(rewards[~done] == 0)
        totals += rewards.sum(axis=0)
    assert play.finished >= 20 and abs(totals.sum()) < 1e-6


@pytest.mark.parametrize("collecting", [True, False])
def test_a_step_walks_its_young_objects_at_once_and_keeps_the_callers_collector_setting(
    collecting: bool,
) -> None:
    """A batch's step ends with a young collection where the caller's collector is on (the
    objects it left are walked in cache), and none where the caller turned it off."""
    play = SelfPlay("merry-go-round", games=8, seed=4)
    rng = np.random.default_rng(4)
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    was = gc.isenabled()
    gc.callbacks.append(note)
    try:
        (gc.enable if collecting else gc.disable)()
        for _ in range(5):
            seen.clear()
            play.step(play.random_actions(rng))
            assert gc.isenabled() is collecting
            assert (0 in seen) is collecting and (seen == []) is not collecting
    finally:
        gc.callbacks.remove(note)
        (gc.enable if was else gc.disable)()


def test_the_environment_refuses_an_id_outside_the_space_or_not_legal() -> None:
    game = env("highfive", 2)
    game.reset(seed=3)
    observation, *_ = game.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    for token, says in [(99_999, "outside the action space"), (illegal, "is not legal now")]:
        with pytest.raises(IllegalActionError, match=says):
            game.step(token)
    assert np.array_equal(game.last()[0]["action_mask"], observation["action_mask"])


def test_every_shipped_game_has_its_row() -> None:
    """The table of games above has a row for every game the registry ships (a new game
    without one would be left out of these tests)."""
    from boneyard.games.registry import SHIPPED

    assert {g for g, _n, _o in GAMES} == set(SHIPPED)
