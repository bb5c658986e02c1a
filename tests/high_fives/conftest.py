"""Shared helpers for the High Fives tests (as fixtures: tests here are not importable modules)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from boneyard.core.records import record_from_json
from boneyard.core.tiles import DOUBLE_FIFTEEN, Tile
from boneyard.games.high_fives import HighFivesOptions, HighFivesState, load, replay

RECORDS = Path(__file__).resolve().parents[1] / "records" / "high-fives"


def tiles(text: str) -> list[Tile]:
    """``"0-1 1-2"`` -> tiles."""
    return [Tile.parse(t) for t in text.split()]


def make_position(
    layout: str,
    hand: str,
    *,
    options: HighFivesOptions | None = None,
    players: int = 2,
    left_pairs: Iterable[tuple[str, str]] = (),
    scores: tuple[int, ...] | None = None,
) -> HighFivesState:
    """Seat 0 to play ``hand`` on ``layout``; the other seats hold filler tiles."""
    row, held = tiles(layout), tiles(hand)
    used = set(row) | set(held)
    spare = [t for t in DOUBLE_FIFTEEN if t not in used]
    hands = [held] + [[spare.pop() for _ in range(len(held))] for _ in range(players - 1)]
    pairs = [(Tile.parse(a), Tile.parse(b)) for a, b in left_pairs]
    return HighFivesState.from_position(
        row, hands, options=options, left_pairs=pairs, scores=scores
    )


def turn_set(actions: Iterable[Any]) -> set[tuple[str, str | None, frozenset[frozenset[str]]]]:
    """Turns as comparable ``(tile, capture, claim)`` strings."""
    out = set()
    for a in actions:
        out.add(
            (
                str(a.tile),
                None if a.capture is None else str(a.capture),
                frozenset(frozenset(str(t) for t in p) for p in a.claim),
            )
        )
    return out


def replay_lines(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay lines of a record document."""
    return list(replay(record_from_json(doc)))


def load_doc(doc: dict[str, Any]) -> HighFivesState:
    """The state a record document replays to."""
    return load(record_from_json(doc))


def golden_names() -> list[str]:
    """Every golden record (file stem)."""
    return sorted(p.stem for p in RECORDS.glob("*.json"))


def golden(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A golden record and its expected replay lines."""
    doc = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    text = (RECORDS / f"{name}.jsonl").read_text(encoding="utf-8")
    return doc, [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture
def position() -> Callable[..., HighFivesState]:
    """See :func:`make_position`."""
    return make_position


@pytest.fixture
def helpers() -> Any:
    """The module-level helpers of this conftest."""
    import types

    return types.SimpleNamespace(
        tiles=tiles,
        make_position=make_position,
        turn_set=turn_set,
        replay_lines=replay_lines,
        load_doc=load_doc,
        golden=golden,
        golden_names=golden_names,
        RECORDS=RECORDS,
    )
