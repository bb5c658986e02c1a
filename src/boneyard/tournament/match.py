"""One match between two entrants: games played, wins per side, winner, forfeits, byes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from boneyard.tournament.errors import TournamentError


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One finished game of a match: its winner (entrant id) and final scores (side a, side b).

    ``reason`` is how the game ended: ``target`` (a side reached the target score), ``bogus``
    (PDA 8c–e), ``forfeit``, ``ruling`` ...
    """

    winner: str
    scores: tuple[int, int] = (0, 0)
    reason: str = "target"

    def to_json(self) -> dict[str, Any]:
        """``{"winner": "bob", "scores": [150, 95], "reason": "target"}``."""
        return {"winner": self.winner, "scores": list(self.scores), "reason": self.reason}

    @staticmethod
    def from_json(doc: dict[str, Any]) -> MatchGame:
        """The inverse of :meth:`to_json`."""
        a, b = doc.get("scores", (0, 0))
        return MatchGame(doc["winner"], (int(a), int(b)), doc.get("reason", "target"))


@dataclass(frozen=True, slots=True)
class Match:
    """A best-of-N match. ``a``/``b`` are entrant ids (``None`` while a feeder match is on).

    >>> m = Match("R1M1", 1, 0, "ann", "bo", best_of=3)
    >>> m = m.with_game("bo", (150, 120)).with_game("ann", (150, 5))
    >>> m.wins, m.is_over
    ((1, 1), False)
    >>> m = m.with_game("ann", (150, 60))
    >>> m.winner, m.loser, m.is_over
    ('ann', 'bo', True)
    >>> Match("R1M2", 1, 1, "cy", None, 5, bye=True).winner
    'cy'
    """

    id: str
    round: int
    index: int
    a: str | None
    b: str | None
    best_of: int
    games: tuple[MatchGame, ...] = ()
    forfeit: str | None = None
    """The entrant who forfeited the whole match (the other side wins)."""
    bye: bool = False
    """A walk-over: ``a`` advances without games (``b`` is ``None``)."""
    _winner: str | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        winner: str | None = None
        if self.bye:
            winner = self.a
        elif self.forfeit is not None:
            winner = self.b if self.forfeit == self.a else self.a
        elif self.games:
            wa, wb = self.wins
            needed = self.best_of // 2 + 1
            winner = self.a if wa >= needed else self.b if wb >= needed else None
        object.__setattr__(self, "_winner", winner)

    @property
    def sides(self) -> tuple[str | None, str | None]:
        """``(a, b)``."""
        return (self.a, self.b)

    @property
    def needed(self) -> int:
        """Game wins needed to take the match (3 of 5, 4 of 7)."""
        return self.best_of // 2 + 1

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by side a and side b."""
        wa = sum(1 for g in self.games if g.winner == self.a)
        return (wa, len(self.games) - wa)

    @property
    def winner(self) -> str | None:
        """The match winner once decided (bye: ``a``; forfeit: the other side)."""
        return self._winner

    @property
    def loser(self) -> str | None:
        """The match loser once decided (``None`` for a bye)."""
        w = self.winner
        if w is None or self.bye:
            return None
        return self.b if w == self.a else self.a

    @property
    def is_over(self) -> bool:
        """Decided (including byes and forfeits)."""
        return self.winner is not None

    @property
    def is_ready(self) -> bool:
        """Both sides known and not decided: a game can be played now."""
        return self.a is not None and self.b is not None and not self.is_over

    def side_of(self, entrant: str) -> int:
        """0 for side a, 1 for side b."""
        if entrant == self.a:
            return 0
        if entrant == self.b:
            return 1
        raise TournamentError(f"{entrant!r} does not play in match {self.id}")

    def _check_ready(self, entrant: str) -> None:
        if not self.is_ready:
            why = "is already over" if self.is_over else "does not have both players yet"
            raise TournamentError(f"match {self.id} {why}")
        self.side_of(entrant)

    def with_game(
        self, winner: str, scores: tuple[int, int] = (0, 0), reason: str = "target"
    ) -> Match:
        """This match with one more finished game won by ``winner``."""
        self._check_ready(winner)
        game = MatchGame(winner, (int(scores[0]), int(scores[1])), reason)
        return replace(self, games=(*self.games, game))

    def with_forfeit(self, loser: str) -> Match:
        """This match forfeited by ``loser`` (the games played so far are kept)."""
        self._check_ready(loser)
        return replace(self, forfeit=loser)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (see tournament-api.md)."""
        return {
            "id": self.id,
            "round": self.round,
            "index": self.index,
            "a": self.a,
            "b": self.b,
            "best_of": self.best_of,
            "games": [g.to_json() for g in self.games],
            "forfeit": self.forfeit,
            "bye": self.bye,
        }

    @staticmethod
    def from_json(doc: dict[str, Any]) -> Match:
        """The inverse of :meth:`to_json`."""
        return Match(
            id=doc["id"],
            round=doc["round"],
            index=doc["index"],
            a=doc.get("a"),
            b=doc.get("b"),
            best_of=doc["best_of"],
            games=tuple(MatchGame.from_json(g) for g in doc.get("games", ())),
            forfeit=doc.get("forfeit"),
            bye=doc.get("bye", False),
        )


def match_id(round_no: int, index: int) -> str:
    """``R{round}M{index + 1}``.

    >>> match_id(2, 0)
    'R2M1'
    """
    return f"R{round_no}M{index + 1}"
