"""Pools then a bracket: everyone meets their pool, the best go through, seeded apart."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.tournament import (
    DoubleElimination,
    Pools,
    Schedule,
    SingleElimination,
    TournamentError,
    tournament_from_json,
)
from boneyard.tournament.pools import snake

BO1 = Schedule.preset("bo1")


def ids(n: int) -> list[str]:
    return [f"e{i:03d}" for i in range(1, n + 1)]


def step(ev: Pools, rng: random.Random) -> Pools:
    ready = ev.pending()
    assert ready, "an event that is not over always has a ready match"
    m = ready[rng.randrange(len(ready))]
    assert m.a is not None and m.b is not None
    if rng.random() < 0.05:
        return ev.record_forfeit(m.id, rng.choice((m.a, m.b)), "no_show")
    return ev.record_game(m.id, rng.choice((m.a, m.b)), (150, 40))


@settings(max_examples=50, deadline=None)
@given(
    n=st.integers(4, 48),
    seed=st.integers(0, 2**32),
    double=st.booleans(),
    data=st.data(),
)
def test_pools_then_bracket(n: int, seed: int, double: bool, data: st.DataObject) -> None:
    rng = random.Random(seed)
    pools = data.draw(st.integers(max(1, -(-n // 64)), n // 2), label="pools")
    smallest = n // pools
    advance = data.draw(st.integers(1 if pools > 1 else 2, min(smallest, 4)), label="advance")
    bracket = "double" if double else "single"
    entrants = ids(n)
    ev = Pools.create(entrants, pools, advance, BO1, bracket, BO1)
    # Snake: pool sizes differ by at most one, seed i in pool i.
    sizes = [len(g.entrants) for g in ev.groups]
    assert max(sizes) - min(sizes) <= 1 and sum(sizes) == n
    assert sorted(e for g in ev.groups for e in g.entrants) == entrants
    assert [ev.pool_of(entrants[i]) for i in range(pools)] == list(range(1, pools + 1))
    while ev.bracket is None:
        ev = step(ev, rng)
    assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev
    # Every pool member plays every other exactly once.
    for g in ev.groups:
        met = Counter(frozenset(m.sides) for m in g.matches() if not m.bye)
        assert set(met) == {frozenset(p) for p in combinations(g.entrants, 2)}
        assert set(met.values()) <= {1}
        assert all(m.id.startswith(f"P{ev.groups.index(g) + 1}R") for m in g.matches())
    # The first `advance` of each pool go through, pool winners first.
    quals = ev.qualifiers()
    expected = {s.entrant for g in ev.groups for s in g.standings() if s.rank <= advance}
    assert set(quals) == expected and len(quals) == pools * advance
    winners = {g.standings()[0].entrant for g in ev.groups}
    assert set(quals[:pools]) == winners
    assert isinstance(ev.bracket, DoubleElimination if double else SingleElimination)
    assert ev.bracket.entrants == quals
    first = [m for m in ev.bracket.rounds[0] if not m.bye]
    if pools > 1 and advance <= 2:
        for m in first:
            assert m.a and m.b and ev.pool_of(m.a) != ev.pool_of(m.b), "pool-mates apart"
    while not ev.is_over:
        ev = step(ev, rng)
    # Pool winners apart: in different sections of the bracket until the last rounds.
    k, j = ev.bracket.k if double else ev.bracket.num_rounds, (pools - 1).bit_length()
    for r, rnd in enumerate(ev.bracket.rounds[:k], start=1):
        for m in rnd:
            if m.a in winners and m.b in winners:
                assert r >= k - j + 1, f"pool winners {m.a}, {m.b} meet in round {r}"
    rows = ev.standings()
    assert rows[0].entrant == ev.champion and rows[0].rank == 1
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert {r.entrant for r in rows[: len(quals)]} == set(quals)
    assert all(len(r.tiebreaks) == len(ev.tiebreak_labels()) for r in rows)
    assert len(ev.round_titles()) == len(ev.rounds)
    assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_sixteen_in_four_pools_to_a_double_bracket() -> None:
    entrants = ids(16)
    ev = Pools.create(entrants, 4, 2, BO1, "double", Schedule.preset("pda"))
    assert [g.entrants for g in ev.groups] == [tuple(x) for x in snake(entrants, 4)]
    assert ev.groups[0].entrants == ("e001", "e008", "e009", "e016")
    assert ev.round_titles() == ("Pools, round 1", "Pools, round 2", "Pools, round 3")
    with pytest.raises(TournamentError, match="every pool is over"):
        ev.qualifiers()
    with pytest.raises(TournamentError, match="no match"):
        ev.match("W1M1")
    # The better seed wins every match: the pools finish in seed order.
    while ev.bracket is None:
        for m in ev.pending():
            ev = ev.record_game(m.id, min((m.a or "", m.b or ""), key=ev.seed_of))
    # Runners-up by seed would meet their own pool winners (1 v 8, 2 v 7 ...): two swaps.
    assert ev.qualifiers() == ("e001", "e002", "e003", "e004", "e006", "e005", "e008", "e007")
    assert [m.sides for m in ev.bracket.rounds[0]] == [
        ("e001", "e007"),
        ("e004", "e006"),
        ("e002", "e008"),
        ("e003", "e005"),
    ]
    assert ev.round_titles()[3] == "Winners' round 1"
    assert ev.match("F1M1").best_of == 7 and ev.match("P1R1M1").best_of == 1
    rows = ev.standings()
    assert [r.rank for r in rows[8:]] == [9] * 4 + [13] * 4
    assert all(r.tiebreaks[0] == 3.0 for r in rows[8:12])
    assert ev.crosstable(1).order == ("e001", "e008", "e009", "e016")
    with pytest.raises(TournamentError, match="no pool 5"):
        ev.crosstable(5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pools": 0}, "1 to 5 pools"),
        ({"pools": 6}, "1 to 5 pools"),
        ({"pools": 2, "advance": 6}, "1 to 5 of each pool"),
        ({"pools": 3, "advance": 4}, "1 to 3 of each pool"),  # pools of 3, 3 and 4
        ({"pools": 1, "advance": 1}, "and 2 in all"),
        ({"pools": 2, "bracket": "triple"}, "single or double"),
        ({"pools": 2, "advance": 1, "third_place": True}, "third-place"),
        ({"pools": 2, "bracket": "double", "third_place": True}, "third-place"),
    ],
)
def test_settings_are_checked(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        Pools.create(ids(10), **kwargs)  # type: ignore[arg-type]


def test_large_pools_are_refused() -> None:
    with pytest.raises(TournamentError, match="at most 64"):
        Pools.create(ids(130), 2)
    ev = Pools.create(ids(1024), 16, 2)
    assert len(ev.pending()) == 16 * 32
