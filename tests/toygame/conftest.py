"""The toy game's one registry line: a fixture, so that the game is known only to the tests
that ask for it (the shipped games' tests, and the site's list of games, never see it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from boneyard.games import registry
from tests.toygame.rules import GAME


@pytest.fixture(autouse=True)
def toy_game() -> Iterator[str]:
    """Toy Line, registered for the test (and unregistered after it)."""
    registry.register(GAME, "tests.toygame")
    yield GAME
    registry.unregister(GAME)
