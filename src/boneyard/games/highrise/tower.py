"""The Highrise tower (RULES.md §4.1–4.3): base geometry, the tops of the stacks, move generation.

Cells are small ints ``row * cols + col``; a tower keeps, per cell, only what the rules read: the
level of the top entry, the domino of the top half, its face, the value a wild placed on it would
count, and whether the top half rests on a spacer; and, for move generation, sets of adjacent
pairs as bit masks (:class:`Tower`). Faces are ints ``0..15`` or :data:`WILD`.

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
from typing import TYPE_CHECKING, Final

from boneyard.core.tiles import WILD

if TYPE_CHECKING:  # a native 64-bit int once compiled, a plain int otherwise
    from mypy_extensions import i64

Cell = tuple[int, int]
Placement = tuple[int, int, int, int, int, int, int, int]
"""A raw placement: ``(tile, cell_a, cell_b, face_a, face_b, spacer cell or -1, level, points)``."""

WILD_ON_WILD: Final = 7
"""What a wild covering a wild counts under the literal rule (S4)."""

SECOND: Final = 32
"""Where a two-sided pair mask keeps the pairs' second cells: pair ``k``'s first cell is bit
``k``, its second cell bit ``SECOND + k`` (a base has at most 32 pairs)."""
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
    """A base shape: its grid, where basement slot ``k`` lies, and every pair of adjacent cells.

    Pair ``k`` is ``pairs[k]``; the tower keeps sets of pairs as masks with bit ``k`` for pair
    ``k`` (at most :data:`SECOND` pairs), so the per-cell masks and links below are made once
    per shape."""

    name: str
    rows: int
    cols: int
    slots: tuple[tuple[int, int], ...]
    """``slots[k] = (upper cell, lower cell)`` of basement slot ``k``."""

    cells: tuple[Cell, ...] = field(init=False)
    """``cells[i]`` is the ``(row, col)`` of cell ``i``."""
    spacer_cells: tuple[Cell | None, ...] = field(init=False)
    """:attr:`cells` again, typed as a placement's optional spacer: the compiled build hands
    these tuples to a placement as they are, where it rebuilds one taken from :attr:`cells`."""
    pairs: tuple[tuple[int, int], ...] = field(init=False)
    """Every pair of orthogonally adjacent cells ``(i, j)`` with ``i < j``, in order."""
    first: tuple[int, ...] = field(init=False)
    """``first[k]``: the lower cell ``i`` of pair ``k``."""
    second: tuple[int, ...] = field(init=False)
    """``second[k]``: the higher cell ``j`` of pair ``k``."""
    sides: tuple[int, ...] = field(init=False)
    """``sides[c]``: the pairs whose first cell is ``c``, and from bit :data:`SECOND` those
    whose second cell is ``c``."""
    links: tuple[tuple[i64, ...], ...] = field(init=False)
    """``links[c]``: each pair ``k`` that includes cell ``c``, as ``k << 8 | other cell``."""

    def __post_init__(self) -> None:
        size = self.rows * self.cols
        object.__setattr__(self, "cells", tuple(divmod(i, self.cols) for i in range(size)))
        object.__setattr__(self, "spacer_cells", self.cells)
        found = []
        for i in range(size):
            r, c = divmod(i, self.cols)
            if c + 1 < self.cols:
                found.append((i, i + 1))
            if r + 1 < self.rows:
                found.append((i, i + self.cols))
        pairs = tuple(sorted(found))
        if len(pairs) > SECOND or size > 256:
            raise ValueError(f"a {self.rows}x{self.cols} base is too large for the pair masks")
        object.__setattr__(self, "pairs", pairs)
        object.__setattr__(self, "first", tuple(i for i, _j in pairs))
        object.__setattr__(self, "second", tuple(j for _i, j in pairs))
        sides = [0] * size
        links: list[list[int]] = [[] for _ in range(size)]
        for k, (i, j) in enumerate(pairs):
            sides[i] |= 1 << k
            sides[j] |= 1 << (SECOND + k)
            links[i].append(k << 8 | j)
            links[j].append(k << 8 | i)
        object.__setattr__(self, "sides", tuple(sides))
        object.__setattr__(self, "links", tuple(tuple(ks) for ks in links))

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
    """The tops of the stacks of one hand and the spacer supply. Mutable; :meth:`copy` is cheap.

    Besides the per-cell lists, it keeps what move generation reads as masks of pairs (bit ``k``:
    pair ``k`` of the geometry): the pairs of two different dominoes at one level (``_flat``) or
    one level apart (``_step``), and per face the pairs whose first cell shows that face on top,
    with those whose second cell does from bit :data:`SECOND` (``_on``). A placement changes
    only its two cells and their pairs, so the masks are updated rather than rebuilt (a few list
    items, where a list of every viable pair cost a boxed int per pair), and the pairs a tile
    fits are then a few ANDs of them: generating moves visits no pair the tile cannot cover.
    """

    __slots__ = (
        "_covered",
        "_covered_sides",
        "_flat",
        "_on",
        "_step",
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
        self._covered: i64 = 0
        """The cells that have a top half (a mask of cells: all of them once the basement is
        in; a new tower has none, and nothing fits on it)."""
        self._covered_sides: i64 = 0
        """The pairs whose first cell has a top half, and from bit :data:`SECOND` those whose
        second cell has one (what a wild may cover)."""
        self._flat: i64 = 0
        """The pairs of two different dominoes at one level."""
        self._step: i64 = 0
        """The pairs of two different dominoes one level apart (playable with a spacer)."""
        self._on: list[i64] = [0] * FACES
        """``_on[f]``: the pairs whose first cell shows face ``f`` on top, and from bit
        :data:`SECOND` those whose second cell does."""

    def _accepts(self, c: int) -> int:
        """Bit mask of the faces that may cover cell ``c``'s top half (none without one)."""
        return _accept(self.face[c]) if self._covered >> c & 1 else 0

    @staticmethod
    def from_basement(
        geometry: Geometry,
        basement: Sequence[tuple[int, int, int]],
        spacers_left: int,
        wild_on_wild_literal: bool,
    ) -> Tower:
        """A tower whose basement slot ``k`` holds ``(domino id, upper face, lower face)``."""
        t = Tower(geometry, spacers_left, wild_on_wild_literal)
        slots = geometry.slots
        if len(basement) != len(slots):
            raise ValueError(f"the basement has {len(slots)} slots, not {len(basement)}")
        dom, face, wv = t.dom, t.face, t.wv
        covered = 0
        for k in range(len(slots)):
            upper, lower = slots[k]
            d, fu, fl = basement[k]
            dom[upper] = dom[lower] = d
            face[upper] = fu
            face[lower] = fl
            # A wild half of the basement counts as a wild on a wild whatever the option.
            wv[upper] = WILD_ON_WILD if fu == WILD else fu
            wv[lower] = WILD_ON_WILD if fl == WILD else fl
            covered |= 1 << upper | 1 << lower
        t._show_all(covered)
        return t

    def _show_all(self, covered: int) -> None:
        """Set the masks of a new tower whose ``covered`` cells (a mask) have just been given
        their tops at level 0, all at once."""
        geo = self.geometry
        all_sides = geo.sides
        on = self._on
        face = self.face
        covered_sides = 0
        for c in range(geo.size):
            if covered >> c & 1:
                sides = all_sides[c]
                f = face[c]
                on[f] = on[f] | sides
                covered_sides |= sides
        self._covered = covered
        self._covered_sides = covered_sides
        # Every top is at level 0: a pair is level unless both its cells are one domino's.
        dom = self.dom
        first, second = geo.first, geo.second
        flat: i64 = 0
        for k in range(len(first)):
            if dom[first[k]] != dom[second[k]]:
                flat |= 1 << k
        self._flat = flat

    def set_top(
        self,
        cell: int,
        dom: int,
        face: int,
        level: int,
        wv: int | None = None,
        spacer: bool = False,
    ) -> None:
        """Force the top of a cell (test positions built directly)."""
        self.level[cell] = level
        self.dom[cell] = dom
        self._show(cell, face)
        self.wv[cell] = (WILD_ON_WILD if face == WILD else face) if wv is None else wv
        self.on_spacer[cell] = spacer
        self._relink(cell)

    def copy(self) -> Tower:
        """An independent copy."""
        t = Tower(self.geometry, self.spacers_left, self.literal)
        t.level = self.level[:]
        t.dom = self.dom[:]
        t.face = self.face[:]
        t.wv = self.wv[:]
        t.on_spacer = self.on_spacer[:]
        t.spacers = self.spacers[:]
        t._covered = self._covered
        t._covered_sides = self._covered_sides
        t._flat = self._flat
        t._step = self._step
        t._on = self._on[:]
        return t

    def _viable(self) -> i64:
        """The pairs some domino could cover now: level ones, and one level apart while a
        spacer is left."""
        return self._flat | self._step if self.spacers_left > 0 else self._flat

    def placements(self, tiles: Iterable[tuple[int, int, int]]) -> list[Placement]:
        """Every legal placement of the tiles ``(id, face, face)``, each physical placement once
        (cells in increasing order, then either orientation)."""
        out: list[Placement] = []
        for tid, x, y in tiles:
            self.add_placements(out, tid, x, y)
        return out

    def add_placements(self, out: list[Placement], tid: int, x: int, y: int) -> None:
        """Append the legal placements of tile ``tid`` (faces ``x`` and ``y``) to ``out``, pair
        by pair in order, ``x`` on the first cell before ``y`` on it."""
        xy, yx = self.fit_masks(x, y)
        m = xy | yx
        while m:
            low = m & -m
            k = int(low).bit_length() - 1
            m ^= low
            if xy & low:
                i, j, sp, new, points = self.spot(k, x, y)
                out.append((tid, i, j, x, y, sp, new, points))
            if yx & low:
                i, j, sp, new, points = self.spot(k, y, x)
                out.append((tid, i, j, y, x, sp, new, points))

    def fit_masks(self, x: int, y: int) -> tuple[i64, i64]:
        """The pairs where the tile with faces ``x`` and ``y`` may go with ``x`` on the first
        cell, and those where it may go with ``y`` on the first cell (none for a double: its
        two ways round are one placement). A face may cover a top showing it or a wild; a wild
        may cover any top."""
        on = self._on
        wild = on[WILD]
        takes_x = self._covered_sides if x == WILD else on[x] | wild
        takes_y = self._covered_sides if y == WILD else on[y] | wild
        viable = self._viable()
        xy = viable & takes_x & takes_y >> SECOND
        return xy, viable & takes_y & takes_x >> SECOND if x != y else 0

    def spot(self, k: int, fa: int, fb: int) -> tuple[int, int, int, int, int]:
        """Face ``fa`` on pair ``k``'s first cell and ``fb`` on its second, known to fit: the
        cells, the spacer cell (-1: none), the new level and the points."""
        geo = self.geometry
        i = geo.first[k]
        j = geo.second[k]
        level = self.level
        li = level[i]
        lj = level[j]
        sp = -1 if li == lj else (i if li < lj else j)
        new = (li if li > lj else lj) + 1
        wv = self.wv
        va = wv[i] if fa == WILD else fa
        vb = wv[j] if fb == WILD else fb
        return i, j, sp, new, new * (va + vb)

    def any_fits(self, tiles: Iterable[tuple[int, int, int]]) -> bool:
        """Whether any of the tiles has a legal placement."""
        return any(self.fits(x, y) for _, x, y in tiles)

    def fits(self, x: int, y: int) -> bool:
        """Whether the tile with faces ``x`` and ``y`` has a legal placement."""
        xy, yx = self.fit_masks(x, y)
        return (xy | yx) != 0

    def fits_any(self, table: list[int], tiles: int) -> bool:
        """Whether any of ``tiles`` (a mask of tile ids) has a legal placement, from the
        :func:`fit_table` of their tile set (the dead-tower test of ``early_block``, after
        every move: it stops at the first pair that takes one of them)."""
        m = self._viable()
        face = self.face
        geo = self.geometry
        first, second = geo.first, geo.second
        while m:
            low = m & -m
            k = int(low).bit_length() - 1
            m ^= low
            if table[face[first[k]] * FACES + face[second[k]]] & tiles:
                return True
        return False

    def explain(self, i: int, j: int, fa: int, fb: int, spacer: int) -> str | None:
        """Why face ``fa`` on cell ``i`` and ``fb`` on cell ``j`` (``spacer`` a cell or -1) is not
        a legal placement, in a player's words; ``None`` when it is legal."""
        li, lj = self.level[i], self.level[j]
        acc_i, acc_j = self._accepts(i), self._accepts(j)
        if (
            self.geometry.adjacent(i, j)
            and self.dom[i] != self.dom[j]
            and (
                spacer < 0
                if li == lj
                else self.spacers_left > 0 and abs(li - lj) == 1 and spacer == (i if li < lj else j)
            )
            and acc_i >> fa & 1
            and acc_j >> fb & 1
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
        for f, acc, c, where in ((fa, acc_i, i, ci), (fb, acc_j, j, cj)):
            if not acc >> f & 1:
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
            spacers = self.spacers
            spacers[sp] = spacers[sp] + 1  # (an augmented item is generic once compiled)
        new = (li if li > lj else lj) + 1
        wv = self.wv
        va = wv[i] if fa == WILD else fa
        vb = wv[j] if fb == WILD else fb
        self._cover(i, tid, fa, va, new, sp)
        self._cover(j, tid, fb, vb, new, sp)
        self._relink(i)
        self._relink(j)
        return new, new * (va + vb), sp

    def _cover(self, c: int, tid: int, f: int, v: int, new: int, sp: int) -> None:
        """Put face ``f`` (counting ``v``) of domino ``tid`` on cell ``c``, now at level ``new``
        (its pairs are the caller's to :meth:`_relink`)."""
        self.level[c] = new
        self.dom[c] = tid
        self._show(c, f)
        self.wv[c] = f if f != WILD else (WILD_ON_WILD if self.literal else v)
        self.on_spacer[c] = c == sp

    def _show(self, c: int, f: int) -> None:
        """Cell ``c`` now shows face ``f`` on top: move its pairs' bits in the per-face masks."""
        old = self.face[c]
        self.face[c] = f
        sides = self.geometry.sides[c]
        on = self._on
        if self._covered >> c & 1:
            if old == f:
                return
            on[old] = on[old] ^ sides
        else:
            self._covered |= 1 << c
            self._covered_sides |= sides
        on[f] = on[f] | sides

    def _relink(self, c: int) -> None:
        """Recompute whether each pair that includes cell ``c`` joins two different dominoes at
        one level or one level apart."""
        level, dom = self.level, self.dom
        here = level[c]
        top = dom[c]
        flat = self._flat
        step = self._step
        for link in self.geometry.links[c]:
            other = link & 255
            bit = 1 << (link >> 8)
            flat &= ~bit
            step &= ~bit
            if dom[other] != top:
                gap = here - level[other]
                if gap == 0:
                    flat |= bit
                elif gap == 1 or gap == -1:
                    step |= bit
        self._flat = flat
        self._step = step


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
