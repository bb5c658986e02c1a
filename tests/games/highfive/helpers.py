"""Helpers for the High Five tests: its golden records, replay, small games."""

from __future__ import annotations

import copy
from typing import Any

from tests.games import golden
from tests.games.golden import replay_error, replay_lines, replay_partial, replay_state

GAME = "highfive"
RECORDS = golden.records_dir(GAME)

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


def golden_names() -> list[str]:
    """Every High Five golden record."""
    return golden.golden_names(GAME)


def load(name: str) -> dict[str, Any]:
    """A golden record document."""
    return golden.load(GAME, name)


def expected(name: str) -> list[dict[str, Any]]:
    """A golden record's committed replay output."""
    return golden.expected(GAME, name)


def edited(name: str) -> dict[str, Any]:
    """A golden record to spoil (a deep copy)."""
    return copy.deepcopy(load(name))


def events_of(lines: list[dict[str, Any]], hand: int) -> list[dict[str, Any]]:
    """The event lines of one hand."""
    return [x for x in lines if x.get("hand") == hand and "event" in x]
