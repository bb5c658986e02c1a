"""Highrise options: exactly the RULES §6.4 keys (plus target and single_hand), validated."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from boneyard.core.errors import OptionError
from boneyard.core.tiles import HIGHRISE_36
from boneyard.games.highrise import SPEC, HighriseOptions, build_highrise_options, new_game

D7 = [f"{a}-{b}" for a in range(8) for b in range(a, 8)]


def test_keys_and_defaults() -> None:
    o = build_highrise_options({})
    assert {f.name: getattr(o, f.name) for f in dataclasses.fields(o)} == {
        "tileset": "d6_plus_wild_suit",
        "base_layout": "4x4_two_rows",
        "wild_on_wild_value": 7,
        "losers_subtract_on_going_out": False,
        "allow_negative": True,
        "tie_at_target": "play_another_hand",
        "first_player": "youngest",
        "spacers_per_hand": 12,
        "early_block": True,
        "target": 300,
        "single_hand": False,
    }
    assert o.tile_set() is HIGHRISE_36


@pytest.mark.parametrize(
    "raw",
    [
        {"tileset": D7},
        {"base_layout": "2x8_one_row"},
        {"wild_on_wild_value": "inherit"},
        {"losers_subtract_on_going_out": True},
        {"allow_negative": False},
        {"tie_at_target": "shared_win"},
        {"first_player": "random"},
        {"first_player": 3},
        {"spacers_per_hand": 0},
        {"spacers_per_hand": "carry_over"},
        {"early_block": False},
        {"target": 150},
        {"single_hand": True},
    ],
)
def test_every_value_round_trips(raw: dict[str, Any]) -> None:
    o = build_highrise_options(raw)
    assert o.to_json() == {**build_highrise_options({}).to_json(), **raw}
    assert build_highrise_options(o.to_json()) == o


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"enforcement": "strict"}, "unknown option 'enforcement'"),
        ({"highrise.target": 5}, "unknown option 'highrise.target'"),
        ({"tileset": "double-six"}, "option tileset cannot be 'double-six'"),
        ({"tileset": D7[:35]}, "option tileset must list 36 tiles, not 35"),
        ({"tileset": [*D7[:35], "0-0"]}, "option tileset lists a tile twice"),
        ({"tileset": [*D7[:35], "x-1"]}, "option tileset: 'x' is not a domino number"),
        ({"base_layout": "4x4"}, "option base_layout cannot be '4x4'"),
        ({"wild_on_wild_value": 8}, "option wild_on_wild_value cannot be 8"),
        ({"wild_on_wild_value": "7"}, "option wild_on_wild_value cannot be '7'"),
        ({"allow_negative": "yes"}, "option allow_negative cannot be 'yes'"),
        ({"first_player": "oldest"}, "option first_player cannot be 'oldest'"),
        ({"first_player": 4}, "option first_player cannot be 4"),
        ({"spacers_per_hand": -1}, "option spacers_per_hand cannot be -1"),
        ({"spacers_per_hand": "refill"}, "option spacers_per_hand cannot be 'refill'"),
        ({"target": 0}, "option target must be from 1 to 3000, not 0"),
        ({"target": 10**9}, "option target must be from 1 to 3000, not 1000000000"),
        ({"spacers_per_hand": 37}, "option spacers_per_hand cannot be 37"),
        ({"target": "300"}, "option target must be a whole number"),
        ({"early_block": 1}, "option early_block cannot be 1"),
    ],
)
def test_bad_options(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError) as info:
        build_highrise_options(raw)
    assert message in str(info.value)


def test_players_and_first_player_seat() -> None:
    with pytest.raises(OptionError, match="2 to 4 players, not 5"):
        new_game(5)
    with pytest.raises(OptionError, match="2 to 4 players, not 1"):
        new_game(1)
    with pytest.raises(OptionError, match="first_player cannot be seat 2 with 2 players"):
        new_game(2, {"first_player": 2})
    assert new_game(3, {"first_player": 2}).next_starter() == 2


def test_options_are_frozen() -> None:
    o = HighriseOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.target = 5  # type: ignore[misc]


def test_early_block_is_the_default() -> None:
    """RULES HR-10 (revised): a dead tower ends the hand; ``false`` keeps the literal mode."""
    assert build_highrise_options({}).early_block is True
    assert new_game(2).options.early_block is True
    assert build_highrise_options({"early_block": False}).early_block is False


def test_new_records_carry_every_resolved_option() -> None:
    """A record states the rules it was played under in full, so that a default changing later
    cannot change how it replays."""
    doc = new_game(2, {"target": 150}).record()
    o = build_highrise_options({"target": 150})
    assert doc["options"] == {
        f.name: list(v) if isinstance(v := getattr(o, f.name), tuple) else v
        for f in dataclasses.fields(o)
    }
    assert doc["options"]["early_block"] is True
    assert build_highrise_options(doc["options"]) == o


def test_an_older_record_without_early_block_replays_in_the_literal_mode() -> None:
    """Records written before the default changed have no ``early_block``: they were played in
    the literal mode and replay in it (selfplay-2p-default draws on a dead tower at event 38)."""
    import json

    from boneyard.core.errors import RecordError
    from boneyard.core.records import record_from_json
    from tests.games.highrise.helpers import RECORDS, load

    doc = load("selfplay-2p-default")
    assert "early_block" not in doc["options"]
    expected = [
        json.loads(x) for x in (RECORDS / "selfplay-2p-default.jsonl").read_text().splitlines()
    ]
    assert list(SPEC.replay(record_from_json(doc))) == expected
    assert SPEC.from_record(record_from_json(doc)).options.early_block is False
    doc["options"]["early_block"] = True
    with pytest.raises(RecordError) as info:
        list(SPEC.replay(record_from_json(doc)))
    assert (info.value.hand, info.value.event) == (0, 38)
