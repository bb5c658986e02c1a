"""The expert in every game: legal choices over many random states, same seed same choices,
the time budget, analysis of records, and High Fives values against a brute-force evaluation."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from boneyard.bots import expert, make_bot
from boneyard.bots.analysis import analyse, hint
from boneyard.bots.expert import (
    LEVELS,
    ExpertBot,
    action_values,
    best_of,
    rounds_of,
    search_for,
    value_of,
)
from boneyard.core.records import record_from_json
from boneyard.games.high_fives.state import HighFivesState
from boneyard.games.registry import get_spec, play_out

GAMES = {
    "highfive": (2, 3, 4),
    "merry-go-round": (2, 3, 4),
    "high-fives": (2, 4, 6),
    "highrise": (2, 3, 4),
}


def random_states(game: str, players: int, seed: int, count: int) -> list[Any]:
    """Mid-hand states reached by random play (copies), ``count`` of them."""
    spec = get_spec(game)
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = spec.new_game(players, {})
        while not state.is_over and len(out) < count:
            if state.awaiting_deal:
                state.deal_random(rng)
                continue
            if rng.random() < 0.5:
                out.append(state.copy())
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_bots_never_choose_an_illegal_action(game: str) -> None:
    """Random, greedy and the expert (a small budget) over hundreds of states per player count:
    1,200 states for every game, each choice legal and applicable."""
    for players in GAMES[game]:
        states = random_states(game, players, 100 + players, 400)
        bots = [
            make_bot("random", random.Random(1)),
            make_bot("greedy", random.Random(2)),
            ExpertBot(random.Random(players), "easy", worlds=1, time_budget=None),
        ]
        for k, state in enumerate(states):
            seat = state.current_seat
            obs = state.observation(seat)
            for bot in bots if k % 8 == 0 else bots[:2]:
                action = bot.choose(obs)
                assert action in obs.legal_actions
                state.copy().apply(action)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_choices(game: str) -> None:
    states = random_states(game, 3, 7, 12)

    def run(seed: int) -> list[Any]:
        bot = ExpertBot(random.Random(seed), "easy", worlds=3, time_budget=None)
        return [bot.choose(s.observation(s.current_seat)) for s in states]

    assert run(11) == run(11)
    obs = states[5].observation(states[5].current_seat)
    assert action_values(obs, random.Random(4), 3) == action_values(obs, random.Random(4), 3)


@pytest.mark.parametrize("game", ["high-fives", "highrise"])
def test_time_budget_is_honoured(game: str) -> None:
    states = [s for s in random_states(game, 2, 3, 40) if len(s.legal_actions()) > 1]
    obs = states[0].observation(states[0].current_seat)
    ticks = iter(range(10_000))
    # A fake clock advancing one second per reading: a 2.5 s budget is spent within the second
    # world, which is dropped, so every action is valued on the first world only.
    values = action_values(obs, random.Random(1), 50, 2.5, clock=lambda: float(next(ticks)))
    assert {v.worlds for v in values} == {1}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_level_searches_its_worlds_times_the_game_scale(game: str) -> None:
    """The faster engines search more worlds at the same level (``GameSearch.world_scale``:
    High Fives 6, Highrise 6, the others 1); a world count given to the bot is kept as is."""
    scale = {"high-fives": 6, "highrise": 6}.get(game, 1)
    assert search_of(game).world_scale == scale
    state = next(s for s in random_states(game, 2, 9, 60) if len(s.legal_actions()) > 1)
    obs = state.observation(state.current_seat)
    level = ExpertBot(random.Random(1), "easy", time_budget=None)
    assert {v.worlds for v in level.evaluate(obs)} == {4 * scale}
    given = ExpertBot(random.Random(1), "easy", worlds=5, time_budget=None)
    assert {v.worlds for v in given.evaluate(obs)} == {5}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_sequential_halving_spends_the_worlds_on_the_better_half(game: str) -> None:
    """With halving, after each round the worse half of the actions still in play is dropped:
    the actions' world counts are the rounds' partial sums, the survivors have them all, every
    dropped action's mean is the one it had when dropped (below the survivors' totals then),
    and the bot chooses among the survivors."""
    state = max(random_states(game, 2, 21, 80), key=lambda s: len(s.legal_actions()))
    obs = state.observation(state.current_seat)
    n = len(obs.legal_actions)
    assert n >= 3
    rounds = rounds_of(n, True)
    values = action_values(obs, random.Random(3), 12, halving=True)
    counts = sorted((v.worlds for v in values), reverse=True)
    survivors = [v for v in values if v.worlds == 12]
    assert counts[0] == 12 and len(survivors) == 2
    alive = n
    for r in range(1, rounds):
        alive = (alive + 1) // 2
        # The actions dropped after round r had its 12 * r // rounds worlds.
        assert sum(1 for c in counts if c > 12 * r // rounds) == alive
    # The first round is a plain search of its worlds (the same generator, the same worlds):
    # the actions dropped after it valued no higher there than those kept.
    first = 12 // rounds
    plain = action_values(obs, random.Random(3), first)
    assert {v.worlds for v in plain} == {first}
    dropped_first = [v for v in values if v.worlds == first]
    kept_first = [p for p, v in zip(plain, values, strict=True) if v.worlds > first]
    assert dropped_first
    assert max(v.value for v in dropped_first) <= min(p.value for p in kept_first)
    bot = ExpertBot(random.Random(3), "expert", worlds=12, time_budget=None)
    assert bot.level.halving
    assert best_of(values, obs) in {v.action for v in survivors}


def test_halving_is_off_for_a_plain_search_and_the_comparison_level() -> None:
    assert rounds_of(24, False) == 1 and rounds_of(2, True) == 1
    assert not LEVELS["expert-pimc"].halving and LEVELS["expert"].halving


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_expert_halves_only_in_the_games_whose_search_allows_it(game: str) -> None:
    """Merry-Go-Round's search turns halving off (it cost the expert strength there): its
    expert values every action on every world; the other games' expert drops actions."""
    halves = game != "merry-go-round"
    assert search_of(game).halving is halves
    state = max(random_states(game, 2, 21, 80), key=lambda s: len(s.legal_actions()))
    obs = state.observation(state.current_seat)
    assert len(obs.legal_actions) >= 3
    values = ExpertBot(random.Random(3), "expert", worlds=12, time_budget=None).evaluate(obs)
    assert ({v.worlds for v in values} == {12}) is not halves


