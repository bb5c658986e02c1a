"""Toy Line in the engine and the arena: registered by one line (conftest.py), it is played,
recorded, replayed and refereed through its spec alone, as the shipped games are."""

from __future__ import annotations

import random

import pytest

from boneyard.bots import make_bot
from boneyard.bots.arena import plan, play_game, summarise
from boneyard.core.errors import BoneyardError, IllegalActionError, RecordError
from boneyard.core.tiles import Tile
from boneyard.games import registry
from boneyard.games.registry import available_games, get_spec, play_out
from tests.toygame.rules import GAME, Pass, Play, ToyState


def fixed_hand() -> ToyState:
    """Seat 0 holds 0-1 1-2 3-4, seat 1 holds 1-3 0-4 2-4; seat 0 leads."""
    state = get_spec(GAME).new_game(2, {"target": 3})
    assert isinstance(state, ToyState)
    hands = [[Tile.parse(t) for t in h.split()] for h in ("0-1 1-2 3-4", "1-3 0-4 2-4")]
    state.deal_hand(hands)
    return state


def test_the_registry_finds_the_toy_game_by_its_one_line() -> None:
    assert GAME in available_games()
    assert GAME not in registry.SHIPPED
    assert get_spec(GAME).title == "Toy Line"
    assert get_spec(GAME).drawing.to_json() == {"board": "layout", "pick": "end", "piles": False}


def test_a_shipped_game_cannot_be_registered_again() -> None:
    with pytest.raises(BoneyardError, match="shipped"):
        registry.register("highfive", "tests.toygame")


def test_a_hand_played_by_hand() -> None:
    state = fixed_hand()
    assert [str(a.tile) for a in state.legal_actions() if isinstance(a, Play)] == [
        "0-1",
        "1-2",
        "3-4",
    ]
    state.apply(Play(Tile.parse("1-2")))
    # 1-3 fits the 1 on the left of the lead; 2-4 the 2 on its right; 0-4 neither
    assert set(state.legal_actions()) == {
        Play(Tile.parse("1-3"), Tile.parse("1-2")),
        Play(Tile.parse("2-4"), Tile.parse("1-2")),
    }
    with pytest.raises(IllegalActionError):
        state.apply(Play(Tile.parse("0-4"), Tile.parse("1-2")))
    state.apply(Play(Tile.parse("2-4"), Tile.parse("1-2")))
    assert state.observation(None).to_json()["open_ends"] == [[1, "1-2", None], [4, "2-4", None]]
    state.apply(Play(Tile.parse("3-4"), Tile.parse("2-4")))
    state.apply(Play(Tile.parse("1-3"), Tile.parse("1-2")))  # on the left: the line 3-1-2-4-3
    assert [str(t) for t in state.line] == ["1-3", "1-2", "2-4", "3-4"]
    assert state.legal_actions() == [Pass()]  # 0-1 on ends showing 3 and 3
    state.apply(Pass())
    state.apply(Pass())  # 0-4 does not fit either: blocked
    end = state.ends[-1]
    assert (end.reason, end.winner, end.award) == ("block", 0, 1 + 4 - 1)
    assert state.is_over


def test_a_domino_scores_one_and_the_pips_left() -> None:
    state = fixed_hand()
    for text, on in (("1-2", None), ("2-4", "1-2"), ("0-1", "1-2"), ("0-4", "0-1"), ("3-4", "2-4")):
        state.apply(Play(Tile.parse(text), None if on is None else Tile.parse(on)))
    assert state.ends[-1].reason == "domino"  # seat 0 played its last tile
    assert state.ends[-1].award == 1 + 4  # seat 1 holds 1-3
    assert state.is_over and state.result() is not None and state.result().winner == 0  # type: ignore[union-attr]


def test_random_games_replay_from_their_records() -> None:
    spec = get_spec(GAME)
    for seed in range(30):
        rng = random.Random(seed)
        bots = [make_bot("random", rng).choose for _ in range(2)]
        state = play_out(spec.new_game(2, {"target": 7}), bots, rng)
        record = state.record()
        again = spec.from_record(record)
        assert again.record() == record
        assert again.result() == state.result()
        lines = list(spec.replay(record))
        assert lines[-1]["type"] == "game_end"


def test_observation_json_round_trips_and_hides_the_other_hand() -> None:
    spec = get_spec(GAME)
    state = fixed_hand()
    for seat in (0, 1, None):
        doc = state.observation(seat).to_json()
        assert spec.observation_from_json(doc).to_json() == doc
    assert state.observation(1).to_json()["hand"] == ["1-3", "0-4", "2-4"]
    assert "0-1" not in str(state.observation(1).to_json())


def test_a_record_that_breaks_the_rules_is_refused() -> None:
    spec = get_spec(GAME)
    state = fixed_hand()
    state.apply(Play(Tile.parse("1-2")))
    record = state.record()
    record["hands"][0]["events"].append({"seat": 1, "play": "0-4", "on": "1-2"})
    with pytest.raises(RecordError):
        spec.from_record(record)


def test_typed_moves_and_their_words() -> None:
    spec = get_spec(GAME)
    state = fixed_hand()
    obs = state.observation(0)
    assert spec.parse_action(obs, "lead 1-2") == Play(Tile.parse("1-2"))
    assert spec.describe_action(Play(Tile.parse("1-2"))) == "lead 1-2"
    with pytest.raises(BoneyardError, match="cannot be played"):
        spec.parse_action(obs, "2-4")


@pytest.mark.parametrize("bots", [["greedy", "random"], ["random"]])
def test_the_arena_plays_it(bots: list[str]) -> None:
    tasks = plan(GAME, 2, bots, 4, seed=3, options={"target": 5}, keep_records=True)
    outcomes = [play_game(t) for t in tasks]
    assert len(outcomes) == 4
    for outcome in outcomes:
        assert outcome.record is not None
        assert max(outcome.scores) >= 5
        assert get_spec(GAME).from_record(outcome.record).result() is not None
    assert sum(f.games for f in summarise(outcomes)) >= 4
