"""Round robin: everyone meets everyone exactly once (twice when double), Berger tables."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest

from boneyard.tournament import RoundRobin, TournamentError, tournament_from_json
from boneyard.tournament.roundrobin import berger_rounds


@pytest.mark.parametrize("double", [False, True])
def test_everyone_meets_everyone_once(double: bool) -> None:
    for n in range(2, 65):
        entrants = [f"e{i}" for i in range(n)]
        ev = RoundRobin.create(entrants, double=double)
        cycles = 2 if double else 1
        assert ev.num_rounds == cycles * (n - 1 if n % 2 == 0 else n)
        met = Counter(frozenset(m.sides) for m in ev.matches() if not m.bye)
        assert set(met) == {frozenset(p) for p in combinations(entrants, 2)}
        assert set(met.values()) == {cycles}
        for rnd in ev.rounds:
            assert sorted(e for m in rnd for e in m.sides if e) == sorted(entrants)
        byes = Counter(m.a for m in ev.matches() if m.bye)
        assert (not byes) if n % 2 == 0 else byes == Counter(dict.fromkeys(entrants, cycles))
        if double:
            home = Counter((m.a, m.b) for m in ev.matches() if not m.bye)
            assert set(home.values()) == {1}  # sides swapped in the second cycle


def test_berger_tables_match_the_published_ones() -> None:
    # FIDE Handbook C.05 Annex 1, tables for 5 or 6 players.
    assert berger_rounds(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    assert berger_rounds(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def test_play_out_and_standings() -> None:
    rng = random.Random(3)
    entrants = ["a", "b", "c", "d", "e"]
    ev = RoundRobin.create(entrants)
    with pytest.raises(TournamentError, match="round 1 comes first"):
        ev.record_game(ev.rounds[1][0].id, ev.rounds[1][0].a or "")
    while not ev.is_over:
        m = ev.pending()[0]
        ev = ev.record_game(m.id, rng.choice(m.sides) or "")
    s = ev.standings()
    assert sum(x.points for x in s) == 10  # 5 choose 2 matches
    assert all(x.byes == 1 for x in s) and [x.rank for x in s] == [1, 2, 3, 4, 5]
    assert [x.points for x in s] == sorted((x.points for x in s), reverse=True)
    assert ev.champion == s[0].entrant
    assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_malformed_json() -> None:
    with pytest.raises(TournamentError, match="unknown"):
        tournament_from_json({"format": "ladder"})
    with pytest.raises(TournamentError, match="malformed"):
        tournament_from_json({"format": "round_robin", "entrants": ["a"]})


def test_limits() -> None:
    with pytest.raises(TournamentError, match="2 to 64"):
        RoundRobin.create([f"e{i}" for i in range(65)])


def test_bye_points() -> None:
    for bye_points in (0.0, 0.5, 1.0):
        ev = RoundRobin.create(["a", "b", "c"], bye_points=bye_points)
        while not ev.is_over:
            m = ev.pending()[0]
            ev = ev.record_game(m.id, m.a or "")
        s = {x.entrant: x for x in ev.standings()}
        assert all(x.byes == 1 for x in s.values())
        assert sum(x.points for x in s.values()) == 3 + 3 * bye_points
        assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev
    with pytest.raises(TournamentError, match=r"0, 0\.5 or 1"):
        RoundRobin.create(["a", "b"], bye_points=0.25)
