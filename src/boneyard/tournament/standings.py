"""Standings rows and the per-entrant tallies every format shares."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from boneyard.tournament.errors import TournamentError
from boneyard.tournament.match import Match


class StandingJSON(TypedDict):
    """A :class:`Standing` as JSON (:meth:`Standing.to_json`): the same field names."""

    entrant: str
    rank: int
    seed: int
    points: float
    wins: int
    losses: int
    byes: int
    game_wins: int
    game_losses: int
    tiebreaks: list[float]
    eliminated_in: int | None
    forfeit_wins: int
    forfeit_losses: int


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's line in the standings.

    ``points`` are match points (win 1, loss 0, a bye what the format says). ``tiebreaks`` are
    the format's tie-break values in order (Swiss: Buchholz, Sonneborn-Berger; round robin:
    Sonneborn-Berger; single elimination: the last round reached; double elimination: the
    losses); ``Tournament.tiebreak_labels()`` names and explains them.
    """

    entrant: str
    rank: int
    seed: int
    points: float
    wins: int
    losses: int
    byes: int
    game_wins: int
    game_losses: int
    tiebreaks: tuple[float, ...] = ()
    eliminated_in: int | None = None
    forfeit_wins: int = 0
    """Matches won because the opponent forfeited (no-show, abandonment ...), among ``wins``."""
    forfeit_losses: int = 0
    """Matches lost by forfeit, among ``losses``."""

    def to_json(self) -> StandingJSON:
        """A JSON-ready dict with the same field names."""
        return {
            "entrant": self.entrant,
            "rank": self.rank,
            "seed": self.seed,
            "points": self.points,
            "wins": self.wins,
            "losses": self.losses,
            "byes": self.byes,
            "game_wins": self.game_wins,
            "game_losses": self.game_losses,
            "tiebreaks": list(self.tiebreaks),
            "eliminated_in": self.eliminated_in,
            "forfeit_wins": self.forfeit_wins,
            "forfeit_losses": self.forfeit_losses,
        }


def check_bye_points(value: object) -> float:
    """What a bye may score: 0, 0.5 or 1 match points.

    >>> check_bye_points(0.5)
    0.5
    """
    if isinstance(value, bool) or value not in (0, 0.5, 1):
        raise TournamentError(f"a bye scores 0, 0.5 or 1 point, not {value!r}")
    return float(value)


@dataclass(slots=True)
class Tally:
    """Mutable working totals for one entrant (internal to standings computations)."""

    wins: int = 0
    losses: int = 0
    byes: int = 0
    game_wins: int = 0
    game_losses: int = 0
    forfeit_wins: int = 0
    forfeit_losses: int = 0
    opponents: list[str] = field(default_factory=list)
    beaten: list[str] = field(default_factory=list)


def tally(entrants: Iterable[str], matches: Iterable[Match]) -> dict[str, Tally]:
    """Wins, losses, byes, games and opponents from the finished matches.

    >>> t = tally(["a", "b"], [Match("R1M1", 1, 0, "a", "b", 1).with_game("b", (9, 150))])
    >>> t["b"].wins, t["a"].losses, t["a"].opponents, t["b"].game_wins
    (1, 1, ['b'], 1)
    """
    out = {e: Tally() for e in entrants}
    for m in matches:
        if m.bye:
            if m.a is not None:
                out[m.a].byes += 1
            continue
        if m.a is None or m.b is None:
            continue
        wa, wb = m.wins
        out[m.a].game_wins += wa
        out[m.a].game_losses += wb
        out[m.b].game_wins += wb
        out[m.b].game_losses += wa
        w = m.winner
        if w is None:
            continue
        loser = m.loser
        assert loser is not None
        out[w].wins += 1
        out[w].beaten.append(loser)
        out[loser].losses += 1
        if m.forfeit is not None:
            out[w].forfeit_wins += 1
            out[loser].forfeit_losses += 1
        out[m.a].opponents.append(m.b)
        out[m.b].opponents.append(m.a)
    return out


def standing(
    entrant: str,
    rank: int,
    seed: int,
    points: float,
    t: Tally,
    tiebreaks: tuple[float, ...],
    eliminated_in: int | None = None,
) -> Standing:
    """The standings row of ``entrant`` from its tally."""
    return Standing(
        entrant,
        rank,
        seed,
        points,
        t.wins,
        t.losses,
        t.byes,
        t.game_wins,
        t.game_losses,
        tiebreaks,
        eliminated_in,
        t.forfeit_wins,
        t.forfeit_losses,
    )


def ranked(
    entrants: Sequence[str],
    tallies: dict[str, Tally],
    points: dict[str, float],
    tiebreaks: dict[str, tuple[float, ...]],
) -> tuple[Standing, ...]:
    """Standings by points, then each tie-break in order (higher is better), game
    difference, seed (``entrants`` are in seed order). Ranks are unique.

    >>> t = tally(["a", "b"], [Match("R1M1", 1, 0, "a", "b", 1).with_game("b", (9, 150))])
    >>> rows = ranked(["a", "b"], t, {"a": 0.0, "b": 1.0}, {"a": (), "b": ()})
    >>> [(s.entrant, s.rank) for s in rows]
    [('b', 1), ('a', 2)]
    """
    seeds = {e: i + 1 for i, e in enumerate(entrants)}

    def key(e: str) -> tuple[float, ...]:
        x = tallies[e]
        tb = tuple(-v for v in tiebreaks[e])
        return (-points[e], *tb, -(x.game_wins - x.game_losses), seeds[e])

    order = sorted(entrants, key=key)
    return tuple(
        standing(e, i + 1, seeds[e], points[e], tallies[e], tiebreaks[e])
        for i, e in enumerate(order)
    )
