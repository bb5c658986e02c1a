"""Swiss system: each round paired by the standings, by the criteria of the Dutch system.

A round is paired once the previous one is over, by :func:`boneyard.tournament.pairing.pair_round`
(a maximum-weight matching): no second bye while someone has had none, no rematch while a
pairing without one exists, the bye to the lowest score group, then as few entrants as possible
paired outside their score group, the smallest score differences, and within a score group the
top half against the bottom half in standings order (1 v 5, 2 v 6 ... in a group of eight).
Round 1 is one score group in seed order, so it folds (1 v n/2+1 ...) and an odd field's bye
goes to the lowest seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from boneyard.tournament.base import TournamentBase
from boneyard.tournament.crosstable import Crosstable, crosstable
from boneyard.tournament.errors import TournamentError, check_entrants
from boneyard.tournament.match import Match, match_id
from boneyard.tournament.pairing import Field, pair_round
from boneyard.tournament.schedule import Schedule
from boneyard.tournament.standings import Standing, check_bye_points, ranked, tally

BO1 = Schedule(default=1, final=None)


def max_rounds(n: int) -> int:
    """The most Swiss rounds for ``n`` entrants (a full round robin's worth).

    >>> max_rounds(8), max_rounds(7)
    (7, 7)
    """
    return n - 1 if n % 2 == 0 else n


def default_rounds(n: int) -> int:
    """``ceil(log2 n)`` rounds (at least 1).

    >>> default_rounds(2), default_rounds(9), default_rounds(1024)
    (1, 4, 10)
    """
    return max(1, (n - 1).bit_length())


@dataclass(frozen=True, slots=True)
class Swiss(TournamentBase):
    """A Swiss event of ``planned`` rounds; a round is paired when the previous one is over.

    >>> ev = Swiss.create(["a", "b", "c", "d", "e"], rounds=2)
    >>> [(m.a, m.b) for m in ev.rounds[0]]
    [('a', 'c'), ('b', 'd'), ('e', None)]
    >>> ev = ev.record_game("R1M1", "a").record_game("R1M2", "d")
    >>> [(m.a, m.b) for m in ev.rounds[1]]
    [('a', 'd'), ('e', 'b'), ('c', None)]
    """

    format: ClassVar[str] = "swiss"
    RANKING: ClassVar[tuple[str, ...]] = (
        "points",
        "buchholz",
        "sonneborn_berger",
        "game_difference",
        "seed",
    )
    TIEBREAKS: ClassVar[tuple[str, ...]] = ("buchholz", "sonneborn_berger")

    planned: int = 1
    bye_points: float = 1.0
    """What a bye scores: 1 (a won match, the default), 0.5 or 0."""
    joined: tuple[tuple[str, int], ...] = ()
    """Late entrants and the first round each was paired in."""

    @staticmethod
    def create(
        entrants: Sequence[str],
        rounds: int | None = None,
        schedule: Schedule = BO1,
        bye_points: float = 1.0,
    ) -> Swiss:
        """A Swiss event for ``entrants`` in seed order; ``rounds`` defaults to ceil(log2 n)."""
        check_entrants(entrants, 2, 1024)
        n = len(entrants)
        planned = default_rounds(n) if rounds is None else rounds
        if not 1 <= planned <= max_rounds(n):
            raise TournamentError(
                f"a Swiss event of {n} entrants has 1 to {max_rounds(n)} rounds, not {planned}"
            )
        ev = Swiss(tuple(entrants), schedule, (), planned, check_bye_points(bye_points))
        return ev._pair_next()

    def add_entrant(self, entrant: str) -> Swiss:
        """The event with a late entrant, the lowest seed, who is paired from the next round
        on (the rounds missed score nothing). Only while a round is still to be paired.

        >>> ev = Swiss.create(["a", "b", "c", "d"], rounds=2).add_entrant("e")
        >>> ev = ev.record_game("R1M1", "a").record_game("R1M2", "d")
        >>> [m.sides for m in ev.rounds[1]], ev.first_round("e")
        ([('a', 'd'), ('b', 'c'), ('e', None)], 2)
        """
        check_entrants([*self.entrants, entrant], 2, 1024)
        if len(self.rounds) >= self.planned:
            raise TournamentError(
                f"every round of this event is paired: {entrant} can no longer join"
            )
        joined = (*self.joined, (entrant, len(self.rounds) + 1))
        return replace(self, entrants=(*self.entrants, entrant), joined=joined)

    def _bye_points(self) -> float:
        return self.bye_points

    def first_round(self, entrant: str) -> int:
        """The first round ``entrant`` is paired in (1, or later for a late entrant)."""
        self.seed_of(entrant)
        return dict(self.joined).get(entrant, 1)

    @property
    def num_rounds(self) -> int:
        """The planned number of rounds."""
        return self.planned

    @property
    def current_round(self) -> int:
        """The round being played (each round is paired once the previous one is over)."""
        return len(self.rounds)

    def _field(self) -> Field:
        """The entrants to pair next, best first, with their points and history."""
        ms = self.matches()
        met = frozenset(frozenset((m.a, m.b)) for m in ms if m.a is not None and m.b is not None)
        had_bye = frozenset(m.a for m in ms if m.bye and m.a is not None)
        rows = self.standings()  # before round 1: seed order, no points
        return Field(
            tuple(s.entrant for s in rows), {s.entrant: s.points for s in rows}, met, had_bye
        )

    def _pair_next(self) -> Swiss:
        r = len(self.rounds) + 1
        pairs, bye = pair_round(self._field())
        best_of = self.schedule.best_of(r, self.planned)
        ms = [Match(match_id(r, i), r, i, a, b, best_of) for i, (a, b) in enumerate(pairs)]
        if bye is not None:
            ms.append(Match(match_id(r, len(ms)), r, len(ms), bye, None, best_of, bye=True))
        return replace(self, rounds=(*self.rounds, tuple(ms)))

    def _advanced(self, m: Match) -> Swiss:
        if len(self.rounds) < self.planned and all(x.is_over for x in self.rounds[-1]):
            return self._pair_next()
        return self

    def standings(self) -> tuple[Standing, ...]:
        """By points (a win 1, a bye :attr:`bye_points`), Buchholz (the sum of the opponents'
        points; a bye adds nothing), Sonneborn-Berger (the sum of the points of the opponents
        beaten), game difference, seed. Ranks are unique (the seed settles the last ties)."""
        t = tally(self.entrants, self.matches())
        points = {e: x.wins + x.byes * self.bye_points for e, x in t.items()}
        buchholz = {e: sum(points[o] for o in x.opponents) for e, x in t.items()}
        sb = {e: sum(points[o] for o in x.beaten) for e, x in t.items()}
        return ranked(self.entrants, t, points, {e: (buchholz[e], sb[e]) for e in t})

    def crosstable(self) -> Crosstable:
        """Every entrant's results against every other, in standings order."""
        return crosstable(self.standings(), self.matches())

    def to_json(self) -> dict[str, object]:
        """The JSON form (tournament-api.md), with ``num_rounds``."""
        return {
            **self._json_base(),
            "num_rounds": self.planned,
            "bye_points": self.bye_points,
            "joined": dict(self.joined),
        }

    @staticmethod
    def from_json(doc: dict[str, Any]) -> Swiss:
        """The inverse of :meth:`to_json`."""
        entrants, schedule, rounds = TournamentBase._parse_base(doc, Swiss.format)
        bye_points = check_bye_points(doc.get("bye_points", 1.0))
        joined = tuple((str(e), int(r)) for e, r in doc.get("joined", {}).items())
        return Swiss(entrants, schedule, rounds, int(doc["num_rounds"]), bye_points, joined)
