"""Round robin by the circle method, in the order of the Berger tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from boneyard.tournament.base import TournamentBase
from boneyard.tournament.crosstable import Crosstable, crosstable
from boneyard.tournament.errors import TournamentError, check_entrants
from boneyard.tournament.match import Match, match_id
from boneyard.tournament.schedule import Schedule
from boneyard.tournament.standings import Standing, check_bye_points, ranked, tally

MAX_ENTRANTS = 64
BO1 = Schedule(default=1, final=None)


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Berger tables for seeds ``1..n`` (a dummy ``n + 1`` when ``n`` is odd: meeting it is a
    bye). Round ``r`` (0-based) table ``t``: ``(rh + t) mod (m - 1) + 1`` against
    ``(rh - t) mod (m - 1) + 1`` with ``m`` the even field and ``h = m / 2``; table 0 pits that
    player against ``m``, who takes side a in odd-numbered rounds (the circle method).

    >>> berger_rounds(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    >>> berger_rounds(6)[1]
    [(6, 4), (5, 3), (1, 2)]
    """
    m = n + (n % 2)
    h = m // 2
    out = []
    for r in range(m - 1):
        base = r * h
        p = base % (m - 1) + 1
        rnd = [(p, m) if r % 2 == 0 else (m, p)]
        for t in range(1, h):
            rnd.append(((base + t) % (m - 1) + 1, (base - t) % (m - 1) + 1))
        out.append(rnd)
    return out


@dataclass(frozen=True, slots=True)
class RoundRobin(TournamentBase):
    """Everyone meets everyone once (``double``: twice, sides swapped in the second cycle).

    Every round is laid out at creation; rounds are played in order. With an odd field each
    round has one bye (the entrant drawn against the dummy), which scores nothing.

    >>> ev = RoundRobin.create(["a", "b", "c"])
    >>> [[(m.a, m.b) for m in rnd] for rnd in ev.rounds]
    [[('b', 'c'), ('a', None)], [('a', 'b'), ('c', None)], [('c', 'a'), ('b', None)]]
    """

    format: ClassVar[str] = "round_robin"
    RANKING: ClassVar[tuple[str, ...]] = ("points", "sonneborn_berger", "game_difference", "seed")
    TIEBREAKS: ClassVar[tuple[str, ...]] = ("sonneborn_berger",)

    double: bool = False
    bye_points: float = 0.0
    """What a bye scores: nothing by default (every entrant of an odd field has the same
    number of byes), or 0.5 or 1."""

    @staticmethod
    def create(
        entrants: Sequence[str],
        schedule: Schedule = BO1,
        double: bool = False,
        bye_points: float = 0.0,
        prefix: str = "",
    ) -> RoundRobin:
        """A round robin for ``entrants`` in seed order (2 to 64 entrants); ``prefix`` goes in
        front of the match ids (``P2`` gives ``P2R1M1``: pool 2 of a pools event)."""
        check_entrants(entrants, 2, MAX_ENTRANTS)
        n = len(entrants)
        table = berger_rounds(n)
        cycles = [table, [[(b, a) for a, b in rnd] for rnd in table]] if double else [table]
        flat = [rnd for c in cycles for rnd in c]
        total = len(flat)
        rounds = []
        for r, rnd in enumerate(flat, start=1):
            best_of = schedule.best_of(r, total)
            ms = []
            for a, b in rnd:
                if a > n or b > n:
                    bye = entrants[min(a, b) - 1]
                    ms.append(Match("", r, 0, bye, None, best_of, bye=True))
                else:
                    ms.append(Match("", r, 0, entrants[a - 1], entrants[b - 1], best_of))
            real = [x for x in ms if not x.bye] + [x for x in ms if x.bye]
            rounds.append(
                tuple(
                    Match(prefix + match_id(r, i), r, i, x.a, x.b, best_of, bye=x.bye)
                    for i, x in enumerate(real)
                )
            )
        return RoundRobin(
            tuple(entrants), schedule, tuple(rounds), double, check_bye_points(bye_points)
        )

    def _bye_points(self) -> float | None:
        return self.bye_points if len(self.entrants) % 2 else None

    def standings(self) -> tuple[Standing, ...]:
        """By points (a won match 1; a bye :attr:`bye_points`), Sonneborn-Berger (the sum of
        the points of the opponents beaten), game difference, seed. Ranks are unique."""
        t = tally(self.entrants, self.matches())
        points = {e: x.wins + x.byes * self.bye_points for e, x in t.items()}
        sb = {e: sum(points[o] for o in x.beaten) for e, x in t.items()}
        return ranked(self.entrants, t, points, {e: (sb[e],) for e in t})

    def crosstable(self) -> Crosstable:
        """Every entrant's results against every other, in standings order."""
        return crosstable(self.standings(), self.matches())

    def to_json(self) -> dict[str, object]:
        """The JSON form (tournament-api.md), with ``double``."""
        return {**self._json_base(), "double": self.double, "bye_points": self.bye_points}

    @staticmethod
    def from_json(doc: dict[str, object]) -> RoundRobin:
        """The inverse of :meth:`to_json`."""
        entrants, schedule, rounds = TournamentBase._parse_base(doc, RoundRobin.format)
        if not rounds:
            raise TournamentError("a round robin has at least one round")
        bye_points = check_bye_points(doc.get("bye_points", 0.0))
        return RoundRobin(entrants, schedule, rounds, bool(doc.get("double", False)), bye_points)
