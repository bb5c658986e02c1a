"""The games' fast paths give what the encoders and codecs give from an observation's JSON (every
seat's vector, every legal action's ids, in every position of random games), and batched
self-play, which reads only them, shows each game as its seat to move sees it."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from boneyard.core.errors import BoneyardError, IllegalActionError  # noqa: E402
from boneyard.rl.table import Table  # noqa: E402
from boneyard.rl.vector import SelfPlay  # noqa: E402

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("highfive", 2, {}),
    ("highfive", 4, {"preset": "pda"}),
    ("highfive", 3, {"enforcement": "detect"}),
    ("merry-go-round", 2, {"target": 31}),
    ("merry-go-round", 4, {"spinner_count": "alone_only", "target": 31}),
    ("high-fives", 2, {"target": 30}),
    ("high-fives", 3, {"target": 30, "max_claims_per_turn": "unlimited"}),
    ("high-fives", 5, {"claimable_pairs": "left_by_player", "max_claims_per_turn": "unlimited"}),
    ("highrise", 2, {"single_hand": True}),
    ("highrise", 3, {"base_layout": "2x8_one_row", "wild_on_wild_value": "inherit"}),
]
IDS = [f"{g}-{n}-{len(o)}" for g, n, o in CASES]


def json_ids(table: Table) -> dict[tuple[int, ...], Any]:
    """The legal actions by the codec's ids of their record forms (the slow path)."""
    state = table.state
    view = state.observation(state.current_seat).to_json()
    return {table.codec.tokens(a.to_event(), view): a for a in state.legal_actions()}


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_the_fast_path_is_the_encoder_and_the_codec(
    game: str, players: int, options: dict[str, Any]
) -> None:
    table = Table(game, players, options)
    assert table.filler is not None
    table.reset(random.Random(1))
    rng = random.Random(2)
    positions = 0
    while not table.over and positions < 400:
        state = table.state
        for seat in range(players):
            fast = table.observe(seat)
            slow = table.features.encode(state.observation(seat).to_json())
            assert fast.dtype == slow.dtype and np.array_equal(fast, slow), seat
        assert table.paths == json_ids(table)
        table.step(int(rng.choice(list(np.flatnonzero(table.mask())))))
        positions += 1
    for seat in range(players):  # after the game too (or between hands)
        slow = table.features.encode(table.state.observation(seat).to_json())
        assert np.array_equal(table.observe(seat), slow)


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_batched_self_play_shows_each_game_as_its_seat_to_move_sees_it(
    game: str, players: int, options: dict[str, Any]
) -> None:
    play = SelfPlay(game, games=5, players=players, options=options, seed=3)
    probe = Table(game, players, options)
    rng = np.random.default_rng(4)
    steps = ended = 0
    while steps < 150 or not ended:
        obs, mask, seats = play.observe()
        for k, state in enumerate(play.batch.states):
            seat = state.current_seat
            assert seats[k] == seat
            view = state.observation(seat).to_json()
            assert np.array_equal(obs[k], probe.features.encode(view))
            if not play.batch.prefix[k]:  # (a High Fives claim half given: its next ids)
                tokens = [probe.codec.tokens(a.to_event(), view) for a in state.legal_actions()]
                first = {path[0] for path in tokens}
                assert set(np.flatnonzero(mask[k])) == first
        assert set(zip(play.legal_rows, play.legal_ids, strict=True)) == set(
            zip(*np.nonzero(mask), strict=True)
        )
        rewards, done = play.step(play.random_actions(rng))
        assert np.allclose(rewards.sum(axis=1), 0, atol=1e-6) and np.all(rewards[~done] == 0)
        ended += int(done.sum())
        steps += 1
        assert steps < 20_000
    assert play.finished == ended


def test_an_illegal_id_is_refused_and_no_game_moves() -> None:
    play = SelfPlay("highfive", games=3, seed=1)
    before = [s.record() for s in play.batch.states]
    actions = play.random_actions(np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(play.mask[1] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"game 1: action id {actions[1]} is not legal"):
        play.step(actions)
    assert [s.record() for s in play.batch.states] == before
    with pytest.raises(BoneyardError, match=r"give one action id per game \(3\), not 2"):
        play.step(actions[:2])
