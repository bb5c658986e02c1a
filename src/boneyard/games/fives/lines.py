"""Replay lines of the Fives events (RECORDS.md §5), built from the events, outside the rules.

>>> from boneyard.core.tiles import Tile
>>> from boneyard.games.fives.events import Placed
>>> fives_lines(Placed(1, Tile(0, 4), Tile(0, 5), None, 10, 10, (10, 20), "play"), 0, 3)
... # doctest: +NORMALIZE_WHITESPACE
[{'hand': 0, 'event': 3, 'seat': 1, 'type': 'play', 'tile': '0-4', 'count': 10, 'points': 10,
  'scores': [10, 20]}]
"""

from __future__ import annotations

from boneyard.core.records import JSON
from boneyard.core.tiles import Tile
from boneyard.games.fives.events import Drew, FivesEvent, Placed


def event_line(
    hand: int,
    event: int,
    seat: int,
    kind: str,
    tile: Tile | None,
    count: int | None,
    points: int,
    scores: tuple[int, ...],
) -> JSON:
    """The replay line of an event (a game adds its own fields after these)."""
    line: JSON = {"hand": hand, "event": event, "seat": seat, "type": kind}
    if tile is not None:
        line["tile"] = str(tile)
    if count is not None:
        line["count"] = count
    line["points"] = points
    line["scores"] = list(scores)
    return line


def fives_lines(event: FivesEvent, hand: int, index: int) -> list[JSON]:
    """The replay line of a placement (``count`` and the points it scored), a draw (its tile:
    replay output is full information) or a pass."""
    if isinstance(event, Placed):
        line = event_line(
            hand,
            index,
            event.seat,
            event.kind,
            event.tile,
            event.count,
            event.points,
            event.scores,
        )
        if event.ruling is not None:
            line["ruling"] = event.ruling
        return [line]
    if isinstance(event, Drew):
        return [event_line(hand, index, event.seat, "draw", event.tile, None, 0, event.scores)]
    return [event_line(hand, index, event.seat, "pass", None, None, 0, event.scores)]
