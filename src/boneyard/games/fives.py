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


E1, E2, OUT, SIDE_A, SIDE_B, END_A, END_B = range(7)
"""Port codes."""
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


# Module constants for the hot paths: compiled, they are C statics rather than class lookups.
R_LEAD: Final = Role.LEAD_SINGLE
R_LINE: Final = Role.LINE_SINGLE
R_DOUBLE: Final = Role.PLAIN_DOUBLE
R_SPINNER: Final = Role.SPINNER
A_SIDES_FIRST: Final = Availability.SIDES_FIRST
A_ANY: Final = Availability.ANY
A_CROSS_SIDES_THEN_ENDS: Final = Availability.CROSS_SIDES_THEN_ENDS

Port = tuple[int, int, int]
"""An open port: ``(value, anchor tile id, port code)``."""


class FivesLayout:
    """A mutable Fives layout. Copy with :meth:`copy`; every method is O(open ports)."""

    __slots__ = (
        "_avail",
        "_count",
        "connected",
        "first_spinner",
        "links",
        "open",
        "order",
        "out_value",
        "roles",
        "spinners",
    )

    def __init__(self) -> None:
        self.order: list[int] = []
        """Placed tile ids in placement order."""
        self.roles: dict[int, Role] = {}
        self.open: list[Port] = []
        self.spinners: list[int] = []
        """Spinner tile ids (a second one only through an uncaught misplaced spinner)."""
        self.connected: dict[int, int] = {}
        """For each spinner: bit set of its connected port codes."""
        self.first_spinner: int | None = None
        self.links: list[tuple[int, int, int]] = []
        """``(anchor, port code, child)`` for every joint, in placement order."""
        self.out_value: dict[int, int] = {}
        """The value of each single's or plain double's far edge."""
        self._count = 0
        self._avail: tuple[Availability, list[Port]] | None = None

    def copy(self) -> FivesLayout:
        """An independent copy."""
        new = FivesLayout.__new__(FivesLayout)
        new.order = self.order.copy()
        new.roles = self.roles.copy()
        new.open = self.open.copy()
        new.spinners = self.spinners.copy()
        new.connected = self.connected.copy()
        new.first_spinner = self.first_spinner
        new.links = self.links.copy()
        new.out_value = self.out_value.copy()
        new._count = self._count
        # The cached list may be ``self.open`` itself, which this layout goes on changing.
        avail = self._avail
        new._avail = None if avail is None or avail[1] is self.open else avail
        return new

    @property
    def empty(self) -> bool:
        """No tile placed yet."""
        return not self.order

    @property
    def count(self) -> int:
        """The open-end total (RULES §1.3)."""
        return self._count

    def open_values(self) -> list[int]:
        """Values of every open port (spinner edges included)."""
        return [p[0] for p in self.open]

    def _recount(self) -> int:
        roles = self.roles
        total = 0
        for value, anchor, _code in self.open:
            role = roles[anchor]
            if role is R_SPINNER:
                continue
            total += value + value if role is R_DOUBLE else value
        for s in self.spinners:
            if self.connected[s].bit_count() <= 1:
                total += 2 * LO[s]
        return total

    def available(self, policy: Availability) -> list[Port]:
        """Open ports a tile may be attached to now (do not modify the list)."""
        cached = self._avail
        if cached is not None and cached[0] is policy:
            return cached[1]
        ports = self._available(policy)
        self._avail = (policy, ports)
        return ports

    def _available(self, policy: Availability) -> list[Port]:
        if policy is A_ANY:
            return self.open
        if policy is A_SIDES_FIRST:
            out = []
            for port in self.open:
                if port[2] >= END_A:
                    c = self.connected[port[1]]
                    if not (c >> SIDE_A) & 1 or not (c >> SIDE_B) & 1:
                        continue
                out.append(port)
            return out
        s = self.first_spinner
        if s is None:
            return self.open
        c = self.connected[s]
        if c & 0b1111000 != 0b1111000:
            want: tuple[int, ...]
            if policy is A_CROSS_SIDES_THEN_ENDS:
                want = (SIDE_A, SIDE_B) if c & 0b0011000 != 0b0011000 else (END_A, END_B)
            else:
                want = SPINNER_PORT_ORDER
            return [p for p in self.open if p[1] == s and p[2] in want]
        return self.open

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
        lo, hi = LO[tile], HI[tile]
        roles = self.roles
        self._avail = None
        if anchor is None:
            if self.order:
                raise IllegalActionError("the lead has already been played")
            self.order.append(tile)
            if lo == hi:
                self._new_spinner(tile, ())
            else:
                roles[tile] = R_LEAD
                self.open.append((lo, tile, E1))
                self.open.append((hi, tile, E2))
            self._count = self._recount()
            return
        port_index = -1
        for k, port in enumerate(self.open):
            if port[1] == anchor and port[2] == code:
                port_index = k
                break
        if port_index < 0:
            raise IllegalActionError(f"{TILES[anchor]} has no open {PORT_NAMES[code or 0]} end")
        value = self.open[port_index][0]
        del self.open[port_index]
        # The count changes only where the joint is (RULES §1.3); brute_count checks this.
        count = self._count
        connected = self.connected
        if anchor in connected:
            was = connected[anchor]
            now = was | (1 << (code or 0))
            connected[anchor] = now
            if was.bit_count() <= 1 < now.bit_count():
                count -= 2 * LO[anchor]
        else:
            count -= 2 * value if roles[anchor] is R_DOUBLE else value
        self.order.append(tile)
        self.links.append((anchor, code or 0, tile))
        if lo == hi:
            count += 2 * lo
            if self.first_spinner is None:
                self._new_spinner(tile, (SIDE_A,))
            else:
                roles[tile] = R_DOUBLE
                self.out_value[tile] = lo
                self.open.append((lo, tile, OUT))
        else:
            roles[tile] = R_LINE
            if touch is None:
                touch = value if value in (lo, hi) else lo
            far = hi if touch == lo else lo
            count += far
            self.out_value[tile] = far
            self.open.append((far, tile, OUT))
        self._count = count

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
        connected = self.connected.get(anchor, -1)
        if connected >= 0:  # a spinner: it stops counting twice at its second joint
            value = LO[anchor]
            if connected.bit_count() == 1:
                count -= value + value
        else:
            value = (
                HI[anchor] if code == E2 else LO[anchor] if code == E1 else self.out_value[anchor]
            )
            count -= value + value if self.roles[anchor] is R_DOUBLE else value
        if lo == hi:
            return count + lo + lo
        return count + (hi if value == lo else lo)

    def _new_spinner(self, tile: int, connected: tuple[int, ...]) -> None:
        x = LO[tile]
        self.roles[tile] = R_SPINNER
        self.spinners.append(tile)
        if self.first_spinner is None:
            self.first_spinner = tile
        mask = 0
        for code in connected:
            mask |= 1 << code
        self.connected[tile] = mask
        for code in SPINNER_PORT_ORDER:
            if not (mask >> code) & 1:
                self.open.append((x, tile, code))

    def make_spinner(self, double: int, transfer_from_first: bool) -> None:
        """Turn a plain double into a spinner (an uncaught misplaced spinner, PDA 10d).

        Its in-line edge becomes ``SIDE_A``, its far edge ``SIDE_B``; both ends open. With
        ``transfer_from_first`` the first spinner loses its unplayed ends (H5-10 ``transfer``).
        """
        x = LO[double]
        self._avail = None
        mask = 1 << SIDE_A
        new_open: list[Port] = []
        for port in self.open:
            if port[1] == double:
                new_open.append((x, double, SIDE_B))
            else:
                new_open.append(port)
        if not any(p[1] == double for p in self.open):
            mask |= 1 << SIDE_B
        new_open.append((x, double, END_A))
        new_open.append((x, double, END_B))
        if transfer_from_first and self.first_spinner is not None:
            first = self.first_spinner
            new_open = [p for p in new_open if not (p[1] == first and p[2] >= END_A)]
        self.open = new_open
        self.roles[double] = R_SPINNER
        self.spinners.append(double)
        self.connected[double] = mask
        self._count = self._recount()

    def port_value(self, anchor: int, code: int) -> int | None:
        """The value of an open port, or None if it is not open."""
        for value, a, c in self.open:
            if a == anchor and c == code:
                return value
        return None

    def brute_count(self) -> int:
        """The count recomputed from the joints alone, for tests (RULES §1.3).

        It ignores the open-port bookkeeping: a far edge is open when no joint uses it, and a
        spinner counts double while at most one joint touches it.
        """
        used = {(a, c) for a, c, _child in self.links}
        children = {child for _a, _c, child in self.links}
        total = 0
        for t in self.order:
            role = self.roles[t]
            if role is R_LEAD:
                total += (0 if (t, E1) in used else LO[t]) + (0 if (t, E2) in used else HI[t])
            elif role is R_LINE and (t, OUT) not in used:
                total += self.out_value[t]
            elif role is R_DOUBLE and (t, OUT) not in used:
                total += 2 * self.out_value[t]
            elif role is R_SPINNER:
                touching = sum(1 for a, _c, _ch in self.links if a == t) + (t in children)
                if touching <= 1:
                    total += 2 * LO[t]
        return total

    def describe_open(self, policy: Availability | None = None) -> str:
        """Values of the ends a tile may join now, as a player reads them: ``5, 6, 4``."""
        ports = self.open if policy is None else self.available(policy)
        return ", ".join(str(p[0]) for p in ports)
