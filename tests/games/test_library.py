"""The library's edges in every game: a spec reads a record in any form (the state's own JSON,
its text, a parsed record)."""

from __future__ import annotations

import json
import random

import pytest

from boneyard.bots import make_bot
from boneyard.core.errors import RecordError
from boneyard.core.records import parse_record
from boneyard.games.registry import available_games, get_spec, play_out

SHORT = {"high-fives": {"target": 20}, "highrise": {"single_hand": True}}


@pytest.mark.parametrize("game", available_games())
def test_a_spec_reads_a_record_as_json_text_or_object(game: str) -> None:
    spec = get_spec(game)
    state = spec.new_game(2, SHORT.get(game, {}))
    play_out(state, [make_bot("greedy", random.Random(k)).choose for k in (1, 2)], random.Random(3))
    doc = state.record()
    text = json.dumps(doc)
    walks = [
        [(p.hand, p.event, p.action) for p in spec.positions(form)]
        for form in (doc, text, parse_record(text))
    ]
    assert walks[0] == walks[1] == walks[2] and len(walks[0]) > 2
    assert spec.from_record(doc).record() == doc
    assert list(spec.replay(text)) == list(spec.replay(parse_record(text)))
    with pytest.raises(RecordError, match="seats must be a list of player names"):
        list(spec.positions({**doc, "seats": "Ann"}))
