"""Tile points (T-GF-01, T-GF-02), the deal schedule (RULES §3.1, T-GF-08) and the options."""

from __future__ import annotations

import pytest

from boneyard.core.errors import BoneyardError, OptionError
from boneyard.core.tiles import DOUBLE_FIFTEEN, Tile
from boneyard.games.high_fives import SPEC, HighFivesOptions, new_game, points, schedule
from boneyard.games.high_fives.rules import build_high_fives_options


@pytest.mark.parametrize(
    ("tile", "expected"),
    [
        # T-GF-01, direct from S3
        ("1-4", 1),
        ("3-7", 2),
        ("5-15", 4),
        ("1-1", 1),
        ("14-14", 1),
        # T-GF-01, derived
        ("5-5", 3),
        ("10-10", 5),
        ("15-15", 7),
        ("0-0", 1),
        ("2-9", 0),
        ("7-8", 3),
    ],
)
def test_t_gf_01_points(tile: str, expected: int) -> None:
    assert points(Tile.parse(tile)) == expected


def test_t_gf_02_the_set_is_worth_100() -> None:
    fives = sum((t.lo + t.hi) // 5 for t in DOUBLE_FIFTEEN if (t.lo + t.hi) % 5 == 0)
    doubles = sum(1 for t in DOUBLE_FIFTEEN if t.is_double)
    assert (fives, doubles) == (84, 16)
    assert sum(points(t) for t in DOUBLE_FIFTEEN) == 100
    assert len(DOUBLE_FIFTEEN) == 136


def test_s3_scoring_table() -> None:
    table = {
        1: "0-5 1-4 2-3",
        2: "0-10 1-9 2-8 3-7 4-6",
        3: "0-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8",
        4: "5-15 6-14 7-13 8-12 9-11",
        5: "11-14 12-13 10-15",
    }
    for value, names in table.items():
        for name in names.split():
            assert points(Tile.parse(name)) == value, name
    # S3 lists 5-5 (2), 10-10 (4) and 15-15 (6) by pips; each double adds one (RULES §7 item 9)
    assert [points(Tile.parse(t)) for t in ("5-5", "10-10", "15-15")] == [3, 5, 7]


# RULES §3.1 table: deals in a pass, tiles added face up at the last deal, turns per player
SCHEDULE = {
    2: (13, 1, 65),
    3: (8, 11, 40),
    4: (6, 11, 30),
    5: (6, 11, 24),
    6: (5, 11, 20),
    7: (5, 19, 16),
    8: (5, 3, 16),
}


@pytest.mark.parametrize("n", sorted(SCHEDULE))
def test_deal_schedule_table(n: int) -> None:
    s = schedule(n)
    assert (len(s.sizes), s.extra, s.turns_per_seat) == SCHEDULE[n]
    first = 5 if n <= 4 else 4
    following = 5 if n <= 4 else 4 if n <= 6 else 3
    assert s.sizes == (first,) + (following,) * (len(s.sizes) - 1)
    assert n * sum(s.sizes) + 5 + s.extra == 136
    # a deal is the last when fewer than n x following tiles remain after it
    assert s.extra < n * following


def test_t_gf_08_two_players_13_deals_one_extra() -> None:
    s = schedule(2)
    assert s.sizes == (5,) * 13 and s.extra == 1 and s.last == 12


@pytest.mark.parametrize(
    ("n", "short", "extra"),
    [(2, None, 1), (3, 3, 2), (4, 2, 3), (5, 2, 1), (6, 1, 5), (7, 2, 5), (8, None, 3)],
)
def test_short_final_deal(n: int, short: int | None, extra: int) -> None:
    base = schedule(n)
    s = schedule(n, "short_final_deal")
    if short is None:
        assert s == base
    else:
        assert s.sizes == (*base.sizes, short)
    assert s.extra == extra
    assert n * sum(s.sizes) + 5 + s.extra == 136


def test_default_options() -> None:
    o = HighFivesOptions()
    assert o == build_high_fives_options({}, 2)
    assert (o.capture_mandatory, o.max_claims_per_turn, o.claimable_pairs) == (True, 1, "any")
    assert (o.capture_choice, o.remainder_timing) == ("player", "with_last_deal")
    assert (o.target, o.win_check, o.leader_next_pass, o.first_leader) == (
        100,
        "immediate",
        "rotate_left",
        "random",
    )
    assert o.to_json() == {}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"preset": "box"}, "unknown option 'preset'"),
        ({"enforcement": "strict"}, "unknown option 'enforcement'"),
        ({"capture_mandatory": "yes"}, "option capture_mandatory cannot be 'yes'"),
        ({"max_claims_per_turn": 2}, "option max_claims_per_turn cannot be 2"),
        ({"max_claims_per_turn": True}, "option max_claims_per_turn cannot be True"),
        ({"claimable_pairs": "some"}, "option claimable_pairs cannot be 'some'"),
        ({"capture_choice": "last_in_row"}, "option capture_choice cannot be"),
        ({"remainder_timing": "never"}, "option remainder_timing cannot be"),
        ({"target": "100"}, "option target must be a whole number"),
        ({"target": 0}, "option target must be from 1 to 1000, not 0"),
        ({"target": 10**9}, "option target must be from 1 to 1000, not 1000000000"),
        ({"win_check": "sometimes"}, "option win_check cannot be"),
        ({"leader_next_pass": "rotate_right"}, "option leader_next_pass cannot be"),
        ({"first_leader": 8}, "option first_leader cannot be 8"),
        ({"first_leader": 3}, "option first_leader is seat 3, but 3 players sit at seats 0-2"),
    ],
)
def test_bad_options(raw: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(")):
        new_game(3, raw)


def test_every_option_value_is_accepted() -> None:
    values = {
        "capture_mandatory": [True, False],
        "max_claims_per_turn": [1, "unlimited"],
        "claimable_pairs": ["any", "left_by_player"],
        "capture_choice": ["player", "first_in_row"],
        "remainder_timing": ["with_last_deal", "short_final_deal"],
        "target": [1, 100, 250],
        "win_check": ["immediate", "end_of_pass"],
        "leader_next_pass": ["rotate_left", "same"],
        "first_leader": ["random", 0, 7],
    }
    for key, vals in values.items():
        for v in vals:
            opts = new_game(8, {key: v}).options
            assert getattr(opts, key) == v
            assert build_high_fives_options(opts.to_json(), 8) == opts


@pytest.mark.parametrize("players", [0, 1, 9])
def test_player_count(players: int) -> None:
    with pytest.raises(BoneyardError, match="High Fives is for 2 to 8 players"):
        new_game(players)


def test_spec() -> None:
    from boneyard.games.registry import get_spec

    assert get_spec("high-fives") is SPEC
    assert (SPEC.name, SPEC.min_players, SPEC.max_players) == ("high-fives", 2, 8)
    assert new_game(2).game == "high-fives"