@pytest.mark.parametrize(
    ("players", "level", "worlds", "pool"),
    [
        (4, "expert", 32, 1200),
        (2, "expert", 2, 300),
        (4, "expert-pimc", 2, 0),
        (3, "expert", 32, 1200),
    ],
)
def test_the_reading_expert_searches_more_at_three_and_four_seats_in_high_five(
    monkeypatch: pytest.MonkeyPatch, players: int, level: str, worlds: int, pool: int
) -> None:
    """Two or three hidden hands: at three and four seats the reading expert searches 16 times
    its worlds, drawn from 4 times its pool of candidate deals (docs/performance.md); not at two
    seats, nor a level that does not read the plays."""
    assert search_of("highfive").crowded == (16, 4)
    asked: list[tuple[int, int]] = []

    def recorded(obs: Any, rng: random.Random, n: int, *args: Any, **kw: Any) -> Any:
        asked.append((n, kw["pool"]))
        return action_values(obs, rng, n, *args, **kw)

    monkeypatch.setattr(expert, "action_values", recorded)
    state = max(random_states("highfive", players, 21, 40), key=lambda s: len(s.legal_actions()))
    bot = ExpertBot(random.Random(3), level, time_budget=None)
    bot.worlds = 2
    values = bot.evaluate(state.observation(state.current_seat))
    assert asked == [(worlds, pool)] and max(v.worlds for v in values) == worlds


def search_of(game: str) -> Any:
    search = get_spec(game).search
    assert search is not None
    return search


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_level_plays_every_game(game: str) -> None:
    state = random_states(game, 2, 5, 1)[0]
    obs = state.observation(state.current_seat)
    for level in ("easy", "medium", "hard", "expert"):
        bot = make_bot(level, random.Random(1))
        bot.worlds = 2
        assert bot.choose(obs) in obs.legal_actions


