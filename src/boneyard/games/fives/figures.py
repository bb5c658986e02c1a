"""Rules-page pictures of a Fives layout (High Five, Merry-Go-Round): plays checked by the
layout itself, as the view the site's board draws (``GameSpec.figure``)."""

from __future__ import annotations

from typing import Any

from boneyard.core.errors import FigureError
from boneyard.core.tiles import Tile
from boneyard.games.fives.layout import PORT_CODE, Availability, FivesLayout, tile_id
from boneyard.games.fives.play import ends_json, ends_view, placed_views

JSON = dict[str, Any]


def fives_view(spec: str, rule: Availability) -> JSON:
    """The layout after the plays of ``spec``, each checked against the availability ``rule``
    (the lead first, then ``a-b on c-d`` or ``a-b on c-d side_a``); its count and last tile."""
    lay = FivesLayout()
    last = None
    for step in (s.strip() for s in spec.split(";") if s.strip()):
        words = step.lower().split()
        tile = Tile.parse(words[0])
        tid = tile_id(tile.lo, tile.hi)
        if len(words) == 1:
            lay.place(tid)
        else:
            if words[1] != "on" or len(words) not in (3, 4):
                raise FigureError(f"{step!r}: write 'a-b', 'a-b on c-d' or 'a-b on c-d side_a'")
            on = Tile.parse(words[2])
            anchor = tile_id(on.lo, on.hi)
            code = PORT_CODE[words[3].upper()] if len(words) == 4 else None
            fits = [
                p
                for p in lay.available(rule)
                if p[1] == anchor and (code is None or p[2] == code) and tile.has(p[0])
            ]
            if not fits:
                raise FigureError(f"{step!r} is not a legal play on this layout")
            lay.place(tid, anchor, fits[0][2])
        last = str(tile)
    return {
        "layout": [p.to_json() for p in placed_views(lay)],
        "available_ends": ends_json(ends_view(lay.available(rule))),
        "count": lay.count,
        "last": last,
    }
