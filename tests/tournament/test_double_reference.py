"""Double elimination against the reference: brackets-manager (npm), the usual printed charts,
played under Node with the same results. Every round's matches (who meets whom, match by
match, byes included) must agree, for 5 to 64 entrants (and 96 and 128) and several patterns:
favourites win, underdogs win, a mix, and the losers' champion forcing a grand-final reset."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from boneyard.tournament import DoubleElimination, Schedule
from tests.services import needs, program

pytestmark = needs("node", "brackets-manager")

SCRIPT = Path(__file__).resolve().parent.parent / "js" / "double_elimination.js"
BO1 = Schedule.preset("bo1")

Rounds = list[list[tuple[int, int] | None]]


def winner(rule: str, x: int, y: int) -> int:
    """The winning seed of a match between seeds ``x`` and ``y`` (the Node script's rule)."""
    lo, hi = min(x, y), max(x, y)
    if rule == "favourite":
        return lo
    if rule == "underdog":
        return hi
    return lo if (lo * 7 + hi * 13) % 5 < 3 else hi


def ours(case: dict[str, object]) -> Rounds:
    """Our bracket played with the case's results: every round's matches as seed pairs in
    match order (``None`` for a bye); losers' round 1 matches that do not exist count as
    ``None`` as the reference lists them."""
    n = int(case["entrants"])  # type: ignore[call-overload]
    rule = str(case["rule"])
    ev = DoubleElimination.create([str(s) for s in range(1, n + 1)], BO1, bool(case["reset"]))
    while not ev.is_over:
        m = ev.pending()[0]
        a, b = int(m.a or 0), int(m.b or 0)
        win = b if case["final"] == "losers" and m.id == "F1M1" else winner(rule, a, b)
        ev = ev.record_game(m.id, str(win))
    size = 1 << ev.k
    out: Rounds = []
    for r, rnd in enumerate(ev.rounds):
        slots: list[tuple[int, int] | None] = [None] * len(rnd)
        if r == ev.k:  # losers' round 1 keeps the ids of the matches it lacks
            slots = [None] * (size // 4)
        for m in rnd:
            if not m.bye and m.a is not None and m.b is not None:
                slots[m.index] = (int(m.a), int(m.b))
        out.append(slots)
    return out


def reference(cases: list[dict[str, object]]) -> list[Rounds]:
    proc = subprocess.run(
        [program("node"), str(SCRIPT)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return [
        [[None if m is None else (m[0], m[1]) for m in rnd] for rnd in bracket]
        for bracket in json.loads(proc.stdout)
    ]


def same(ref: Rounds, got: Rounds) -> bool:
    """Equal round by round, match by match, whichever side each player is on."""
    if len(ref) == len(got) + 1 and ref[-1] == [None]:
        ref = ref[:-1]  # the reset brackets-manager draws in advance, not played
    return [[m and frozenset(m) for m in r] for r in ref] == [
        [m and frozenset(m) for m in r] for r in got
    ]


def test_double_elimination_matches_brackets_manager() -> None:
    patterns = [("favourite", "rule", True), ("underdog", "rule", False), ("mix", "rule", True)]
    reset = ("favourite", "losers", True)  # the losers' champion wins the first grand final
    cases: list[dict[str, object]] = [
        {"entrants": n, "rule": rule, "final": final, "reset": again}
        for n in [*range(5, 65), 96, 128]
        for rule, final, again in [*patterns, *([reset] if n in (5, 12, 16, 33, 64) else [])]
    ]
    refs = reference(cases)
    for case, ref in zip(cases, refs, strict=True):
        got = ours(case)
        assert same(ref, got), f"{case}:\nreference {ref}\nours      {got}"
    # The losers' champion won the first grand final: the reset was played, on both sides.
    assert all(
        len(ref[-1]) == 1 and ref[-1][0]
        for c, ref in zip(cases, refs, strict=True)
        if c["final"] == "losers"
    )
