"""Core values: tiles, tile sets, options, record envelopes, generic bots."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boneyard.bots import GreedyBot, RandomBot, make_bot
from boneyard.core.errors import BoneyardError, OptionError, RecordError
from boneyard.core.options import Bounds, OptionField, build_options, option_fields
from boneyard.core.records import FORMAT, parse_record, record_from_json
from boneyard.core.tiles import DOUBLE_FIFTEEN, DOUBLE_SIX, HIGHRISE_36, WILD, Tile, round5
from boneyard.games.registry import get_spec


@given(st.integers(0, 15), st.integers(0, 15))
def test_tile_text_round_trips_in_either_order(a: int, b: int) -> None:
    t = Tile.of(a, b)
    assert Tile.parse(str(t)) == t == Tile.parse(f"{b}-{a}")
    assert t.pips == a + b and t.is_double == (a == b)


def test_tile_sets() -> None:
    assert len(DOUBLE_SIX) == 28 and sum(t.is_double for t in DOUBLE_SIX) == 7
    assert len(DOUBLE_FIFTEEN) == 136 and sum(t.is_double for t in DOUBLE_FIFTEEN) == 16
    assert len(HIGHRISE_36) == 36 and HIGHRISE_36.total_pips == 252
    assert Tile.parse("W-W") in HIGHRISE_36 and Tile(WILD, WILD).pips == 14
    with pytest.raises(BoneyardError, match="not a tile of the double-6 set"):
        DOUBLE_SIX.parse("6-7")
    for bad in ("5", "a-b", "5-5-5", "-1-2", "100-1"):
        with pytest.raises(BoneyardError):
            Tile.parse(bad)


@given(st.integers(0, 10_000))
def test_round5_is_the_nearest_multiple_of_five(n: int) -> None:
    r = round5(n)
    assert r % 5 == 0 and abs(r - n) <= 2


@dataclass(frozen=True)
class ToyOptions:
    preset: Literal["a", "b"] = "a"
    colour: Literal["red", "blue"] = "red"
    flag: bool = False
    target: int = 100
    limit: int | Literal["unlimited"] = 1


def test_options_presets_overrides_and_errors() -> None:
    presets: dict[str, dict[str, Any]] = {
        "a": {"preset": "a"},
        "b": {"preset": "b", "colour": "blue"},
    }
    assert build_options(ToyOptions, {"preset": "b"}, presets).colour == "blue"
    assert build_options(ToyOptions, {"preset": "b", "colour": "red"}, presets).colour == "red"
    assert (
        build_options(ToyOptions, {"limit": "unlimited", "target": 61}, presets).limit
        == "unlimited"
    )
    with pytest.raises(OptionError, match="unknown option 'speed'"):
        build_options(ToyOptions, {"speed": 1}, presets)
    with pytest.raises(OptionError, match="option colour cannot be 'green'"):
        build_options(ToyOptions, {"colour": "green"}, presets)
    with pytest.raises(OptionError, match="option flag cannot be 1"):
        build_options(ToyOptions, {"flag": 1}, presets)
    with pytest.raises(OptionError, match="target must be a whole number"):
        build_options(ToyOptions, {"target": "x"}, presets)
    with pytest.raises(OptionError, match="preset 'c' is unknown"):
        build_options(ToyOptions, {"preset": "c"}, presets)


@dataclass(frozen=True)
class FormOptions:
    preset: Literal["a", "b"] = "a"
    colour: Literal["red", "blue"] = "red"
    flag: bool = False
    target: Annotated[int, Bounds(1, 500)] = 61
    first: Literal["random", 0, 1, 2] = "random"
    odd: str = "x"


def test_option_fields_offer_what_the_class_takes() -> None:
    """A form's fields are read from the options class: its choices, a whole number's bounds,
    what each preset changes, seats, and a game's own description of an odd field."""
    presets = {"a": {"preset": "a"}, "b": {"preset": "b", "colour": "blue", "flag": False}}
    special = {"odd": OptionField("odd", "x", ("x", "y"))}
    fields = {f.name: f for f in option_fields(FormOptions, presets, special)}
    assert list(fields) == ["colour", "flag", "target", "first", "odd"]  # no preset
    assert fields["colour"].to_json() == {
        "name": "colour",
        "default": "red",
        "choices": ["red", "blue"],
        "presets": {"b": "blue"},  # flag: b sets the default, not a change
    }
    assert fields["flag"].choices == (True, False) and not fields["flag"].presets
    assert fields["target"].to_json() == {
        "name": "target",
        "default": 61,
        "choices": [],
        "low": 1,
        "high": 500,
    }
    assert fields["first"].seats and fields["first"].to_json()["seats"] is True
    assert not fields["colour"].seats and not fields["target"].seats
    assert fields["odd"] is special["odd"]
    assert option_fields(FormOptions)[-1].choices == ("x",)  # unknown to the type: its default


def test_record_envelope_checks() -> None:
    good = {"format": FORMAT, "game": "highfive", "options": {}, "seats": ["A", "B"], "hands": []}
    assert record_from_json(good).num_seats == 2
    for change, why in (
        ({"format": "x"}, "format must be"),
        ({"game": 5}, "game 5 is unknown"),
        ({"seats": []}, "seats must be a list"),
        ({"hands": {}}, "hands must be a list"),
        ({"options": []}, "options must be an object"),
    ):
        with pytest.raises(RecordError, match=why) as info:
            record_from_json({**good, **change})
        assert info.value.to_json()["hand"] is None
    with pytest.raises(RecordError, match="not valid JSON"):
        parse_record("{")
    # which games exist is the registry's business
    with pytest.raises(BoneyardError, match=r"game 'go' is unknown \(games: highfive, merry"):
        get_spec(record_from_json({**good, "game": "go"}).game)


@dataclass(frozen=True)
class ToyView:
    legal_actions: tuple[str, ...]
    points: dict[str, int]
    weights: dict[str, int]

    def action_points(self, a: str) -> int:
        return self.points.get(a, 0)

    def action_weight(self, a: str) -> int:
        return self.weights.get(a, -1)


def test_greedy_takes_most_points_then_the_heaviest_tile() -> None:
    view = ToyView(("a", "b", "c", "draw"), {"a": 10, "b": 10, "c": 5}, {"a": 3, "b": 9, "c": 12})
    assert GreedyBot(random.Random(1)).choose(view) == "b"
    view = ToyView(("a", "draw"), {}, {"a": 0})
    assert GreedyBot(random.Random(1)).choose(view) == "a"


def test_random_bot_uses_only_legal_actions_and_is_seeded() -> None:
    view = ToyView(("a", "b", "c"), {}, {})
    picks = [RandomBot(random.Random(3)).choose(view) for _ in range(5)]
    assert len(set(picks)) == 1 and picks[0] in view.legal_actions
    with pytest.raises(BoneyardError, match="not its turn"):
        RandomBot(random.Random(1)).choose(ToyView((), {}, {}))
    with pytest.raises(BoneyardError, match="bot 'wizard' is unknown"):
        make_bot("wizard", random.Random(1))
