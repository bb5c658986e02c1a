"""Rulings (RULES §1.10) under tabletop and detect enforcement, and the §6.1 options they use."""

from __future__ import annotations

from typing import Any

import pytest

from boneyard.core.errors import IllegalActionError
from boneyard.core.tiles import DOUBLE_SIX, Tile
from boneyard.games.fives.layout import pips_of_mask
from boneyard.games.highfive import DRAW, PASS, HighFiveState, Play, ReturnTile, Ruling

T = Tile.parse


def start(
    hands: list[list[str]],
    options: dict[str, Any],
    boneyard_first: list[str] | None = None,
    size: int = 7,
) -> HighFiveState:
    """A game whose first hand is dealt as given (hands filled up with spare non-doubles)."""
    used = {T(t) for h in hands for t in h} | {T(t) for t in boneyard_first or []}
    spare = [t for t in DOUBLE_SIX if t not in used and not t.is_double]
    rest = [t for t in DOUBLE_SIX if t not in used and t.is_double]
    deal = []
    for h in hands:
        tiles = [T(t) for t in h]
        while len(tiles) < size:
            tiles.append(spare.pop(0))
        deal.append(tiles)
    state = HighFiveState(len(hands), options)
    state.deal_hand(deal, [T(t) for t in boneyard_first or []] + spare + rest)
    return state


def P(tile: str, on: str | None = None, port: str | None = None, **kw: Any) -> Play:
    return Play(T(tile), T(on) if on else None, port, **kw)


TABLETOP = {"preset": "box", "enforcement": "tabletop"}
PDA_TABLETOP = {"preset": "pda", "enforcement": "tabletop"}


def test_wrong_bone_caught_is_taken_back_and_the_turn_goes_on() -> None:
    s = start([["6-6", "1-2"], ["0-1", "6-3"]], TABLETOP)
    s.apply(P("6-6"))
    s.apply(P("0-1", "6-6", "SIDE_A", touch=0))  # does not match: the table allows it
    assert s.layout.count == 12 + 1
    with pytest.raises(IllegalActionError, match="has not just placed"):
        s.apply(Ruling("WRONG_BONE", 0))
    s.apply(Ruling("WRONG_BONE", 1))
    assert s.turn == 1 and (s.hands[1] >> 1) & 1 and s.layout.count == 12
    s.apply(P("6-3", "6-6", "SIDE_A"))
    assert s.scores == [0, 15]


def test_wrong_bone_not_caught_stands_and_its_far_half_counts() -> None:
    s = start([["6-6", "1-2"], ["0-1", "6-3"]], TABLETOP)
    s.apply(P("6-6"))
    s.apply(P("0-1", "6-6", "SIDE_A", touch=0))
    s.apply(P("1-2", "0-1"))
    assert s.layout.count == 12 + 2


def test_mismatch_is_illegal_outside_tabletop() -> None:
    s = start([["6-6", "1-2"], ["0-1", "6-3"]], {"enforcement": "detect"})
    s.apply(P("6-6"))
    with pytest.raises(IllegalActionError, match="0-1 does not match an open end"):
        s.apply(P("0-1", "6-6", "SIDE_A", touch=0))


@pytest.mark.parametrize(("rule", "first_spinner_ends"), [("add", 2), ("transfer", 0)])
def test_misplaced_spinner_not_caught_becomes_a_spinner(rule: str, first_spinner_ends: int) -> None:
    s = start(
        [["6-6", "3-3", "2-3"], ["6-3", "1-3", "0-1"]], {**TABLETOP, "misplaced_spinner": rule}
    )
    s.apply(P("6-6"))
    s.apply(P("6-3", "6-6", "SIDE_A"))
    s.apply(P("3-3", "6-3"))  # a plain double
    s.apply(P("1-3", "3-3", "END_A"))  # played on the end of a plain double
    assert sorted(s.layout.spinners) == sorted(
        [DOUBLE_SIX.index(T("6-6")), DOUBLE_SIX.index(T("3-3"))]
    )
    first = DOUBLE_SIX.index(T("6-6"))
    assert sum(1 for p in s.layout.open if p[1] == first and p[2] >= 5) == first_spinner_ends
    s.apply(P("2-3", "3-3", "SIDE_B"))
    assert s.layout.count == s.layout.brute_count()


