"""The games' fast paths give what the encoders and codecs give from an observation's JSON (every
seat's vector, every legal action's ids, in every position of random games), and batched
self-play, which reads only them, shows each game as its seat to move sees it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from librt.vecs import vec
from mypy_extensions import i64

np = pytest.importorskip("numpy")

from boneyard.core.errors import BoneyardError, IllegalActionError  # noqa: E402
from boneyard.rl.features import LIMIT  # noqa: E402
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


def random_position(table: Table, seed: int, moves: int) -> None:
    """Deal ``table`` from ``seed`` and play up to ``moves`` random legal ids (whole actions)."""
    table.reset(random.Random(seed))
    rng = random.Random(seed + 1)
    for _ in range(moves):
        if table.over:
            return
        table.step(int(rng.choice(list(np.flatnonzero(table.mask())))))


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), moves=st.integers(0, 120))
def test_a_games_reading_gives_the_codecs_ids_and_the_encoders_numbers(
    game: str, players: int, options: dict[str, Any], seed: int, moves: int
) -> None:
    """In any position, the game's compiled :class:`Reading` (what the batch calls) numbers
    every legal action as the codec numbers its record form (in a list, and written in place),
    and its raw numbers and flags make
    every seat's vector as the encoder makes it from the observation's JSON."""
    table = Table(game, players, options)
    assert table.filler is not None
    random_position(table, seed, moves)
    state = table.state
    if state.current_seat is None:
        return
    reading = table.filler.fast.reading
    legal = state.legal_actions()
    fast = {
        (p,) if isinstance(p, int) else p: a
        for p, a in zip(reading.ids(state, legal), legal, strict=True)
    }
    assert fast == json_ids(table)
    paths = reading.ids(state, legal)
    written = vec[i64]([-1] * (len(legal) + 3))
    count = reading.ids_into(state, legal, written, 3)  # (from a place: a batch's)
    if count < 0:  # (an action may take several ids: the batch lists them from ids())
        assert game == "high-fives" and any(getattr(a, "claim", ()) for a in legal)
    else:
        assert [written[i] for i in range(3, 3 + count)] == paths
    row, width, size = table.filler.row, table.filler.width, table.filler.size
    for seat in range(players):
        nums = vec[float]([0.0] * (2 * width))
        blobs = reading.read(state, seat, nums, width)  # (from a place: a batch's second row)
        places = vec[i64]([0] * (row.room + 1))
        count = row.flags_into(nums, width, blobs, places, 1, size)
        vector = np.zeros(2 * size, dtype=np.float32)
        vector[[places[i] for i in range(1, count)]] = 1.0
        vector[size + table.filler.row_at] = row.numbers(nums[width:], LIMIT)
        view = state.observation(seat).to_json()
        assert np.array_equal(vector[size:], table.features.encode(view)), seat
        assert not vector[:size].any()


def test_a_batch_makes_room_for_more_legal_ids_than_it_first_had() -> None:
    """A Highrise seat may have more legal ids than a batch first makes room for (16 a game):
    the batch's vectors grow, and self-play's arrays follow them."""
    play = SelfPlay("highrise", games=1, players=2, seed=5)
    probe = Table("highrise", 2)
    rng = np.random.default_rng(6)
    grew = False
    for _ in range(200):
        grew = grew or len(play.batch.legal_ids) > 16
        state = play.batch.states[0]
        view = state.observation(state.current_seat).to_json()
        tokens = {probe.codec.tokens(a.to_event(), view)[0] for a in state.legal_actions()}
        assert set(np.flatnonzero(play.mask[0])) == tokens
        assert sorted(play.legal_ids) == sorted(tokens)
        play.step(play.random_actions(rng))
    assert grew
