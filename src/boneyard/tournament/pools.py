"""Pools then a bracket: round-robin groups whose best entrants go on to a single- or
double-elimination bracket.

* **Pools.** Entrants are dealt to the pools by seed in a snake (pool 1 gets seeds 1, 2P, 2P+1
  ...; pool P gets seeds P, P+1, 3P ...), so the pools are as even as the seeds allow. Each pool
  is a :class:`~boneyard.tournament.roundrobin.RoundRobin` whose match ids carry the pool
  (``P2R1M3``: pool 2, round 1, match 3). Pools are played side by side, each in round order.
* **Qualifiers.** When every pool is over, the first ``advance`` of each pool go through, seeded
  by pool place (every pool winner before any runner-up ...), then within a place by win rate
  (pools may differ by one in size), game difference and seed. The pool winners therefore hold
  the top bracket seeds and sit in different parts of the bracket.
* **Pool-mates apart.** Where a first-round bracket match would pit two entrants of one pool
  against each other, the lower one swaps with the nearest entrant of the same pool place whose
  move creates no such match (pool winners never move).
* **Bracket.** The bracket's match ids are its own (``R1M1`` or ``W1M1``, ``L1M1``, ``F1M1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from boneyard.tournament.base import VERSION, competition_ranks
from boneyard.tournament.crosstable import Crosstable
from boneyard.tournament.double import DoubleElimination
from boneyard.tournament.elimination import SingleElimination
from boneyard.tournament.errors import TournamentError, check_entrants
from boneyard.tournament.labels import Label, criterion
from boneyard.tournament.match import Match
from boneyard.tournament.roundrobin import BO1, RoundRobin
from boneyard.tournament.schedule import PDA, Schedule
from boneyard.tournament.standings import Standing, standing, tally

Bracket = SingleElimination | DoubleElimination
BRACKETS = ("single", "double")


def snake(entrants: Sequence[str], pools: int) -> list[list[str]]:
    """Entrants (seed order) dealt to ``pools`` pools in a snake.

    >>> snake("abcdefg", 3)
    [['a', 'f', 'g'], ['b', 'e'], ['c', 'd']]
    """
    out: list[list[str]] = [[] for _ in range(pools)]
    for i, e in enumerate(entrants):
        turn, pos = divmod(i, pools)
        out[pos if turn % 2 == 0 else pools - 1 - pos].append(e)
    return out


def apart(order: list[str], pool_of: dict[str, int], tier: dict[str, int]) -> list[str]:
    """``order`` (bracket seeds) with first-round pool-mates moved apart where a swap within a
    pool place can do it (seed ``s`` meets ``size + 1 - s``).

    >>> apart(["a1", "b1", "b2", "a2"], {"a1": 1, "a2": 1, "b1": 2, "b2": 2},
    ...       {"a1": 1, "b1": 1, "a2": 2, "b2": 2})
    ['a1', 'b1', 'a2', 'b2']
    """
    out = list(order)
    size = 1 << (len(out) - 1).bit_length()

    def clash(s: int) -> bool:  # s: 0-based seed
        o = size - 1 - s
        return o < len(out) and o != s and pool_of[out[s]] == pool_of[out[o]]

    for s in range(len(out)):
        o = size - 1 - s
        if o <= s or not clash(s):
            continue
        for other in sorted(range(len(out)), key=lambda x: abs(x - o)):
            if other in (s, o) or tier[out[other]] != tier[out[o]]:
                continue
            out[o], out[other] = out[other], out[o]
            if not clash(s) and not clash(other):
                break
            out[o], out[other] = out[other], out[o]
    return out


@dataclass(frozen=True, slots=True)
class Pools:
    """Round-robin pools, then a bracket of the first ``advance`` of each pool.

    >>> ev = Pools.create(["a", "b", "c", "d", "e", "f"], pools=2, schedule=BO1,
    ...                   bracket_schedule=Schedule.preset("bo1"))
    >>> [p.entrants for p in ev.groups]
    [('a', 'd', 'e'), ('b', 'c', 'f')]
    >>> while ev.bracket is None:
    ...     m = ev.pending()[0]
    ...     ev = ev.record_game(m.id, min(m.sides, key=ev.seed_of))
    >>> ev.qualifiers()  # c and d swapped: a and d are both of pool 1
    ('a', 'b', 'd', 'c')
    >>> [m.sides for m in ev.bracket.rounds[0]]
    [('a', 'c'), ('b', 'd')]
    """

    format: ClassVar[str] = "pools"

    entrants: tuple[str, ...]
    schedule: Schedule
    """Best of N in the pools."""
    groups: tuple[RoundRobin, ...]
    advance: int = 2
    bracket_format: str = "single"
    bracket_schedule: Schedule = PDA
    third_place: bool = False
    reset: bool = True
    bracket: Bracket | None = None
    """The bracket, once every pool is over."""

    @staticmethod
    def create(
        entrants: Sequence[str],
        pools: int,
        advance: int = 2,
        schedule: Schedule = BO1,
        bracket: str = "single",
        bracket_schedule: Schedule = PDA,
        third_place: bool = False,
        reset: bool = True,
        double: bool = False,
    ) -> Pools:
        """``pools`` round robins (``double``: twice round) over ``entrants`` in seed order,
        then a ``single`` or ``double`` elimination bracket of the first ``advance`` of each
        pool (``third_place`` for single, ``reset`` for double elimination)."""
        check_entrants(entrants, 2, 1024)
        n = len(entrants)
        if bracket not in BRACKETS:
            raise TournamentError(f"the bracket is single or double, not {bracket!r}")
        if not 1 <= pools <= n // 2:
            raise TournamentError(f"{n} entrants make 1 to {n // 2} pools, not {pools}")
        groups = snake(entrants, pools)
        smallest, largest = min(map(len, groups)), max(map(len, groups))
        if largest > 64:
            raise TournamentError(f"a pool has at most 64 entrants, not {largest}: add pools")
        if not 1 <= advance <= smallest or pools * advance < 2:
            raise TournamentError(
                f"1 to {smallest} of each pool can go through (and 2 in all), not {advance}"
            )
        if third_place and (bracket != "single" or pools * advance < 4):
            raise TournamentError("a third-place match needs a single-elimination bracket of 4")
        rrs = tuple(
            RoundRobin.create(g, schedule, double, prefix=f"P{i + 1}") for i, g in enumerate(groups)
        )
        return Pools(
            tuple(entrants), schedule, rrs, advance, bracket, bracket_schedule, third_place, reset
        )

    # -- lookup ------------------------------------------------------------------------------

    @property
    def pool_rounds(self) -> int:
        """How many rounds the pool stage has (the largest pool's)."""
        return max(len(g.rounds) for g in self.groups)

    @property
    def rounds(self) -> tuple[tuple[Match, ...], ...]:
        """The pool rounds (round ``r`` of every pool together), then the bracket's rounds."""
        pools = tuple(
            tuple(m for g in self.groups if r < len(g.rounds) for m in g.rounds[r])
            for r in range(self.pool_rounds)
        )
        return pools + (self.bracket.rounds if self.bracket is not None else ())

    @property
    def num_rounds(self) -> int:
        """The rounds known so far (the bracket's once it is drawn)."""
        return len(self.rounds)

    @property
    def current_round(self) -> int:
        """The lowest round (1-based, in :attr:`rounds`) with a match still to decide."""
        for r, rnd in enumerate(self.rounds):
            if not all(m.is_over for m in rnd):
                return r + 1
        return len(self.rounds)

    def matches(self) -> tuple[Match, ...]:
        """Every pool match, then every bracket match."""
        return tuple(m for r in self.rounds for m in r)

    def _part(self, match_id: str) -> tuple[int, RoundRobin | Bracket]:
        """Which pool (index) or the bracket (-1) holds ``match_id``."""
        if match_id.startswith("P"):
            head = match_id[1:].partition("R")[0]
            if head.isdigit() and 1 <= int(head) <= len(self.groups):
                return int(head) - 1, self.groups[int(head) - 1]
        elif self.bracket is not None:
            return -1, self.bracket
        raise TournamentError(f"there is no match {match_id!r} in this event")

    def match(self, match_id: str) -> Match:
        """The match with this id (``P1R2M1`` in pool 1, ``R1M1`` or ``W1M1`` in the bracket)."""
        return self._part(match_id)[1].match(match_id)

    def match_kind(self, match_id: str) -> str | None:
        """The bracket's name for the match (``final``, ``third_place``, ``grand_final`` ...);
        ``None`` for a pool match or an ordinary one."""
        return self._part(match_id)[1].match_kind(match_id)

    def match_title(self, match_id: str) -> str:
        """``Pools, round 2`` for a pool match, else the bracket's title of the match."""
        i, part = self._part(match_id)
        if i == -1:
            return part.match_title(match_id)
        return f"Pools, round {part.match(match_id).round}"

    def pending(self) -> tuple[Match, ...]:
        """The ready matches: each pool's current round, then the bracket's."""
        parts: list[RoundRobin | Bracket] = [*self.groups]
        if self.bracket is not None:
            parts.append(self.bracket)
        return tuple(m for p in parts for m in p.pending())

    def seed_of(self, entrant: str) -> int:
        """An entrant's seed in the event (1-based)."""
        try:
            return self.entrants.index(entrant) + 1
        except ValueError:
            raise TournamentError(f"{entrant!r} is not an entrant of this event") from None

    def pool_of(self, entrant: str) -> int:
        """An entrant's pool (1-based)."""
        self.seed_of(entrant)
        return next(i + 1 for i, g in enumerate(self.groups) if entrant in g.entrants)

    def crosstable(self, pool: int) -> Crosstable:
        """The crosstable of pool ``pool`` (1-based)."""
        if not 1 <= pool <= len(self.groups):
            raise TournamentError(f"there is no pool {pool} (1 to {len(self.groups)})")
        return self.groups[pool - 1].crosstable()

    # -- results -----------------------------------------------------------------------------

    def record_game(
        self, match_id: str, winner: str, scores: tuple[int, int] = (0, 0), reason: str = "target"
    ) -> Pools:
        """The event with one more game of ``match_id``; the bracket is drawn when the last
        pool match is decided."""
        i, part = self._part(match_id)
        return self._with(i, part.record_game(match_id, winner, scores, reason))

    def record_forfeit(self, match_id: str, loser: str, reason: str = "forfeit") -> Pools:
        """The event with ``match_id`` forfeited by ``loser`` (see ``Match.forfeit_reason``)."""
        i, part = self._part(match_id)
        return self._with(i, part.record_forfeit(match_id, loser, reason))

    def _with(self, i: int, part: RoundRobin | Bracket) -> Pools:
        if i < 0:
            assert not isinstance(part, RoundRobin)
            return replace(self, bracket=part)
        assert isinstance(part, RoundRobin)
        new = replace(self, groups=(*self.groups[:i], part, *self.groups[i + 1 :]))
        if all(g.is_over for g in new.groups):
            return replace(new, bracket=new._draw())
        return new

    def qualifiers(self) -> tuple[str, ...]:
        """The bracket's entrants in seed order, from the pool standings (the pools must be
        over)."""
        if not all(g.is_over for g in self.groups):
            raise TournamentError("the bracket is drawn when every pool is over")
        seeds = {e: i for i, e in enumerate(self.entrants)}
        rows = [(p, s) for p, g in enumerate(self.groups) for s in g.standings()]
        picked = sorted(
            (s for _, s in rows if s.rank <= self.advance),
            key=lambda s: (s.rank, -_win_rate(s), -(s.game_wins - s.game_losses), seeds[s.entrant]),
        )
        pool_of = {s.entrant: p for p, s in rows}
        tier = {s.entrant: s.rank for _, s in rows}
        return tuple(apart([s.entrant for s in picked], pool_of, tier))

    def _draw(self) -> Bracket:
        order = self.qualifiers()
        if self.bracket_format == "double":
            return DoubleElimination.create(order, self.bracket_schedule, self.reset)
        return SingleElimination.create(order, self.bracket_schedule, self.third_place)

    @property
    def is_over(self) -> bool:
        """The bracket is decided."""
        return self.bracket is not None and self.bracket.is_over

    @property
    def champion(self) -> str | None:
        """The bracket's champion, once it is over."""
        return self.bracket.champion if self.bracket is not None and self.is_over else None

    def standings(self) -> tuple[Standing, ...]:
        """Bracket entrants by their bracket finish, then the others by pool place (those of
        one place share a rank), listed by win rate, game difference and seed. Points, wins and
        games count the whole event; ``tiebreaks`` is ``(pool place, win rate)``;
        ``eliminated_in`` is a position in :attr:`rounds`."""
        t = tally(self.entrants, self.matches())
        seeds = {e: i + 1 for i, e in enumerate(self.entrants)}
        pool_rows = {s.entrant: s for g in self.groups for s in g.standings()}
        finish: dict[str, tuple[int, int | None]] = {}
        if self.bracket is not None:
            for s in self.bracket.standings():
                out = None if s.eliminated_in is None else s.eliminated_in + self.pool_rounds
                finish[s.entrant] = (s.rank, out)
        pools_over = self.bracket is not None

        def key(e: str) -> tuple[int, int]:
            return (finish[e][0], 0) if e in finish else (len(finish) + 1, pool_rows[e].rank)

        def listing(e: str) -> tuple[float, ...]:
            p = pool_rows[e]
            return (*key(e), -_win_rate(p), -(p.game_wins - p.game_losses), seeds[e])

        order = sorted(self.entrants, key=listing)
        ranks = competition_ranks([key(e) for e in order])
        rows: list[Standing] = []
        for e, rank in zip(order, ranks, strict=True):
            x, p = t[e], pool_rows[e]
            out_in = finish[e][1] if e in finish else (self.pool_rounds if pools_over else None)
            tb = (float(p.rank), round(_win_rate(p), 4))
            rows.append(standing(e, rank, seeds[e], float(x.wins), x, tb, out_in))
        return tuple(rows)

    def ranking(self) -> tuple[Label, ...]:
        """Bracket finish, then pool place, win rate, game difference, seed."""
        keys = ("finish", "pool_place", "win_rate", "game_difference", "seed")
        return tuple(criterion(k) for k in keys)

    def tiebreak_labels(self) -> tuple[Label, ...]:
        """Pool place and win rate."""
        return (criterion("pool_place"), criterion("win_rate"))

    def round_titles(self) -> tuple[str, ...]:
        """``Pools, round 1`` ..., then the bracket's round titles."""
        pools = [f"Pools, round {r}" for r in range(1, self.pool_rounds + 1)]
        return (*pools, *(self.bracket.round_titles() if self.bracket is not None else ()))

    # -- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        """``{"format": "pools", "version": 1, "entrants", "schedule", "pools": [round robin
        JSON, ...], "advance", "bracket_format", "bracket_schedule", "third_place", "reset",
        "bracket": bracket JSON or null}``."""
        return {
            "format": self.format,
            "version": VERSION,
            "entrants": list(self.entrants),
            "schedule": self.schedule.to_json(),
            "pools": [g.to_json() for g in self.groups],
            "advance": self.advance,
            "bracket_format": self.bracket_format,
            "bracket_schedule": self.bracket_schedule.to_json(),
            "third_place": self.third_place,
            "reset": self.reset,
            "bracket": self.bracket.to_json() if self.bracket is not None else None,
        }

    @staticmethod
    def from_json(doc: dict[str, Any]) -> Pools:
        """The inverse of :meth:`to_json`."""
        if doc.get("format") != Pools.format or doc.get("version", VERSION) != VERSION:
            raise TournamentError(f"this is not a pools event: format {doc.get('format')!r}")
        fmt = doc["bracket_format"]
        if fmt not in BRACKETS:
            raise TournamentError(f"the bracket is single or double, not {fmt!r}")
        b = doc.get("bracket")
        bracket: Bracket | None = None
        if b is not None:
            cls = DoubleElimination if fmt == "double" else SingleElimination
            bracket = cls.from_json(b)
        return Pools(
            tuple(doc["entrants"]),
            Schedule.from_json(doc["schedule"]),
            tuple(RoundRobin.from_json(g) for g in doc["pools"]),
            int(doc["advance"]),
            fmt,
            Schedule.from_json(doc["bracket_schedule"]),
            bool(doc.get("third_place", False)),
            bool(doc.get("reset", True)),
            bracket,
        )


def _win_rate(s: Standing) -> float:
    played = s.wins + s.losses
    return s.wins / played if played else 0.0
