"""The Fives layout shared by High Five and Merry-Go-Round (RULES §1.3, §2.2).

Tiles are placed on *ports*: the open edges of placed tiles. The first double of a hand is the
*spinner*; its two sides face along the line of play and its two ends only open once both sides are
covered (High Five's default, and Merry-Go-Round's cross). The *count* is the open-end total that
scores when it is a positive multiple of five.

>>> lay = FivesLayout()
>>> lay.place(tile_id(5, 5)); lay.count
10
>>> lay.place(tile_id(0, 5), tile_id(5, 5), SIDE_A); lay.count
10
>>> lay.place(tile_id(5, 6), tile_id(5, 5), SIDE_B); lay.count
6
>>> lay.place(tile_id(0, 4), tile_id(0, 5), OUT); lay.count
10
>>> sorted(lay.open_values())
[4, 5, 5, 6]
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum
from typing import Final

from boneyard.core.errors import IllegalActionError
from boneyard.core.tiles import DOUBLE_SIX, Tile

# --- the double-six set as small ints -------------------------------------------------------

TILES: Final[tuple[Tile, ...]] = DOUBLE_SIX.tiles
NUM_TILES: Final = len(TILES)
LO: Final[tuple[int, ...]] = tuple(t.lo for t in TILES)
HI: Final[tuple[int, ...]] = tuple(t.hi for t in TILES)
PIPS: Final[tuple[int, ...]] = tuple(t.lo + t.hi for t in TILES)
IS_DOUBLE: Final[tuple[bool, ...]] = tuple(t.lo == t.hi for t in TILES)
TILE_ID: Final[dict[Tile, int]] = {t: i for i, t in enumerate(TILES)}
_PAIR_ID: dict[tuple[int, int], int] = {}
for _i, _t in enumerate(TILES):
    _PAIR_ID[(_t.lo, _t.hi)] = _i
    _PAIR_ID[(_t.hi, _t.lo)] = _i
PIP_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << i for i, t in enumerate(TILES) if t.has(v)) for v in range(7)
)
"""``PIP_MASK[v]``: bit mask of the tiles showing ``v``."""
DOUBLE_MASK: Final = sum(1 << i for i in range(NUM_TILES) if IS_DOUBLE[i])


def tile_id(a: int, b: int) -> int:
    """The small-int id of tile ``a-b`` in the double-six set."""
    return _PAIR_ID[(a, b)]


def mask_of(ids: Iterator[int] | list[int] | tuple[int, ...]) -> int:
    """Bit mask of some tile ids."""
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def ids_of(mask: int) -> list[int]:
    """Tile ids in a bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def pips_of_mask(mask: int) -> int:
    """Total pips of the tiles in a mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() - 1]
        mask ^= low
    return total


# --- roles and ports -----------------------------------------------------------------------


class Role(IntEnum):
    """How a placed tile lies (RULES §1.3)."""

    LEAD_SINGLE = 0
    LINE_SINGLE = 1
    PLAIN_DOUBLE = 2
    SPINNER = 3


# Port codes.
E1: Final = 0
E2: Final = 1
OUT: Final = 2
SIDE_A: Final = 3
SIDE_B: Final = 4
END_A: Final = 5
END_B: Final = 6
PORT_NAMES: Final = ("E1", "E2", "OUT", "SIDE_A", "SIDE_B", "END_A", "END_B")
PORT_CODE: Final = {name: i for i, name in enumerate(PORT_NAMES)}
SPINNER_PORT_ORDER: Final = (SIDE_A, SIDE_B, END_A, END_B)


class Availability(IntEnum):
    """Which open ports may be played on."""

    SIDES_FIRST = 0
    """High Five default: a spinner's ends open once both its sides are covered."""
    ANY = 1
    """Every open port (``spinner_ends_need_both_sides = false``)."""
    CROSS_SIDES_THEN_ENDS = 2
    """Merry-Go-Round: the set's two sides, then its two ends, then anything."""
    CROSS_ANY_ORDER = 3
    """Merry-Go-Round ``any_order``: the set's four edges in any order, then anything."""


# The same values as plain ints for the hot paths: compiled, they are C constants, and the
# comparisons are machine ones (an enum member would be compared as a Python object).
R_LEAD: Final = 0
R_LINE: Final = 1
R_DOUBLE: Final = 2
R_SPINNER: Final = 3
A_SIDES_FIRST: Final = 0
A_ANY: Final = 1
A_CROSS_SIDES_THEN_ENDS: Final = 2

