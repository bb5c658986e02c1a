"""Ratings: OpenSkill Plackett-Luce per game and category."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boneyard.tournament import Rating, TournamentError, category_for, rate_game, rate_teams

ratings = st.builds(Rating, st.floats(0, 50), st.floats(0.5, 10), st.integers(0, 1000))


@given(a=ratings, b=ratings, sa=st.integers(0, 149))
def test_winner_rises_loser_falls_deterministic(a: Rating, b: Rating, sa: int) -> None:
    new = rate_game([a, b], (sa, 150), 1, "2p")
    assert new[1].mu > b.mu and new[0].mu < a.mu
    assert new[0].games == a.games + 1 and new[1].games == b.games + 1
    assert new == rate_game([a, b], (sa, 150), 1, "2p")


def test_three_players_rank_by_winner_then_score() -> None:
    new = rate_game([Rating()] * 3, (80, 150, 40), 1, "3p")
    assert new[1].mu > new[0].mu > new[2].mu


def test_partnership_teams() -> None:
    start = [Rating(30, 5), Rating(), Rating(20, 6), Rating()]
    new = rate_game(start, (100, 250, 100, 250), 1, "partnership")
    assert new[1].mu > start[1].mu and new[3].mu > start[3].mu
    assert new[0].mu < start[0].mu and new[2].mu < start[2].mu


def test_tie_and_teams() -> None:
    (a,), (b,) = rate_teams([[Rating()], [Rating()]], [1, 1])
    assert a == b and a.sigma < Rating().sigma


def test_ordinal_json_categories() -> None:
    r = Rating(30.0, 2.0, 5)
    assert r.ordinal == 24.0
    assert Rating.from_json(r.to_json()) == r
    assert [category_for(2), category_for(3), category_for(4), category_for(4, True)] == [
        "2p",
        "3p",
        "4p",
        "partnership",
    ]
    with pytest.raises(TournamentError):
        category_for(5)
    with pytest.raises(TournamentError):
        rate_game([Rating()] * 3, (1, 2, 3), 0, "2p")
    with pytest.raises(TournamentError):
        rate_game([Rating()] * 2, (1, 2), 0, "duel")
