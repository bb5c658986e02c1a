"""High Five's replay lines (RECORDS.md §5, docs/records.md), built from its events: the Fives
lines, and a ``ruling`` line for a returned tile or a referee's ruling.

>>> from boneyard.core.tiles import Tile
>>> from boneyard.games.highfive.events import Returned
>>> lines_of(Returned(1, Tile(1, 5), 3, (0, 0)), 0, 2)
... # doctest: +NORMALIZE_WHITESPACE
[{'hand': 0, 'event': 2, 'seat': 1, 'type': 'ruling', 'ruling': 'DRAW_RETRACTED', 'tile': '1-5',
  'points': 0, 'scores': [0, 0]}]
"""

from __future__ import annotations

from boneyard.core.records import JSON
from boneyard.core.tiles import Tile
from boneyard.games.fives.lines import fives_lines
from boneyard.games.highfive.events import HighFiveEvent, Returned, Ruled


def ruling_line(
    hand: int, index: int, seat: int, kind: str, tile: Tile | None, scores: tuple[int, ...]
) -> JSON:
    """The line of a ruling (``tile``: a returned or taken-back tile)."""
    line: JSON = {"hand": hand, "event": index, "seat": seat, "type": "ruling", "ruling": kind}
    if tile is not None:
        line["tile"] = str(tile)
    line["points"] = 0
    line["scores"] = list(scores)
    return line


def lines_of(event: HighFiveEvent, hand: int, index: int) -> list[JSON]:
    """The replay lines of one High Five event."""
    if isinstance(event, Returned):
        return [ruling_line(hand, index, event.seat, "DRAW_RETRACTED", event.tile, event.scores)]
    if isinstance(event, Ruled):
        kind = event.ruling.kind
        return [ruling_line(hand, index, event.seat, kind, event.tile, event.scores)]
    return fives_lines(event, hand, index)
