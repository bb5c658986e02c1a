"""Merry-Go-Round rules through the state API: the set, the cross, turns, options (RULES §2)."""

from __future__ import annotations

import copy
import json

import pytest

from boneyard.core.errors import BoneyardError, IllegalActionError, OptionError
from boneyard.core.tiles import DOUBLE_SIX
from boneyard.games.merry_go_round import (
    DRAW,
    PASS,
    SPEC,
    MerryGoRoundState,
    Play,
    parse_action,
)
from boneyard.games.merry_go_round.options import MerryGoRoundOptions
from tests.games.merry_go_round.helpers import (
    T,
    hand_ends,
    load,
    replay_lines,
    replay_partial,
    state_with,
)

P1 = ["5-5", "5-6", "3-5"]
P2 = ["0-5", "4-5", "0-2"]


def play(s: MerryGoRoundState, tile: str, on: str | None = None, port: str | None = None) -> None:
    s.apply(Play(T(tile), T(on) if on else None, port))


def ports(s: MerryGoRoundState) -> set[tuple[str | None, str | None]]:
    return {(str(a.on), a.port) for a in s.legal_actions() if isinstance(a, Play)}


def spinner_ports(s: MerryGoRoundState) -> set[str]:
    return {p for _v, _t, p in s.observation(0).available_ends}


# --- the cross (T-MG-01) ---------------------------------------------------------------------


def test_t_mg_01_only_cross_ports_are_available() -> None:
    s = state_with([P1, P2])
    play(s, "5-5")
    assert spinner_ports(s) == {"SIDE_A", "SIDE_B"}
    play(s, "0-5", "5-5", "SIDE_A")
    assert s.count == 10 and s.scores == [2, 2]
    assert spinner_ports(s) == {"SIDE_B"}
    with pytest.raises(IllegalActionError, match="both sides of the set 5-5 come first"):
        play(s, "5-6", "0-5")
    play(s, "5-6", "5-5", "SIDE_B")
    assert s.count == 6 and spinner_ports(s) == {"END_A", "END_B"}
    assert s.stage() == "cross_ends"
    play(s, "4-5", "5-5", "END_A")
    assert spinner_ports(s) == {"END_B"}
    before = copy.deepcopy(s.record())
    with pytest.raises(IllegalActionError, match="0-3 cannot go on 0-5 yet: the ends of the set"):
        play(s, "0-3", "0-5")
    assert s.record() == before  # nothing half-applied
    play(s, "3-5", "5-5", "END_B")
    assert s.count == 13 and s.stage() == "open"
    assert {p for _v, _t, p in s.observation(1).available_ends} == {"OUT"}
    play(s, "0-2", "0-5")
    assert s.count == 15 and s.scores == [2, 7]


def test_the_rejected_play_of_t_mg_01_names_the_rule() -> None:
    s = state_with([P1, P2])
    play(s, "5-5")
    play(s, "0-5", "5-5", "SIDE_A")
    s.turn = 1  # seat 1 holds 0-2: it may still not play it on the 0
    with pytest.raises(IllegalActionError, match=r"0-2 cannot go on 0-5 yet: both sides"):
        play(s, "0-2", "0-5")


def test_any_order_cross() -> None:
    s = state_with([P1, P2], options={"cross_order": "any_order"})
    play(s, "5-5")
    assert spinner_ports(s) == {"SIDE_A", "SIDE_B", "END_A", "END_B"}
    assert s.stage() == "cross"
    play(s, "0-5", "5-5", "END_B")
    assert spinner_ports(s) == {"SIDE_A", "SIDE_B", "END_A"}
    play(s, "5-6", "5-5", "END_A")
    play(s, "4-5", "5-5", "SIDE_B")
    with pytest.raises(IllegalActionError, match="all four edges of the set 5-5 come first"):
        play(s, "0-3", "0-5")
    play(s, "3-5", "5-5", "SIDE_A")
    assert s.stage() == "open"


