"""The Highrise tower (RULES.md §4.1–4.3): base geometry, the tops of the stacks, move generation.

Cells are small ints ``row * cols + col``; a tower keeps, per cell, only what the rules read: the
level of the top entry, the domino of the top half, its face, the value a wild placed on it would
count, and whether the top half rests on a spacer. Faces are ints ``0..15`` or :data:`WILD`.

>>> geo = GEOMETRIES["4x4_two_rows"]
>>> basement = [(0, 5, 0), (1, 2, 0)] + [(k, 1, 1) for k in range(2, 8)]
>>> t = Tower.from_basement(geo, basement, 12, wild_on_wild_literal=True)
>>> [(geo.cells[i], geo.cells[j], fa, fb, level, points)
...  for (tid, i, j, fa, fb, sp, level, points) in t.placements([(99, 5, 2)])]
[((0, 0), (0, 1), 5, 2, 1, 7)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from boneyard.core.tiles import WILD

Cell = tuple[int, int]
Placement = tuple[int, int, int, int, int, int, int, int]
"""A raw placement: ``(tile, cell_a, cell_b, face_a, face_b, spacer cell or -1, level, points)``."""

WILD_ON_WILD: Final = 7
"""What a wild covering a wild counts under the literal rule (S4)."""

FACES: Final = WILD + 1
"""Face values ``0..WILD``: a pair of top faces ``(a, b)`` is ``a * FACES + b`` in a fit table."""
_ALL_FACES: Final = (1 << FACES) - 1


def face_text(face: int) -> str:
    """A face as written in records: a number or ``W``.

    >>> face_text(16), face_text(3)
    ('W', '3')
    """
    return "W" if face == WILD else str(face)


@dataclass(frozen=True, slots=True)
class Geometry:
    """A base shape: its grid, where basement slot ``k`` lies, and every pair of adjacent cells."""

    name: str
    rows: int
    cols: int
    slots: tuple[tuple[int, int], ...]
    """``slots[k] = (upper cell, lower cell)`` of basement slot ``k``."""

    cells: tuple[Cell, ...] = field(init=False)
    """``cells[i]`` is the ``(row, col)`` of cell ``i``."""
    pairs: tuple[tuple[int, int], ...] = field(init=False)
    """Every pair of orthogonally adjacent cells ``(i, j)`` with ``i < j``, in order."""
    flat_pairs: tuple[int, ...] = field(init=False)
    """:attr:`pairs` flat, ``i, j`` after ``i, j`` (read at every move, without unpacking)."""

    def __post_init__(self) -> None:
        size = self.rows * self.cols
        object.__setattr__(self, "cells", tuple(divmod(i, self.cols) for i in range(size)))
        pairs = []
        for i in range(size):
            r, c = divmod(i, self.cols)
            if c + 1 < self.cols:
                pairs.append((i, i + 1))
            if r + 1 < self.rows:
                pairs.append((i, i + self.cols))
        object.__setattr__(self, "pairs", tuple(sorted(pairs)))
        object.__setattr__(self, "flat_pairs", tuple(c for pair in self.pairs for c in pair))

    @property
    def size(self) -> int:
        """Number of half-cells."""
        return self.rows * self.cols

    def index(self, cell: Cell) -> int:
        """The cell number of ``(row, col)``; ``-1`` when it is off the base."""
        r, c = cell
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return r * self.cols + c
        return -1

    def adjacent(self, i: int, j: int) -> bool:
        """Whether cells ``i`` and ``j`` share a side."""
        ri, ci = divmod(i, self.cols)
        rj, cj = divmod(j, self.cols)
        return abs(ri - rj) + abs(ci - cj) == 1


GEOMETRIES: dict[str, Geometry] = {
    "4x4_two_rows": Geometry(
        "4x4_two_rows",
        4,
        4,
        tuple((8 * (k // 4) + k % 4, 8 * (k // 4) + 4 + k % 4) for k in range(8)),
    ),
    "2x8_one_row": Geometry("2x8_one_row", 2, 8, tuple((k, 8 + k) for k in range(8))),
}


class Tower:
    """The tops of the stacks of one hand and the spacer supply. Mutable; :meth:`copy` is cheap."""

    __slots__ = (
        "_fit",
        "_pairs",
        "_viable_cache",
        "acc",
        "cells",
        "dom",
        "face",
        "geometry",
        "level",
        "literal",
        "on_spacer",
        "spacers",
        "spacers_left",
        "wv",
    )

    def __init__(self, geometry: Geometry, spacers_left: int, wild_on_wild_literal: bool) -> None:
        n = geometry.size
        self.geometry = geometry
        self.cells = geometry.cells
        self._pairs = geometry.flat_pairs
        self.level = [0] * n
        self.dom = [-1] * n
        self.face = [0] * n
        self.wv = [0] * n
        """The value a wild half placed on the cell would count (RULES §4.3 ``v``)."""
        self.on_spacer = [False] * n
        self.spacers = [0] * n
        """Spacers in each cell's stack."""
        self.spacers_left = spacers_left
        self.literal = wild_on_wild_literal
        self.acc = [0] * n
        """Bit mask of the faces that may cover each cell's top half."""
        self._viable_cache: list[int] | None = None
        self._fit = -1
        """The cached :meth:`fitting` mask (-1: not computed since the tower changed)."""

    @classmethod
    def from_basement(
        cls,
        geometry: Geometry,
        basement: Sequence[tuple[int, int, int]],
        spacers_left: int,
        wild_on_wild_literal: bool,
    ) -> Tower:
        """A tower whose basement slot ``k`` holds ``(domino id, upper face, lower face)``."""
        t = cls(geometry, spacers_left, wild_on_wild_literal)
        slots = geometry.slots
        if len(basement) != len(slots):
            raise ValueError(f"the basement has {len(slots)} slots, not {len(basement)}")
        for k in range(len(slots)):
            upper, lower = slots[k]
            dom, fu, fl = basement[k]
            # A wild half of the basement counts as a wild on a wild whatever the option.
            t._cover(upper, dom, fu, WILD_ON_WILD, 0, -1)
            t._cover(lower, dom, fl, WILD_ON_WILD, 0, -1)
        return t

    def set_top(
        self,
        cell: int,
        dom: int,
        face: int,
        level: int,
        wv: int | None = None,
        spacer: bool = False,
    ) -> None:
        """Force the top of a cell (basement set-up, and test positions built directly)."""
        self.level[cell] = level
        self.dom[cell] = dom
        self.face[cell] = face
        self.wv[cell] = (WILD_ON_WILD if face == WILD else face) if wv is None else wv
        self.on_spacer[cell] = spacer
        self.acc[cell] = _accept(face)
        self._viable_cache = None
        self._fit = -1

    def copy(self) -> Tower:
        """An independent copy."""
        t = Tower(self.geometry, self.spacers_left, self.literal)
        t.level = self.level[:]
        t.dom = self.dom[:]
        t.face = self.face[:]
        t.wv = self.wv[:]
        t.on_spacer = self.on_spacer[:]
        t.spacers = self.spacers[:]
        t.acc = self.acc[:]
        t._viable_cache = self._viable_cache
        t._fit = self._fit
        return t

    def _viable(self) -> list[int]:
        """Pairs that some domino could cover, flat: ``i, j, spacer cell or -1, level`` for each
        (a flat list of small ints costs no allocation per pair). Cached until the tower
        changes (the list is never mutated)."""
        cached = self._viable_cache
        if cached is not None:
            return cached
        level, dom = self.level, self.dom
        spare = self.spacers_left > 0
        out: list[int] = []
        pairs = self._pairs
        for k in range(0, len(pairs), 2):
            i = pairs[k]
            j = pairs[k + 1]
            if dom[i] == dom[j]:
                continue
            li = level[i]
            lj = level[j]
            if li == lj:
                sp = -1
            elif spare and li == lj + 1:
                sp = j
            elif spare and lj == li + 1:
                sp = i
                li = lj
            else:
                continue
            out.append(i)
            out.append(j)
            out.append(sp)
            out.append(li + 1)
        self._viable_cache = out
        return out

    def placements(self, tiles: Iterable[tuple[int, int, int]]) -> list[Placement]:
        """Every legal placement of the tiles ``(id, face, face)``, each physical placement once
        (cells in increasing order, then either orientation)."""
        viable = self._viable()
        acc, wv = self.acc, self.wv
        out: list[Placement] = []
        for tid, x, y in tiles:
            for k in range(0, len(viable), 4):
                i = viable[k]
                j = viable[k + 1]
                ai = acc[i]
                aj = acc[j]
                if ai >> x & 1 and aj >> y & 1:
                    new = viable[k + 3]
                    va = wv[i] if x == WILD else x
                    vb = wv[j] if y == WILD else y
                    out.append((tid, i, j, x, y, viable[k + 2], new, new * (va + vb)))
                if x != y and ai >> y & 1 and aj >> x & 1:
                    new = viable[k + 3]
                    va = wv[i] if y == WILD else y
                    vb = wv[j] if x == WILD else x
                    out.append((tid, i, j, y, x, viable[k + 2], new, new * (va + vb)))
        return out

    def any_fits(self, tiles: Iterable[tuple[int, int, int]]) -> bool:
        """Whether any of the tiles has a legal placement."""
        viable = self._viable()
        acc = self.acc
        for _, x, y in tiles:
            for k in range(0, len(viable), 4):
                ai = acc[viable[k]]
                aj = acc[viable[k + 1]]
                if (ai >> x & 1 and aj >> y & 1) or (ai >> y & 1 and aj >> x & 1):
                    return True
        return False

    def fits(self, x: int, y: int) -> bool:
        """Whether the tile with faces ``x`` and ``y`` has a legal placement."""
        return self.any_fits(((0, x, y),))

    def fitting(self, table: list[int]) -> int:
        """The tiles that have a legal placement now, as a mask of tile ids, from the
        :func:`fit_table` of their tile set (cached until the tower changes: the dead-tower
        test of ``early_block`` runs after every move)."""
        m = self._fit
        if m < 0:
            m = 0
            face = self.face
            viable = self._viable()
            for k in range(0, len(viable), 4):
                m |= table[face[viable[k]] * FACES + face[viable[k + 1]]]
            self._fit = m
        return m

    def explain(self, i: int, j: int, fa: int, fb: int, spacer: int) -> str | None:
        """Why face ``fa`` on cell ``i`` and ``fb`` on cell ``j`` (``spacer`` a cell or -1) is not
        a legal placement, in a player's words; ``None`` when it is legal."""
        li, lj = self.level[i], self.level[j]
        acc = self.acc
        if (
            self.geometry.adjacent(i, j)
            and self.dom[i] != self.dom[j]
            and (
                spacer < 0
                if li == lj
                else self.spacers_left > 0 and abs(li - lj) == 1 and spacer == (i if li < lj else j)
            )
            and acc[i] >> fa & 1
            and acc[j] >> fb & 1
        ):
            return None
        cells = self.cells
        ci, cj = _cell_text(cells[i]), _cell_text(cells[j])
        if not self.geometry.adjacent(i, j):
            return f"{ci} and {cj} are not side by side"
        if self.dom[i] == self.dom[j]:
            return (
                f"{ci} and {cj} are both on one domino: a domino must cover two different dominoes"
            )
        if abs(li - lj) >= 2:
            return (
                f"{ci} is at level {li} and {cj} at level {lj}: a domino cannot bridge a gap of"
                f" {abs(li - lj)} levels, even with a spacer"
            )
        if li != lj:
            lower = i if li < lj else j
            low = _cell_text(cells[lower])
            if self.spacers_left == 0:
                return f"{low} is one level lower and no spacers are left"
            if spacer < 0:
                return f"{low} is one level lower: a spacer must go on it"
            if spacer != lower:
                return f"the spacer must go on the lower cell {low}"
        elif spacer >= 0:
            return f"{ci} and {cj} are both at level {li}: no spacer may be used"
        for f, c, where in ((fa, i, ci), (fb, j, cj)):
            if not acc[c] >> f & 1:
                return f"{face_text(f)} cannot cover the {face_text(self.face[c])} at {where}"
        raise AssertionError("unreachable: every rule passed")  # pragma: no cover

    def place(self, tid: int, i: int, j: int, fa: int, fb: int) -> tuple[int, int, int]:
        """Place a domino known to be legal; returns ``(level, points, spacer cell or -1)``."""
        level = self.level
        li, lj = level[i], level[j]
        sp = -1
        if li != lj:
            sp = i if li < lj else j
            self.spacers_left -= 1
            self.spacers[sp] += 1
        new = (li if li > lj else lj) + 1
        wv = self.wv
        va = wv[i] if fa == WILD else fa
        vb = wv[j] if fb == WILD else fb
        self._cover(i, tid, fa, va, new, sp)
        self._cover(j, tid, fb, vb, new, sp)
        self._viable_cache = None
        self._fit = -1
        return new, new * (va + vb), sp

    def _cover(self, c: int, tid: int, f: int, v: int, new: int, sp: int) -> None:
        """Put face ``f`` (counting ``v``) of domino ``tid`` on cell ``c``, now at level ``new``."""
        self.level[c] = new
        self.dom[c] = tid
        self.face[c] = f
        self.wv[c] = f if f != WILD else (WILD_ON_WILD if self.literal else v)
        self.on_spacer[c] = c == sp
        self.acc[c] = _accept(f)

    def score(self, i: int, j: int, fa: int, fb: int) -> tuple[int, int]:
        """``(level, points)`` of a placement (legal or not) on the current tower."""
        new = max(self.level[i], self.level[j]) + 1
        va = self.wv[i] if fa == WILD else fa
        vb = self.wv[j] if fb == WILD else fb
        return new, new * (va + vb)


