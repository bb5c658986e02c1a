"""High Fives' replay lines (RECORDS.md §5, §6 "High Fives"), built from its events: a turn
line per turn, with the played ``tile``, its ``capture`` and ``claim``.

>>> from boneyard.core.tiles import Tile
>>> from boneyard.games.high_fives.actions import Turn
>>> from boneyard.games.high_fives.events import TurnTaken
>>> lines_of(TurnTaken(1, Turn(Tile(2, 5)), False, 0, (3, 0)), 0, 1)
[{'hand': 0, 'event': 1, 'seat': 1, 'type': 'turn', 'tile': '2-5', 'points': 0, 'scores': [3, 0]}]
"""

from __future__ import annotations

from boneyard.core.records import JSON
from boneyard.games.high_fives.events import ClaimMade, HighFivesEvent, TurnTaken


def lines_of(event: HighFivesEvent, hand: int, index: int) -> list[JSON]:
    """The replay line of a turn (a claim step has none: its turn carries the claim)."""
    if not isinstance(event, TurnTaken):
        return []
    ev = event.to_json()
    line: JSON = {"hand": hand, "event": index, "seat": event.seat, "type": "turn"}
    line["tile"] = ev["play"]
    for key in ("capture", "claim"):
        if key in ev:
            line[key] = ev[key]
    line["points"] = event.points
    line["scores"] = list(event.scores)
    return [line]


def log_lines(event: HighFivesEvent, hand: int, index: int) -> list[JSON]:
    """The move log's lines: a turn's replay line, and a claim step's own ``claim`` line (the
    table's log shows the claim as it is made, before the turn that carries it).

    >>> from boneyard.core.tiles import Tile
    >>> log_lines(ClaimMade(0, (Tile(0, 1), Tile(1, 2))), 0, 0)
    [{'seat': 0, 'type': 'claim', 'claim': [['0-1', '1-2']]}]
    """
    if isinstance(event, ClaimMade):
        return [{"seat": event.seat, "type": "claim", "claim": event.to_json()["claim"]}]
    return lines_of(event, hand, index)
