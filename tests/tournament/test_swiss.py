"""Swiss: no rematch while a rematch-free pairing exists (against brute force), byes, tiebreaks."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.tournament import Schedule, Swiss, TournamentError, tournament_from_json
from boneyard.tournament.swiss import max_rounds


def all_pairings(players: list[str]) -> list[list[tuple[str, str]]]:
    """Every perfect pairing of an even list (brute force)."""
    if not players:
        return [[]]
    p, rest = players[0], players[1:]
    out = []
    for j, q in enumerate(rest):
        for sub in all_pairings(rest[:j] + rest[j + 1 :]):
            out.append([(p, q), *sub])
    return out


def rematch_free_exists(players: list[str], met: set[frozenset[str]], had_bye: set[str]) -> bool:
    choices: list[str | None] = [None]
    if len(players) % 2:
        choices = [p for p in players if p not in had_bye]
    for bye in choices:
        rest = [p for p in players if p != bye]
        if any(all(frozenset(pq) not in met for pq in pr) for pr in all_pairings(rest)):
            return True
    return False


def play_round(ev: Swiss, rng: random.Random) -> Swiss:
    r = len(ev.rounds)
    while len(ev.rounds) == r and not ev.is_over:
        m = ev.pending()[0]
        assert m.a is not None and m.b is not None
        if rng.random() < 0.1:
            ev = ev.record_forfeit(m.id, rng.choice((m.a, m.b)))
        else:
            ev = ev.record_game(m.id, rng.choice((m.a, m.b)), (150, rng.randrange(0, 150, 5)))
    return ev


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 9), seed=st.integers(0, 2**32), data=st.data())
def test_no_rematch_while_another_pairing_exists(n: int, seed: int, data: st.DataObject) -> None:
    rng = random.Random(seed)
    entrants = [f"p{i}" for i in range(1, n + 1)]
    rounds = data.draw(st.integers(1, max_rounds(n)))
    ev = Swiss.create(entrants, rounds)
    while True:
        rnd = ev.rounds[-1]
        before = replace(ev, rounds=ev.rounds[:-1])
        met = {frozenset(m.sides) for m in before.matches() if not m.bye}
        had_bye = {m.a for m in before.matches() if m.bye and m.a}
        # Every entrant once per round; at most one bye each, ever.
        assert sorted(e for m in rnd for e in m.sides if e) == entrants
        byes = [m.a for m in rnd if m.bye]
        assert len(byes) == n % 2
        for b in byes:
            assert b not in had_bye
        if any(frozenset(m.sides) in met for m in rnd if not m.bye):
            assert not rematch_free_exists(entrants, met, had_bye)
        if ev.is_over:
            break
        ev = play_round(ev, rng)
    assert len(ev.rounds) == rounds
    assert ev.champion == ev.standings()[0].entrant
    assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_large_field_pairs_without_rematches() -> None:
    rng = random.Random(5)
    entrants = [f"p{i:03d}" for i in range(1, 130)]  # odd: a bye every round
    ev = Swiss.create(entrants, rounds=8)
    while not ev.is_over:
        ev = play_round(ev, rng)
    pairs = [frozenset(m.sides) for m in ev.matches() if not m.bye]
    assert len(pairs) == len(set(pairs)) == 8 * 64
    byes = [m.a for m in ev.matches() if m.bye]
    assert len(byes) == len(set(byes)) == 8


def test_round_one_folds_and_gives_the_bye_to_the_lowest_seed() -> None:
    ev = Swiss.create(["a", "b", "c", "d", "e", "f", "g"], rounds=3)
    assert [m.sides for m in ev.rounds[0]] == [("a", "d"), ("b", "e"), ("c", "f"), ("g", None)]
    ev = Swiss.create(["a", "b", "c", "d"], rounds=2)
    assert [m.sides for m in ev.rounds[0]] == [("a", "c"), ("b", "d")]


def test_tiebreaks_buchholz_then_sonneborn_berger() -> None:
    ev = Swiss.create(["a", "b", "c", "d"], rounds=3)
    ev = ev.record_game("R1M1", "a").record_game("R1M2", "b")
    assert [m.sides for m in ev.rounds[1]] == [("a", "b"), ("c", "d")]
    ev = ev.record_game("R2M1", "a").record_game("R2M2", "c")
    # a 2, b 1, c 1, d 0. b's opponents: d (0) + a (2) = 2; c's: a (2) + d (0) = 2.
    # Sonneborn-Berger: b beat d (0) = 0, c beat d (0) = 0; game difference equal; seed b < c.
    st_ = {s.entrant: s for s in ev.standings()}
    assert st_["b"].tiebreaks == (2.0, 0.0) and st_["c"].tiebreaks == (2.0, 0.0)
    assert [s.entrant for s in ev.standings()] == ["a", "b", "c", "d"]
    # a has met c and b: a v d, b v c.
    assert [m.sides for m in ev.rounds[2]] == [("a", "d"), ("b", "c")]
    ev = ev.record_game("R3M1", "d").record_game("R3M2", "c")
    # Points a 2, c 2, b 1, d 1. Buchholz a: c 2 + b 1 + d 1 = 4; c: a 2 + d 1 + b 1 = 4.
    # Sonneborn-Berger a: beat c 2 + b 1 = 3; c: beat d 1 + b 1 = 2 -> a first.
    # b: Buchholz d 1 + a 2 + c 2 = 5, SB beat d 1; d: Buchholz 5, SB beat a 2 -> d before b.
    s = {x.entrant: x for x in ev.standings()}
    assert s["a"].tiebreaks == (4.0, 3.0) and s["c"].tiebreaks == (4.0, 2.0)
    assert s["b"].tiebreaks == (5.0, 1.0) and s["d"].tiebreaks == (5.0, 2.0)
    assert [x.entrant for x in ev.standings()] == ["a", "c", "d", "b"]
    assert ev.is_over and ev.champion == "a"


def test_round_checks() -> None:
    with pytest.raises(TournamentError, match="1 to 3 rounds"):
        Swiss.create(["a", "b", "c", "d"], rounds=4)
    ev = Swiss.create(
        ["a", "b", "c", "d"],
        rounds=3,
        schedule=Schedule.preset("bo3"),
    )
    assert ev.rounds[0][0].best_of == 3
    ev = ev.record_game("R1M1", "a")
    assert not ev.match("R1M1").is_over and len(ev.rounds) == 1


@settings(max_examples=120, deadline=None)
@given(n=st.integers(3, 7), seed=st.integers(0, 2**32), data=st.data())
def test_late_entry_keeps_the_pairing_rules(n: int, seed: int, data: st.DataObject) -> None:
    rng = random.Random(seed)
    entrants = [f"p{i}" for i in range(1, n + 1)]
    rounds = data.draw(st.integers(2, max_rounds(n)))
    bye_points = data.draw(st.sampled_from([0.0, 0.5, 1.0]))
    ev = Swiss.create(entrants, rounds, bye_points=bye_points)
    late: dict[str, int] = {}
    while True:
        # Newcomers before the next round is paired (at most 3 over the event).
        if len(ev.rounds) < rounds and len(late) < 3 and data.draw(st.booleans()):
            name = f"late{len(late) + 1}"
            ev = ev.add_entrant(name)
            late[name] = len(ev.rounds) + 1
            assert ev.seed_of(name) == len(ev.entrants)
        rnd = ev.rounds[-1]
        r = len(ev.rounds)
        active = [e for e in ev.entrants if late.get(e, 1) <= r]
        before = replace(ev, rounds=ev.rounds[:-1])
        met = {frozenset(m.sides) for m in before.matches() if not m.bye}
        had_bye = {m.a for m in before.matches() if m.bye and m.a}
        assert sorted(e for m in rnd for e in m.sides if e) == sorted(active)
        byes = [m.a for m in rnd if m.bye]
        assert len(byes) == len(active) % 2
        if any(frozenset(m.sides) in met for m in rnd if not m.bye):
            assert not rematch_free_exists(active, met, had_bye)
        for b in byes:  # a second bye only when everyone has had one
            assert b not in had_bye or set(active) <= had_bye
        if ev.is_over:
            break
        ev = play_round(ev, rng)
    for e, first in late.items():
        assert ev.first_round(e) == first
        assert all(e not in m.sides for m in ev.matches() if m.round < first)
    s = {x.entrant: x for x in ev.standings()}
    for e in ev.entrants:
        assert s[e].points == s[e].wins + s[e].byes * bye_points
    assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev
    with pytest.raises(TournamentError, match="can no longer join"):
        ev.add_entrant("too-late")


def test_late_entry_errors() -> None:
    ev = Swiss.create(["a", "b", "c", "d"], rounds=2)
    with pytest.raises(TournamentError, match="twice"):
        ev.add_entrant("a")
    with pytest.raises(TournamentError, match="non-empty"):
        ev.add_entrant("")
    with pytest.raises(TournamentError, match=r"0, 0\.5 or 1"):
        Swiss.create(["a", "b"], bye_points=2)
    ev = ev.add_entrant("e").record_game("R1M1", "a").record_game("R1M2", "b")
    # The newcomer, lowest seed with no points, takes round 2's bye, worth 1 point.
    assert ev.rounds[1][-1].sides == ("e", None)
    assert {s.entrant: s.points for s in ev.standings()}["e"] == 1
    with pytest.raises(TournamentError, match="can no longer join"):
        ev.add_entrant("f")