def test_misplaced_spinner_caught_is_taken_back() -> None:
    s = start([["6-6", "3-3"], ["6-3", "1-3"]], TABLETOP)
    s.apply(P("6-6"))
    s.apply(P("6-3", "6-6", "SIDE_A"))
    s.apply(P("3-3", "6-3"))
    s.apply(P("1-3", "3-3", "END_A"))
    s.apply(Ruling("MISPLACED_SPINNER", 1))
    assert s.turn == 1 and len(s.layout.spinners) == 1 and s.layout.count == 12 + 6


def test_tabletop_bogus_draw_needs_a_ruling_box_and_pda() -> None:
    for options, final in ((TABLETOP, None), (PDA_TABLETOP, [150, 100])):
        s = start([["6-6", "1-2"], ["6-3", "0-1"]], options)
        s.apply(P("6-6"))
        with pytest.raises(IllegalActionError, match="has not drawn"):
            s.apply(Ruling("BOGUS_DRAW", 1))
        s.apply(DRAW)  # drew while holding 6-3: nothing happens until the referee rules
        assert not s.awaiting_deal and not s.is_over
        s.apply(Ruling("BOGUS_DRAW", 1))
        if final is None:
            assert s.awaiting_deal and s.scores[0] == 50 and s.advantage == 0
        else:
            assert s.is_over and s.scores == final


def test_bogus_pass_detect_box_and_pda_commissioner() -> None:
    s = start([["6-6", "1-2"], ["6-3", "0-1"]], {"enforcement": "detect"}, size=7)
    s.bpos = len(s.boneyard)  # an empty boneyard
    s.apply(P("6-6"))
    s.apply(PASS)
    assert s.awaiting_deal and s.scores[0] == 50
    s = start(
        [["6-6", "1-2"], ["6-3", "0-1"]],
        {"preset": "pda", "enforcement": "detect", "pda_bogus_pass": "commissioner"},
    )
    s.bpos = len(s.boneyard)
    s.apply(P("6-6"))
    s.apply(PASS)  # referred to the Commissioner: no automatic penalty
    assert s.turn == 0 and s.scores == [0, 0]


def test_detect_grace_second_draw_is_bogus() -> None:
    s = start([["6-6", "1-2"], ["6-3", "0-1"]], {"enforcement": "detect"})
    s.apply(P("6-6"))
    s.apply(DRAW)
    assert ReturnTile() in s.legal_actions()
    s.apply(DRAW)
    assert s.awaiting_deal and s.advantage == 0 and s.scores[0] == 50


def test_grace_return_puts_the_tile_back_where_asked() -> None:
    s = start([["6-6", "1-2"], ["6-3", "0-1"]], {"enforcement": "detect"}, ["2-4"])
    s.apply(P("6-6"))
    s.apply(DRAW)
    s.apply(ReturnTile(0))
    assert s.boneyard[s.bpos] == DOUBLE_SIX.index(T("2-4"))
    with pytest.raises(IllegalActionError, match="no wrongly drawn tile"):
        s.apply(ReturnTile())


