"""Turn and hand rules of RULES §4.4 beyond the vectors: the literal block, early block, floors,
the drawn tile, dealing."""

from __future__ import annotations

import random

import pytest

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.records import record_from_json
from boneyard.games.highrise import SPEC, Draw, HandSetup, Pass, new_game
from tests.games.highrise.helpers import T15_DEAL, dealt, load, make_setup, place


def t17_literal(**options: object) -> tuple[list[dict], object]:
    """T-HR-17's dead tower under the literal rule: everyone must keep drawing."""
    doc = load("t-hr-17")
    doc["options"] = {"spacers_per_hand": 0, **options}
    state = SPEC.from_record(record_from_json(doc))
    assert not state.hand_over and state.legal_actions() == (Draw(),)
    while not state.hand_over:
        (action,) = state.legal_actions()
        state.apply(action)
    doc = state.record()
    return list(SPEC.replay(record_from_json(doc))), state


def test_literal_block_draws_the_whole_pile_then_everyone_passes() -> None:
    lines, _state = t17_literal()
    kinds = [x["type"] for x in lines if "event" in x][8:]
    assert kinds == ["draw"] * 18 + ["pass", "pass"]
    assert [x["seat"] for x in lines if x.get("type") == "draw"] == [0, 1] * 9
    end = lines[-1]
    assert end["reason"] == "block" and end["winner"] is None and end["award"] == 0
    assert end["awards"] == [-70, -66]  # W-W and 1-2 plus the nine tiles each drew
    assert end["scores"] == [55 - 70, 29 - 66]  # 55 and 29 before the block


def test_allow_negative_false_floors_at_zero() -> None:
    lines, _ = t17_literal(allow_negative=False)
    assert lines[-1]["awards"] == [-55, -29] and lines[-1]["scores"] == [0, 0]


def test_early_block_ends_at_once_and_leaves_the_pile() -> None:
    state = SPEC.from_record(record_from_json(load("t-hr-17")))
    assert state.hand_over and len(state.pile()) == 18
    assert [len(state.hand(s)) for s in range(2)] == [1, 1]


def test_early_block_right_after_the_deal() -> None:
    # a custom set whose basement numbers (10-15) no hand tile (0-6, no wilds) can ever match
    high = ["10-11", "10-12", "10-13", "10-14", "10-15", "11-12", "11-13", "11-14"]
    low = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    options = {"tileset": low + high, "early_block": True}
    state = new_game(2, options)
    state.deal_hand(
        make_setup([low[:5], low[5:10]], basement=high, pile=low[10:], tileset=state.tileset)
    )
    assert state.hand_over and state.events == []
    end = state.last_hand_end
    assert end is not None and end.reason == "block" and end.awards == (-10, -20)
    doc = state.record()
    assert doc["hands"][0]["events"] == []
    assert list(SPEC.replay(record_from_json(doc))) == [
        {
            "hand": 0,
            "type": "hand_end",
            "reason": "block",
            "winner": None,
            "award": 0,
            "awards": [-10, -20],
            "scores": [-10, -20],
        }
    ]
    # under the literal rule the same deal is played out: draws, then passes
    literal = new_game(2, {"tileset": low + high, "early_block": False})
    literal.deal_hand(
        make_setup([low[:5], low[5:10]], basement=high, pile=low[10:], tileset=literal.tileset)
    )
    assert literal.legal_actions() == (Draw(),)


def test_pass_only_when_the_pile_is_empty_and_nothing_fits() -> None:
    state = dealt(T15_DEAL)
    with pytest.raises(IllegalActionError, match="cannot pass: it can play"):
        state.apply(Pass())
    with pytest.raises(IllegalActionError, match="must place a tile instead of drawing"):
        state.apply(Draw())


def test_drawn_tile_that_fits_must_be_placed_by_the_same_seat() -> None:
    state = SPEC.from_record(record_from_json(load("t-hr-16")))
    doc = state.record()
    doc["hands"][0]["events"] = doc["hands"][0]["events"][:11]  # up to the draw of W-5
    state = SPEC.from_record(record_from_json(doc))
    assert state.current_seat == 1 and str(state.drawn) == "W-5"
    assert {str(a.tile) for a in state.legal_actions()} == {"W-5"}
    with pytest.raises(IllegalActionError, match="has drawn already"):
        state.apply(Draw())
    with pytest.raises(IllegalActionError, match="must place the tile it drew"):
        state.apply(Pass())


def test_actions_when_nobody_is_to_act() -> None:
    state = new_game(2)
    assert state.awaiting_deal and state.current_seat is None and state.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="must be dealt first"):
        state.apply(Pass())
    state.deal_hand(make_setup(T15_DEAL))
    with pytest.raises(BoneyardError, match="not over"):
        state.deal_random(random.Random(1))
    with pytest.raises(IllegalActionError, match="not a Highrise action"):
        state.apply("5-2")
    with pytest.raises(IllegalActionError, match="not a tile of the Highrise set"):
        state.apply(place("7-2", (0, 0), (0, 1)))


def test_deal_checks_the_setup() -> None:
    state = new_game(2)
    good = make_setup(T15_DEAL)
    bad = [
        (HandSetup(5, good.basement, good.deal, good.pile), "starter must be a seat"),
        (HandSetup(0, good.basement[:7], good.deal, good.pile), "holds 8 dominoes, not 7"),
        (HandSetup(0, good.basement, good.deal[:1], good.pile), "tiles to 2 seats, not 1"),
        (HandSetup(0, good.basement, good.deal, good.pile[1:]), "leaves out"),
        (HandSetup(0, good.basement, good.deal, good.pile + good.pile[:1]), "dealt twice"),
    ]
    for setup, why in bad:
        with pytest.raises(BoneyardError, match=why):
            state.deal_hand(setup)
        assert state.awaiting_deal and state.hand_number == -1
    state.deal_hand(good)
    assert state.hand_number == 0


def test_deal_random_is_a_valid_deal() -> None:
    for players in (2, 3, 4):
        for layout in ("4x4_two_rows", "2x8_one_row"):
            state = new_game(players, {"base_layout": layout})
            state.deal_random(random.Random(players))
            assert [len(state.hand(s)) for s in range(players)] == [5] * players
            assert len(state.pile()) == {2: 18, 3: 13, 4: 8}[players]
            assert state.tower.level == [0] * 16 and state.spacers_left == 12


def test_basement_slots() -> None:
    from boneyard.games.highrise import GEOMETRIES

    four = GEOMETRIES["4x4_two_rows"]
    assert [(four.cells[u], four.cells[lo]) for u, lo in four.slots] == [
        ((0, 0), (1, 0)),
        ((0, 1), (1, 1)),
        ((0, 2), (1, 2)),
        ((0, 3), (1, 3)),
        ((2, 0), (3, 0)),
        ((2, 1), (3, 1)),
        ((2, 2), (3, 2)),
        ((2, 3), (3, 3)),
    ]
    eight = GEOMETRIES["2x8_one_row"]
    assert [(eight.cells[u], eight.cells[lo]) for u, lo in eight.slots] == [
        ((0, k), (1, k)) for k in range(8)
    ]
    assert len(four.pairs) == 24 and len(eight.pairs) == 22
