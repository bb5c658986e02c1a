"""Rules-page pictures of a Highrise tower: a basement and placements checked by the tower
itself, as the view the site's board draws (``GameSpec.figure``).

``"5/1 2/3 4/6 W/0 3/3 6/2 1/4 5/6; 5-2 at 0,0 0,1"``: the eight basement dominoes (upper/lower
face, slot by slot), then placements (the first face on the first cell); ``points`` is the last
placement's score.
"""

from __future__ import annotations

import re

from boneyard.core.errors import FigureError
from boneyard.core.tiles import WILD, Tile
from boneyard.games.highrise.tower import GEOMETRIES, Tower, face_text

JSON = dict[str, object]


def _face(text: str) -> int:
    return WILD if text.upper() == "W" else int(text)


def tower_view(spec: str) -> JSON:
    """The 4×4 tower after the basement and placements of ``spec``; ``points`` of the last."""
    geo = GEOMETRIES["4x4_two_rows"]
    parts = [s.strip() for s in spec.split(";") if s.strip()]
    slots = parts[0].split()
    if len(slots) != 8:
        raise FigureError("a tower figure starts with the eight basement dominoes")
    names: dict[int, str] = {}
    basement = []
    for k, slot in enumerate(slots):
        up, low = slot.split("/")
        basement.append((k, _face(up), _face(low)))
        names[k] = str(Tile.of(_face(up), _face(low)))
    tower = Tower.from_basement(geo, basement, 12, wild_on_wild_literal=True)
    scored = 0
    placed: list[JSON] = []
    for n, step in enumerate(parts[1:], start=8):
        m = re.fullmatch(r"(\w+)-(\w+) at (\d),(\d) (\d),(\d)", step)
        if not m:
            raise FigureError(f"{step!r}: write 'a-b at r,c r,c'")
        fa, fb = _face(m[1]), _face(m[2])
        i = geo.index((int(m[3]), int(m[4])))
        j = geo.index((int(m[5]), int(m[6])))
        li, lj = tower.level[i], tower.level[j]
        spacer = -1 if li == lj else (i if li < lj else j)
        why = tower.explain(i, j, fa, fb, spacer)
        if why is not None:
            raise FigureError(f"{step!r}: {why}")
        _level, scored, _sp = tower.place(n, i, j, fa, fb)
        names[n] = str(Tile.of(fa, fb))
        cells = [[int(m[3]), int(m[4])], [int(m[5]), int(m[6])]]
        spot = None if spacer < 0 else list(geo.cells[spacer])
        placed.append({"play": f"{face_text(fa)}-{face_text(fb)}", "cells": cells, "spacer": spot})
    return {
        "rows": geo.rows,
        "cols": geo.cols,
        "tower": [
            {
                "cell": list(geo.cells[c]),
                "face": face_text(tower.face[c]),
                "level": tower.level[c],
                "tile": names[tower.dom[c]],
                "spacer": tower.on_spacer[c],
            }
            for c in range(geo.size)
        ],
        "spacers_left": tower.spacers_left,
        "points": scored,
        # (as a table's view has them: the tower is drawn a domino at a time, in this order)
        "basement": [slot.replace("/", "-") for slot in slots],
        "history": placed,
    }
