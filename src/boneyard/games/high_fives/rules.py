"""High Fives rule data: the double-fifteen tables, tile points, options and the deal schedule.

Tiles are small ints (their index in :data:`~boneyard.core.tiles.DOUBLE_FIFTEEN`) and sets of
tiles are bit masks; :data:`MATCH` gives, for each tile, the mask of every tile sharing a number
with it, so "what does this tile capture" is one ``&``.

>>> s = schedule(2)
>>> len(s.sizes), s.sizes[:2], s.extra, s.turns_per_seat
(13, (5, 5), 1, 65)
>>> build_high_fives_options({"target": 50}, 4).target
50
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Literal

from boneyard.core.errors import OptionError
from boneyard.core.options import Bounds, build_options
from boneyard.core.tiles import DOUBLE_FIFTEEN, Tile

GAME = "high-fives"
TITLE = "High Fives (Galt)"
MIN_PLAYERS = 2
MAX_PLAYERS = 8
LAYOUT_SIZE = 5
"""Tiles turned face up after the first deal (RULES §3.1)."""

TILESET = DOUBLE_FIFTEEN
TILES: tuple[Tile, ...] = DOUBLE_FIFTEEN.tiles
NUM_TILES = len(TILES)
TILE_ID: dict[Tile, int] = {t: i for i, t in enumerate(TILES)}
ALL_MASK = (1 << NUM_TILES) - 1


def points(tile: Tile) -> int:
    """What a won tile scores (RULES §3.3): one per five pips, plus one for a double.

    >>> [points(Tile.parse(s)) for s in ("1-4", "3-7", "5-15", "1-1", "14-14")]
    [1, 2, 4, 1, 1]
    >>> [points(Tile.parse(s)) for s in ("5-5", "10-10", "15-15", "0-0", "2-9", "7-8")]
    [3, 5, 7, 1, 0, 3]
    """
    total = tile.lo + tile.hi
    return (total // 5 if total % 5 == 0 else 0) + (1 if tile.lo == tile.hi else 0)


def matches(a: Tile, b: Tile) -> bool:
    """Whether two tiles share a number (a double matches on its number).

    >>> matches(Tile(7, 8), Tile(8, 9)), matches(Tile(2, 5), Tile(0, 1))
    (True, False)
    """
    return a.lo in (b.lo, b.hi) or a.hi in (b.lo, b.hi)


POINTS: tuple[int, ...] = tuple(points(t) for t in TILES)
PIPS: tuple[int, ...] = tuple(t.lo + t.hi for t in TILES)
_NUMBER_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i, t in enumerate(TILES) if t.has(v)) for v in range(16)
)
MATCH: tuple[int, ...] = tuple(_NUMBER_MASK[t.lo] | _NUMBER_MASK[t.hi] for t in TILES)
"""``MATCH[i]``: every tile sharing a number with tile ``i`` (including ``i`` itself)."""


def bits(mask: int) -> Iterator[int]:
    """The tile ids in a mask, lowest first.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(ids: Iterator[int] | list[int] | tuple[int, ...] | bytes) -> int:
    """The mask of some tile ids."""
    m = 0
    for i in ids:
        m |= 1 << i
    return m


@dataclass(frozen=True, slots=True)
class HighFivesOptions:
    """Every ``galt.*`` option of RULES §6.3 (keys without the prefix); defaults are the spec's.

    ``first_leader`` is ``"random"`` or a seat number. There is no ``enforcement`` key (RULES
    §0.1): High Fives has no bogus actions or rulings, so the engine only offers legal turns.

    >>> o = HighFivesOptions()
    >>> o.capture_mandatory, o.max_claims_per_turn, o.target, o.win_check
    (True, 1, 100, 'immediate')
    """

    capture_mandatory: bool = True
    max_claims_per_turn: Literal[1, "unlimited"] = 1
    claimable_pairs: Literal["any", "left_by_player"] = "any"
    capture_choice: Literal["player", "first_in_row"] = "player"
    remainder_timing: Literal["with_last_deal", "short_final_deal"] = "with_last_deal"
    target: Annotated[int, Bounds(1, 1000)] = 100
    win_check: Literal["immediate", "end_of_pass"] = "immediate"
    leader_next_pass: Literal["rotate_left", "same"] = "rotate_left"
    first_leader: Literal["random", 0, 1, 2, 3, 4, 5, 6, 7] = "random"

    def to_json(self) -> dict[str, object]:
        """The record form: only the keys that differ from the defaults.

        >>> HighFivesOptions(target=60, first_leader=0).to_json()
        {'target': 60, 'first_leader': 0}
        """
        out: dict[str, object] = {}
        for name, f in self.__dataclass_fields__.items():
            value = getattr(self, name)
            if value != f.default:
                out[name] = value
        return out


def build_high_fives_options(raw: Mapping[str, object] | None, num_seats: int) -> HighFivesOptions:
    """Options from a record/CLI mapping for ``num_seats`` players.

    Unknown keys or values raise :class:`~boneyard.core.errors.OptionError`.

    >>> build_high_fives_options({"first_leader": 5}, 3)
    Traceback (most recent call last):
    ...
    boneyard.core.errors.OptionError: option first_leader is seat 5, but 3 players sit at seats 0-2
    """
    opts = build_options(HighFivesOptions, raw)
    if opts.first_leader != "random" and opts.first_leader >= num_seats:
        raise OptionError(
            f"option first_leader is seat {opts.first_leader}, but {num_seats} players sit at "
            f"seats 0-{num_seats - 1}"
        )
    return opts


def check_players(num_seats: int) -> None:
    """Raise :class:`OptionError` unless 2-8 players."""
    if not MIN_PLAYERS <= num_seats <= MAX_PLAYERS:
        raise OptionError(
            f"High Fives is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {num_seats}"
        )


@dataclass(frozen=True, slots=True)
class Schedule:
    """The deals of one pass: tiles per seat in each deal, and the tiles turned up at the last."""

    sizes: tuple[int, ...]
    extra: int

    @property
    def last(self) -> int:
        """Index of the last deal (the one at which the extra tiles join the layout)."""
        return len(self.sizes) - 1

    @property
    def turns_per_seat(self) -> int:
        """Turns each seat takes in a whole pass."""
        return sum(self.sizes)


def schedule(
    num_seats: int,
    remainder_timing: Literal["with_last_deal", "short_final_deal"] = "with_last_deal",
) -> Schedule:
    """The deal schedule of a pass (RULES §3.1 table, decision GF-5).

    With ``"with_last_deal"`` the tiles left after the last full deal are turned face up at once.
    With ``"short_final_deal"`` they are dealt as one more, shorter deal of ``r // n`` tiles each,
    and only the ``r mod n`` left over are turned face up at it (when ``r < n`` there is no short
    deal and the two readings agree).

    >>> [(len(schedule(n).sizes), schedule(n).extra) for n in range(2, 9)]
    [(13, 1), (8, 11), (6, 11), (6, 11), (5, 11), (5, 19), (5, 3)]
    >>> s = schedule(3, "short_final_deal")
    >>> s.sizes[-2:], s.extra
    ((5, 3), 2)
    """
    check_players(num_seats)
    first = 5 if num_seats <= 4 else 4
    following = 5 if num_seats <= 4 else 4 if num_seats <= 6 else 3
    left = NUM_TILES - num_seats * first - LAYOUT_SIZE
    full, rest = divmod(left, num_seats * following)
    sizes = (first,) + (following,) * full
    if remainder_timing == "short_final_deal" and rest >= num_seats:
        short, rest = divmod(rest, num_seats)
        sizes += (short,)
    return Schedule(sizes, rest)
