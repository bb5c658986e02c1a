"""Rules-page pictures of High Fives: a layout and one turn (play, capture, claim) checked like
the engine, as the view the site's board draws (``GameSpec.figure``).

``"0-1 1-2 7-7 8-9 10-15; play 7-8; capture 8-9; claim 0-1 1-2"``; ``points`` is what the turn
wins.
"""

from __future__ import annotations

from boneyard.core.errors import FigureError
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.rules import matches, points

JSON = dict[str, object]


def capture_view(spec: str) -> JSON:
    """A High Fives layout and one turn (play, capture, claim), checked like the engine."""
    parts = [s.strip() for s in spec.split(";") if s.strip()]
    layout = [Tile.parse(t) for t in parts[0].split()]
    turn: dict[str, list[Tile]] = {"play": [], "capture": [], "claim": []}
    for part in parts[1:]:
        word, *tiles = part.split()
        if word not in turn:
            raise FigureError(f"{part!r}: start with play, capture or claim")
        turn[word] = [Tile.parse(t) for t in tiles]
    (played,) = turn["play"]
    claim, capture = turn["claim"], turn["capture"]
    if any(t not in layout for t in claim + capture) or set(claim) & set(capture):
        raise FigureError("a claim and a capture take different tiles of the layout")
    if claim and (len(claim) != 2 or not matches(*claim)):
        raise FigureError("a claim takes two layout tiles that match each other")
    if len(capture) > 1 or (capture and not matches(played, capture[0])):
        raise FigureError("a capture takes one layout tile that matches the tile played")
    rest = [t for t in layout if t not in claim]
    if not capture and any(matches(played, t) for t in rest):
        raise FigureError("capture is compulsory: the tile played matches the layout")
    won = claim + capture + ([played] if capture else [])
    return {
        "hf_layout": [str(t) for t in layout],
        "played": str(played),
        "capture": [str(t) for t in capture],
        "claim": [str(t) for t in claim],
        "points": sum(points(t) for t in won),
    }
