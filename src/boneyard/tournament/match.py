"""One match between two entrants: games played, wins per side, winner, forfeits, byes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from boneyard.tournament.errors import TournamentError

FORFEIT_REASONS = (
    "forfeit",
    "no_show",
    "abandoned",
    "withdrawn",
    "timeout",
    "ruling",
    "disqualified",
)
"""Why a whole match was forfeited (``Match.forfeit_reason``)."""

_GAME_MARKS = ("ruling", "forfeit", "abandoned", "timeout")
"""Game reasons that mark a decided match (in this order of precedence); ``target`` and
``bogus`` games were played out."""


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One finished game of a match: its winner (entrant id) and final scores (side a, side b).

    ``reason`` is how the game ended: ``target`` (a side reached the target score), ``bogus``
    (PDA 8c–e), ``forfeit``, ``ruling`` ...
    """

    winner: str
    scores: tuple[int, int] = (0, 0)
    reason: str = "target"

    def to_json(self) -> dict[str, object]:
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
    forfeit_reason: str = "forfeit"
    """Why, when ``forfeit`` is set: one of :data:`FORFEIT_REASONS`."""
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
    def outcome(self) -> str | None:
        """How the match was decided, for brackets and standings to mark it: ``None`` while
        undecided, ``bye``, the forfeit's reason (``forfeit``, ``no_show``, ``abandoned`` ...),
        else the first of ``ruling``, ``forfeit``, ``abandoned``, ``timeout`` among its games'
        reasons, else ``played``.

        >>> m = Match("R1M1", 1, 0, "ann", "bo", 1)
        >>> m.outcome, m.with_game("bo", (150, 100), "ruling").outcome
        (None, 'ruling')
        >>> m.with_forfeit("ann", "abandoned").outcome, m.with_game("bo", (5, 150)).outcome
        ('abandoned', 'played')
        """
        if not self.is_over:
            return None
        if self.bye:
            return "bye"
        if self.forfeit is not None:
            return self.forfeit_reason
        reasons = {g.reason for g in self.games}
        return next((r for r in _GAME_MARKS if r in reasons), "played")

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

    def with_forfeit(self, loser: str, reason: str = "forfeit") -> Match:
        """This match forfeited by ``loser`` for ``reason`` (one of :data:`FORFEIT_REASONS`);
        the games played so far are kept."""
        if reason not in FORFEIT_REASONS:
            raise TournamentError(
                f"a forfeit is for one of {', '.join(FORFEIT_REASONS)}, not {reason!r}"
            )
        self._check_ready(loser)
        return replace(self, forfeit=loser, forfeit_reason=reason)

    def to_json(self) -> dict[str, object]:
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
            "forfeit_reason": self.forfeit_reason,
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
            forfeit_reason=doc.get("forfeit_reason", "forfeit"),
            bye=doc.get("bye", False),
        )


def match_id(round_no: int, index: int) -> str:
    """``R{round}M{index + 1}``.

    >>> match_id(2, 0)
    'R2M1'
    """
    return f"R{round_no}M{index + 1}"
