"""Highrise's replay lines (RECORDS.md §5, §6 "Highrise"), built from its events: every
placement is a ``play`` with its ``level``; a draw names its tile.

>>> from boneyard.games.highrise.actions import Place
>>> from boneyard.games.highrise.events import Placed
>>> lines_of(Placed(0, Place((16, 3), ((0, 1), (1, 1)), None, 2, 20), (20, 0)), 0, 2)
... # doctest: +NORMALIZE_WHITESPACE
[{'hand': 0, 'event': 2, 'seat': 0, 'type': 'play', 'tile': 'W-3', 'level': 2, 'points': 20,
  'scores': [20, 0]}]
"""

from __future__ import annotations

from boneyard.core.records import JSON
from boneyard.games.highrise.events import Drew, HighriseEvent, Placed


def lines_of(event: HighriseEvent, hand: int, index: int) -> list[JSON]:
    """The replay line of one Highrise event."""
    line: JSON = {"hand": hand, "event": index, "seat": event.seat}
    points = 0
    if isinstance(event, Placed):
        place = event.place
        line.update(type="play", tile=place.text, level=place.level)
        points = place.points
    elif isinstance(event, Drew):
        line.update(type="draw", tile=str(event.tile))
    else:
        line["type"] = "pass"
    line["points"] = points
    line["scores"] = list(event.scores)
    return [line]
