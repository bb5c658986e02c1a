"""Double elimination: losses, byes, the grand final and its reset, and rematches kept away."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.tournament import (
    PDA,
    DoubleElimination,
    Schedule,
    TournamentError,
    tournament_from_json,
)
from boneyard.tournament.double import BEFORE_CHARTS, DROP_MASKS, ORDERS

BO1 = Schedule.preset("bo1")


def ids(n: int) -> list[str]:
    return [f"e{i:04d}" for i in range(1, n + 1)]


def play(ev: DoubleElimination, rng: random.Random, forfeits: float = 0.1) -> DoubleElimination:
    while not ev.is_over:
        ready = ev.pending()
        assert ready, "a bracket always has a ready match until it is over"
        m = ready[rng.randrange(len(ready))]
        assert m.a is not None and m.b is not None
        if rng.random() < forfeits:
            ev = ev.record_forfeit(m.id, rng.choice((m.a, m.b)))
        else:
            while not ev.match(m.id).is_over:
                ev = ev.record_game(m.id, rng.choice((m.a, m.b)), (150, rng.randrange(0, 150, 5)))
    return ev


def possible_rematches(k: int, masks: tuple[int, ...]) -> list[set[str]]:
    """An independent model of the losers' bracket: for each losers' round, the matches in
    which two entrants who may already have met can meet (whatever the results).

    A losers' side is a set of (r, j): "the loser of winners' round r match j". The losers of
    (r1, j1) and (r2, j2), r1 < r2, may have met iff match j1 of round r1 lies under match j2
    of round r2 (the later loser may have beaten the earlier one).
    """

    def met(x: tuple[int, int], y: tuple[int, int]) -> bool:
        (r1, j1), (r2, j2) = sorted((x, y))
        return r1 < r2 and j1 >> (r2 - r1) == j2

    def clash(a: set[tuple[int, int]], b: set[tuple[int, int]]) -> bool:
        return any(met(x, y) for x in a for y in b)

    size = 1 << k
    slots = [{(1, 2 * i)} for i in range(size // 4)]
    out = [{f"L1M{i + 1}" for i, s in enumerate(slots) if clash(s, {(1, 2 * i + 1)})}]
    slots = [s | {(1, 2 * i + 1)} for i, s in enumerate(slots)]
    for d in range(1, k):
        r, m, lr = d + 1, size >> (d + 1), 2 * d
        drops = [{(r, j ^ masks[d - 1])} for j in range(m)]
        out.append({f"L{lr}M{j + 1}" for j in range(m) if clash(slots[j], drops[j])})
        slots = [s | x for s, x in zip(slots, drops, strict=True)]
        if m > 1:
            pairs = [(slots[2 * i], slots[2 * i + 1]) for i in range(m // 2)]
            out.append({f"L{lr + 1}M{i + 1}" for i, (a, b) in enumerate(pairs) if clash(a, b)})
            slots = [a | b for a, b in pairs]
    return out


def profile(k: int, masks: tuple[int, ...]) -> list[int]:
    return [len(x) for x in possible_rematches(k, masks)]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 2**32), reset=st.booleans())
def test_played_out_properties(n: int, seed: int, reset: bool) -> None:
    rng = random.Random(seed)
    entrants = ids(n)
    ev = DoubleElimination.create(entrants, BO1, reset)
    size = 1 << ev.k
    half_way = None
    while not ev.is_over:
        ev = play(ev, rng) if half_way else ev
        if half_way is None:
            for _ in range(n):
                ready = ev.pending()
                if ready:
                    m = ready[0]
                    assert m.a is not None and m.b is not None
                    ev = ev.record_game(m.id, rng.choice((m.a, m.b)))
            half_way = ev
            assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev
    champion = ev.champion
    assert champion is not None
    losses = Counter(m.loser for m in ev.matches() if m.loser is not None)
    final = ev.match("F1M1")
    reset_played = any(m.id == "F2M1" for m in ev.matches())
    assert reset_played == (reset and final.winner == final.b)
    for e in entrants:
        if e == champion:
            assert losses[e] == (1 if reset_played else 0) or final.winner == final.b
            assert losses[e] <= 1
        elif not reset and e == final.loser and final.loser == final.a:
            assert losses[e] == 1  # the winners' champion lost the one grand final
        else:
            assert losses[e] == 2, (e, losses[e])
    played = [m for m in ev.matches() if not m.bye]
    assert len(played) == 2 * n - 2 + reset_played
    for m in ev.matches():
        assert m.a != m.b, "nobody plays themself"
        assert m.is_over
    # Byes: winners' round 1, losers' round 1, and losers' round 2 only when round 1 of the
    # losers' bracket cannot fill its matches (fewer than a quarter of the slots played).
    bye_rounds = {m.id.split("M")[0] for m in ev.matches() if m.bye}
    assert bye_rounds <= {"W1", "L1", "L2"}
    if "L2" in bye_rounds:
        assert n - size // 2 < size // 4
    # Every entrant is in winners' round 1 exactly once.
    assert sorted(e for m in ev.rounds[0] for e in m.sides if e) == entrants
    rows = ev.standings()
    assert rows[0].entrant == champion and rows[0].rank == 1
    assert rows[1].entrant == ev.final_match.loser and rows[1].rank == 2
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert tournament_from_json(json.loads(json.dumps(ev.to_json()))) == ev
    assert len(ev.round_titles()) == len(ev.rounds)


@settings(max_examples=40, deadline=None)
@given(k=st.integers(2, 7), seed=st.integers(0, 2**32), full=st.booleans())
def test_no_rematch_where_the_layout_rules_it_out(k: int, seed: int, full: bool) -> None:
    """Played out, a losers' match pits two entrants who met before only where the model says
    the layout allows it."""
    rng = random.Random(seed)
    n = 1 << k if full else rng.randint((1 << (k - 1)) + 1, 1 << k)
    ev = play(DoubleElimination.create(ids(n), BO1), rng, forfeits=0.0)
    allowed = set().union(*possible_rematches(k, DROP_MASKS[k]))
    met: set[frozenset[str]] = set()
    for m in sorted((m for m in ev.matches() if not m.bye), key=play_order):
        pair = frozenset(m.sides)  # type: ignore[arg-type]
        if pair in met and m.id.startswith("L"):
            assert m.id in allowed, f"{m.id}: {sorted(pair)} meet again"
        met.add(pair)


def play_order(m: object) -> tuple[int, int]:
    """Winners' round r is played before losers' round 2r - 2 and after 2r - 3."""
    mid = m.id
    r = int(mid[1:].split("M")[0])
    key = {"W": 2 * r - 2, "L": r, "F": 10_000 + r}[mid[0]]
    return key, 0 if mid[0] == "W" else 1


def test_drop_orders_are_the_charts_then_keep_rematches_late() -> None:
    """Up to 128 slots the drop orders are the printed charts' (brackets-manager's defaults:
    test_double_reference plays them against it); above, where the charts stop, the searched
    masks beat the reverse / half-shift alternation (1,024 slots: no rematch can happen before
    losers' round 13 of 18)."""
    as_lists = {  # the orders as brackets-manager writes them, on a list of m losers
        "natural": lambda x: x,
        "reverse": lambda x: x[::-1],
        "half_shift": lambda x: x[len(x) // 2 :] + x[: len(x) // 2],
        "reverse_half_shift": lambda x: x[: len(x) // 2][::-1] + x[len(x) // 2 :][::-1],
        "pair_flip": lambda x: [y for i in range(0, len(x), 2) for y in (x[i + 1], x[i])],
    }
    for name, order in as_lists.items():
        for m in (2, 4, 8, 16, 32):
            assert order(list(range(m))) == [j ^ ORDERS[name](m) for j in range(m)], (name, m)
    assert DROP_MASKS[3] == (1, 0) and DROP_MASKS[4] == (1, 1, 0)
    assert DROP_MASKS[7] == (31, 8, 1, 1, 1, 0)

    def alternation(k: int) -> tuple[int, ...]:
        return tuple(
            ((1 << (k - d - 1)) - 1) if d % 2 else (1 << (k - d - 1)) // 2 for d in range(1, k)
        )

    for k in range(1, 11):
        assert len(DROP_MASKS[k]) == k - 1
    for k in range(8, 11):
        assert profile(k, DROP_MASKS[k]) <= profile(k, alternation(k)), k
    first = next(i for i, c in enumerate(profile(10, DROP_MASKS[10])) if c)
    assert first + 1 == 13


def test_favourites_winning_meet_again_only_in_the_losers_final() -> None:
    """With every favourite winning, 12 and 16 entrants: two who met in the winners' bracket
    meet again in the losers' bracket only in its final (the older order had 3 v 6 and 4 v 5
    in losers' round 4, who had met in winners' round 2)."""
    for n in (12, 16):
        ev = DoubleElimination.create([f"s{i:02d}" for i in range(1, n + 1)], BO1)
        while not ev.is_over:
            m = ev.pending()[0]
            ev = ev.record_game(m.id, min(m.sides))  # type: ignore[type-var]
        met = {frozenset(m.sides) for m in ev.matches() if m.id.startswith("W") and not m.bye}
        again = [m.id for m in ev.matches() if m.id.startswith("L") and frozenset(m.sides) in met]
        assert again == [f"L{2 * ev.k - 2}M1"], again


def test_eight_entrants_layout() -> None:
    ev = DoubleElimination.create(list("abcdefgh"), PDA)
    assert [m.sides for m in ev.rounds[0]] == [("a", "h"), ("d", "e"), ("b", "g"), ("c", "f")]
    assert [len(r) for r in ev.rounds] == [4, 2, 1, 2, 2, 1, 1, 1]
    assert ev.round_titles() == (
        "Winners' round 1",
        "Winners' round 2",
        "Winners' final",
        "Losers' round 1",
        "Losers' round 2",
        "Losers' round 3",
        "Losers' final",
        "Grand final",
    )
    # Best of 5, the grand final best of 7 (PDA).
    assert [m.best_of for m in ev.matches()] == [5] * 13 + [7]
    for mid, w in [("W1M1", "a"), ("W1M2", "d"), ("W1M3", "b"), ("W1M4", "c")]:
        ev = win_match(ev, mid, w)
    assert [m.sides for m in ev.rounds[3]] == [("h", "e"), ("g", "f")]
    ev = win_match(win_match(ev, "W2M1", "a"), "W2M2", "b")
    # Losers' round 2: the losers of winners' round 2 come in reversed, away from the
    # entrants they beat in round 1.
    ev = win_match(win_match(ev, "L1M1", "h"), "L1M2", "g")
    assert [m.sides for m in ev.rounds[4]] == [("h", "c"), ("g", "d")]


def win_match(ev: DoubleElimination, mid: str, who: str) -> DoubleElimination:
    while not ev.match(mid).is_over:
        ev = ev.record_game(mid, who)
    return ev


def test_grand_final_with_and_without_reset() -> None:
    for reset in (True, False):
        ev = DoubleElimination.create(["a", "b"], BO1, reset)
        assert [m.id for m in ev.matches()] == ["W1M1", "F1M1"]
        ev = ev.record_game("W1M1", "a")
        assert ev.match("F1M1").sides == ("a", "b")
        ev = ev.record_game("F1M1", "b")
        if reset:
            assert not ev.is_over and ev.match("F2M1").sides == ("a", "b")
            assert ev.round_titles()[-1] == "Grand final reset"
            ev = ev.record_game("F2M1", "a")
            assert ev.champion == "a"
            assert [(s.entrant, s.rank, s.eliminated_in) for s in ev.standings()] == [
                ("a", 1, None),
                ("b", 2, 3),
            ]
        else:
            assert ev.is_over and ev.champion == "b"
            assert [s.entrant for s in ev.standings()] == ["b", "a"]
        assert tournament_from_json(ev.to_json()) == ev
    ev = DoubleElimination.create(["a", "b"], BO1).record_game("W1M1", "a")
    ev = ev.record_game("F1M1", "a")
    assert ev.is_over and ev.champion == "a" and len(ev.rounds) == 2


def test_standings_placings() -> None:
    rng = random.Random(3)
    ev = play(DoubleElimination.create(ids(16), BO1, reset=False), rng, forfeits=0.0)
    ranks = [s.rank for s in ev.standings()]
    assert ranks == [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 9, 13, 13, 13, 13]
    titles = ev.round_titles()
    third = ev.standings()[2]
    assert third.eliminated_in is not None
    assert titles[third.eliminated_in - 1] == "Losers' final"


def test_errors_and_json() -> None:
    with pytest.raises(TournamentError, match="2 to 1024"):
        DoubleElimination.create(["a"])
    ev = DoubleElimination.create(ids(5), BO1)
    with pytest.raises(TournamentError, match="no match"):
        ev.record_game("L9M1", "e0001")
    with pytest.raises(TournamentError, match="does not have both players"):
        ev.record_game("F1M1", "e0001")
    doc = ev.to_json()
    assert doc["format"] == "double_elimination" and doc["reset"] is True
    with pytest.raises(TournamentError, match="do not fit"):
        tournament_from_json({**doc, "rounds": doc["rounds"][:2]})


def test_largest_bracket() -> None:
    ev = DoubleElimination.create(ids(1024), PDA)
    assert len(ev.rounds) == 10 + 18 + 1
    assert len(ev.matches()) == 1023 + 1022 + 1
    ev = DoubleElimination.create(ids(513), PDA)
    assert sum(m.bye for m in ev.matches()) == 511 + 255 + 1


def test_a_bracket_stored_before_the_charts_keeps_its_drop_order() -> None:
    """A bracket's JSON carries its drop orders; one stored without them (drawn before the
    charts) goes on with the order it was drawn with, so nobody lands in a taken place."""
    ev = DoubleElimination.create(ids(16), BO1)
    assert ev.drops == DROP_MASKS[4] == (1, 1, 0)
    doc = json.loads(json.dumps(ev.to_json()))
    assert doc["drops"] == [1, 1, 0] and tournament_from_json(doc) == ev
    old = tournament_from_json({k: v for k, v in doc.items() if k != "drops"})
    assert isinstance(old, DoubleElimination) and old.drops == BEFORE_CHARTS[4] == (2, 1, 0)
    for e in (ev, old):
        e = play(e, random.Random(8), forfeits=0.0)
        assert e.is_over and tournament_from_json(e.to_json()) == e
        losses = Counter(m.loser for m in e.matches() if m.loser is not None)
        assert sorted(losses.values()).count(2) == 15
    # The loser of W2M1 drops into L2M{1 XOR mask}: M2 now, M3 in the older bracket.
    w2 = [("W1M1", "e0001"), ("W1M2", "e0008"), ("W2M1", "e0001")]
    for e, place in ((ev, "L2M2"), (old, "L2M3")):
        for mid, w in w2:
            e = e.record_game(mid, w)
        assert e.match(place).b == "e0008"
    with pytest.raises(TournamentError, match="do not fit"):
        tournament_from_json({**doc, "drops": [4, 1, 0]})
