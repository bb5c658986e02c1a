"""What a learner sees of every game (``GameSpec.learning``), pinned: the action ids of every
legal action and the feature vector of a few seeded positions (``learning_positions.json``,
written by ``tests/games/learning_positions.py`` from the reinforcement-learning adapters as they
were before the codecs and encoders moved into the games' packages, issue 17). Each entry holds
the observation itself, so the pin does not depend on how an engine deals. No numpy here: the
games give plain ints and floats."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from boneyard.games.learning import Learning
from boneyard.games.registry import get_spec
from tests.games.golden import GAMES

POSITIONS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "learning_positions.json").read_text(encoding="utf-8")
)


def learning(game: str) -> Learning:
    found = get_spec(game).learning
    assert found is not None, f"{game} has no learning"
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_codec_and_an_encoder_and_pinned_positions(game: str) -> None:
    entries = [e for e in POSITIONS if e["game"] == game]
    assert len(entries) >= 4 and len({e["players"] for e in entries}) >= 2
    entry = entries[-1]
    codec = learning(game).codec(entry["view"])
    encode = learning(game).features(entry["players"], entry["view"])
    assert codec.size > len(entry["actions"])
    x = encode(entry["view"])
    assert len(x) > 50 and all(isinstance(v, float) and math.isfinite(v) for v in x)


@pytest.mark.parametrize(
    "entry", POSITIONS, ids=[f"{e['game']}-{e['players']}p-step{e['step']}" for e in POSITIONS]
)
def test_ids_and_vectors_of_seeded_positions_are_as_pinned(entry: dict[str, Any]) -> None:
    view = entry["view"]
    codec = learning(entry["game"]).codec(view)
    assert codec.size == entry["codec_size"]
    for action in entry["actions"]:
        ids = list(codec.tokens(action["event"], view))
        assert ids == action["ids"], action["event"]
        assert [codec.name(t) for t in ids] == action["names"]
    assert {str(t): codec.name(int(t)) for t in entry["names"]} == entry["names"]
    encode = learning(entry["game"]).features(entry["players"], view)
    assert encode(view) == entry["features"]


def test_the_pinned_positions_cover_claims_draws_and_every_seat_count() -> None:
    """The pin reaches what is easy to get wrong: a High Fives turn of two ids (a claim, then
    the play) and one with pairs claimed already, draws and passes, 2, 3 and 4 seats."""
    assert any(len(a["ids"]) == 2 for e in POSITIONS for a in e["actions"])
    assert any(e["view"].get("claimed_this_turn") for e in POSITIONS)
    assert any("draw" in a["event"] for e in POSITIONS for a in e["actions"])
    assert {e["players"] for e in POSITIONS} == {2, 3, 4}
