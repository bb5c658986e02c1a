"""Player ratings with OpenSkill (Plackett-Luce), kept per game and player-count category.

A rating is a pure value (``mu``, ``sigma``, games rated); :func:`rate_game` gives the seats'
new ratings after one rated game, :attr:`Rating.ordinal` (``mu - 3 sigma``) ranks leaderboards
and seeds tournaments. Key ratings by (player, game, category), e.g. ``("ann", "highfive", "2p")``.

>>> new = rate_game([Rating(), Rating()], scores=(150, 95), winner=0, category="2p")
>>> new[0].mu > 25 > new[1].mu, new[0].games
(True, 1)
>>> round(new[0].ordinal, 3), round(new[1].ordinal, 3)
(3.438, -1.833)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from boneyard.tournament.errors import TournamentError

CATEGORIES = ("2p", "3p", "4p", "partnership")
"""``2p`` duels, ``3p`` and ``4p`` every player for themself, ``partnership`` 4 players in two
teams (seats 0+2 against 1+3)."""

MU = 25.0
SIGMA = MU / 3

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def category_for(players: int, partnerships: bool = False) -> str:
    """The rating category of a game.

    >>> category_for(2), category_for(4), category_for(4, partnerships=True)
    ('2p', '4p', 'partnership')
    """
    if partnerships:
        if players != 4:
            raise TournamentError(f"partnership games have 4 players, not {players}")
        return "partnership"
    if players not in (2, 3, 4):
        raise TournamentError(f"rated games have 2 to 4 players, not {players}")
    return f"{players}p"


@dataclass(frozen=True, slots=True)
class Rating:
    """An OpenSkill rating: skill estimate ``mu`` and its uncertainty ``sigma``.

    >>> Rating().ordinal
    0.0
    >>> Rating.from_json(Rating(27.5, 7.0, 3).to_json())
    Rating(mu=27.5, sigma=7.0, games=3)
    """

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a conservative skill figure for leaderboards and seeding."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, object]:
        """``{"mu": 25.0, "sigma": 8.333, "games": 0}``."""
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @staticmethod
    def from_json(doc: dict[str, Any]) -> Rating:
        """The inverse of :meth:`to_json`."""
        return Rating(float(doc["mu"]), float(doc["sigma"]), int(doc.get("games", 0)))


def rate_teams(
    teams: Sequence[Sequence[Rating]], ranks: Sequence[int]
) -> tuple[tuple[Rating, ...], ...]:
    """New ratings after one game between ``teams`` (a team may be one player); ``ranks``: 1 is
    best, equal ranks tie.

    >>> (w,), (l,) = rate_teams([[Rating()], [Rating()]], [1, 2])
    >>> w.mu > l.mu
    True
    """
    if len(teams) < 2 or len(ranks) != len(teams) or any(not t for t in teams):
        raise TournamentError("rate at least two non-empty teams, one rank per team")
    model_teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in t] for t in teams]
    rated = _MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
    return tuple(
        tuple(
            Rating(float(n.mu), float(n.sigma), old.games + 1)
            for n, old in zip(new_t, old_t, strict=True)
        )
        for new_t, old_t in zip(rated, teams, strict=True)
    )


def _ranks(
    scores: Sequence[int], winner: int | None, left: Sequence[bool] | None = None
) -> list[int]:
    """Competition ranks: whoever stayed before whoever left, then the winner, then by score
    (higher is better)."""
    stayed = [not x for x in left] if left is not None else [True] * len(scores)
    keys = [(stayed[i], i == winner, s) for i, s in enumerate(scores)]
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


def rate_game(
    ratings: Sequence[Rating],
    scores: Sequence[int],
    winner: int | None,
    category: str,
    leavers: Sequence[int] = (),
) -> tuple[Rating, ...]:
    """New ratings by seat after one rated game (``scores`` and ``winner`` as in the game's
    result). ``partnership``: seats 0+2 play 1+3, a team ranked by its winner seat, then by
    its best score; otherwise every seat ranks alone, the winner first, then by score.

    ``leavers``: seats whose person left the game (abandoned it or ran out of time; a bot
    finished it): they rank last whatever the score, so leaving a lost game never saves a
    rating (a team with a leaver ranks last).

    >>> new = rate_game([Rating()] * 4, (61, 40, 61, 40), 0, "partnership")
    >>> new[0] == new[2], new[0].mu > new[1].mu
    (True, True)
    >>> leaver, stayer = rate_game([Rating(), Rating()], (150, 90), 0, "2p", leavers=[0])
    >>> leaver.mu < stayer.mu
    True
    """
    if category not in CATEGORIES:
        raise TournamentError(f"rating category {category!r} is unknown ({', '.join(CATEGORIES)})")
    n = len(ratings)
    if len(scores) != n:
        raise TournamentError("give one score per seat")
    if category == "partnership":
        if n != 4:
            raise TournamentError("a partnership game has 4 seats")
        team_scores = [max(scores[0], scores[2]), max(scores[1], scores[3])]
        team_winner = None if winner is None else winner % 2
        team_left = [any(s % 2 == t for s in leavers) for t in (0, 1)]
        (a0, a2), (b1, b3) = rate_teams(
            [[ratings[0], ratings[2]], [ratings[1], ratings[3]]],
            _ranks(team_scores, team_winner, team_left),
        )
        return (a0, b1, a2, b3)
    if category != f"{n}p":
        raise TournamentError(f"a {n}-player game is not in category {category!r}")
    left = [i in leavers for i in range(n)]
    rated = rate_teams([[r] for r in ratings], _ranks(scores, winner, left))
    return tuple(t[0] for t in rated)
