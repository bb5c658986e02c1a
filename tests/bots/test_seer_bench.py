"""``bench/strength.py``'s seer: the true hands, and what is still to come hidden anew."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench import strength
from boneyard.games.high_fives.state import HighFivesState
from boneyard.games.registry import get_spec


def later(state: HighFivesState) -> list[int]:
    """The tiles still to be dealt or turned up, sorted."""
    rest = [t for deal in state.deals[state.deal + 1 :] for hand in deal for t in hand]
    return sorted(rest + list(state.extra))


@pytest.mark.parametrize("players", [2, 3])
def test_high_fives_worlds_deal_the_tiles_to_come_anew_and_keep_the_rest(players: int) -> None:
    state = HighFivesState(players)
    state.deal_random(random.Random(4))
    for _ in range(3 * players + 1):
        state.apply(state.legal_actions()[0])
    world = state.copy()
    strength.reorder_deals(world, random.Random(1))
    k = state.deal
    assert world.deals != state.deals and later(world) == later(state)
    assert world.deals[: k + 1] == state.deals[: k + 1] and world.hands == state.hands
    assert [[len(h) for h in d] for d in world.deals] == [[len(h) for h in d] for d in state.deals]
    assert len(world.extra) == len(state.extra) and world.row == state.row


def test_the_last_deal_of_a_pass_is_left_as_it_is() -> None:
    state = HighFivesState(2)
    state.deal_random(random.Random(5))
    while state.deal < len(state.deals) - 1:
        state.apply(state.legal_actions()[0])
    world = state.copy()
    strength.reorder_deals(world, random.Random(1))
    assert world.deals == state.deals and world.extra == state.extra


@pytest.mark.parametrize(
    ("game", "orders"), [("high-fives", 360), ("highfive", 60), ("highrise", 360)]
)
def test_the_seer_searches_the_experts_count_of_worlds(game: str, orders: int) -> None:
    state: Any = get_spec(game).new_game(2, {})
    state.deal_random(random.Random(2))
    seer = strength.Seer(state, random.Random(3))
    assert seer.orders == orders
    obs = state.observation(state.current_seat)
    assert seer.choose(obs) in obs.legal_actions


def test_highrise_worlds_reorder_the_undrawn_pile_and_keep_the_rest() -> None:
    state: Any = get_spec("highrise").new_game(2, {})
    state.deal_random(random.Random(6))
    while state.pos == 0 and state.current_seat is not None:  # until a tile has been drawn
        state.apply(state.legal_actions()[-1])
    assert state.pos > 0
    world = state.copy()
    strength.reorder_pile(world, random.Random(1))
    pos = state.pos
    assert world.pile_ids[:pos] == state.pile_ids[:pos] and world.pos == pos
    assert world.pile_ids[pos:] != state.pile_ids[pos:]
    assert sorted(world.pile_ids[pos:]) == sorted(state.pile_ids[pos:])
    assert world.hands == state.hands and world.observation(0) == state.observation(0)


def test_the_seer_refuses_a_game_it_cannot_reorder() -> None:
    with pytest.raises(SystemExit, match="the seer plays only highfive, high-fives, highrise"):
        strength.Seer(get_spec("merry-go-round").new_game(2, {}), random.Random(1))


@pytest.mark.parametrize("game", ["high-fives", "highrise"])
def test_the_issues_table_holds_the_seer_at_two_players(game: str) -> None:
    table = strength.matches({game})
    assert (game, 2, "seer", "greedy") in table
    assert all(g == game for g, *_ in table)


def test_the_late_seer_sees_only_once_the_other_seat_has_played_enough(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state: Any = get_spec("highfive").new_game(2, {})
    state.deal_random(random.Random(2))
    bot = strength.make("seer-from-1", random.Random(3), state, False)
    assert isinstance(bot, strength.LateSeer) and bot.after == 1
    monkeypatch.setattr(strength.Seer, "choose", lambda self, obs: "seer")
    monkeypatch.setattr(bot.expert, "choose", lambda obs: "expert")
    first = state.current_seat
    assert bot.choose(state.observation(first)) == "expert"  # nothing played yet

    def other_played() -> int:
        return sum(e.kind == "play" and e.seat != first for e in state.observation(first).history)

    state.apply(state.legal_actions()[0])  # the lead
    while not (state.current_seat == first and other_played() >= 1):
        assert state.observation(first).hand_number == 0, "the hand ended first"
        state.apply(state.legal_actions()[0])
    assert bot.choose(state.observation(first)) == "seer"


def test_the_late_seer_plays_only_high_five() -> None:
    with pytest.raises(SystemExit, match="seer-from-K plays only highfive"):
        strength.make("seer-from-2", random.Random(1), get_spec("highrise").new_game(2, {}), False)
