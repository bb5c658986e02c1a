"""What every game of the registry must do the same way."""

from __future__ import annotations

import random

import pytest

from boneyard.core.errors import BoneyardError
from boneyard.games.registry import available_games, get_spec

GAMES = available_games()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seat", [-1, -2, 2, 5, True])
def test_observation_refuses_a_seat_that_is_not_at_the_table(game: str, seat: object) -> None:
    """A negative seat is not Python's "count from the end" (it would show the last seat's
    hand), and a seat past the table is a clear error, not an IndexError."""
    state = get_spec(game).new_game(2, {})
    state.deal_random(random.Random(1))
    with pytest.raises(BoneyardError, match=r"there is no seat .* \(seats 0-1\)"):
        state.observation(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_observation_of_every_seat_and_a_spectator(game: str) -> None:
    state = get_spec(game).new_game(2, {})
    state.deal_random(random.Random(1))
    for seat in (None, 0, 1):
        assert state.observation(seat).seat == seat
