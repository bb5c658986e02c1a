"""What the reinforcement-learning adapters see of every game, pinned: the action ids of every
legal action and the feature vector of a few seeded positions (``learning_positions.json``,
captured from the adapters as they were when the codecs and encoders moved into the games'
packages; issue 17). Each entry holds the observation itself, so the pin does not depend on how
an engine deals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

from boneyard.rl.codec import codec_for
from boneyard.rl.features import features_for

POSITIONS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "learning_positions.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize(
    "entry", POSITIONS, ids=[f"{e['game']}-{e['players']}p-step{e['step']}" for e in POSITIONS]
)
def test_ids_and_vectors_of_seeded_positions_are_as_pinned(entry: dict[str, Any]) -> None:
    view = entry["view"]
    codec = codec_for(entry["game"], view)
    assert codec.size == entry["codec_size"]
    for action in entry["actions"]:
        ids = list(codec.tokens(action["event"], view))
        assert ids == action["ids"], action["event"]
        assert [codec.name(t) for t in ids] == action["names"]
    assert {str(t): codec.name(int(t)) for t in entry["names"]} == entry["names"]
    encoder = features_for(entry["game"], entry["players"], view)
    assert encoder.encode_list(view) == entry["features"]