def test_port_defaults_to_the_first_available() -> None:
    s = state_with([P1, P2])
    play(s, "5-5")
    s.apply(Play(T("0-5"), T("5-5")))
    assert s.record()["hands"][0]["events"][1] == {
        "seat": 1,
        "play": "0-5",
        "on": "5-5",
        "port": "SIDE_A",
    }


def test_spinner_count_alone_only() -> None:
    fives = state_with([P1, P2])
    alone = state_with([P1, P2], options={"spinner_count": "alone_only"})
    for s in (fives, alone):
        play(s, "5-5")
        assert s.count == 10
        play(s, "0-5", "5-5", "SIDE_A")
    assert fives.count == 10 and fives.scores == [2, 2]
    assert alone.count == 0 and alone.scores == [2, 0]
    for s in (fives, alone):
        play(s, "5-6", "5-5", "SIDE_B")
        assert s.count == 6


# --- the set (T-MG-09, MG-3, MG-4) -------------------------------------------------------------

NO_DOUBLES = ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2"]


def test_t_mg_09_setter_draws_until_a_double() -> None:
    s = state_with([NO_DOUBLES, ["1-3", "1-4", "1-5", "1-6", "2-3", "2-4", "2-5"]], ["3-4", "1-1"])
    assert s.stage() == "set"
    assert s.legal_actions() == [DRAW]
    with pytest.raises(IllegalActionError, match="no double and must draw"):
        s.apply(PASS)
    with pytest.raises(IllegalActionError, match="must be a double"):
        play(s, "0-1")
    s.apply(DRAW)
    assert s.legal_actions() == [DRAW] and T("3-4") in s.observation(0).hand
    s.apply(DRAW)
    assert [str(a) for a in s.legal_actions()] == ["set 1-1"]
    with pytest.raises(IllegalActionError, match="must set a double: it holds 1-1"):
        s.apply(DRAW)
    play(s, "1-1")
    assert s.count == 2 and s.scores == [0, 0]
    assert s.current_seat == 1
    assert {a.port for a in s.legal_actions() if isinstance(a, Play)} == {"SIDE_A", "SIDE_B"}
    assert DRAW in s.legal_actions()


def test_set_double_choice() -> None:
    deal = [["2-2", "5-5", "0-1"], ["6-6"]]
    any_ = state_with(deal)
    assert sorted(str(a) for a in any_.legal_actions()) == ["set 2-2", "set 5-5"]
    high = state_with(deal, options={"set_double_choice": "highest"})
    assert [str(a) for a in high.legal_actions()] == ["set 5-5"]
    with pytest.raises(IllegalActionError, match="the highest double held: 5-5"):
        play(high, "2-2")


def test_four_player_pass_left_and_redeal() -> None:
    record = load("t-mg-set-pass-left")
    lines = replay_lines(record)
    assert lines[2]["seat"] == 3 and lines[2]["type"] == "lead"
    redeal = load("t-mg-set-redeal")
    assert hand_ends(replay_lines(redeal))[0]["reason"] == "redeal"


def test_pass_left_obligation_with_boneyard_exhausted() -> None:
    # Seat 0 holds no double; the boneyard (2 players: 14 tiles) holds no double either,
    # so seat 0 draws it all, then passes, and seat 1 sets.
    doubles = ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"]
    singles = [str(t) for t in DOUBLE_SIX if not t.is_double]
    seat0 = singles[:7]
    seat1 = doubles
    bone = singles[7:]
    s = MerryGoRoundState(2, {"first_setter": 0})
    s.deal_hand([[T(t) for t in seat0], [T(t) for t in seat1]], [T(t) for t in bone])
    for _ in range(14):
        s.apply(DRAW)
    assert s.legal_actions() == [PASS]
    s.apply(PASS)
    assert s.current_seat == 1 and len(s.legal_actions()) == 7
    play(s, "6-6")
    assert s.set_by == 1 and s.current_seat == 0


