"""Highrise as a learner sees it (:mod:`boneyard.games.learning`), on an ``R × C`` tower.

**Ids**: a placement is its first cell ``k = row * C + col`` (the cell nearer the top left), the
direction of the second (0 right, 1 down), the faces on the first and second cells (0 … 6, 7 for
``W``) and the spacer (0 none, 1 first cell, 2 second): ``(((k * 2 + d) * 8 + f1) * 8 + f2) * 3
+ s``; then ``draw`` and ``pass``.

**Vector**: per cell (``row * cols + col``) its top face (8: 0 … 6, W), level / 10 and a spacer
flag, own hand and the tile drawn (36 each, ``HIGHRISE_36`` order), to move, pile / 36, spacers
left / 10, then per seat from the observer tiles held / 20 and score / target.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boneyard.core.tiles import HIGHRISE_36, parse_halves
from boneyard.games.highrise.fast import FACES, HighriseReading, face
from boneyard.games.learning import (
    Encoder,
    EventForm,
    FastPath,
    Learning,
    Segment,
    View,
    seat_columns,
    seats_vector,
    tile_index,
    tiles_vector,
    to_move,
)

HIGHRISE = tile_index(HIGHRISE_36.tiles)


@dataclass(frozen=True)
class HighriseCodec:
    """Highrise on a ``rows × cols`` tower (see the module docstring)."""

    rows: int
    cols: int

    @property
    def size(self) -> int:
        """Placements, then draw and pass."""
        return self.rows * self.cols * 2 * FACES * FACES * 3 + 2

    def tokens(self, event: EventForm, view: View) -> tuple[int, ...]:
        """One id per action."""
        places = self.size - 2
        if "draw" in event:
            return (places,)
        if event.get("pass"):
            return (places + 1,)
        fa, fb = parse_halves(str(event["play"]))
        (r1, c1), (r2, c2) = (tuple(c) for c in event["cells"])
        if (r2, c2) < (r1, c1):
            (r1, c1), (r2, c2), fa, fb = (r2, c2), (r1, c1), fb, fa
        direction = 0 if (r2, c2) == (r1, c1 + 1) else 1
        spacer = event.get("spacer")
        s = 0 if spacer is None else 1 if tuple(spacer) == (r1, c1) else 2
        k = r1 * self.cols + c1
        return (((((k * 2 + direction) * FACES + face(fa)) * FACES + face(fb)) * 3) + s,)

    def name(self, token: int) -> str:
        """Record notation of an id."""
        places = self.size - 2
        if token >= places:
            return ("draw", "pass")[token - places]
        rest, s = divmod(token, 3)
        rest, fb = divmod(rest, FACES)
        rest, fa = divmod(rest, FACES)
        k, direction = divmod(rest, 2)
        r, c = divmod(k, self.cols)
        other = (r, c + 1) if direction == 0 else (r + 1, c)

        def face(f: int) -> str:
            return "W" if f == FACES - 1 else str(f)

        spacer = ("", f" spacer {[r, c]}", f" spacer {list(other)}")[s]
        return f"{face(fa)}-{face(fb)} on {[r, c]} {list(other)}{spacer}"


def vector(view: View, players: int, cells: int) -> list[float]:
    """One observation's numbers on a tower of ``cells`` cells (see the module docstring)."""
    x: list[float] = []
    tower = {tuple(c["cell"]): c for c in view.get("tower") or []}
    cols = int(view.get("cols") or 1)
    for k in range(cells):
        cell = tower.get(divmod(k, cols))
        face = [0.0] * 8
        if cell is not None and cell["face"] not in ("", None):
            face[7 if cell["face"] == "W" else int(cell["face"])] = 1.0
        level = cell["level"] / 10 if cell is not None else 0.0
        spacer = 1.0 if cell is not None and cell["spacer"] else 0.0
        x += [*face, level, spacer]
    x += tiles_vector(HIGHRISE, view.get("hand"))
    x += tiles_vector(HIGHRISE, [view["drawn"]] if view.get("drawn") else [])
    x += [to_move(view), view.get("pile_size", 0) / 36, view.get("spacers_left", 0) / 10]
    return x + seats_vector(view, players, 20, float(view.get("target") or 500))


def _codec(view: View) -> HighriseCodec:
    return HighriseCodec(int(view["rows"]), int(view["cols"]))


def _features(players: int, view: View) -> Encoder:
    cells = int(view["rows"]) * int(view["cols"])

    def encode(v: View) -> list[float]:
        return vector(v, players, cells)

    return encode


def _fast(players: int, state: Any) -> FastPath:
    cell = (Segment("onehot", FACES), Segment("num", 1, 10.0), Segment("num"))
    layout = (
        *cell * state.geometry.size,
        Segment("ids", len(HIGHRISE)),
        Segment("ids", len(HIGHRISE)),
        Segment("num"),
        Segment("num", 1, 36.0),
        Segment("num", 1, 10.0),
        *seat_columns(players, 20.0, float(state.options.target or 500)),
    )
    return FastPath(layout=layout, reading=HighriseReading())


LEARNING = Learning(codec=_codec, features=_features, fast=_fast)
