"""Bots choose legal actions, reproducibly; the expert's values match a brute-force evaluation."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from boneyard.bots import BOTS, GreedyBot, RandomBot, make_bot
from boneyard.bots.analysis import analyse, hint
from boneyard.bots.expert import ExpertBot, action_values, search_for, value_of
from boneyard.core.errors import BoneyardError
from boneyard.core.records import record_from_json
from boneyard.games.fives.layout import ids_of
from boneyard.games.highfive.state import HighFiveState
from boneyard.games.highfive.worlds import WorldSampler, hand_playout
from boneyard.games.registry import available_games, get_spec, play_out
from tests.games.golden import GAMES


def random_states(players: int, seed: int, count: int) -> list[HighFiveState]:
    rng = random.Random(seed)
    out: list[HighFiveState] = []
    while len(out) < count:
        s = HighFiveState(players)
        s.deal_random(rng)
        while s.current_seat is not None:
            if rng.random() < 0.3:
                out.append(s.copy())
            actions = s.legal_actions()
            s.apply(actions[rng.randrange(len(actions))])
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_expert_chooses_legal_actions(players: int) -> None:
    bot = ExpertBot(random.Random(players), "easy", worlds=2, time_budget=None)
    for s in random_states(players, 10 + players, 60):
        seat = s.current_seat
        assert seat is not None
        assert bot.choose(s.observation(seat)) in s.legal_actions()


@pytest.mark.parametrize("game", GAMES)
def test_simple_bots_choose_legal_actions_in_every_game(game: str) -> None:
    if game not in available_games():
        pytest.skip(f"{game} is not in this build")
    spec = get_spec(game)
    rng = random.Random(4)
    bots = [make_bot("random", random.Random(1)), make_bot("greedy", random.Random(2))]
    for g in range(4):
        players = spec.min_players + g % (spec.max_players - spec.min_players + 1)
        state = spec.new_game(players, {})

        play_out(state, [alternate_checked(bots)] * players, rng)


def alternate_checked(bots: list[Any]) -> Callable[[Any], Any]:
    """Alternate between ``bots``, checking each choice is legal."""
    turn = [0]

    def choose(obs: Any) -> Any:
        turn[0] += 1
        action = bots[turn[0] % 2].choose(obs)
        assert action in obs.legal_actions
        return action

    return choose


def test_expert_refuses_an_observation_without_a_determinizer() -> None:
    class Unknown:
        game = "tic-tac-toe"
        legal_actions = (1, 2)
        seat = 0

    with pytest.raises(BoneyardError, match="expert bots"):
        make_bot("expert", random.Random(1)).choose(Unknown())


def test_expert_chooses_legal_actions_in_merry_go_round() -> None:
    spec = get_spec("merry-go-round")
    rng = random.Random(6)
    for players in (2, 3, 4):
        state = spec.new_game(players, {})
        state.deal_random(rng)
        bot = ExpertBot(random.Random(players), "easy", worlds=2, time_budget=None)
        greedy = make_bot("greedy", random.Random(1))
        steps = 0
        while state.current_seat is not None and steps < 60:
            seat = state.current_seat
            obs = state.observation(seat)
            action = (bot if seat == 0 else greedy).choose(obs)
            assert action in obs.legal_actions
            state.apply(action)
            steps += 1


def test_levels_are_registered() -> None:
    for name in ("easy", "medium", "hard", "expert"):
        assert name in BOTS


def test_same_seed_same_choices() -> None:
    states = random_states(2, 99, 25)

    def run(seed: int) -> list[object]:
        bot = ExpertBot(random.Random(seed), "easy", worlds=3, time_budget=None)
        return [bot.choose(s.observation(s.current_seat)) for s in states]

    assert run(5) == run(5)
    values_a = action_values(states[3].observation(states[3].current_seat), random.Random(8), 4)
    values_b = action_values(states[3].observation(states[3].current_seat), random.Random(8), 4)
    assert values_a == values_b


def test_time_budget_is_honoured() -> None:
    ticks = iter(range(1000))
    s = random_states(2, 5, 1)[0]
    obs = s.observation(s.current_seat)
    # A fake clock advancing one second per reading: the 1.5 s budget runs out while the
    # second world is searched (the clock is read before each action), so that world is
    # dropped and every action keeps the value of the first.
    values = action_values(obs, random.Random(1), 100, 1.5, clock=lambda: float(next(ticks)))
    assert all(v.worlds == 1 for v in values)
    # A clock that moves only between worlds: the budget allows two whole worlds.
    worlds_seen = iter([0.0, 0.0, 1.0, 2.0] + [2.0] * 1000)
    values = action_values(obs, random.Random(1), 100, 1.5, clock=lambda: next(worlds_seen))
    assert all(v.worlds == 2 for v in values)


def test_searches_cut_short_by_the_budget_are_counted() -> None:
    """``cut_short`` (quoted by bench/strength.py --timed) counts the searches a budget stopped
    before their worlds were all valued, and only those."""
    s = next(x for x in random_states(2, 5, 20) if len(x.legal_actions()) > 1)
    obs = s.observation(s.current_seat)
    ticks = iter(range(100_000))
    cut = ExpertBot(random.Random(1), "easy", time_budget=1.5, clock=lambda: float(next(ticks)))
    cut.choose(obs)
    cut.choose(obs)
    assert cut.cut_short == 2
    whole = ExpertBot(random.Random(1), "easy", time_budget=None)
    whole.choose(obs)
    assert whole.cut_short == 0


def endgames(players: int, seed: int, count: int) -> list[HighFiveState]:
    """Positions with an empty boneyard, 1–2 tiles per hand and a choice to make."""
    rng = random.Random(seed)
    out: list[HighFiveState] = []
    tries = 0
    while len(out) < count and tries < 5000:
        tries += 1
        s = HighFiveState(players)
        s.deal_random(rng)
        while s.current_seat is not None:
            small = all(1 <= h.bit_count() <= 2 for h in s.hands)
            if small and s.bpos == len(s.boneyard) and len(s.legal_actions()) >= 2:
                out.append(s.copy())
                break
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
    return out


def brute_force_values(state: HighFiveState, seat: int) -> dict[object, float]:
    """Mean play-out value of each legal action over every world consistent with ``seat``'s
    observation (hidden tiles enumerated; the boneyard is empty)."""
    obs = state.observation(seat)
    sampler = WorldSampler(obs)
    others = sampler.others
    worlds: list[HighFiveState] = []
    unseen = ids_of(sampler.unseen)
    sizes = [obs.hand_sizes[s] for s in others]
    for perm in itertools.permutations(unseen):
        hands = {}
        pos = 0
        for s, k in zip(others, sizes, strict=True):
            hands[s] = sum(1 << t for t in perm[pos : pos + k])
            pos += k
        draws = {}
        ok = True
        for s in others:
            got = sampler.assign_draws(s, hands[s], random.Random(0))
            if got is None:
                ok = False
                break
            draws[s] = got
        if not ok:
            continue
        world = sampler.build(hands, draws, random.Random(0))
        if world is not None and all(
            world.hands[s] != w.hands[s] or s == seat for w in worlds for s in others
        ):
            worlds.append(world)
    values: dict[object, float] = {}
    search = search_for(obs)
    assert search.playout is hand_playout
    for a in obs.legal_actions:
        total = 0.0
        for w in worlds:
            total += value_of(search, w.copy(), a, seat, random.Random(0))
        values[a] = total / len(worlds)
    return values


def test_analysis_values_match_brute_force_in_two_player_endgames() -> None:
    positions = endgames(2, 21, 8)
    assert len(positions) >= 5
    for s in positions:
        seat = s.current_seat
        assert seat is not None
        exact = brute_force_values(s, seat)
        got = hint(s.observation(seat), worlds=3, seed=1)
        for v in got.values:
            assert v.value == pytest.approx(exact[v.action])
        assert got.values  # one world only: the sampled values are exact


def test_analysis_values_converge_to_brute_force_in_three_player_endgames() -> None:
    positions = endgames(3, 8, 4)
    assert positions
    for s in positions:
        seat = s.current_seat
        assert seat is not None
        exact = brute_force_values(s, seat)
        got = hint(s.observation(seat), worlds=300, seed=2)
        spread = max(abs(x) for x in exact.values()) + 1
        for v in got.values:
            assert min(exact.values()) - spread <= v.value <= max(exact.values()) + spread
            assert v.value == pytest.approx(exact[v.action], abs=0.25 * spread)


def test_analyse_a_selfplay_record() -> None:
    state = HighFiveState(2, names=["a", "b"])
    bots = [make_bot("greedy", random.Random(1)), make_bot("random", random.Random(2))]
    play_out(state, [b.choose for b in bots], random.Random(3))
    record = record_from_json(state.record())
    decisions = analyse(record, 1, worlds=2, seed=0, threshold=3.0)
    assert decisions
    for d in decisions:
        assert d.chosen in [v.action for v in d.values]
        assert d.loss >= 0
        assert d.mistake == (d.loss >= 3.0)
        assert d.to_json()["chosen"] == d.chosen.to_event()
    assert decisions == analyse(record, 1, worlds=2, seed=0, threshold=3.0)


def test_hint_in_the_terminal_game() -> None:
    from boneyard.cli.play import hint_text

    s = random_states(2, 3, 1)[0]
    obs = s.observation(s.current_seat)
    describe = get_spec("highfive").describe_action
    assert hint_text(obs, describe).startswith("Hint: [bold]")
    for game in ("high-fives", "highrise"):
        other = get_spec(game).new_game(2, {})
        other.deal_random(random.Random(1))
        seat = other.current_seat
        assert seat is not None
        assert hint_text(other.observation(seat), get_spec(game).describe_action).startswith(
            "Hint: [bold]"
        )


def test_a_bot_says_whether_it_blocks_and_one_that_does_not_say_is_taken_to() -> None:
    from boneyard.core.protocol import blocks

    rng = random.Random(1)
    assert not blocks(RandomBot(rng)) and not blocks(GreedyBot(rng))
    assert blocks(ExpertBot(rng, "easy"))

    class Quiet:
        name = "quiet"

        def choose(self, observation: Any) -> Any:
            return observation.legal_actions[0]

    assert blocks(Quiet())  # (a plugin that does not say runs in a worker thread)