Port = tuple[int, int, int]
"""An open port as the layout shows it: ``(value, anchor tile id, port code)``."""

SLOT_BITS: Final = 3
"""A port inside the layout is one small int, its *slot*: ``anchor << SLOT_BITS | code`` (below
256, so the compiled build never allocates one)."""
NUM_SLOTS: Final = NUM_TILES << SLOT_BITS
_SIDES: Final = (1 << SIDE_A) | (1 << SIDE_B)
_CROSS: Final = _SIDES | (1 << END_A) | (1 << END_B)
_NONE: Final = -1
"""``role`` of a tile not placed."""
ROLES: Final[tuple[Role, ...]] = tuple(Role)


def _at_most_one(mask: int) -> bool:
    return mask & (mask - 1) == 0


class FivesLayout:
    """A mutable Fives layout. Copy with :meth:`copy`; every method is O(open ports).

    Everything is kept in small ints and lists indexed by tile id (the hot paths of both games
    place a tile and list placements many times a hand): ``role`` and ``out_value`` per tile,
    the open ports as slots (:data:`SLOT_BITS`) in the order they opened, the joint each tile
    was laid on as its parent's slot. The tuple views (:attr:`open`, :meth:`available`,
    :attr:`roles`, :attr:`links`) are built from them when asked.
    """

    __slots__ = (
        "_avail",
        "_avail_policy",
        "_count",
        "_first",
        "_open",
        "_unsided",
        "_vals",
        "avail_values",
        "connected",
        "order",
        "out_value",
        "parent",
        "role",
        "spinners",
    )

    def __init__(self) -> None:
        self.order: list[int] = []
        """Placed tile ids in placement order."""
        self.role: list[int] = [_NONE] * NUM_TILES
        """Each tile's :class:`Role` value (-1: not placed)."""
        self._open: list[int] = []
        self._vals: list[int] = []
        """The value of each open port, aligned with ``_open``."""
        self.spinners: list[int] = []
        """Spinner tile ids (a second one only through an uncaught misplaced spinner)."""
        self.connected: list[int] = [0] * NUM_TILES
        """For each spinner: bit set of its connected port codes (0 for any other tile)."""
        self._first = _NONE
        self._unsided = 0
        """How many spinners have a side still open (their ends wait under ``SIDES_FIRST``)."""
        self.parent: list[int] = [_NONE] * NUM_TILES
        """The slot each placed tile joins (-1: the first tile, or not placed)."""
        self.out_value: list[int] = [0] * NUM_TILES
        """The value of each single's or plain double's far edge."""
        self._count = 0
        self._avail: list[int] | None = None
        self._avail_policy = _NONE
        self.avail_values: list[int] = []
        """The value of each port in the list the last :meth:`available_slots` returned (small
        ints: the compiled build boxes them without allocating)."""

    def copy(self) -> FivesLayout:
        """An independent copy."""
        new = FivesLayout.__new__(FivesLayout)
        self._copy_into(new)
        return new

    def _copy_into(self, new: FivesLayout) -> None:
        """Fill a blank ``new`` with copies of this layout's fields."""
        new.order = self.order.copy()
        new.role = self.role.copy()
        new._open = self._open.copy()
        new._vals = self._vals.copy()
        new.spinners = self.spinners.copy()
        new.connected = self.connected.copy()
        new._first = self._first
        new._unsided = self._unsided
        new.parent = self.parent.copy()
        new.out_value = self.out_value.copy()
        new._count = self._count
        # A cached list of its own is never changed (the next place drops it); ``_open`` is.
        avail = self._avail
        new._avail = None if avail is None or avail is self._open else avail
        new._avail_policy = self._avail_policy
        # Values cached with a list of its own are never changed in place either.
        new.avail_values = [] if new._avail is None else self.avail_values

    def reset(self) -> None:
        """Empty the layout for the next hand (cheaper than a new one)."""
        for t in self.spinners:
            self.connected[t] = 0
        self.role = [_NONE] * NUM_TILES
        self.parent = [_NONE] * NUM_TILES
        self.order = []
        self._open = []
        self._vals = []
        self.spinners = []
        self._first = _NONE
        self._unsided = 0
        self._count = 0
        self._avail = None
        self._avail_policy = _NONE
        self.avail_values = []

    # --- views ------------------------------------------------------------------------------

    @property
    def empty(self) -> bool:
        """No tile placed yet."""
        return not self.order

    @property
    def count(self) -> int:
        """The open-end total (RULES §1.3)."""
        return self._count

    @property
    def first_spinner(self) -> int | None:
        """The hand's spinner (its first double), or None before one is placed."""
        return None if self._first < 0 else self._first

    @property
    def open(self) -> list[Port]:
        """Every open port in the order it opened (a new list)."""
        self._sync()
        return [(self.slot_value(s), s >> SLOT_BITS, s & 7) for s in self._open]

    @property
    def roles(self) -> dict[int, Role]:
        """Each placed tile's role, in placement order (a new dict)."""
        return {t: ROLES[self.role[t]] for t in self.order}

    @property
    def links(self) -> list[tuple[int, int, int]]:
        """``(anchor, port code, child)`` for every joint, in placement order (a new list)."""
        out = []
        for t in self.order:
            s = self.parent[t]
            if s >= 0:
                out.append((s >> SLOT_BITS, s & 7, t))
        return out

    def _sync(self) -> None:
        """Bring the open-port lists up to date: a subclass may keep them lazily (the
        Merry-Go-Round layout keeps its four open ports in two ints while it plays)."""

    def slot_value(self, slot: int) -> int:
        """The value of the port ``slot`` (open or not)."""
        anchor = slot >> SLOT_BITS
        code = slot & 7
        if code == E2:
            return HI[anchor]
        if code == OUT:
            return self.out_value[anchor]
        return LO[anchor]

    def open_values(self) -> list[int]:
        """Values of every open port (spinner edges included)."""
        self._sync()
        return self._vals.copy()

    def _recount(self) -> int:
        role = self.role
        total = 0
        for slot in self._open:
            r = role[slot >> SLOT_BITS]
            if r == R_SPINNER:
                continue
            value = self.slot_value(slot)
            total += value + value if r == R_DOUBLE else value
        for s in self.spinners:
            if _at_most_one(self.connected[s]):
                total += 2 * LO[s]
        return total

    # --- where a tile may go ----------------------------------------------------------------

    def available(self, policy: int) -> list[Port]:
        """Open ports a tile may be attached to now (a new list)."""
        return [(self.slot_value(s), s >> SLOT_BITS, s & 7) for s in self.available_slots(policy)]

    def available_slots(self, policy: int) -> list[int]:
        """The slots of the open ports a tile may be attached to now (do not modify the list)."""
        cached = self._avail
        if cached is not None and self._avail_policy == policy:
            return cached
        slots = self._available(policy)
        self._avail = slots
        self._avail_policy = policy
        self.avail_values = (
            self._vals if slots is self._open else [self.slot_value(s) for s in slots]
        )
        return slots

    def _available(self, policy: int) -> list[int]:
        if policy == A_ANY:
            return self._open
        if policy == A_SIDES_FIRST:
            # A spinner's ends wait for both its sides: skip them until then (the open list
            # itself when nothing waits, which is nearly always).
            if self._unsided == 0:
                return self._open
            connected = self.connected
            for slot in self._open:
                if slot & 7 >= END_A and connected[slot >> SLOT_BITS] & _SIDES != _SIDES:
                    return [
                        s
                        for s in self._open
                        if s & 7 < END_A or connected[s >> SLOT_BITS] & _SIDES == _SIDES
                    ]
            return self._open
        s = self._first
        if s < 0:
            return self._open
        c = self.connected[s]
        if c & _CROSS != _CROSS:
            if policy == A_CROSS_SIDES_THEN_ENDS:
                want = _SIDES if c & _SIDES != _SIDES else _CROSS ^ _SIDES
            else:
                want = _CROSS
            return [p for p in self._open if p >> SLOT_BITS == s and (want >> (p & 7)) & 1]
        return self._open

    def is_available(self, policy: int, anchor: int, code: int) -> bool:
        """Whether port ``code`` of ``anchor`` is open to play now."""
        slot = anchor << SLOT_BITS | code
        return any(s == slot for s in self.available_slots(policy))

    # --- placing ----------------------------------------------------------------------------

    def place(
        self,
        tile: int,
        anchor: int | None = None,
        code: int | None = None,
        touch: int | None = None,
    ) -> None:
        """Place ``tile`` on port ``code`` of ``anchor`` (the lead when ``anchor`` is None).

        ``touch`` is the half that touches the port; it defaults to the half matching the port
        (a tabletop *wrong bone* passes the non-matching half it was laid with). Legality is the
        caller's business; this only refuses a port that is not open.
        """
        if anchor is None:
            self.lead(tile)
        else:
            self.join(tile, anchor, code or 0, -1 if touch is None else touch)

    def lead(self, tile: int) -> None:
        """Place the first tile of the hand."""
        if self.order:
            raise IllegalActionError("the lead has already been played")
        self._avail = None
        self.order.append(tile)
        lo = LO[tile]
        hi = HI[tile]
        if lo == hi:
            self._new_spinner(tile, 0)
        else:
            self.role[tile] = R_LEAD
            self._open.append(tile << SLOT_BITS | E1)
            self._open.append(tile << SLOT_BITS | E2)
            self._vals.append(lo)
            self._vals.append(hi)
        # Alone on the table, a double (a spinner) counts both halves, and so does a single.
        self._count = lo + hi

    def join_listed(self, policy: int, tile: int, anchor: int, code: int) -> bool:
        """Place ``tile`` on port ``code`` of ``anchor`` if that port is open to play now and
        the tile matches it (what :meth:`fits` checks, found in one scan); False, and nothing
        changed, otherwise. A listed play is applied with this alone."""
        slot = anchor << SLOT_BITS | code
        slots = self.available_slots(policy)
        for k in range(len(slots)):
            if slots[k] == slot:
                if not (PIP_MASK[self.avail_values[k]] >> tile) & 1:
                    return False
                if slots is not self._open:  # a list of its own: find the port in the open one
                    k = self._open.index(slot)
                self._join_at(k, tile, anchor, code, -1)
                return True
        return False

    def join(self, tile: int, anchor: int, code: int, touch: int = -1) -> None:
        """Place ``tile`` on port ``code`` of ``anchor``; ``touch`` -1: the matching half (see
        :meth:`place`)."""
        slot = anchor << SLOT_BITS | code
        open_ = self._open
        k = 0
        n = len(open_)
        while k < n and open_[k] != slot:
            k += 1
        if k == n:
            raise IllegalActionError(f"{TILES[anchor]} has no open {PORT_NAMES[code]} end")
        self._join_at(k, tile, anchor, code, touch)

    def _join_at(self, k: int, tile: int, anchor: int, code: int, touch: int) -> None:
        """:meth:`join` on the open port at index ``k`` (port ``code`` of ``anchor``)."""
        slot = anchor << SLOT_BITS | code
        open_ = self._open
        vals = self._vals
        value = vals[k]
        # The count changes only where the joint is (RULES §1.3); brute_count checks this.
        count = self._count
        role = self.role
        anchor_role = role[anchor]
        if anchor_role == R_SPINNER:
            was = self.connected[anchor]
            now = was | (1 << code)
            self.connected[anchor] = now
            if was & _SIDES != _SIDES and now & _SIDES == _SIDES:
                self._unsided -= 1
            if _at_most_one(was) and not _at_most_one(now):
                count -= 2 * LO[anchor]
        elif anchor_role == R_DOUBLE:
            count -= value + value
        else:
            count -= value
        self.order.append(tile)
        self.parent[tile] = slot
        lo = LO[tile]
        hi = HI[tile]
        open_.pop(k)
        vals.pop(k)
        if lo == hi and self._first < 0:
            self._avail = None
            self._count = count + lo + lo
            self._new_spinner(tile, 1 << SIDE_A)
            return
        if lo == hi:
            role[tile] = R_DOUBLE
            far = lo
            count += lo + lo
        else:
            role[tile] = R_LINE
            if touch < 0:
                touch = value if value in (lo, hi) else lo
            far = hi if touch == lo else lo
            count += far
        self.out_value[tile] = far
        self._count = count
        open_.append(tile << SLOT_BITS | OUT)
        vals.append(far)
        # The open list, when it was all available, stays so (only a new spinner, or a spinner
        # with a side still open under SIDES_FIRST, holds some ends back).
        if self._avail is not open_ or (self._avail_policy == A_SIDES_FIRST and self._unsided):
            self._avail = None

    def count_after(self, tile: int, anchor: int, code: int) -> int:
        """The count :meth:`place` would make with ``tile`` on port ``code`` of ``anchor`` (-1:
        the first tile), for a tile that matches the port; nothing is copied or changed.

        >>> lay = FivesLayout()
        >>> lay.place(tile_id(5, 5))
        >>> lay.count_after(tile_id(0, 5), tile_id(5, 5), SIDE_A), lay.count
        (10, 10)
        """
        lo, hi = LO[tile], HI[tile]
        if anchor < 0:
            return lo + lo if lo == hi else lo + hi
        count = self._count
        anchor_role = self.role[anchor]
        if anchor_role == R_SPINNER:  # it stops counting twice at its second joint
            value = LO[anchor]
            connected = self.connected[anchor]
            if connected != 0 and _at_most_one(connected):
                count -= value + value
        else:
            value = self.slot_value(anchor << SLOT_BITS | code)
            count -= value + value if anchor_role == R_DOUBLE else value
        if lo == hi:
            return count + lo + lo
        return count + (hi if value == lo else lo)

    def _new_spinner(self, tile: int, connected: int) -> None:
        self.role[tile] = R_SPINNER
        self.spinners.append(tile)
        if self._first < 0:
            self._first = tile
        self.connected[tile] = connected
        if connected & _SIDES != _SIDES:
            self._unsided += 1
        lo = LO[tile]
        # SPINNER_PORT_ORDER as a range: compiled, a loop over the constant tuple rebuilds it.
        for code in range(SIDE_A, END_B + 1):
            if not (connected >> code) & 1:
                self._open.append(tile << SLOT_BITS | code)
                self._vals.append(lo)

    def make_spinner(self, double: int, transfer_from_first: bool) -> None:
        """Turn a plain double into a spinner (an uncaught misplaced spinner, PDA 10d).

        Its in-line edge becomes ``SIDE_A``, its far edge ``SIDE_B``; both ends open. With
        ``transfer_from_first`` the first spinner loses its unplayed ends (H5-10 ``transfer``).
        """
        self._avail = None
        mask = 1 << SIDE_A
        new_open: list[int] = []
        had_out = False
        for slot in self._open:
            if slot >> SLOT_BITS == double:
                new_open.append(double << SLOT_BITS | SIDE_B)
                had_out = True
            else:
                new_open.append(slot)
        if not had_out:
            mask |= 1 << SIDE_B
        new_open.append(double << SLOT_BITS | END_A)
        new_open.append(double << SLOT_BITS | END_B)
        first = self._first
        if transfer_from_first and first >= 0:
            new_open = [s for s in new_open if not (s >> SLOT_BITS == first and s & 7 >= END_A)]
        self._open = new_open
        self._vals = [self.slot_value(s) for s in new_open]
        self.role[double] = R_SPINNER
        self.spinners.append(double)
        self.connected[double] = mask
        if mask & _SIDES != _SIDES:
            self._unsided += 1
        self._count = self._recount()

    def port_value(self, anchor: int, code: int) -> int | None:
        """The value of an open port, or None if it is not open."""
        slot = anchor << SLOT_BITS | code
        self._sync()
        for s in self._open:
            if s == slot:
                return self.slot_value(slot)
        return None

    def brute_count(self) -> int:
        """The count recomputed from the joints alone, for tests (RULES §1.3).

        It ignores the open-port bookkeeping: a far edge is open when no joint uses it, and a
        spinner counts double while at most one joint touches it.
        """
        links = self.links
        used = {(a, c) for a, c, _child in links}
        children = {child for _a, _c, child in links}
        total = 0
        for t in self.order:
            role = self.role[t]
            if role == R_LEAD:
                total += (0 if (t, E1) in used else LO[t]) + (0 if (t, E2) in used else HI[t])
            elif role == R_LINE and (t, OUT) not in used:
                total += self.out_value[t]
            elif role == R_DOUBLE and (t, OUT) not in used:
                total += 2 * self.out_value[t]
            elif role == R_SPINNER:
                touching = sum(1 for a, _c, _ch in links if a == t) + (t in children)
                if touching <= 1:
                    total += 2 * LO[t]
        return total

    def describe_open(self, policy: int | None = None) -> str:
        """Values of the ends a tile may join now, as a player reads them: ``5, 6, 4``."""
        self._sync()
        slots = self._open if policy is None else self.available_slots(policy)
        return ", ".join(str(self.slot_value(s)) for s in slots)
