"""Single elimination for 2 to 1,024 entrants: standard seeding, byes to the top seeds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from boneyard.tournament.base import TournamentBase, competition_ranks
from boneyard.tournament.errors import TournamentError, check_entrants
from boneyard.tournament.match import Match, match_id
from boneyard.tournament.schedule import PDA, Schedule
from boneyard.tournament.seeding import bracket_order
from boneyard.tournament.standings import Standing, standing, tally

MAX_ENTRANTS = 1024


@dataclass(frozen=True, slots=True)
class SingleElimination(TournamentBase):
    """A knock-out bracket.

    The bracket has ``2**k >= n`` slots; seed ``s`` meets seed ``2**k + 1 - s`` in round 1
    (:func:`~boneyard.tournament.seeding.bracket_order`), so the ``2**k - n`` byes (missing
    seeds) fall to seeds 1, 2, ... and only in round 1. Round ``r`` match ``i`` is fed by round
    ``r - 1`` matches ``2i`` (side a) and ``2i + 1`` (side b).

    >>> ev = SingleElimination.create(["ann", "bo", "cy"])
    >>> [(m.id, m.a, m.b, m.bye, m.best_of) for m in ev.matches()]
    [('R1M1', 'ann', None, True, 5), ('R1M2', 'bo', 'cy', False, 5),
     ('R2M1', 'ann', None, False, 7)]
    >>> for _ in range(3):
    ...     ev = ev.record_game("R1M2", "cy", (150, 20))
    >>> ev.match("R2M1").sides
    ('ann', 'cy')
    >>> for _ in range(4):
    ...     ev = ev.record_game("R2M1", "ann")
    >>> ev.champion, [(s.entrant, s.rank) for s in ev.standings()]
    ('ann', [('ann', 1), ('cy', 2), ('bo', 3)])
    """

    format: ClassVar[str] = "single_elimination"
    RANKING: ClassVar[tuple[str, ...]] = ("finish", "seed")
    TIEBREAKS: ClassVar[tuple[str, ...]] = ("reached",)

    third_place: bool = False
    """The semi-final losers play for third place (match ``R{last}M2``)."""

    @staticmethod
    def create(
        entrants: Sequence[str], schedule: Schedule = PDA, third_place: bool = False
    ) -> SingleElimination:
        """A bracket for ``entrants`` given in seed order (seed 1 first); ``third_place`` adds
        a match between the semi-final losers (4 entrants or more), as long as a semi-final."""
        check_entrants(entrants, 2, MAX_ENTRANTS)
        n = len(entrants)
        if third_place and n < 4:
            raise TournamentError("a third-place match needs at least 4 entrants")
        total = (n - 1).bit_length()
        size = 1 << total
        order = bracket_order(size)
        first: list[Match] = []
        for i in range(size // 2):
            sa, sb = order[2 * i], order[2 * i + 1]
            a, b = entrants[sa - 1], (entrants[sb - 1] if sb <= n else None)
            first.append(
                Match(match_id(1, i), 1, i, a, b, schedule.best_of(1, total), bye=b is None)
            )
        rounds: list[tuple[Match, ...]] = [tuple(first)]
        for r in range(2, total + 1):
            best_of = schedule.best_of(r, total)
            ms = [Match(match_id(r, i), r, i, None, None, best_of) for i in range(size >> r)]
            if r == 2:  # bye holders are already through to round 2
                for m in first:
                    if m.bye:
                        nxt = ms[m.index // 2]
                        ms[m.index // 2] = (
                            replace(nxt, a=m.a) if m.index % 2 == 0 else replace(nxt, b=m.a)
                        )
            if r == total and third_place:
                ms.append(Match(match_id(r, 1), r, 1, None, None, schedule.best_of(r - 1, total)))
            rounds.append(tuple(ms))
        return SingleElimination(tuple(entrants), schedule, tuple(rounds), third_place)

    def pending(self) -> tuple[Match, ...]:
        """Every match ready to play, in any round (a bracket need not advance evenly)."""
        return tuple(m for m in self.matches() if m.is_ready)

    def _check_playable(self, m: Match) -> None:
        """Any ready match of a bracket may be played."""

    def _advanced(self, m: Match) -> SingleElimination:
        if m.round >= self.num_rounds:
            return self
        side = m.index % 2
        ev = self._seat(m.round, m.index // 2, side, m.winner)
        if self.third_place and m.round == self.num_rounds - 1:
            ev = ev._seat(m.round, 1, side, m.loser)
        return ev

    def _seat(self, r: int, i: int, side: int, entrant: str | None) -> SingleElimination:
        """The event with ``entrant`` on ``side`` of match ``i`` of ``rounds[r]``."""
        nxt = self.rounds[r][i]
        nxt = replace(nxt, a=entrant) if side == 0 else replace(nxt, b=entrant)
        rnd = (*self.rounds[r][:i], nxt, *self.rounds[r][i + 1 :])
        return replace(self, rounds=(*self.rounds[:r], rnd, *self.rounds[r + 1 :]))

    @property
    def champion(self) -> str | None:
        """The winner of the final, once played."""
        return self.rounds[-1][0].winner

    @property
    def is_over(self) -> bool:
        """The final (and the third-place match, if any) is decided."""
        return all(m.is_over for m in self.rounds[-1])

    def round_titles(self) -> tuple[str, ...]:
        """``Round 1`` ... ``Quarter-finals``, ``Semi-finals``, ``Final`` (whose round also
        holds the third-place match, ``R{last}M2``).

        >>> SingleElimination.create([str(i) for i in range(9)]).round_titles()
        ('Round 1', 'Quarter-finals', 'Semi-finals', 'Final')
        """
        k = self.num_rounds
        names = {k: "Final", k - 1: "Semi-finals", k - 2: "Quarter-finals"}
        return tuple(names.get(r, f"Round {r}") for r in range(1, k + 1))

    def match_kind(self, match_id: str) -> str | None:
        """``final`` (``R{last}M1``), ``third_place`` (``R{last}M2``), else ``None``.

        >>> ev = SingleElimination.create(list("abcd"), third_place=True)
        >>> ev.match_kind("R2M2"), ev.match_title("R2M2"), ev.match_title("R1M1")
        ('third_place', 'Third-place match', 'Semi-finals')
        """
        m = self.match(match_id)
        if m.round < self.num_rounds:
            return None
        return "third_place" if m.index == 1 else "final"

    def standings(self) -> tuple[Standing, ...]:
        """Champion, runner-up, (third-place winner, loser), then by the round of elimination
        (later is better); entrants out in the same round share a rank and are listed by seed.
        ``tiebreaks`` is ``(last round reached,)``."""
        reached = dict.fromkeys(self.entrants, 1)
        tier = dict.fromkeys(self.entrants, 0)  # 1: playing for third place
        out_in: dict[str, int] = {}
        lost_last: dict[str, bool] = {}
        for m in self.matches():
            for e in m.sides:
                if e is not None:
                    reached[e] = max(reached[e], m.round)
                    tier[e] = m.index if m.round == self.num_rounds else 0
                    lost_last[e] = m.loser == e
            if m.loser is not None:
                out_in[m.loser] = m.round
        t = tally(self.entrants, self.matches())
        seeds = {e: i + 1 for i, e in enumerate(self.entrants)}

        def key(e: str) -> tuple[int, int, bool]:
            return (-reached[e], tier[e], lost_last.get(e, False))

        order = sorted(self.entrants, key=lambda e: (*key(e), seeds[e]))
        out = []
        for e, rank in zip(order, competition_ranks([key(e) for e in order]), strict=True):
            te = t[e]
            points = float(te.wins + te.byes)
            out.append(standing(e, rank, seeds[e], points, te, (float(reached[e]),), out_in.get(e)))
        return tuple(out)

    def to_json(self) -> dict[str, object]:
        """The JSON form (tournament-api.md), with ``third_place``."""
        return {**self._json_base(), "third_place": self.third_place}

    @staticmethod
    def from_json(doc: dict[str, object]) -> SingleElimination:
        """The inverse of :meth:`to_json`."""
        entrants, schedule, rounds = TournamentBase._parse_base(doc, SingleElimination.format)
        if not rounds:
            raise TournamentError("a bracket has at least one round")
        return SingleElimination(entrants, schedule, rounds, bool(doc.get("third_place", False)))
