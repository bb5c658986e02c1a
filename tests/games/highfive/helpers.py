"""Helpers for the High Five tests: its golden records, replay, small games."""

from __future__ import annotations

from tests.games.golden import (
    Golden,
    events_of,
    replay_error,
    replay_lines,
    replay_partial,
    replay_state,
)

GAME = "highfive"
GOLDEN = Golden(GAME)
RECORDS = GOLDEN.dir
golden_names = GOLDEN.names
load = GOLDEN.load
expected = GOLDEN.expected
edited = GOLDEN.edited

__all__ = [
    "RECORDS",
    "edited",
    "events_of",
    "expected",
    "golden_names",
    "load",
    "replay_error",
    "replay_lines",
    "replay_partial",
    "replay_state",
]
