"""The pictures of the rules pages, built by the engines themselves.

A rules page (``web/rules/<game>.md``) draws a position with a ``<figure>`` whose attribute says
how to reach it in a few words; this module plays those words on the real layout, tower or
capture rules and returns the view the site's own board renderer draws (``web/board.js``). A
picture can therefore never show a count, a placement or a capture the engine would not allow:
a wrong one raises :class:`FigureError` when the page is built (and in the tests).

* ``data-fives="5-5; 0-5 on 5-5 side_a; 4-0 on 0-5"`` — plays on a High Five / Merry-Go-Round
  layout (the first is the lead; ``side_a`` … ``end_b`` name a spinner's edges); with
  ``data-policy="cross"`` the Merry-Go-Round cross order applies; ``data-count="10"`` is checked.
* ``data-tower="5/1 2/3 4/6 W/0 3/3 6/2 1/4 5/6; 5-2 at 0,0 0,1"`` — the eight basement dominoes
  (upper/lower face, slot by slot) then placements (the first face on the first cell);
  ``data-points="7"`` is the last placement's score.
* ``data-capture="0-1 1-2 7-7 8-9 10-15; play 7-8; capture 8-9; claim 0-1 1-2"`` — a High Fives
  layout and one turn; ``data-points`` is what the turn wins.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from boneyard.core.tiles import WILD, Tile
from boneyard.games.fives import (
    PORT_CODE,
    Availability,
    FivesLayout,
    tile_id,
)
from boneyard.games.fives_play import ends_json, ends_view, placed_views
from boneyard.games.high_fives.rules import matches, points
from boneyard.games.highrise.tower import GEOMETRIES, Tower, face_text

JSON = dict[str, Any]


class FigureError(ValueError):
    """A rules-page picture the engine does not allow (a fault of the page, not of a player)."""


POLICIES = {"sides_first": Availability.SIDES_FIRST, "cross": Availability.CROSS_SIDES_THEN_ENDS}


def fives_view(spec: str, policy: str = "sides_first") -> JSON:
    """The layout after the plays of ``spec``, each checked against the availability rule."""
    lay = FivesLayout()
    rule = POLICIES[policy]
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
    scores = lay.count > 0 and lay.count % 5 == 0
    return {
        "layout": [p.to_json() for p in placed_views(lay)],
        "available_ends": ends_json(ends_view(lay.available(rule))),
        "count": lay.count,
        # High Five scores the count; Merry-Go-Round a point for every five.
        "points": (lay.count if policy == "sides_first" else lay.count // 5) if scores else 0,
        "last": last,
    }


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
    }


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


_FIGURE = re.compile(r'<figure class="board" data-(fives|tower|capture)="([^"]*)"([^>]*)>')
_ATTR = re.compile(r'data-(policy|count|points)="([^"]*)"')


def _expand(m: re.Match[str]) -> str:
    kind, spec, rest = m[1], html.unescape(m[2]), m[3]
    attrs = dict(_ATTR.findall(rest))
    try:
        if kind == "fives":
            view = fives_view(spec, attrs.get("policy", "sides_first"))
        elif kind == "tower":
            view = tower_view(spec)
        else:
            view = capture_view(spec)
    except (ValueError, KeyError) as exc:  # a bad tile (BoneyardError), port or cell
        raise FigureError(f"figure {spec!r}: {exc}") from None
    for key, field in (("count", "count"), ("points", "points")):
        if key in attrs and str(view.get(field)) != attrs[key]:
            raise FigureError(f"figure {spec!r}: the engine gives {field} {view.get(field)}")
    data = html.escape(json.dumps(view, separators=(",", ":")))
    return f'<figure class="board" data-view="{data}"{rest}>'


def expand_figures(markdown: str) -> str:
    """Replace every figure's words by the view the board renderer draws (see module doc)."""
    return _FIGURE.sub(_expand, markdown)