# --- turns: draw, pass, forced play, reserve (§2.4) --------------------------------------------


def test_draw_is_optional_unless_forced() -> None:
    s = state_with([P1, P2])
    play(s, "5-5")
    assert DRAW in s.legal_actions()
    s.apply(DRAW)
    assert s.current_seat == 1  # the same seat decides again
    with pytest.raises(IllegalActionError, match="must play: it holds"):
        s.apply(PASS)
    forced = state_with([P1, P2], options={"forced_play": True})
    play(forced, "5-5")
    assert DRAW not in forced.legal_actions()
    with pytest.raises(IllegalActionError, match="seat 1 must play: it holds"):
        forced.apply(DRAW)


def test_cannot_pass_while_tiles_can_be_drawn() -> None:
    s = state_with([["6-6"], ["0-1", "0-2", "0-3", "0-4", "0-5", "1-2", "1-3"]])
    play(s, "6-6")
    assert s.legal_actions() == [DRAW]
    with pytest.raises(IllegalActionError, match="boneyard still has tiles"):
        s.apply(PASS)


@pytest.mark.parametrize(("players", "reserve"), [(2, 2), (3, 1)])
def test_kelley_reserve(players: int, reserve: int) -> None:
    s = MerryGoRoundState(players, {"boneyard_reserve": "kelley", "first_setter": 0})
    import random

    s.deal_random(random.Random(4))
    bone = len(s.boneyard)
    assert bone == 28 - 7 * players
    assert s.drawable == bone - reserve
    assert s.observation(0).reserve == reserve
    s.bpos = s.bend  # as if every drawable tile were drawn
    assert DRAW not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="only the reserve is left"):
        s.apply(DRAW)


def test_observation_points_and_weights() -> None:
    s = state_with([P1, P2])
    obs = s.observation(0)
    (set55,) = obs.legal_actions
    assert obs.action_points(set55) == 2 and obs.action_weight(set55) == 10
    play(s, "5-5")
    obs = s.observation(1)
    pts = {str(a): obs.action_points(a) for a in obs.legal_actions}
    assert pts["0-5 on 5-5 SIDE_A"] == 2 and pts["4-5 on 5-5 SIDE_A"] == 0
    assert obs.action_weight(DRAW) == -1 and obs.action_points(DRAW) == 0
    # At 60, two points would pass 61: the greedy view says 0.
    s.set_side_scores([s.side_scores[0], 60])
    obs = s.observation(1)
    assert obs.action_points(next(a for a in obs.legal_actions if str(a).startswith("0-5"))) == 0


# --- exactly 61 (T-MG-08) and its options -------------------------------------------------------


def test_set_reaching_61_wins_and_passing_it_scores_nothing() -> None:
    s = state_with([P1, P2])
    s.set_side_scores([59, s.side_scores[1]])
    play(s, "5-5")
    assert s.is_over and s.result() is not None and s.result().winner == 0  # type: ignore[union-attr]
    assert s.ends[-1].reason == "game_over"
    bust = state_with([P1, P2])
    bust.set_side_scores([60, bust.side_scores[1]])
    play(bust, "5-5")
    assert not bust.is_over and bust.scores == [60, 0]
    assert bust.events[-1].points == 0 and bust.events[-1].count == 10
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply(DRAW)


def test_lower_target() -> None:
    s = state_with([P1, P2], options={"target": 2})
    play(s, "5-5")
    assert s.is_over


def first_award_at_target(lines: list[dict]) -> dict:
    """Under ``play_scores_only`` the first hand-end award that takes a side to 61 or more
    is credited in full and ends the game."""
    for k, line in enumerate(lines):
        at_end = line.get("type") == "hand_end" and line["reason"] in ("domino", "block")
        if at_end and max(line["scores"]) >= 61:
            assert lines[k + 1]["type"] == "game_end"
            assert len(lines) == k + 2
            return line
    raise AssertionError("no award reached the target")


