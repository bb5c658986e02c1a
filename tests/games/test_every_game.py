"""What every game of the registry must do the same way."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.records import dump_record
from boneyard.games.registry import get_spec
from tests.games.golden import GAMES
from tests.records.build import HERE as RECORDS
from tests.records.build import lines_text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seat", [-1, -2, 2, 5, True])
def test_observation_refuses_a_seat_that_is_not_at_the_table(game: str, seat: object) -> None:
    """A negative seat is not Python's "count from the end" (it would show the last seat's
    hand), and a seat past the table is a clear error, not an IndexError."""
    state = get_spec(game).new_game(2, {})
    state.deal_random(random.Random(1))
    with pytest.raises(BoneyardError, match=r"there is no seat .* \(seats 0-1\)"):
        state.observation(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_observation_of_every_seat_and_a_spectator(game: str) -> None:
    state = get_spec(game).new_game(2, {})
    state.deal_random(random.Random(1))
    for seat in (None, 0, 1):
        assert state.observation(seat).seat == seat


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("thing", ["5-2", None, 7, ("5-2",)], ids=repr)
def test_apply_refuses_what_is_not_an_action_of_the_game(game: str, thing: object) -> None:
    """``apply`` takes the game's action type; anything else is an illegal action in the
    game's words, in the compiled build too (whose own check would raise a TypeError), and
    changes nothing."""
    state = get_spec(game).new_game(2, {})
    state.deal_random(random.Random(1))
    before = state.record()
    words = f"^{re.escape(repr(thing))} is not a {get_spec(game).title.split(' (')[0]} action$"
    with pytest.raises(IllegalActionError, match=words):
        state.apply(thing)  # type: ignore[arg-type]
    assert state.record() == before


GOLDEN = sorted(RECORDS.glob("*/*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_golden_records_replay_byte_for_byte_as_they_were_built(path: Path) -> None:
    """Every golden record, of every game, is written one way (tests/records/build.py): the
    record as ``dump_record`` writes it, and its replay output exactly as committed."""
    text = path.read_text(encoding="utf-8")
    doc = json.loads(text)
    assert dump_record(doc) == text
    assert lines_text(doc) == path.with_suffix(".jsonl").read_text(encoding="utf-8")
