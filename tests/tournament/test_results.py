"""What the result pages show: crosstables, labelled tiebreaks, round titles, and results
marked by how they ended (forfeit, abandonment, ruling, bye)."""

from __future__ import annotations

import json
import random
from dataclasses import fields
from typing import get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boneyard.tournament import (
    DoubleElimination,
    RoundRobin,
    Schedule,
    SingleElimination,
    Swiss,
    TournamentError,
)
from boneyard.tournament.labels import CRITERIA, OUTCOMES, outcome_label
from boneyard.tournament.match import FORFEIT_REASONS
from boneyard.tournament.standings import Standing, StandingJSON

BO3 = Schedule.preset("bo3")


def play(ev, rng: random.Random):  # type: ignore[no-untyped-def]
    """Random results: a tenth forfeited (any reason), some games ruled by the director."""
    while not ev.is_over:
        m = ev.pending()[0]
        if rng.random() < 0.1:
            ev = ev.record_forfeit(m.id, rng.choice(m.sides), rng.choice(FORFEIT_REASONS))
            continue
        while not ev.match(m.id).is_over:
            reason = "ruling" if rng.random() < 0.05 else "target"
            ev = ev.record_game(m.id, rng.choice(m.sides), (150, 95), reason)
    return ev


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 12), seed=st.integers(0, 2**32), double=st.booleans())
def test_round_robin_crosstable(n: int, seed: int, double: bool) -> None:
    rng = random.Random(seed)
    ev = play(RoundRobin.create([f"p{i}" for i in range(n)], BO3, double), rng)
    table = ev.crosstable()
    rows = ev.standings()
    assert table.order == tuple(s.entrant for s in rows)
    flip = {"win": "loss", "loss": "win"}
    for i, a in enumerate(table.order):
        assert table.cell(a, a) == ()
        assert sum(c.result == "win" for row in table.cells[i] for c in row) == rows[i].wins
        assert len(table.byes[i]) == rows[i].byes
        for b in table.order:
            if a == b:
                continue
            there, back = table.cell(a, b), table.cell(b, a)
            assert len(there) == (2 if double else 1)  # every pool member meets every other
            for x, y in zip(there, back, strict=True):
                assert (x.match_id, x.round, x.outcome) == (y.match_id, y.round, y.outcome)
                assert flip[x.result or ""] == y.result and x.games == y.games[::-1]
                assert x.outcome == ev.match(x.match_id).outcome
    doc = json.loads(json.dumps(table.to_json()))
    assert [r["standing"]["entrant"] for r in doc["rows"]] == list(table.order)
    with pytest.raises(TournamentError, match="not in this table"):
        table.cell("p0", "nobody")


def test_outcomes_mark_matches_and_standings() -> None:
    ev = SingleElimination.create(["a", "b", "c", "d"], Schedule.preset("bo1"))
    ev = ev.record_forfeit("R1M1", "d", "no_show")
    ev = ev.record_game("R1M2", "c", (150, 100), "bogus")
    ev = ev.record_game("R2M1", "a", (150, 120), "ruling")
    assert [m.outcome for m in ev.matches()] == ["no_show", "played", "ruling"]
    rows = {s.entrant: s for s in ev.standings()}
    assert (rows["a"].forfeit_wins, rows["d"].forfeit_losses, rows["c"].forfeit_losses) == (1, 1, 0)
    assert rows["a"].to_json()["forfeit_wins"] == 1
    ev = Swiss.create(["a", "b", "c"], rounds=2)
    assert ev.match("R1M2").outcome == "bye" and ev.match("R1M1").outcome is None
    for key in (*FORFEIT_REASONS, "played", "bye", "target", "bogus"):
        label = outcome_label(key)
        assert label.name and label.explanation.endswith(".")
    assert outcome_label("penalty").to_json() == {
        "key": "penalty",
        "name": "Penalty",
        "short": "penalty",
        "explanation": "",
    }
    assert set(FORFEIT_REASONS) <= set(OUTCOMES)


def test_every_format_labels_its_tiebreaks() -> None:
    rng = random.Random(1)
    names = [f"p{i}" for i in range(6)]
    events = [
        SingleElimination.create(names, BO3, third_place=True),
        DoubleElimination.create(names, BO3),
        Swiss.create(names, 3, BO3, bye_points=0.5),
        RoundRobin.create(names[:5], BO3, bye_points=0.5),
    ]
    events = [play(ev, rng) for ev in events]
    for ev in events:
        rows = ev.standings()
        labels = ev.tiebreak_labels()
        assert all(len(s.tiebreaks) == len(labels) for s in rows), ev.format
        ranking = ev.ranking()
        assert ranking[-1].key == "seed"
        assert {x.key for x in labels} <= set(CRITERIA)
        for x in (*labels, *ranking):
            assert x.name and x.short and x.explanation.endswith(".")
        assert len(ev.round_titles()) == len(ev.rounds)
    assert [x.name for x in events[2].tiebreak_labels()] == ["Buchholz", "Sonneborn-Berger"]
    assert events[2].ranking()[0].explanation == "Match points: a win 1, a loss 0, a bye 0.5."
    assert events[3].ranking()[0].explanation.endswith("a bye 0.5.")
    even = RoundRobin.create(names)
    assert even.ranking()[0].explanation == "Match points: a win 1, a loss 0."
    assert events[0].round_titles() == ("Quarter-finals", "Semi-finals", "Final")
    assert events[2].round_titles() == ("Round 1", "Round 2", "Round 3")


def test_a_standings_json_shape_names_every_field_of_a_standing() -> None:
    """StandingJSON (the type the views import) is written beside Standing as a twin field
    list: a field added to one and not the other, or left out of to_json, fails here."""
    names = [f.name for f in fields(Standing)]
    assert list(get_type_hints(StandingJSON)) == names
    line = Standing("ann", 1, 1, 2.0, 2, 0, 0, 4, 1, (1.5,), None, 1, 0)
    assert list(line.to_json()) == names