def test_detect_grace_once_per_turn_a_draw_after_the_return_is_bogus() -> None:
    """The box grace rule lets a player put back one wrongly drawn tile; it cannot be used to
    look through the boneyard (RULES §1.10: "the offender must then play")."""
    s = start([["6-6", "1-2"], ["6-3", "0-1"]], {"enforcement": "detect"})
    s.apply(P("6-6"))
    s.apply(DRAW)
    s.apply(ReturnTile())
    assert s.turn == 1 and not s.awaiting_deal
    assert ReturnTile() not in s.legal_actions()
    s.apply(DRAW)  # a second unnecessary draw in the same turn: no grace now
    assert s.awaiting_deal and s.advantage == 0 and s.scores[0] == 50
    doc = s.record()
    kinds = [
        next(k for k in ("play", "draw", "ruling") if k in e) for e in doc["hands"][0]["events"]
    ]
    assert kinds == ["play", "draw", "ruling", "draw"]
    # a record that cycles draw / return (a look through the boneyard) does not replay
    from tests.games.highfive.helpers import replay_error

    doc["hands"][0]["events"].append({"seat": 1, "ruling": "DRAW_RETRACTED"})
    err = replay_error(doc)
    assert (err.hand, err.event) == (0, 4) and "the hand is over" in err.why


def test_detect_grace_returns_again_in_a_later_turn() -> None:
    s = start([["6-6", "6-4", "1-2"], ["6-3", "3-4", "0-1"]], {"enforcement": "detect"})
    s.apply(P("6-6"))
    s.apply(DRAW)
    s.apply(ReturnTile())
    s.apply(P("6-3", "6-6", "SIDE_A"))
    s.apply(P("6-4", "6-6", "SIDE_B"))
    s.apply(DRAW)  # seat 1 again holds a playable tile (3-4): a new turn, a new grace
    assert ReturnTile() in s.legal_actions()


def test_grace_return_goes_back_at_a_random_place_that_the_record_keeps() -> None:
    """The returned tile is "shuffled back into the boneyard": not always last (which would let
    the next draw show a new tile every time). The place is written in the record, so the game
    replays; it is drawn from the hidden boneyard order, so nobody can foresee it."""
    from tests.games.highfive.helpers import replay_state

    places = set()
    for first in ("2-4", "1-3", "0-2", "2-5", "1-4", "3-5", "0-4", "2-3"):
        s = start([["6-6", "1-2"], ["6-3", "0-1"]], {"enforcement": "detect"}, [first])
        s.apply(P("6-6"))
        s.apply(DRAW)
        left = len(s.boneyard) - s.bpos
        s.apply(ReturnTile())
        event = s.record()["hands"][0]["events"][-1]
        assert event["ruling"] == "DRAW_RETRACTED" and 0 <= event["position"] <= left
        assert s.boneyard[s.bpos + event["position"]] == DOUBLE_SIX.index(T(first))
        places.add(event["position"])
        again = replay_state(s.record())
        assert again.boneyard == s.boneyard and again.bpos == s.bpos
    assert len(places) > 1 and places != {left}


def test_tabletop_a_second_return_in_a_turn_is_a_bogus_draw() -> None:
    s = start([["6-6", "1-2"], ["6-3", "0-1"]], TABLETOP)
    s.apply(P("6-6"))
    s.apply(DRAW)
    s.apply(Ruling("DRAW_RETRACTED", 1))
    assert not s.awaiting_deal
    s.apply(DRAW)
    s.apply(Ruling("DRAW_RETRACTED", 1))  # the grace is used up: this return is bogus
    assert s.awaiting_deal and s.advantage == 0 and s.scores[0] == 50


def test_bogus_beneficiary_all_opponents_pays_each_in_turn_order() -> None:
    s = start(
        [["6-6", "1-2"], ["6-3", "0-1"], ["2-4", "2-5"]],
        {"enforcement": "detect", "bogus_grace": False, "bogus_beneficiary": "all_opponents"},
        size=6,
    )
    s.apply(P("6-6"))
    s.apply(DRAW)
    assert s.scores == [50, 0, 50] and s.chips[1] == 50 and s.advantage == 2


