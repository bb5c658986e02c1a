"""RULES §3.4 vectors T-GF-03 to T-GF-08 on positions built directly, and the options of §6.3."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boneyard.core.errors import IllegalActionError
from boneyard.core.tiles import Tile
from boneyard.games.high_fives import Claim, HighFivesOptions, Turn, new_game
from tests.games.high_fives.helpers import make_position

W5 = "0-1 1-2 7-7 8-9 10-15"
NO_CLAIM: frozenset[frozenset[str]] = frozenset()


def claim(*pairs: str) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(p.split("+")) for p in pairs)


def points_of(state: Any) -> dict[tuple[str, str | None, frozenset[frozenset[str]]], int]:
    obs = state.observation(0)
    return {
        (
            str(a.tile),
            None if a.capture is None else str(a.capture),
            claim(*(f"{x}+{y}" for x, y in a.claim)),
        ): obs.action_points(a)
        for a in obs.legal_actions
    }


def play(state: Any, tile: str, capture: str | None = None, *pairs: str) -> None:
    state.apply(
        Turn(
            Tile.parse(tile),
            None if capture is None else Tile.parse(capture),
            tuple(tuple(Tile.parse(t) for t in p.split("+")) for p in pairs),  # type: ignore[misc]
        )
    )


def layout(state: Any) -> list[str]:
    return [str(t) for t in state.layout]


def test_t_gf_03_w5_turn_set() -> None:
    s = make_position(W5, "7-8")
    assert points_of(s) == {
        ("7-8", "7-7", NO_CLAIM): 4,
        ("7-8", "8-9", NO_CLAIM): 3,
        ("7-8", "7-7", claim("0-1+1-2")): 4,
        ("7-8", "8-9", claim("0-1+1-2")): 3,
    }


def test_t_gf_03_w5_line() -> None:
    s = make_position(W5, "7-8")
    play(s, "7-8", "8-9", "0-1+1-2")
    assert s.scores == [3, 0]
    assert layout(s) == ["7-7", "10-15"]
    assert sorted(str(t) for t in s.observation(1).piles[0]) == ["0-1", "1-2", "7-8", "8-9"]


def test_t_gf_03_capture_double() -> None:
    for pairs in ((), ("0-1+1-2",)):
        s = make_position(W5, "7-8")
        play(s, "7-8", "7-7", *pairs)
        assert s.scores == [4, 0]


def test_t_gf_03_non_matching_tile_with_claim() -> None:
    s = make_position(W5, "3-4")
    assert points_of(s) == {("3-4", None, NO_CLAIM): 0, ("3-4", None, claim("0-1+1-2")): 0}
    play(s, "3-4", None, "0-1+1-2")
    assert layout(s) == ["7-7", "8-9", "10-15", "3-4"]
    assert s.scores == [0, 0]


def test_t_gf_04_turn_set() -> None:
    s = make_position(W5, "2-5")
    assert points_of(s) == {("2-5", "1-2", NO_CLAIM): 0, ("2-5", None, claim("0-1+1-2")): 0}
    a = make_position(W5, "2-5")
    play(a, "2-5", "1-2")
    assert layout(a) == ["0-1", "7-7", "8-9", "10-15"]
    b = make_position(W5, "2-5")
    play(b, "2-5", None, "0-1+1-2")
    assert layout(b) == ["7-7", "8-9", "10-15", "2-5"]


def test_t_gf_04_all_three_tiles_is_illegal() -> None:
    s = make_position(W5, "2-5")
    with pytest.raises(IllegalActionError, match="a claim and a capture cannot share a tile"):
        play(s, "2-5", "1-2", "0-1+1-2")
    with pytest.raises(IllegalActionError, match="must capture it"):
        play(s, "2-5")
    assert layout(s) == W5.split() and s.current_seat == 0  # nothing half-applied


def test_t_gf_05_non_matching_play() -> None:
    s = make_position("3-4 6-9 10-12 0-13 2-2", "5-8")
    assert points_of(s) == {("5-8", None, NO_CLAIM): 0}
    play(s, "5-8")
    assert layout(s) == ["3-4", "6-9", "10-12", "0-13", "2-2", "5-8"]
    assert s.scores == [0, 0]


def test_t_gf_06_best_combination() -> None:
    s = make_position("1-4 4-4 6-9", "4-6")
    assert points_of(s) == {
        ("4-6", "1-4", NO_CLAIM): 3,
        ("4-6", "4-4", NO_CLAIM): 3,
        ("4-6", "6-9", NO_CLAIM): 5,
        ("4-6", "6-9", claim("1-4+4-4")): 7,
    }
    play(s, "4-6", "6-9", "1-4+4-4")
    assert layout(s) == [] and s.scores == [7, 0]


def test_t_gf_07_claim_and_capture_disjoint() -> None:
    s = make_position("5-10 10-10 3-12", "10-15")
    assert points_of(s) == {
        ("10-15", "10-10", NO_CLAIM): 10,
        ("10-15", "5-10", NO_CLAIM): 8,
        ("10-15", None, claim("5-10+10-10")): 8,
    }
    play(s, "10-15", None, "5-10+10-10")
    assert layout(s) == ["3-12", "10-15"] and s.scores == [8, 0]


def test_greedy_takes_the_best_turn() -> None:
    from boneyard.bots import make_bot

    s = make_position("1-4 4-4 6-9", "4-6")
    choice = make_bot("greedy", random.Random(0)).choose(s.observation(0))
    assert choice == Turn(Tile(4, 6), Tile(6, 9), ((Tile(1, 4), Tile(4, 4)),))
    s = make_position("5-10 10-10 3-12", "10-15")
    choice = make_bot("greedy", random.Random(0)).choose(s.observation(0))
    assert choice == Turn(Tile(10, 15), Tile(10, 10))


@pytest.mark.parametrize("n", range(2, 9))
@pytest.mark.parametrize("timing", ["with_last_deal", "short_final_deal"])
def test_t_gf_08_extra_tiles_join_at_the_last_deal(n: int, timing: str) -> None:
    g = new_game(n, {"remainder_timing": timing, "target": 1000})
    g.deal_random(random.Random(n))
    rng = random.Random(1)
    sched = g.schedule
    extra = list(g.record()["hands"][0]["extra"])
    assert len(extra) == sched.extra
    while g.current_seat is not None:
        obs = g.observation(None)
        shown = {str(t) for t in obs.layout}
        if g.deal_index < sched.last:
            assert not shown & set(extra)
            assert obs.extra_to_come == len(extra)
        elif obs.hand_sizes == (sched.sizes[-1],) * n:
            # the first turn of the last deal: every extra tile is on the layout, at the end
            assert set(extra) <= shown and obs.undealt == 0 and obs.extra_to_come == 0
            assert [str(t) for t in obs.layout[len(obs.layout) - len(extra) :]] == extra
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    assert g.end_reason == "played_out"


# ---------------------------------------------------------------------------- options of §6.3


def test_capture_choice_first_in_row() -> None:
    s = make_position(W5, "7-8", options=HighFivesOptions(capture_choice="first_in_row"))
    assert points_of(s) == {("7-8", "7-7", NO_CLAIM): 4, ("7-8", "7-7", claim("0-1+1-2")): 4}
    with pytest.raises(IllegalActionError, match="must capture 7-7, the first matching tile"):
        play(s, "7-8", "8-9")
    s = make_position("1-4 4-4 6-9", "4-6", options=HighFivesOptions(capture_choice="first_in_row"))
    assert points_of(s) == {("4-6", "1-4", NO_CLAIM): 3, ("4-6", "6-9", claim("1-4+4-4")): 7}
    # the row order counts: with 8-9 first it is the one taken
    s = make_position("8-9 7-7", "7-8", options=HighFivesOptions(capture_choice="first_in_row"))
    assert points_of(s) == {("7-8", "8-9", NO_CLAIM): 3}


def test_capture_optional() -> None:
    s = make_position(W5, "2-5", options=HighFivesOptions(capture_mandatory=False))
    assert points_of(s) == {
        ("2-5", "1-2", NO_CLAIM): 0,
        ("2-5", None, NO_CLAIM): 0,
        ("2-5", None, claim("0-1+1-2")): 0,
    }
    play(s, "2-5")
    assert layout(s) == [*W5.split(), "2-5"]


def test_left_by_player_pairs() -> None:
    opts = HighFivesOptions(claimable_pairs="left_by_player", capture_mandatory=False)
    s = make_position(W5, "2-5", options=opts)
    # the dealt pair 0-1+1-2 was not left by a player
    assert s.observation(0).claimable == ()
    with pytest.raises(IllegalActionError, match="not left as a pair by a player's play"):
        play(s, "2-5", None, "0-1+1-2")
    play(s, "2-5")  # leaves 2-5 next to 1-2: a pair left by seat 0
    pairs = {frozenset(map(str, p)) for p in s.observation(1).claimable}
    assert pairs == {frozenset({"1-2", "2-5"})}


def test_left_by_player_under_compulsory_capture() -> None:
    s = make_position(W5, "7-8", options=HighFivesOptions(claimable_pairs="left_by_player"))
    assert {a.claim for a in s.legal_actions()} == {()}


def test_unlimited_claims_are_steps() -> None:
    opts = HighFivesOptions(max_claims_per_turn="unlimited")
    s = make_position("0-1 1-4 2-3 3-12 7-7", "7-8", options=opts)
    acts = s.legal_actions()
    claims = [a for a in acts if isinstance(a, Claim)]
    assert [(str(a), str(b)) for a, b in (c.pair for c in claims)] == [
        ("0-1", "1-4"),
        ("2-3", "3-12"),
    ]
    assert [s.observation(0).action_points(c) for c in claims] == [1, 4]
    assert all(a.claim == () for a in acts if isinstance(a, Turn))
    s.apply(claims[0])
    assert s.current_seat == 0 and s.scores == [0, 0]
    obs = s.observation(0)
    assert [str(t) for t in obs.layout] == ["2-3", "3-12", "7-7"]
    assert [(str(a), str(b)) for a, b in obs.claimed_this_turn] == [("0-1", "1-4")]
    s.apply(next(a for a in s.legal_actions() if isinstance(a, Claim)))
    (last,) = s.legal_actions()
    assert isinstance(last, Turn) and len(last.claim) == 2
    assert last.points == 9
    assert s.observation(0).action_points(last) == 4  # 7-8 and 7-7; the pairs are already in
    s.apply(last)
    assert s.scores == [9, 0] and s.current_seat == 1 and s.layout == ()


def test_unlimited_whole_turn_in_one_action() -> None:
    opts = HighFivesOptions(max_claims_per_turn="unlimited")
    s = make_position("0-1 1-2 3-4 4-5 7-7", "7-8", options=opts)
    play(s, "7-8", "7-7", "0-1+1-2", "3-4+4-5")
    assert s.scores == [4, 0] and s.layout == ()
    s = make_position("0-1 1-2 3-4 4-5 7-7", "7-8", options=opts)
    s.apply(Claim((Tile(0, 1), Tile(1, 2))))
    with pytest.raises(IllegalActionError, match="already claimed 0-1\\+1-2"):
        play(s, "7-8", "7-7", "3-4+4-5")
    with pytest.raises(IllegalActionError, match="already claimed this turn"):
        s.apply(Claim((Tile(1, 2), Tile(0, 1))))


def test_claim_steps_need_unlimited() -> None:
    s = make_position(W5, "7-8")
    with pytest.raises(IllegalActionError, match="max_claims_per_turn 1"):
        s.apply(Claim((Tile(0, 1), Tile(1, 2))))
    with pytest.raises(IllegalActionError, match="only one pair may be claimed per turn"):
        play(s, "7-8", "7-7", "0-1+1-2", "8-9+10-15")


@pytest.mark.parametrize("seed", range(6))
def test_end_of_pass_win(seed: int) -> None:
    g = new_game(2, {"target": 10, "win_check": "end_of_pass", "first_leader": 0})
    g.deal_random(random.Random(seed))
    rng = random.Random(seed)
    while g.current_seat is not None:
        assert not g.is_over  # the target is only checked when the pass is played out
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    top = max(g.scores)
    if g.scores.count(top) == 1:
        result = g.result()
        assert result is not None and result.winner == g.scores.index(top)
    else:
        assert g.awaiting_deal


def test_end_of_pass_tie_plays_another_pass() -> None:
    opts = HighFivesOptions(target=5, win_check="end_of_pass")
    s = make_position("7-7", "7-8", options=opts, scores=(3, 7))
    s.apply(Turn(Tile(7, 8), Tile(7, 7)))  # seat 0 draws level at 7 in the last deal
    assert not s.is_over
    s.apply(s.legal_actions()[0])
    assert s.awaiting_deal and not s.is_over and s.end_reason == "played_out"


def test_immediate_win_ends_inside_the_pass() -> None:
    s = make_position("7-7 0-1", "7-8 0-2", options=HighFivesOptions(target=4))
    s.apply(Turn(Tile(7, 8), Tile(7, 7)))
    assert s.is_over and s.result().winner == 0 and s.end_reason == "game_over"  # type: ignore[union-attr]
    assert s.current_seat is None and s.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply(Turn(Tile(0, 2), Tile(0, 1)))


@pytest.mark.parametrize(
    ("rule", "leaders"),
    [("rotate_left", [2, 0, 1, 2]), ("same", [2, 2, 2, 2])],
)
def test_leader_of_each_pass(rule: str, leaders: list[int]) -> None:
    g = new_game(3, {"leader_next_pass": rule, "first_leader": 2, "target": 1000})
    rng = random.Random(3)
    seen = []
    for _ in range(4):
        g.deal_random(rng)
        seen.append(g.current_seat)
        while g.current_seat is not None:
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
    assert seen == leaders


def test_same_leader_leads_every_deal() -> None:
    g = new_game(4, {"first_leader": 1, "target": 1000})
    g.deal_random(random.Random(9))
    rng = random.Random(9)
    firsts = []
    while g.current_seat is not None:
        if all(h == g.schedule.sizes[g.deal_index] for h in g.observation(None).hand_sizes):
            firsts.append(g.current_seat)
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    assert firsts == [1] * len(g.schedule.sizes)


def test_random_first_leader_uses_the_rng() -> None:
    leaders = set()
    for seed in range(40):
        g = new_game(4)
        g.deal_random(random.Random(seed))
        leaders.add(g.current_seat)
    assert leaders == {0, 1, 2, 3}
