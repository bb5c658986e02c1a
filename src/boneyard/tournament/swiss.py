"""Swiss system: rounds paired by standings, no rematch while a rematch-free pairing exists.

Pairing a round:

* order the field: round 1 by seed folded (1 v n/2+1, 2 v n/2+2, ...), later rounds by the
  standings (points, Buchholz, Sonneborn-Berger, game difference, seed);
* odd field: the bye (a won match, 1 point) goes to the lowest-ranked entrant who has not had one
  (nobody gets two), skipping a candidate only if the others cannot then be paired without a
  rematch;
* pair top-down, each entrant with the highest-ranked unpaired entrant they have not met,
  backtracking when the rest cannot be paired: a search over every pairing (memoised, with a
  budget of :data:`SEARCH_BUDGET` steps for very large fields) so a rematch is made only when
  no rematch-free pairing exists. Then rematches are allowed, preferring new opponents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from boneyard.tournament.base import EventBase
from boneyard.tournament.crosstable import Crosstable, crosstable
from boneyard.tournament.errors import TournamentError, check_entrants
from boneyard.tournament.match import Match, match_id
from boneyard.tournament.schedule import Schedule
from boneyard.tournament.standings import Standing, check_bye_points, ranked, tally

SEARCH_BUDGET = 200_000
BO1 = Schedule(default=1, final=None)


class _OutOfBudget(Exception):
    pass


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


def perfect_pairing(
    order: Sequence[str], allowed: Callable[[str, str], bool], budget: int = SEARCH_BUDGET
) -> list[tuple[str, str]] | None:
    """Pair all of ``order`` (even length) using only ``allowed`` pairs: the first entrant with
    the earliest allowed partner, backtracking; ``None`` if impossible.

    Raises ``_OutOfBudget`` after ``budget`` steps.

    >>> perfect_pairing(["a", "b", "c", "d"], lambda x, y: {x, y} != {"a", "b"})
    [('a', 'c'), ('b', 'd')]
    """
    failed: set[frozenset[str]] = set()
    steps = 0

    def solve(rest: tuple[str, ...]) -> list[tuple[str, str]] | None:
        nonlocal steps
        if not rest:
            return []
        key = frozenset(rest)
        if key in failed:
            return None
        p = rest[0]
        for j in range(1, len(rest)):
            steps += 1
            if steps > budget:
                raise _OutOfBudget
            q = rest[j]
            if allowed(p, q):
                sub = solve(rest[1:j] + rest[j + 1 :])
                if sub is not None:
                    return [(p, q), *sub]
        failed.add(key)
        return None

    return solve(tuple(order))


def pair_round(
    order: Sequence[str], met: set[frozenset[str]], had_bye: set[str]
) -> tuple[list[tuple[str, str]], str | None]:
    """Pairings for one round and the bye (``None`` for an even field); ``order`` is best first.

    >>> pair_round(["a", "b", "c"], {frozenset("bc")}, {"c"})
    ([('a', 'c')], 'b')
    """

    def fresh(x: str, y: str) -> bool:
        return frozenset((x, y)) not in met

    candidates: list[str | None] = [None]
    if len(order) % 2:
        candidates = [e for e in reversed(order) if e not in had_bye] or [order[-1]]
    try:
        for bye in candidates:
            rest = [e for e in order if e != bye]
            pairs = perfect_pairing(rest, fresh)
            if pairs is not None:
                return pairs, bye
    except _OutOfBudget:
        pass
    # No rematch-free pairing (or too large to search): allow rematches, new opponents first.
    bye = candidates[0]
    rest = [e for e in order if e != bye]
    pairs = []
    while rest:
        p = rest.pop(0)
        j = next((k for k, q in enumerate(rest) if fresh(p, q)), 0)
        pairs.append((p, rest.pop(j)))
    return pairs, bye


@dataclass(frozen=True, slots=True)
class Swiss(EventBase):
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

    def _order(self) -> list[str]:
        if not self.rounds:
            n = len(self.entrants)
            half = (n + 1) // 2
            top, bottom = self.entrants[:half], self.entrants[half:]
            out = [x for i in range(half) for x in (top[i], *bottom[i : i + 1])]
            return out
        return [s.entrant for s in self.standings()]

    def _pair_next(self) -> Swiss:
        r = len(self.rounds) + 1
        met = {frozenset((m.a, m.b)) for m in self.matches() if m.a is not None and m.b is not None}
        had_bye = {m.a for m in self.matches() if m.bye and m.a is not None}
        order = self._order()
        if not self.rounds and len(order) % 2:
            # Round 1: the bye goes to the lowest seed, the rest fold.
            bye: str | None = self.entrants[-1]
            rest = list(self.entrants[:-1])
            half = len(rest) // 2
            pairs = list(zip(rest[:half], rest[half:], strict=True))
        else:
            pairs, bye = pair_round(order, met, had_bye)
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

    def to_json(self) -> dict[str, Any]:
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
        entrants, schedule, rounds = EventBase._parse_base(doc, Swiss.format)
        bye_points = check_bye_points(doc.get("bye_points", 1.0))
        joined = tuple((str(e), int(r)) for e, r in doc.get("joined", {}).items())
        return Swiss(entrants, schedule, rounds, int(doc["num_rounds"]), bye_points, joined)