@pytest.mark.parametrize("game", sorted(GAMES))
def test_decisions_never_depend_on_hidden_tiles(game: str) -> None:
    """The expert reads the other seats' plays from the observation alone: in a state whose
    hidden tiles (other hands, boneyard, draws) are dealt differently but that shows the seat
    the same observation, the same seed makes the same decision (and values every action the
    same), for the searching levels, the one before reading the table included."""
    search = search_of(game)
    checked = 0
    more = 4 if game == "highrise" else 1  # (most of its turns are forced)
    states = random_states(game, 2, 31, 14 * more) + random_states(game, 3, 32, 10 * more)
    for k, state in enumerate(states):
        seat = state.current_seat
        obs = state.observation(seat)
        if len(obs.legal_actions) < 2:
            continue
        other = search.sampler(obs).sample(random.Random(k))
        if other.observation(seat) != obs:  # (a Highrise hand may come back in another order)
            continue
        assert any(other.observation(x) != state.observation(x) for x in range(state.num_seats))
        for level in ("expert", "expert-pimc"):
            a = ExpertBot(random.Random(k), level, worlds=4, time_budget=None)
            b = ExpertBot(random.Random(k), level, worlds=4, time_budget=None)
            assert a.evaluate(obs) == b.evaluate(other.observation(seat))
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("game", ["high-fives", "highrise", "merry-go-round"])
def test_analyse_a_record_of_every_game(game: str) -> None:
    spec = get_spec(game)
    options = {"target": 40} if game == "high-fives" else {}
    if game == "highrise":
        options = {"single_hand": True}
    state = spec.new_game(2, options)
    bots = [make_bot("greedy", random.Random(1)), make_bot("random", random.Random(2))]
    play_out(state, [b.choose for b in bots], random.Random(3))
    record = record_from_json(json.loads(json.dumps(state.record())))
    decisions = analyse(record, 1, worlds=1, seed=0, threshold=3.0)
    assert decisions
    for d in decisions:
        assert d.chosen in [v.action for v in d.values]
        assert d.loss >= 0
        assert d.mistake == (d.loss >= 3.0)
    assert decisions == analyse(record, 1, worlds=1, seed=0, threshold=3.0)


@pytest.mark.parametrize("game", ["high-fives", "highrise"])
def test_hint(game: str) -> None:
    state = random_states(game, 3, 9, 1)[0]
    obs = state.observation(state.current_seat)
    h = hint(obs, worlds=2)
    assert h.best in obs.legal_actions
    assert [v.action for v in h.values] == list(obs.legal_actions)
    assert h.to_json()["best"] == h.best.to_event()


# --- High Fives: analysis values against a brute-force evaluation -------------------------


def last_deal_positions(players: int, seed: int, count: int) -> list[HighFivesState]:
    """Positions in the last deal of a pass with a choice to make (nothing left to deal)."""
    rng = random.Random(seed)
    out: list[HighFivesState] = []
    while len(out) < count:
        s = HighFivesState(players)
        s.deal_random(rng)
        last = len(s.schedule.sizes) - 1
        while s.current_seat is not None and len(out) < count:
            if s.deal_index == last and 2 <= len(s.legal_actions()) <= 12:
                hidden = sum(len(s.hand(x)) for x in range(players)) - len(s.hand(s.current_seat))
                if hidden <= 6 and rng.random() < 0.5:
                    out.append(s.copy())
                    break
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
    return out


def brute_force_values(state: HighFivesState, seat: int) -> dict[Any, float]:
    """Mean value of each legal action over every split of the unseen tiles among the other
    hands (the real state with its hidden hands reassigned: built without the sampler)."""
    search = search_for(state.observation(seat))
    others = [x for x in range(state.num_seats) if x != seat]
    unseen = sorted(t for x in others for t in state.hands[x])
    sizes = [len(state.hands[x]) for x in others]
    splits: set[tuple[tuple[int, ...], ...]] = set()
    for perm in itertools.permutations(unseen):
        held = []
        pos = 0
        for k in sizes:
            held.append(tuple(sorted(perm[pos : pos + k])))
            pos += k
        splits.add(tuple(held))
    values: dict[Any, float] = {}
    for a in state.legal_actions():
        total = 0.0
        for split in splits:
            world = state.copy()
            for x, ids in zip(others, split, strict=True):
                world.hands[x] = bytes(ids)
            total += value_of(search, world, a, seat, random.Random(0))
        values[a] = total / len(splits)
    return values


def test_high_fives_values_match_brute_force_with_one_hidden_hand() -> None:
    """Two players, last deal: the unseen tiles are the other hand, so every sampled world is
    the real one and a hint's values are exactly the brute-force values."""
    positions = last_deal_positions(2, 21, 6)
    for s in positions:
        seat = s.current_seat
        assert seat is not None
        exact = brute_force_values(s, seat)
        got = hint(s.observation(seat), worlds=3, seed=1)
        for v in got.values:
            assert v.value == pytest.approx(exact[v.action])


def test_high_fives_values_converge_to_brute_force_with_two_hidden_hands() -> None:
    positions = last_deal_positions(3, 8, 2)
    for s in positions:
        seat = s.current_seat
        assert seat is not None
        exact = brute_force_values(s, seat)
        got = hint(s.observation(seat), worlds=200, seed=2)
        spread = max(abs(x) for x in exact.values()) + 1
        for v in got.values:
            assert v.value == pytest.approx(exact[v.action], abs=0.2 * spread)


def test_every_shipped_game_has_its_row() -> None:
    """The table of games above has a row for every game the registry ships (a new game
    without one would be left out of these tests)."""
    from boneyard.games.registry import SHIPPED

    assert set(GAMES) == set(SHIPPED)
