"""Observations: hidden tiles never leak, greedy's view, the terminal text (render, describe,
parse)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich import markup as rich_markup

from boneyard.bots import GreedyBot, RandomBot
from boneyard.core.errors import BoneyardError
from boneyard.games.highrise import (
    SPEC,
    Draw,
    HighriseState,
    Pass,
    Place,
    describe_action,
    new_game,
    parse_action,
    render,
)
from boneyard.games.highrise.events import Drew
from tests.games.highrise.helpers import BUNDLES, T15_DEAL, dealt, make_setup, place


def redeal_hidden(state: HighriseState, seat: int, rng: random.Random) -> HighriseState:
    """A copy in which every tile ``seat`` cannot see (other hands, the pile) is shuffled among
    the other hands and the pile, keeping their sizes; a tile just drawn stays put."""
    other = state.copy()
    drawn = other.drawn_id
    pool: list[int] = []
    for s in range(other.num_seats):
        if s != seat:
            pool.extend(t for t in other.hands[s] if t != drawn)
    pool.extend(other.pile_ids[other.pos :])
    rng.shuffle(pool)
    k = 0
    for s in range(other.num_seats):
        if s == seat:
            continue
        keep = [t for t in other.hands[s] if t == drawn]
        size = len(other.hands[s]) - len(keep)
        other.hands[s] = (*pool[k : k + size], *keep)
        k += size
    other.pile_ids = other.pile_ids[: other.pos] + pool[k:]
    other.legal = None
    return other


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 4), st.sampled_from(range(len(BUNDLES))), st.integers(0, 2**32 - 1))
def test_observation_unchanged_when_hidden_tiles_are_redealt(
    players: int, bundle: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = new_game(players, BUNDLES[bundle])
    state.deal_random(rng)
    for _ in range(rng.randrange(30)):
        if state.hand_over:
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    for seat in [*range(players), None]:
        observer = 0 if seat is None else seat
        other = redeal_hidden(state, observer, rng)
        assert other.observation(seat) == state.observation(seat)
        assert other.observation(seat).to_json() == state.observation(seat).to_json()


def test_redeal_really_changes_hidden_tiles() -> None:
    state = dealt(T15_DEAL)
    other = redeal_hidden(state, 0, random.Random(1))
    assert other.hand(1) != state.hand(1) or other.pile() != state.pile()
    assert other.observation(0) == state.observation(0)
    assert other.observation(1) != state.observation(1)


def test_what_each_seat_sees() -> None:
    state = dealt(T15_DEAL)
    me, them, spectator = state.observation(0), state.observation(1), state.observation(None)
    assert [str(t) for t in me.hand or ()] == ["2-5", "W-3", "0-0", "1-2", "4-5"]
    assert len(me.legal_actions) == 9 and them.legal_actions == ()
    assert spectator.hand is None and spectator.legal_actions == ()
    assert me.hand_sizes == (5, 5) and me.pile_size == 18 and me.spacers_left == 12
    text = json.dumps(spectator.to_json())
    assert "3-6" not in text.replace('"tile": "3-6"', "")  # seat 1's 3-6 is hidden
    with pytest.raises(BoneyardError):
        state.observation(2)


def test_drawn_tile_is_seen_only_by_its_drawer() -> None:
    from boneyard.games.highrise import SPEC
    from tests.games.highrise.helpers import load_record

    record = load_record("t-hr-16")
    for pos in SPEC.positions(record):
        if pos.event > 0 and isinstance(pos.state.events[-1], Drew):
            break  # just after the first draw
    state = pos.state
    assert state.drawn is not None and str(state.drawn) == "W-5"
    drawer = state.observation(1)
    assert drawer.drawn == state.drawn
    assert {a.tile for a in drawer.legal_actions} == {state.drawn}
    for seat in (0, 2, None):
        obs = state.observation(seat)
        assert obs.drawn is None
        assert "W-5" not in json.dumps(obs.to_json()["hand"])
    assert SPEC.from_record(record).is_over is False


def test_greedy_view_scores_placements() -> None:
    state = dealt(T15_DEAL)
    for a in (
        place("5-2", (0, 0), (0, 1)),
        place("3-6", (1, 1), (1, 2)),
        place("W-3", (0, 1), (1, 1)),
    ):
        state.apply(a)
    obs = state.observation(1)
    for a in obs.legal_actions:
        assert obs.action_points(a) == a.points
        bare = Place(a.faces, a.cells, a.spacer)  # an action built without level and points
        assert obs.action_points(bare) == a.points
        assert obs.action_weight(a) == a.tile.pips
    assert obs.action_points(Draw()) == 0 and obs.action_weight(Pass()) == -1
    best = GreedyBot(random.Random(0)).choose(obs)
    assert (str(best.tile), best.points) == ("W-6", 33)
    assert RandomBot(random.Random(0)).choose(obs) in obs.legal_actions


def test_describe_never_reveals_a_draw() -> None:
    from boneyard.core.tiles import Tile

    assert describe_action(Draw(Tile(6, 6))) == "draw a tile"
    assert describe_action(Pass()) == "pass"
    assert describe_action(place("5-2", (0, 0), (0, 1))) == "5-2: 5 on (0,0), 2 on (0,1)"
    with pytest.raises(BoneyardError):
        describe_action("nonsense")


def test_parse_action() -> None:
    state = dealt(T15_DEAL)
    obs = state.observation(0)
    assert parse_action(obs, "5-2") == place("5-2", (0, 0), (0, 1))
    assert parse_action(obs, " 2-5 ") == place("5-2", (0, 0), (0, 1))
    assert parse_action(obs, "2-5 0,1 0,0") == place("5-2", (0, 0), (0, 1))
    with pytest.raises(BoneyardError, match="W-3 fits 7 ways"):
        parse_action(obs, "w-3")
    assert parse_action(obs, "W-3 1,0 1,1") == place("W-3", (1, 0), (1, 1))
    assert parse_action(obs, "3-W (1,1) (2,1)") == place("3-W", (1, 1), (2, 1))
    assert parse_action(obs, "3-w [3,0]") == place("3-W", (3, 0), (3, 1))
    with pytest.raises(BoneyardError, match="W-3 cannot go on"):
        parse_action(obs, "W-3 3,3")
    with pytest.raises(BoneyardError, match="you do not hold 6-6"):
        parse_action(obs, "6-6")
    with pytest.raises(BoneyardError, match="0-0 has no legal placement"):
        parse_action(obs, "0-0")
    with pytest.raises(BoneyardError, match="you cannot draw"):
        parse_action(obs, "draw")
    with pytest.raises(BoneyardError, match="you cannot pass"):
        parse_action(obs, "pass")
    with pytest.raises(BoneyardError, match="not a move"):
        parse_action(obs, "hello")
    with pytest.raises(BoneyardError, match="not your turn"):
        parse_action(state.observation(1), "3-6")


def test_parse_draw_and_pass() -> None:
    from tests.games.highrise.test_movegen import position

    must_draw = position(2, {}, 3, 16)
    obs = must_draw.observation(must_draw.current_seat)
    assert parse_action(obs, "draw") == Draw() and parse_action(obs, "D") == Draw()
    must_pass = position(2, {}, 0, 34)
    assert parse_action(must_pass.observation(must_pass.current_seat), "pass") == Pass()


def test_render() -> None:
    state = dealt(T15_DEAL)
    for a in (
        place("5-2", (0, 0), (0, 1)),
        place("3-6", (1, 1), (1, 2)),
        place("W-3", (0, 1), (1, 1)),
        place("W-6", (0, 2), (1, 2), (0, 2)),
    ):
        state.apply(a)
    text = render(state.observation(0), ["Ann", "B[o]b"])
    assert "Ann (you): 17 points, 3 tiles" in text
    assert "B\\[o]b: 29 points, 3 tiles" in text
    assert "spacers left 11" in text and "pile 18" in text
    assert "W:2*" in text  # the wild on a spacer at level 2
    assert "Your tiles: [bold]0-0 1-2 4-5[/]" in text
    grid = next(line for line in text.splitlines() if line.startswith("  0  "))
    assert "5:1" in grid and "W:0" in grid
    plain = rich_markup.render(text).plain  # valid Rich markup
    assert "B[o]b: 29 points" in plain and "[bold]" not in plain
    spectator = render(state.observation(None), ["Ann", "Bob"])
    assert "Your tiles" not in spectator and "0-0" not in spectator
    assert SPEC.render is render


def test_render_before_the_deal_and_after_the_game() -> None:
    state = new_game(2)
    assert "Highrise" in render(state.observation(0), ["A", "B"])
    from tests.games.highrise.test_selfplay import tie_game

    done = tie_game({"single_hand": True, "tie_at_target": "shared_win"})
    assert "shared win (A, B)" in render(done.observation(None), ["A", "B"])
    done = tie_game({"single_hand": True})
    assert "Game over: A wins." in render(done.observation(1), ["A", "B"])


def test_observation_json_round_numbers() -> None:
    state = new_game(3, {"base_layout": "2x8_one_row"})
    state.deal_hand(
        make_setup(
            [
                ["5-2", "W-3", "0-0", "1-2", "4-5"],
                ["3-6", "W-6", "0-1", "2-2", "6-6"],
                ["0-2", "0-3", "0-4", "0-5", "0-6"],
            ]
        )
    )
    doc = state.observation(2).to_json()
    assert doc["rows"] == 2 and doc["cols"] == 8 and len(doc["tower"]) == 16
    assert doc["tower"][0] == {
        "cell": [0, 0],
        "face": "5",
        "level": 0,
        "tile": "1-5",
        "spacer": False,
        "wild": 5,
    }
    assert doc["tower"][8]["face"] == "1"
    assert doc["legal_actions"] == [] and doc["hand_sizes"] == [5, 5, 5]
    json.dumps(doc)
