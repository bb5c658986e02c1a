"""Single elimination: structure for every size 2–1,024, and properties of played-out brackets."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.tournament import (
    PDA,
    DoubleElimination,
    Pools,
    Schedule,
    SingleElimination,
    Swiss,
    TournamentError,
    seed_by_rating,
    seed_random,
    tournament_from_json,
)
from boneyard.tournament.labels import MATCH_KINDS


def ids(n: int) -> list[str]:
    return [f"e{i:04d}" for i in range(1, n + 1)]


def ceil_log2(n: int) -> int:
    k = 0
    while (1 << k) < n:
        k += 1
    return k


def test_structure_for_every_size() -> None:
    for n in range(2, 1025):
        entrants = ids(n)
        ev = SingleElimination.create(entrants, PDA)
        rounds = ceil_log2(n)
        assert ev.num_rounds == rounds == len(ev.rounds)
        size = 1 << rounds
        byes = [m for m in ev.matches() if m.bye]
        # Byes only in round 1, only to the top seeds, one per missing slot.
        assert all(m.round == 1 and m.b is None for m in byes)
        assert sorted(ev.seed_of(m.a) for m in byes if m.a) == list(range(1, size - n + 1))
        # Round 1: every entrant exactly once.
        first = [e for m in ev.rounds[0] for e in m.sides if e is not None]
        assert sorted(first) == entrants
        # Best of 5, the final best of 7.
        assert ev.rounds[-1][0].best_of == 7 and len(ev.rounds[-1]) == 1
        assert all(m.best_of == 5 for r in ev.rounds[:-1] for m in r)
        # Seeds 1 and 2 are in different halves of the bracket.
        if rounds > 1:
            half = size // 4  # round-1 matches in the top half of the bracket
            pos = {e: i for i, m in enumerate(ev.rounds[0]) for e in m.sides if e is not None}
            assert (pos[entrants[0]] < half) != (pos[entrants[1]] < half)


def play_out(ev: SingleElimination, rng: random.Random, forfeit_rate: float = 0.1):
    """Random results; yields the event after each decided match."""
    while not ev.is_over:
        ready = ev.pending()
        assert ready, "a bracket always has a ready match until it is over"
        m = ready[rng.randrange(len(ready))]
        assert m.a is not None and m.b is not None
        if rng.random() < forfeit_rate:
            ev = ev.record_forfeit(m.id, rng.choice((m.a, m.b)))
        else:
            while not ev.match(m.id).is_over:
                side = m.a if rng.random() < 0.5 else m.b
                ev = ev.record_game(m.id, side, (150, rng.randrange(0, 150, 5)))
    return ev


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 1024), seed=st.integers(0, 2**32), favourites=st.booleans())
def test_played_bracket_properties(n: int, seed: int, favourites: bool) -> None:
    rng = random.Random(seed)
    entrants = seed_random(ids(n), rng)
    sched = Schedule.preset("bo1") if n > 200 else PDA
    ev = SingleElimination.create(entrants, sched)
    if favourites:
        # The better seed always wins: seeds 1 and 2 must meet in the final.
        while not ev.is_over:
            for m in ev.pending():
                assert m.a is not None and m.b is not None
                w = min((m.a, m.b), key=ev.seed_of)
                while not ev.match(m.id).is_over:
                    ev = ev.record_game(m.id, w)
        assert set(ev.rounds[-1][0].sides) == set(entrants[:2])
        assert ev.champion == entrants[0]
    else:
        ev = play_out(ev, rng)
    top2 = {entrants[0], entrants[1]}
    alive = set(entrants)
    for r, rnd in enumerate(ev.rounds, start=1):
        seen = [e for m in rnd for e in m.sides if e is not None]
        # Each entrant still in appears exactly once in the round; nobody else does.
        assert sorted(seen) == sorted(alive)
        if r < ev.num_rounds:
            assert not any(set(m.sides) == top2 for m in rnd)
        assert all(not m.bye for m in rnd) or r == 1
        alive -= {m.loser for m in rnd if m.loser is not None}
    assert alive == {ev.champion}
    standings = ev.standings()
    assert standings[0].entrant == ev.champion and standings[0].rank == 1
    assert standings[1].rank == 2 and standings[1].eliminated_in == ev.num_rounds
    assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_match_scores_and_errors() -> None:
    ev = SingleElimination.create(["a", "b", "c", "d"], PDA)
    assert [m.sides for m in ev.rounds[0]] == [("a", "d"), ("b", "c")]
    for _ in range(2):
        ev = ev.record_game("R1M1", "d", (95, 150))
    with pytest.raises(TournamentError, match="does not play"):
        ev.record_game("R1M1", "b")
    with pytest.raises(TournamentError, match="does not have both players"):
        ev.record_game("R2M1", "a")
    with pytest.raises(TournamentError, match="no match"):
        ev.record_game("R9M1", "a")
    ev = ev.record_game("R1M1", "a").record_game("R1M1", "a").record_game("R1M1", "a", (150, 0))
    m = ev.match("R1M1")
    assert m.wins == (3, 2) and m.winner == "a" and m.loser == "d"
    assert [g.scores for g in m.games][-1] == (150, 0)
    with pytest.raises(TournamentError, match="already over"):
        ev.record_game("R1M1", "a")
    ev = ev.record_forfeit("R1M2", "b")
    assert ev.match("R2M1").sides == ("a", "c")
    assert ev.pending() == (ev.match("R2M1"),)
    assert ev.match("R2M1").best_of == 7


def test_schedules() -> None:
    assert [PDA.best_of(r, 7) for r in range(1, 8)] == [5] * 6 + [7]
    custom = Schedule.parse("1,3,5")
    ev = SingleElimination.create(ids(16), custom)
    assert [r[0].best_of for r in ev.rounds] == [1, 3, 5, 5]
    assert Schedule(default=3, final=5, rounds=(1,)).best_of(1, 3) == 1
    assert Schedule(default=3, final=5, rounds=(1,)).best_of(2, 3) == 3
    assert Schedule(default=3, final=5, rounds=(1,)).best_of(3, 3) == 5
    for bad in ("bo4", "2,3", "x", "5,,7"):
        with pytest.raises(TournamentError):
            Schedule.parse(bad)
    assert Schedule.from_json(custom.to_json()) == custom


def test_entrant_checks() -> None:
    with pytest.raises(TournamentError, match="2 to 1024"):
        SingleElimination.create(["a"])
    with pytest.raises(TournamentError, match="2 to 1024"):
        SingleElimination.create(ids(1025))
    with pytest.raises(TournamentError, match="twice"):
        SingleElimination.create(["a", "b", "a"])


def test_seeding() -> None:
    assert seed_by_rating({"x": 1.0, "y": 3.0, "z": 3.0}) == ("y", "z", "x")
    a = seed_random(ids(10), random.Random(7))
    assert a == seed_random(ids(10), random.Random(7)) and sorted(a) == ids(10)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 64), seed=st.integers(0, 2**32))
def test_third_place_is_played_by_the_semi_final_losers(n: int, seed: int) -> None:
    rng = random.Random(seed)
    ev = SingleElimination.create(ids(n), PDA, third_place=True)
    last = ev.num_rounds
    assert [m.id for m in ev.rounds[-1]] == [f"R{last}M1", f"R{last}M2"]
    assert [m.best_of for m in ev.rounds[-1]] == [7, 5]
    ev = play_out(ev, rng)
    semis = ev.rounds[-2]
    assert len(semis) == 2 and all(not m.bye for m in semis)
    third = ev.match(f"R{last}M2")
    assert third.sides == (semis[0].loser, semis[1].loser)
    assert third.is_over and ev.is_over
    final = ev.rounds[-1][0]
    top = [(s.entrant, s.rank) for s in ev.standings()[:4]]
    assert top == [(final.winner, 1), (final.loser, 2), (third.winner, 3), (third.loser, 4)]
    assert all(s.rank >= 5 for s in ev.standings()[4:])
    assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_third_place_waits_for_both_matches() -> None:
    ev = SingleElimination.create(["a", "b", "c", "d"], Schedule.preset("bo1"), True)
    ev = ev.record_game("R1M1", "a").record_game("R1M2", "c")
    assert ev.match("R2M2").sides == ("d", "b")
    ev = ev.record_game("R2M1", "a")
    assert not ev.is_over and ev.champion == "a"
    assert [(s.entrant, s.rank) for s in ev.standings()] == [
        ("a", 1),
        ("c", 2),
        ("b", 3),
        ("d", 3),
    ]
    ev = ev.record_forfeit("R2M2", "d", "no_show")
    assert ev.is_over and ev.match("R2M2").outcome == "no_show"
    assert [s.entrant for s in ev.standings()] == ["a", "c", "b", "d"]
    with pytest.raises(TournamentError, match="at least 4"):
        SingleElimination.create(["a", "b", "c"], PDA, third_place=True)
    with pytest.raises(TournamentError, match="a forfeit is for one of"):
        SingleElimination.create(["a", "b"]).record_forfeit("R1M1", "a", "bored")


def test_the_third_place_match_is_named() -> None:
    """Every format says which matches a bracket names (final, third place, grand final and
    its reset), the JSON carries it, and a pool or an ordinary match has none."""
    ev = SingleElimination.create(ids(8), Schedule.preset("bo1"), third_place=True)
    assert [ev.match_kind(m.id) for m in ev.rounds[-1]] == ["final", "third_place"]
    assert ev.match_kind("R1M1") is None and ev.match_kind("R2M2") is None
    assert [ev.match_title(m) for m in ("R1M1", "R2M1", "R3M1", "R3M2")] == [
        "Quarter-finals",
        "Semi-finals",
        "Final",
        "Third-place match",
    ]
    assert MATCH_KINDS["third_place"].explanation.startswith("The semi-final losers")
    doc = ev.to_json()
    assert [m.get("kind") for m in doc["rounds"][-1]] == ["final", "third_place"]
    assert "kind" not in doc["rounds"][0][0] and tournament_from_json(doc) == ev
    with pytest.raises(TournamentError, match="no match"):
        ev.match_kind("R9M1")
    de = DoubleElimination.create(ids(4), Schedule.preset("bo1"))
    assert de.match_kind("F1M1") == "grand_final" and de.match_kind("L2M1") is None
    assert de.match_title("L1M1") == "Losers' round 1" and de.match_title("F1M1") == "Grand final"
    pools = Pools.create(ids(8), 2, 2, Schedule.preset("bo1"), third_place=True)
    assert pools.match_kind("P1R1M1") is None and pools.match_title("P2R3M1") == "Pools, round 3"
    while pools.bracket is None:
        m = pools.pending()[0]
        pools = pools.record_game(m.id, m.a)  # type: ignore[arg-type]
    assert pools.match_kind("R2M2") == "third_place"
    assert pools.match_title("R2M2") == "Third-place match"
    assert pools.to_json()["bracket"]["rounds"][-1][1]["kind"] == "third_place"
    swiss = Swiss.create(ids(4), rounds=2)
    assert swiss.match_kind("R1M1") is None and swiss.match_title("R1M2") == "Round 1"