@pytest.mark.parametrize("name", ["t-mg-08-domino", "t-mg-block-bust"])
def test_award_scope_option(name: str) -> None:
    record = load(name)
    default_end = hand_ends(replay_lines(record))[-1]
    assert default_end["award"] == 0 and max(default_end["scores"]) < 61
    record["options"] = {"exact_target_scope": "play_scores_only"}
    lines, fault = replay_partial(record)
    end = first_award_at_target(lines)
    if fault is not None:  # the game now ends before the record does
        assert fault.why == "the game is already over: no further hand may follow"
    before = lines[lines.index(end) - 1]["scores"]
    changed = [i for i in range(2) if end["scores"][i] != before[i]]
    assert changed and all(end["scores"][i] >= 61 for i in changed)
    assert max(end["scores"]) > 61  # past the target, which the default rule forbids
    assert lines[-1]["winner"] in changed
    # Plays still obey the bust rule under this option: no play line passes 61.
    assert all(max(x["scores"]) <= 61 for x in lines if "count" in x)


def test_partner_pips_and_floor_options() -> None:
    record = load("t-mg-07-net-negative")
    record["options"] = {"partner_pips": "ignore"}
    assert hand_ends(replay_lines(record))[-1]["award"] == 2
    floor = load("t-mg-07-floor")
    floor["options"] = {"score_floor_zero": False}
    end = hand_ends(replay_lines(floor))[-1]
    assert end["award"] == -2 and end["scores"][end["winner"]] == -1


def test_block_methods_on_one_blocked_hand() -> None:
    record = load("t-mg-05")  # pips 4 / 10 / 17 with the Kelley reserve
    for method, lowest_gets in (("lowest_takes_all", 5), ("lowest_minus_own", 5)):
        record["options"] = {"boneyard_reserve": "kelley", "block_scoring": method}
        end = hand_ends(replay_lines(record))[-1]
        assert end["award"] == lowest_gets
        assert sorted(end["awards"]) == [0, 0, lowest_gets]


