"""Tiles and tile sets.

A :class:`Tile` is an unordered pair of numbers written ``"a-b"``; ``"5-0"`` and ``"0-5"`` are the
same tile. Highrise adds a wild half, written ``W`` and stored as :data:`WILD`.

>>> t = Tile.parse("5-0")
>>> t, str(t), t.pips, t.is_double
(Tile(lo=0, hi=5), '0-5', 5, False)
>>> Tile.parse("W-3") == Tile.parse("3-W"), str(Tile.parse("3-W"))
(True, 'W-3')
>>> len(DOUBLE_SIX), len(DOUBLE_FIFTEEN), len(HIGHRISE_36)
(28, 136, 36)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final

from boneyard.core.errors import BoneyardError

WILD: Final = 16
"""The number that stands for a wild half (``W``); above every real number so wilds sort last."""

HAND_VALUE_OF_WILD: Final = 7
"""A wild half left in hand counts 7 (Highrise)."""


def _half_text(n: int) -> str:
    return "W" if n == WILD else str(n)


def _parse_half(text: str) -> int:
    text = text.strip()
    if text.upper() == "W":
        return WILD
    if not text.isdigit() or len(text) > 2:
        raise BoneyardError(f"{text!r} is not a domino number")
    return int(text)


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """A domino ``{lo, hi}`` with ``lo <= hi``. Construct with :meth:`of` or :meth:`parse`."""

    lo: int
    hi: int

    def __post_init__(self) -> None:
        if not (0 <= self.lo <= self.hi <= WILD):
            raise BoneyardError(f"{self.lo}-{self.hi} is not a domino")

    @staticmethod
    def of(a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order."""
        return Tile(a, b) if a <= b else Tile(b, a)

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse ``"a-b"`` (numbers or ``W``); raises :class:`BoneyardError` on anything else."""
        a, b = parse_halves(text)
        return Tile.of(a, b)

    @property
    def is_double(self) -> bool:
        """Both halves equal."""
        return self.lo == self.hi

    @property
    def pips(self) -> int:
        """Hand value: the sum of the halves (a wild half counts 7)."""
        return _hand_value(self.lo) + _hand_value(self.hi)

    def has(self, n: int) -> bool:
        """Whether either half shows ``n``."""
        return self.lo == n or self.hi == n

    def other(self, n: int) -> int:
        """The half opposite a half showing ``n``."""
        if self.lo == n:
            return self.hi
        if self.hi == n:
            return self.lo
        raise BoneyardError(f"{self} has no {_half_text(n)}")

    def __str__(self) -> str:
        if self.hi == WILD:
            return f"W-{_half_text(self.lo)}"
        return f"{self.lo}-{self.hi}"


def parse_halves(text: str) -> tuple[int, int]:
    """The two halves of ``"a-b"`` in written order (orientation matters in Highrise).

    >>> parse_halves("W-3")
    (16, 3)
    """
    if not isinstance(text, str) or text.count("-") != 1:
        raise BoneyardError(f"{text!r} is not a tile (write tiles as a-b, e.g. 5-0)")
    a, b = text.split("-")
    return _parse_half(a), _parse_half(b)


def _hand_value(n: int) -> int:
    return HAND_VALUE_OF_WILD if n == WILD else n


@dataclass(frozen=True)
class TileSet:
    """An ordered set of distinct tiles; a tile's index is its small-int id for fast paths."""

    name: str
    tiles: tuple[Tile, ...]
    _index: dict[Tile, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {t: i for i, t in enumerate(self.tiles)}
        if len(index) != len(self.tiles):
            raise BoneyardError(f"tile set {self.name} lists a tile twice")
        object.__setattr__(self, "_index", index)

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __contains__(self, tile: object) -> bool:
        return tile in self._index

    def index(self, tile: Tile) -> int:
        """The id of ``tile`` in this set."""
        try:
            return self._index[tile]
        except KeyError:
            raise BoneyardError(f"{tile} is not in the {self.name} set") from None

    def parse(self, text: str) -> Tile:
        """Parse a tile and check that it belongs to this set."""
        tile = Tile.parse(text)
        if tile not in self._index:
            raise BoneyardError(f"{text} is not a tile of the {self.name} set")
        return tile

    @cached_property
    def total_pips(self) -> int:
        """Sum of the hand values of every tile."""
        return sum(t.pips for t in self.tiles)


def double_n(n: int) -> TileSet:
    """The double-``n`` set, ordered by (lo, hi)."""
    return TileSet(f"double-{n}", tuple(Tile(a, b) for a in range(n + 1) for b in range(a, n + 1)))


DOUBLE_SIX = double_n(6)
DOUBLE_FIFTEEN = double_n(15)
HIGHRISE_36 = TileSet(
    "Highrise",
    DOUBLE_SIX.tiles + tuple(Tile(a, WILD) for a in range(7)) + (Tile(WILD, WILD),),
)


def round5(n: int) -> int:
    """Round a non-negative integer to the nearest multiple of five (RULES §0.1).

    >>> [round5(n) for n in (11, 12, 13, 42, 32, 7, 8, 0)]
    [10, 10, 15, 40, 30, 5, 10, 0]
    """
    return 5 * ((n + 2) // 5)


def tiles_text(tiles: Iterable[Tile]) -> list[str]:
    """Tiles as record strings."""
    return [str(t) for t in tiles]


def pips_of(tiles: Sequence[Tile]) -> int:
    """Total hand value of some tiles."""
    return sum(t.pips for t in tiles)
