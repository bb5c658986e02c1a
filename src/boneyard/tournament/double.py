"""Double elimination for 2 to 1,024 entrants: a winners' bracket, a losers' bracket and a grand
final with an optional bracket reset.

Layout, with ``2**k >= n`` slots, as the usual printed charts draw it (the defaults of the
``brackets-manager`` package, which the tests play against):

* **Winners' bracket** (``W{r}M{i}``, rounds 1..k): the single-elimination bracket, standard
  seeding, byes to the top seeds in round 1 only.
* **Losers' bracket** (``L{r}M{i}``, rounds 1..2k-2): round 1 pairs the losers of winners'
  round 1 matches ``2i`` and ``2i + 1``. Round ``2d`` (a *drop* round) sets the survivor of
  losers' match ``j`` (side a) against the loser of winners' round ``d + 1`` match
  ``j XOR DROP_MASKS[k][d - 1]`` (side b); round ``2d + 1`` pairs the winners of matches ``2i``
  and ``2i + 1``. The last drop round is the losers' final.
* **Grand final** (``F1M1``): the winners' champion (side a) against the losers' champion (side
  b). With ``reset``, a win by side b gives both one loss and a second grand final (``F2M1``).

The drop orders are the charts' (:data:`CHARTS`): each drop round takes the winners' losers in
the *natural*, *reverse*, *half shift*, *reverse half shift* or *pair flip* order, which are
all XOR masks on the match index. The charts go up to 128 slots; for 256 to 1,024 (where
``brackets-manager`` falls back to the natural order, which lets two entrants meet again at
once in losers' round 2) the masks were picked by a search so that two entrants who may already
have met can meet again in the losers' bracket as late as possible (docs/tournaments.md).

Byes: the winners' byes leave holes in losers' round 1. A losers' match with one missing
feeder is a bye (its one player goes through when known); with two it does not exist, and the
losers' round 2 match it fed is a bye for the player who drops in. That happens only when fewer
than a quarter of the slots are played in round 1, when losers' round 2 must have byes anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ClassVar

from boneyard.tournament.base import TournamentBase, competition_ranks
from boneyard.tournament.errors import TournamentError, check_entrants
from boneyard.tournament.match import Match
from boneyard.tournament.schedule import PDA, Schedule
from boneyard.tournament.seeding import bracket_order
from boneyard.tournament.standings import Standing, standing, tally

MAX_ENTRANTS = 1024

ORDERS: dict[str, Callable[[int], int]] = {
    "natural": lambda m: 0,
    "reverse": lambda m: m - 1,
    "half_shift": lambda m: m // 2,
    "reverse_half_shift": lambda m: m // 2 - 1,
    "pair_flip": lambda m: 1,
}
"""The usual orders of ``m`` arriving losers, as the XOR mask each is on the match index."""

CHARTS: dict[int, tuple[str, ...]] = {
    2: ("reverse",),
    3: ("reverse", "natural"),
    4: ("reverse_half_shift", "reverse", "natural"),
    5: ("reverse", "half_shift", "natural", "natural"),
    6: ("reverse", "half_shift", "reverse", "natural", "natural"),
    7: ("reverse", "half_shift", "pair_flip", "pair_flip", "pair_flip", "natural"),
}
"""The printed charts' order of each drop round for ``2**k`` slots (``brackets-manager``'s
``defaultMinorOrdering``, whose first entry, losers' round 1, is always the natural order)."""

SEARCHED: dict[int, tuple[int, ...]] = {
    8: (32, 24, 15, 5, 1, 1, 0),
    9: (64, 48, 31, 2, 5, 1, 1, 0),
    10: (128, 96, 63, 8, 6, 5, 2, 1, 0),
}
"""Masks for the sizes the charts do not cover, found by a search (module docstring)."""

DROP_MASKS: dict[int, tuple[int, ...]] = {
    1: (),
    **{
        k: tuple(ORDERS[o](1 << (k - d - 1)) for d, o in enumerate(orders, 1))
        for k, orders in CHARTS.items()
    },
    **SEARCHED,
}
"""For a bracket of ``2**k`` slots, the XOR mask of each drop round (losers' rounds 2, 4, ...):
the loser of winners' round ``d + 1`` match ``i`` drops into losers' match ``i XOR mask``."""

