"""Highrise actions: frozen values with their record form (RECORDS.md §4).

>>> a = Place((16, 3), ((0, 1), (1, 1)))
>>> a.to_event(), str(a.tile)
({'play': 'W-3', 'cells': [[0, 1], [1, 1]]}, 'W-3')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from boneyard.core.records import JSON
from boneyard.core.state import Value
from boneyard.core.tiles import Tile
from boneyard.games.highrise.tower import Cell, face_text


def oriented_text(fa: int, fb: int) -> str:
    """A tile written face ``fa`` first (the orientation of a placement or basement slot).

    >>> oriented_text(3, 16)
    '3-W'
    """
    return f"{face_text(fa)}-{face_text(fb)}"


# --------------------------------------------------------------------------------------------
# Actions


class Place(Value):
    """Place a domino: ``faces[k]`` goes on ``cells[k]``; ``spacer`` is the cell that gets a clear
    spacer (``None`` if none). ``level`` and ``points`` are filled in on generated actions (they
    take no part in equality: the engine always computes them itself).

    An immutable value (:class:`~boneyard.core.state.Value`) rather than a dataclass: the engine
    makes one for every legal placement it lists, and a compiled one costs a fraction.

    >>> Place((3, 5), ((0, 0), (0, 1)), None, 1, 8) == Place((3, 5), ((0, 0), (0, 1)))
    True
    >>> Place((3, 5), ((0, 0), (0, 1)), level=1, points=8)
    Place(faces=(3, 5), cells=((0, 0), (0, 1)), spacer=None, level=1, points=8)
    """

    __slots__ = ("cells", "faces", "level", "points", "spacer")

    def __init__(
        self,
        faces: tuple[int, int],
        cells: tuple[Cell, Cell],
        spacer: Cell | None = None,
        level: int = 0,
        points: int = 0,
    ) -> None:
        self.faces: Final = faces
        self.cells: Final = cells
        self.spacer: Final = spacer
        self.level: Final = level
        self.points: Final = points

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Place)
            and self.faces == other.faces
            and self.cells == other.cells
            and self.spacer == other.spacer
        )

    def __hash__(self) -> int:
        return hash((self.faces, self.cells, self.spacer))

    def __repr__(self) -> str:
        return (
            f"Place(faces={self.faces!r}, cells={self.cells!r}, spacer={self.spacer!r}, "
            f"level={self.level!r}, points={self.points!r})"
        )

    @property
    def tile(self) -> Tile:
        """The domino placed."""
        return Tile.of(self.faces[0], self.faces[1])

    @property
    def text(self) -> str:
        """The tile as written in the record: the face on the first cell first."""
        return oriented_text(self.faces[0], self.faces[1])

    def to_event(self) -> JSON:
        """``{"play": "W-3", "cells": [[r, c], [r, c]], "spacer": [r, c]?}``."""
        ev: JSON = {"play": self.text, "cells": [list(self.cells[0]), list(self.cells[1])]}
        if self.spacer is not None:
            ev["spacer"] = list(self.spacer)
        return ev


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next pile tile (only when the seat cannot place). ``tile`` is known only to the
    state: it is set on the recorded action, ``None`` on the offered one.

    >>> Draw().to_event(), Draw(Tile(2, 3)).to_event()
    ({'draw': None}, {'draw': '2-3'})
    """

    tile: Tile | None = field(default=None, compare=False)

    def to_event(self) -> JSON:
        """``{"draw": "a-b"}`` (the tile drawn)."""
        return {"draw": None if self.tile is None else str(self.tile)}


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: only when the pile is empty and the seat cannot place.

    >>> Pass().to_event()
    {'pass': True}
    """

    def to_event(self) -> JSON:
        """``{"pass": true}``."""
        return {"pass": True}


HighriseAction = Place | Draw | Pass
"""Everything a Highrise seat can do."""
HIDDEN_DRAW: Final = Draw()
"""Another seat's draw as an observation shows it (the tile is hidden); also the draw the
engine offers."""
PASS: Final = Pass()
"""The pass the engine offers."""
