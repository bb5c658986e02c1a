"""Highrise's learner fast path (:mod:`boneyard.games.highrise.learning`): the ids of legal
actions and the raw values of a seat's vector, read straight from a state. Compiled with the
engine (setup.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from librt.vecs import vec
from mypy_extensions import i64

from boneyard.core.state import PLAYING
from boneyard.core.tiles import WILD
from boneyard.games.highrise.actions import Draw, Place
from boneyard.games.highrise.state import HighriseState
from boneyard.games.reading import Path, Reading

FACES: Final = 8
"""Faces 0 … 6, then ``W`` (7)."""


def face(value: int) -> int:
    """The place of a face among :data:`FACES` (a wild half is the last)."""
    return FACES - 1 if value == WILD else value


def place_id(action: Place, cols: int) -> int:
    """The codec's id of a placement: its first cell (nearer the top left), the direction of the
    second, the faces on each and the spacer (docs/bots.md)."""
    fa, fb = action.faces
    (r1, c1), (r2, c2) = action.cells
    if r2 < r1 or (r2 == r1 and c2 < c1):  # (ints compared: a tuple comparison is generic)
        r1, c1, r2, c2, fa, fb = r2, c2, r1, c1, fb, fa
    direction = 0 if r2 == r1 else 1
    spacer = action.spacer
    s = 0 if spacer is None else 1 if spacer[0] == r1 and spacer[1] == c1 else 2
    return ((((r1 * cols + c1) * 2 + direction) * FACES + face(fa)) * FACES + face(fb)) * 3 + s


def ids(state: HighriseState, actions: Sequence[object]) -> list[int | tuple[int, ...]]:
    """The codec's id of each legal action (one each; then draw and pass)."""
    geometry = state.geometry
    cols = geometry.cols
    places = geometry.rows * cols * 2 * FACES * FACES * 3
    out: list[int | tuple[int, ...]] = []
    for action in actions:
        if isinstance(action, Place):
            out.append(place_id(action, cols))
        elif isinstance(action, Draw):
            out.append(places)
        else:
            out.append(places + 1)
    return out


def read(state: HighriseState, seat: int, out: vec[float], at: int) -> list[bytes]:
    """Write the number columns of ``seat``'s vector into ``out`` from ``at`` and return its
    bytes columns (its hand and the tile it drew, as ids): what the encoder reads of its
    observation."""
    dealt = state.setup is not None
    tower = state.tower
    if dealt:
        faces, levels, spacers = tower.face, tower.level, tower.on_spacer
        for k in range(len(faces)):
            out[at] = float(face(faces[k]))
            out[at + 1] = float(levels[k])
            out[at + 2] = 1.0 if spacers[k] else 0.0
            at += 3
    else:
        for _k in range(state.geometry.size):
            out[at] = -1.0
            out[at + 1] = 0.0
            out[at + 2] = 0.0
            at += 3
    moving = state.phase >= PLAYING and state.turn == seat
    drawn = bytes([state.drawn_id]) if moving and state.drawn_id >= 0 else b""
    out[at] = 1.0 if moving else 0.0
    out[at + 1] = float(len(state.pile_ids) - state.pos)
    out[at + 2] = float(tower.spacers_left) if dealt else 0.0
    at += 3
    hands, scores = state.hands, state.scores
    n = state.n
    for k in range(n):
        s = (seat + k) % n
        out[at] = float(len(hands[s])) if hands else 0.0
        out[at + 1] = float(scores[s])
        at += 2
    return [bytes(hands[seat]) if dealt else b"", drawn]


class HighriseReading(Reading):
    """Highrise's fast path (:func:`ids`, :func:`read`)."""

    def read(self, state: Any, seat: int, out: vec[float], at: int) -> Sequence[bytes]:
        return read(state, seat, out, at)

    def ids(self, state: Any, actions: Sequence[object]) -> list[Path]:
        return ids(state, actions)

    def ids_into(self, state: Any, actions: Sequence[object], out: vec[i64], at: i64) -> i64:
        geometry = state.geometry
        cols = geometry.cols
        places = geometry.rows * cols * 2 * FACES * FACES * 3
        for i in range(len(actions)):
            action = actions[i]
            if isinstance(action, Place):
                out[at + i] = place_id(action, cols)
            elif isinstance(action, Draw):
                out[at + i] = places
            else:
                out[at + i] = places + 1
        return len(actions)