_FIT_TABLES: Final[dict[tuple[tuple[int, int], ...], list[int]]] = {}


def fit_table(faces: Sequence[tuple[int, int]]) -> list[int]:
    """For a tile set (``faces[id]``: its two faces), ``table[a * FACES + b]``: the mask of the
    tiles that fit a pair of cells whose top faces are ``a`` and ``b``, either way round (made
    once per tile set).

    >>> table = fit_table([(5, 2), (3, 3), (WILD, 0)])
    >>> bin(table[5 * FACES + 2]), bin(table[2 * FACES + WILD]), bin(table[WILD * FACES + 3])
    ('0b1', '0b101', '0b110')
    """
    key = tuple(faces)
    table = _FIT_TABLES.get(key)
    if table is None:
        table = []
        for a in range(FACES):
            acc_a = _accept(a)
            for b in range(FACES):
                acc_b = _accept(b)
                m = 0
                for tid, (x, y) in enumerate(key):
                    if (acc_a >> x & 1 and acc_b >> y & 1) or (acc_a >> y & 1 and acc_b >> x & 1):
                        m |= 1 << tid
                table.append(m)
        _FIT_TABLES[key] = table
    return table


def _accept(face: int) -> int:
    """The faces that may cover ``face``: itself and a wild, or anything when it is wild."""
    return _ALL_FACES if face == WILD else (1 << face) | (1 << WILD)


def _cell_text(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def cell_text(cell: Cell) -> str:
    """A cell as players read it: ``(row,col)``.

    >>> cell_text((0, 2))
    '(0,2)'
    """
    return _cell_text(cell)