def test_block_vs_all_others() -> None:
    from tests.games.merry_go_round.helpers import final_pips

    record = load("t-mg-block-partners")
    record["options"] = {"block_vs": "all_others"}
    pips = final_pips(record, 0)
    end = hand_ends(replay_lines(record))[-1]
    each = []
    for i, mine in enumerate(pips):
        diff = sum(p - mine for j, p in enumerate(pips) if j != i and p > mine)
        each.append(5 * ((diff + 2) // 5) // 5)
    side = [each[0] + each[2], each[1] + each[3]]
    assert end["awards"] == [side[0], side[1], side[0], side[1]]


def test_individual_four_player_game() -> None:
    s = MerryGoRoundState(4, {"partnerships": False})
    assert s.side_of == (0, 1, 2, 3)
    assert MerryGoRoundState(4).side_of == (0, 1, 0, 1)


# --- setters of later hands (MG-2) ------------------------------------------------------------


@pytest.mark.parametrize("rule", ["hand_winner", "rotate_left"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_next_setter(rule: str, players: int) -> None:
    from tests.games.merry_go_round.helpers import random_game

    for seed in range(6):
        s = random_game(players, {"next_setter": rule}, seed)
        record = s.record()
        lines = replay_lines(record)
        ends = hand_ends(lines)
        for h in range(1, len(record["hands"])):
            prev = record["hands"][h - 1]
            end = ends[h - 1]
            set_by = (
                next(ev["seat"] for ev in prev["events"] if "play" in ev)
                if end["reason"] != "redeal"
                else None
            )
            if end["reason"] == "redeal":
                want = prev["events"][0]["seat"]
            elif rule == "hand_winner" and end["winner"] is not None:
                want = end["winner"]
            else:
                assert set_by is not None
                want = (set_by + 1) % players
            assert record["hands"][h]["events"][0]["seat"] == want


# --- options, text ----------------------------------------------------------------------------


def test_options_errors() -> None:
    with pytest.raises(OptionError, match=r"unknown option 'mgr\.cross_order'"):
        MerryGoRoundOptions.build({"mgr.cross_order": "any_order"}, 2)
    with pytest.raises(OptionError, match="cross_order cannot be 'sides'"):
        MerryGoRoundOptions.build({"cross_order": "sides"}, 2)
    with pytest.raises(OptionError, match="enforcement cannot be 'detect'"):
        MerryGoRoundOptions.build({"enforcement": "detect"}, 2)
    with pytest.raises(OptionError, match="target must be from 1 to 500, not 0"):
        MerryGoRoundOptions.build({"target": 0}, 2)
    with pytest.raises(OptionError, match="target must be from 1 to 500, not 1000000000"):
        MerryGoRoundOptions.build({"target": 10**9}, 2)
    with pytest.raises(BoneyardError, match="2, 3 or 4 players"):
        SPEC.new_game(5, None)


def test_describe_parse_render() -> None:
    s = state_with([P1, P2])
    s.names = ["Ann", "Bob"]
    obs = s.observation(0)
    assert parse_action(obs, "5-5") == Play(T("5-5"))
    with pytest.raises(BoneyardError, match="the set must be a double"):
        parse_action(obs, "5-6")
    with pytest.raises(BoneyardError, match="you do not hold 0-5"):
        parse_action(obs, "0-5")
    with pytest.raises(BoneyardError, match="draw is not allowed now"):
        parse_action(obs, "draw")
    s.apply(parse_action(obs, "5-5"))
    obs1 = s.observation(1)
    assert parse_action(obs1, "d") == DRAW
    assert parse_action(obs1, "0-5 on 5-5 side_b").port == "SIDE_B"
    assert parse_action(obs1, "0-5 5").port == "SIDE_A"
    assert SPEC.describe_action(parse_action(obs1, "0-5 sb")) == ("0-5 on the set 5-5, side b")
    assert SPEC.describe_action(DRAW) == "draw a tile"
    assert SPEC.describe_action(PASS) == "pass"
    text = SPEC.render(obs1, ["Ann", "Bob"])
    assert "Merry-Go-Round" in text and "Count: [bold]10[/]" in text
    assert "both sides of the set come first" in text
    assert "┌5┐" in text  # the set drawn across the line
    assert "Your hand" in text
    spectator = SPEC.render(s.observation(None), ["Ann", "Bob"])
    assert "Your hand" not in spectator
    json.dumps(obs1.to_json())
    four = MerryGoRoundState(4, {"first_setter": 0})
    import random

    four.deal_random(random.Random(1))
    assert "Ann & Cy" in SPEC.render(four.observation(0), ["Ann", "Bob", "Cy", "Di"])


def test_render_says_a_bust_scores_nothing() -> None:
    """T-MG-08 (play): Bob on 59 makes a count of 15; 3 points would pass 61, so the play
    scores nothing, and the table must not say "3 points!"."""
    from tests.games.merry_go_round.helpers import replay_state

    doc = load("t-mg-08-play")
    doc["hands"] = doc["hands"][:8]
    doc["hands"][7]["events"] = doc["hands"][7]["events"][:16]
    s = replay_state(doc)
    last = s.events[-1]
    assert last.count == 15 and last.points == 0 and last.seat == 1
    text = SPEC.render(s.observation(0), ["Ann", "Bob"])
    assert "3 points!" not in text
    assert "Count: [bold]15[/] [yellow]— no points: 3 would take Bob past 61 (a bust)[/]" in text
    # a play that scores says so (Ann's 3-4 at event 7: count 10, 2 points)
    doc["hands"][7]["events"] = doc["hands"][7]["events"][:8]
    s = replay_state(doc)
    assert s.events[-1].points == 2
    text = SPEC.render(s.observation(0), ["Ann", "Bob"])
    assert "Count: [bold]10[/] [green]— 2 points![/]" in text