def test_hidden_tiles_and_forfeit_and_commissioner() -> None:
    s = start([["6-6", "1-2"], ["6-3", "0-1"]], PDA_TABLETOP)
    s.apply(Ruling("HIDDEN_TILES", 1))
    assert s.is_over and s.scores == [150, 100]
    s = start([["6-6", "1-2"], ["6-3", "0-1"]], TABLETOP)
    award = max(50, 5 * ((pips_of_mask(s.hands[1]) + 2) // 5))
    s.apply(Ruling("HIDDEN_TILES", 1))
    assert s.scores == [award, 0] and s.advantage == 0
    s = start([["6-6", "1-2"], ["6-3", "0-1"]], TABLETOP)
    s.apply(Ruling("ACCIDENTAL_EXPOSURE", 0))
    s.apply(Ruling("COMMISSIONER", 0, adjust=(10, -10)))
    assert s.scores == [10, -10] and not s.is_over
    s.apply(Ruling("FORFEIT", 0))
    result = s.result()
    assert result is not None and result.winner == 1 and result.reason == "forfeit"


def test_false_domino_box_takes_the_tile_back_pda_ends_the_game() -> None:
    box = start([["6-6", "1-2"], ["0-1"]], TABLETOP, size=1)
    box.apply(P("6-6"))
    box.apply(P("0-1", "6-6", "SIDE_A", touch=0))  # the last tile, and it does not match
    assert box.turn == 1 and box.hands[1] and not box.awaiting_deal and box.scores == [0, 0]
    pda = start([["6-6", "1-2"], ["0-1"]], PDA_TABLETOP, size=1)
    pda.apply(P("6-6"))
    pda.apply(P("0-1", "6-6", "SIDE_A", touch=0))
    assert pda.is_over and pda.scores == [150, 100]


def test_require_score_call_loses_an_uncalled_score() -> None:
    s = start(
        [["5-5", "1-2"], ["0-5", "6-3"]], {"enforcement": "detect", "require_score_call": True}
    )
    s.apply(P("5-5", call=10))
    s.apply(P("0-5", "5-5", "SIDE_A"))  # count 10, not called
    assert s.scores == [10, 0]


def test_zero_count_scores_option_changes_nothing_in_chips() -> None:
    s = start(
        [["0-0", "1-2"], ["0-5", "3-4"]],
        {"zero_count_scores": True},
        ["1-1", "2-2", "3-3", "4-4", "5-5", "6-6"],
    )
    s.apply(P("0-0"))
    assert s.scores == [0, 0] and s.chips == [150, 150]


def test_misdeal_scope_first_hand_only_and_box_redeal() -> None:
    over = [["6-6", "5-6", "0-4", "5-5", "0-1", "0-2", "1-2", "2-2"], ["3-6"]]
    s = start(over, {**TABLETOP, "box_misdeal_fix": "redeal"}, size=7)
    assert s.misdealt == {0: 1}
    s.apply(Ruling("MISDEAL_OVER", 0))
    assert s.awaiting_deal and s.scores == [0, 50] and s.advantage is None


def test_rulings_are_refused_under_strict() -> None:
    s = start([["6-6", "1-2"], ["6-3", "0-1"]], {})
    with pytest.raises(IllegalActionError, match="only under detect or tabletop"):
        s.apply(Ruling("FORFEIT", 0))


@pytest.mark.parametrize(
    ("rule", "holder", "expected"),
    [
        ("big6", None, None),
        ("lock_winner", None, 1),
        ("last_domino_holder", None, None),
        ("last_domino_holder", 2, 2),
    ],
)
def test_lead_after_lock_options(rule: str, holder: int | None, expected: int | None) -> None:
    from boneyard.core.records import record_from_json
    from boneyard.games.highfive import SPEC
    from boneyard.games.walk import positions
    from tests.games.highfive.helpers import load

    doc = load("t-h5-09a")  # a 3-player lock won by seat 1
    doc["options"] = {"preset": "box", "lead_after_lock": rule}
    rec = record_from_json(doc)
    state = SPEC.reader.new_state(rec)
    state.domino_holder = holder
    for _ in positions(SPEC.reader, rec, state):
        pass
    assert state.ends[-1].reason == "block" and state.ends[-1].winner == 1
    assert state.advantage == expected