BEFORE_CHARTS: dict[int, tuple[int, ...]] = {
    **SEARCHED,
    1: (),
    2: (0,),
    3: (1, 0),
    4: (2, 1, 0),
    5: (4, 3, 1, 0),
    6: (8, 6, 1, 1, 0),
    7: (16, 12, 2, 2, 1, 0),
}
"""The drop orders of brackets drawn before the charts (searched at every size), which tournaments
stored with them keep (their JSON has no ``drops``)."""

Slot = tuple[str, int]
"""A match id and a side (0: a, 1: b)."""


def _id(section: str, r: int, i: int) -> str:
    return f"{section}{r}M{i + 1}"


@lru_cache(maxsize=32)
def routes(k: int, drops: tuple[int, ...]) -> dict[str, tuple[Slot | None, Slot | None]]:
    """Where the winner and the loser of each match go, for a bracket of ``2**k`` slots whose
    drop rounds take the winners' losers in the order of the masks ``drops`` (``None``: out,
    or the grand final's own rules).

    >>> routes(2, (0,))["W1M2"], routes(2, (0,))["L2M1"]
    ((('W2M1', 1), ('L1M1', 1)), (('F1M1', 1), None))
    """
    size = 1 << k
    out: dict[str, tuple[Slot | None, Slot | None]] = {}
    for r in range(1, k + 1):
        for i in range(size >> r):
            win: Slot = (_id("W", r + 1, i // 2), i % 2) if r < k else ("F1M1", 0)
            if k == 1:
                lose: Slot = ("F1M1", 1)
            elif r == 1:
                lose = (_id("L", 1, i // 2), i % 2)
            else:
                lose = (_id("L", 2 * (r - 1), i ^ drops[r - 2]), 1)
            out[_id("W", r, i)] = (win, lose)
    for lr in range(1, 2 * k - 1):
        for i in range(size >> ((lr + 1) // 2 + 1)):
            if lr % 2 == 1:
                nxt: Slot = (_id("L", lr + 1, i), 0)
            elif lr == 2 * k - 2:
                nxt = ("F1M1", 1)
            else:
                nxt = (_id("L", lr + 1, i // 2), i % 2)
            out[_id("L", lr, i)] = (nxt, None)
    return out


@dataclass(frozen=True, slots=True)
class DoubleElimination(TournamentBase):
    """A double-elimination bracket; ``rounds`` holds the winners' rounds, then the losers'
    rounds, then the grand final (and its reset once needed).

    >>> ev = DoubleElimination.create(["a", "b", "c", "d"], Schedule.preset("bo1"))
    >>> [m.id for m in ev.matches()]
    ['W1M1', 'W1M2', 'W2M1', 'L1M1', 'L2M1', 'F1M1']
    >>> for mid, w in [("W1M1", "a"), ("W1M2", "c"), ("W2M1", "a"), ("L1M1", "d")]:
    ...     ev = ev.record_game(mid, w)
    >>> ev.match("L2M1").sides, ev.match("F1M1").sides
    (('d', 'c'), ('a', None))
    >>> ev = ev.record_game("L2M1", "c").record_game("F1M1", "c")
    >>> ev.match("F2M1").sides, ev.is_over
    (('a', 'c'), False)
    >>> ev.record_game("F2M1", "c").champion
    'c'
    """

    format: ClassVar[str] = "double_elimination"
    RANKING: ClassVar[tuple[str, ...]] = ("finish", "seed")
    TIEBREAKS: ClassVar[tuple[str, ...]] = ("losses",)

    reset: bool = True
    """A win by the losers' champion in the grand final forces a second grand final."""
    drops: tuple[int, ...] = ()
    """The drop order of each drop round, as its XOR mask: :data:`DROP_MASKS` for a new
    bracket; a bracket stored before the charts keeps the order it was drawn with
    (:data:`BEFORE_CHARTS`), so that the losers still to drop land where they were due."""

    @staticmethod
    def create(
        entrants: Sequence[str], schedule: Schedule = PDA, reset: bool = True
    ) -> DoubleElimination:
        """A double-elimination bracket for ``entrants`` in seed order; ``schedule`` counts
        winners' round ``r`` as round ``r`` and losers' round ``l`` as round ``l // 2 + 1`` of
        ``k + 1`` rounds, the grand final being the last (so the ``pda`` final is best of 7)."""
        check_entrants(entrants, 2, MAX_ENTRANTS)
        n = len(entrants)
        k = (n - 1).bit_length()
        size = 1 << k
        order = bracket_order(size)
        rounds: list[tuple[Match, ...]] = []
        for r in range(1, k + 1):
            best_of = schedule.best_of(r, k + 1)
            ms = []
            for i in range(size >> r):
                a = b = None
                if r == 1:
                    sa, sb = order[2 * i], order[2 * i + 1]
                    a, b = entrants[sa - 1], (entrants[sb - 1] if sb <= n else None)
                ms.append(Match(_id("W", r, i), r, i, a, b, best_of, bye=r == 1 and b is None))
            rounds.append(tuple(ms))
        byes = [m.bye for m in rounds[0]]
        for lr in range(1, 2 * k - 1):
            best_of = schedule.best_of(lr // 2 + 1, k + 1)
            ms = []
            for i in range(size >> ((lr + 1) // 2 + 1)):
                fed = (byes[2 * i], byes[2 * i + 1]) if lr <= 2 else (False, False)
                if lr == 1 and all(fed):
                    continue  # both feeders are byes: no match
                bye = any(fed) if lr == 1 else lr == 2 and all(fed)
                ms.append(Match(_id("L", lr, i), lr, i, None, None, best_of, bye=bye))
            rounds.append(tuple(ms))
        rounds.append((Match("F1M1", 1, 0, None, None, schedule.best_of(k + 1, k + 1)),))
        ev = DoubleElimination(tuple(entrants), schedule, tuple(rounds), reset, DROP_MASKS[k])
        for m in rounds[0]:
            if m.bye:
                ev = ev._advanced(m)
        return ev

    @property
    def k(self) -> int:
        """The winners' bracket has ``2**k`` slots and ``k`` rounds."""
        return (len(self.entrants) - 1).bit_length()

    def _guess(self, match_id: str) -> tuple[int, int]:
        r, i = TournamentBase._guess(self, match_id)
        offset = {"W": 0, "L": self.k, "F": 3 * self.k - 2}.get(match_id[:1], -1)
        if offset < 0 or r < 0:
            return -1, -1
        rnd = self.rounds[offset + r] if offset + r < len(self.rounds) else ()
        if i < len(rnd) and rnd[i].id == match_id:
            return offset + r, i
        # Losers' round 1 may lack matches (two byes): look for the index.
        pos = next((p for p, m in enumerate(rnd) if m.id == match_id), -1)
        return offset + r, pos

    def pending(self) -> tuple[Match, ...]:
        """Every match ready to play, in any round (a bracket need not advance evenly)."""
        return tuple(m for m in self.matches() if m.is_ready)

    def _check_playable(self, m: Match) -> None:
        """Any ready match of a bracket may be played."""

    def _advanced(self, m: Match) -> DoubleElimination:
        ev = self
        todo = [m]
        while todo:
            done = todo.pop()
            if done.id.startswith("F"):
                ev = ev._after_final(done)
                continue
            win, lose = routes(self.k, self.drops)[done.id]
            for slot, who in ((win, done.winner), (lose, done.loser)):
                if slot is None or who is None:
                    continue
                ev, seated = ev._seat(slot, who)
                if seated.is_over:  # a bye: its player goes straight on
                    todo.append(seated)
        return ev

    def _seat(self, slot: Slot, entrant: str) -> tuple[DoubleElimination, Match]:
        r, i = self._locate(slot[0])
        m = self.rounds[r][i]
        m = replace(m, a=entrant) if slot[1] == 0 or m.bye else replace(m, b=entrant)
        rnd = (*self.rounds[r][:i], m, *self.rounds[r][i + 1 :])
        return replace(self, rounds=(*self.rounds[:r], rnd, *self.rounds[r + 1 :])), m

    def _after_final(self, m: Match) -> DoubleElimination:
        if m.id != "F1M1" or not self.reset or m.winner != m.b:
            return self
        again = Match("F2M1", 2, 0, m.a, m.b, m.best_of)
        return replace(self, rounds=(*self.rounds, (again,)))

    @property
    def final_match(self) -> Match:
        """The match that decides the event: the grand final, or its reset once played."""
        return self.rounds[-1][0]

    @property
    def is_over(self) -> bool:
        """The grand final (or its reset) is decided and no reset is due."""
        return self.final_match.is_over

    @property
    def champion(self) -> str | None:
        """The winner of the deciding grand final."""
        return self.final_match.winner

    def match_kind(self, match_id: str) -> str | None:
        """``grand_final`` (``F1M1``), ``grand_final_reset`` (``F2M1``), else ``None``."""
        self.match(match_id)
        return {"F1M1": "grand_final", "F2M1": "grand_final_reset"}.get(match_id)

    def round_titles(self) -> tuple[str, ...]:
        """A title for each entry of ``rounds`` (``Winners' round 2``, ``Losers' final`` ...)."""
        k = self.k
        out = [f"Winners' round {r}" for r in range(1, k)] + ["Winners' final"]
        out += [f"Losers' round {r}" for r in range(1, 2 * k - 2)]
        out += ["Losers' final"] if k > 1 else []
        out += ["Grand final", "Grand final reset"][: len(self.rounds) - len(out)]
        return tuple(out)

    def standings(self) -> tuple[Standing, ...]:
        """Entrants still in (fewer losses first, then further on), then the eliminated by the
        round they went out in (later is better): champion, grand-final loser, losers' final
        loser, ... Entrants out in the same round share a rank and are listed by seed.
        ``eliminated_in`` is the 1-based position of that round in ``rounds``
        (:meth:`round_titles` names it); ``tiebreaks`` is ``(losses,)``."""
        where: dict[str, int] = {}
        losses: dict[str, int] = {}
        out_at: dict[str, int] = {}
        for ri, rnd in enumerate(self.rounds):
            for m in rnd:
                where.update((e, ri) for e in m.sides if e is not None)
                lost = m.loser
                if lost is None:
                    continue
                losses[lost] = losses.get(lost, 0) + 1
                if losses[lost] == 2 or (m.id == "F1M1" and not self.reset):
                    out_at[lost] = ri
        t = tally(self.entrants, self.matches())
        seeds = {e: i + 1 for i, e in enumerate(self.entrants)}

        def key(e: str) -> tuple[int, int, int]:
            if e in out_at:
                return (1, -out_at[e], 0)
            return (0, losses.get(e, 0), -where.get(e, 0))

        order = sorted(self.entrants, key=lambda e: (*key(e), seeds[e]))
        rows = []
        for e, rank in zip(order, competition_ranks([key(e) for e in order]), strict=True):
            te = t[e]
            points = float(te.wins + te.byes)
            out = out_at[e] + 1 if e in out_at else None
            rows.append(standing(e, rank, seeds[e], points, te, (float(te.losses),), out))
        return tuple(rows)

    def to_json(self) -> dict[str, object]:
        """The JSON form (tournament-api.md), with ``reset`` and ``drops``."""
        return {**self._json_base(), "reset": self.reset, "drops": list(self.drops)}

    @staticmethod
    def from_json(doc: dict[str, Any]) -> DoubleElimination:
        """The inverse of :meth:`to_json`."""
        entrants, schedule, rounds = TournamentBase._parse_base(doc, DoubleElimination.format)
        k = (len(entrants) - 1).bit_length()
        if len(rounds) not in (3 * k - 1, 3 * k):
            raise TournamentError("the rounds do not fit a double-elimination bracket")
        drops = tuple(int(x) for x in doc["drops"]) if "drops" in doc else BEFORE_CHARTS[k]
        if len(drops) != k - 1 or any(
            not 0 <= x < 1 << (k - d - 1) for d, x in enumerate(drops, 1)
        ):
            raise TournamentError(f"the drop orders {list(drops)} do not fit a bracket of {1 << k}")
        return DoubleElimination(entrants, schedule, rounds, bool(doc.get("reset", True)), drops)
