"""The Merry-Go-Round layout: the Fives layout with its open ports packed in one int (RULES §2.2).

A Merry-Go-Round hand has one spinner, the set; every later double is a plain one. So once the
set is down exactly four ports are open: the set's four edges at first, then the far end of each
arm. :class:`CrossLayout` keeps them, in the order they opened, packed in one int instead of the
base class's two lists: 12 bits a port, lowest first (:data:`~boneyard.games.fives.play.FIELD`:
its slot, its value, and whether its tile is a plain double). In the compiled build a placement
then replaces one port with a few shifts, where the lists cost a pop from the middle and two
appends of boxed ints, and a listing reads its ports without a list lookup. The ports open to
play (the cross first) are packed the same way after each placement. The base class's lists are
rebuilt when something else asks for them (:meth:`CrossLayout._sync`).

>>> from boneyard.games.fives.layout import Availability, tile_id
>>> lay = CrossLayout(Availability.CROSS_SIDES_THEN_ENDS)
>>> lay.place(tile_id(5, 5))
>>> lay.join_listed(lay.policy, tile_id(5, 6), tile_id(5, 5), END_A)
False
>>> lay.join_listed(lay.policy, tile_id(5, 6), tile_id(5, 5), SIDE_B)
True
>>> [(v, str(TILES[a]), PORT_NAMES[c]) for v, a, c in lay.open], lay.count
([(5, '5-5', 'SIDE_A'), (5, '5-5', 'END_A'), (5, '5-5', 'END_B'), (6, '5-6', 'OUT')], 16)
>>> [PORT_NAMES[c] for _v, _a, c in lay.available(lay.policy)]
['SIDE_A']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from boneyard.core.errors import IllegalActionError
from boneyard.games.fives.layout import (
    A_CROSS_SIDES_THEN_ENDS,
    END_A,
    END_B,
    HI,
    IS_DOUBLE,
    LO,
    OUT,
    PIP_MASK,
    PORT_NAMES,
    R_DOUBLE,
    R_LINE,
    R_SPINNER,
    SIDE_A,
    SIDE_B,
    SLOT_BITS,
    TILES,
    Availability,
    FivesLayout,
)
from boneyard.games.fives.play import FIELD, FIELD_BITS

if TYPE_CHECKING:  # a native 64-bit int once compiled, a plain int otherwise
    from mypy_extensions import i64

_SIDES: Final = (1 << SIDE_A) | (1 << SIDE_B)
_CROSS: Final = _SIDES | (1 << END_A) | (1 << END_B)
_CROSS_POLICIES: Final = (Availability.CROSS_SIDES_THEN_ENDS, Availability.CROSS_ANY_ORDER)
PORTS: Final = 4
"""Ports open once the set is down."""
_DOUBLED: Final = 8
"""The bit of a port's field set when its tile is a plain double (its value counts twice)."""
_KEEP: Final[tuple[int, ...]] = tuple((1 << FIELD_BITS * k) - 1 for k in range(PORTS))
"""``_KEEP[k]``: the fields below port ``k``."""
_LAST: Final = FIELD_BITS * (PORTS - 1)
_SLOT_PART: Final = FIELD ^ 15
"""The slot's bits of a port's field."""


class CrossLayout(FivesLayout):
    """A Fives layout with one spinner, the set, played under one of the cross policies
    (:class:`~boneyard.games.fives.layout.Availability`). See the module docstring."""

    __slots__ = ("_crossed", "_ports", "_stale", "policy", "ready", "ready_count")

    def __init__(self, policy: int) -> None:
        super().__init__()
        if policy not in _CROSS_POLICIES:
            raise ValueError(f"{policy} is not a cross policy")
        self.policy = policy
        """The policy this layout is played under (the cross's order)."""
        self._ports: i64 = 0
        """The open ports' fields, in the order they opened (none before the set)."""
        self.ready: i64 = 0
        """The ports open to play now, packed as ``_ports`` (all of them once ``_crossed``):
        :meth:`PlayTable.on_ports` lists the plays on them."""
        self.ready_count: i64 = 0
        """How many ports ``ready`` holds."""
        self._crossed = False
        """Whether the set's four edges are covered."""
        self._stale = False
        """Whether the base class's open-port lists lag behind the packed ports."""

    def copy(self) -> CrossLayout:
        """An independent copy."""
        new = CrossLayout(self.policy)
        self._copy_into(new)
        new._ports = self._ports
        new.ready = self.ready
        new.ready_count = self.ready_count
        new._crossed = self._crossed
        new._stale = self._stale
        return new

    def reset(self) -> None:
        """Empty the layout for the next hand."""
        super().reset()
        self._ports = self.ready = self.ready_count = 0
        self._crossed = self._stale = False

    def _sync(self) -> None:
        if not self._stale:
            return
        open_: list[int] = []
        vals: list[int] = []
        ports = self._ports
        for _k in range(PORTS):
            open_.append((ports & FIELD) >> 4)
            vals.append(ports & 7)
            ports >>= FIELD_BITS
        self._open = open_
        self._vals = vals
        self._avail = None
        self._stale = False

    # --- where a tile may go ----------------------------------------------------------------

    def available_slots(self, policy: int) -> list[int]:
        """The slots of the open ports a tile may be attached to now (from the lists, which
        only callers outside the hot path ask for)."""
        self._sync()
        return super().available_slots(policy)

    def can_place(self, hand: int) -> bool:
        """Whether a tile of ``hand`` fits a port open to play now."""
        ports = self.ready
        for _k in range(self.ready_count):
            if hand & PIP_MASK[ports & 7]:
                return True
            ports >>= FIELD_BITS
        return False

    def _refresh(self) -> None:
        """Pack the ports open to play during the cross: the set's open edges it allows."""
        s = self._first
        c = self.connected[s]
        if self.policy == A_CROSS_SIDES_THEN_ENDS:
            want = _SIDES if c & _SIDES != _SIDES else _CROSS ^ _SIDES
        else:
            want = _CROSS
        aports: i64 = 0
        n: i64 = 0
        ports = self._ports
        for _k in range(PORTS):
            slot = (ports & FIELD) >> 4
            if slot >> SLOT_BITS == s and (want >> (slot & 7)) & 1:
                aports |= (ports & FIELD) << FIELD_BITS * n
                n += 1
            ports >>= FIELD_BITS
        self.ready = aports
        self.ready_count = n

    # --- placing ----------------------------------------------------------------------------

    def lead(self, tile: int) -> None:
        """Lay the set (a double: the hand's only spinner, whose four edges open)."""
        if not IS_DOUBLE[tile]:
            raise IllegalActionError(f"the set must be a double, and {TILES[tile]} is not")
        if self.order:
            raise IllegalActionError("the lead has already been played")
        self.order.append(tile)
        self.role[tile] = R_SPINNER
        self.spinners.append(tile)
        self._first = tile
        self._unsided = 1
        lo = LO[tile]
        self._count = lo + lo  # alone on the table, the set counts both halves
        edge = tile << SLOT_BITS + 4 | lo
        self._ports = (
            (edge | SIDE_A << 4)
            | (edge | SIDE_B << 4) << FIELD_BITS
            | (edge | END_A << 4) << 2 * FIELD_BITS
            | (edge | END_B << 4) << 3 * FIELD_BITS
        )
        self._stale = True
        self._refresh()

    def join_listed(self, policy: int, tile: int, anchor: int, code: int) -> bool:
        """Place ``tile`` on port ``code`` of ``anchor`` if that port is open to play and the
        tile matches it; False, and nothing changed, otherwise (``policy`` is :attr:`policy`)."""
        if policy != self.policy:
            raise ValueError(f"this layout is played under policy {self.policy}, not {policy}")
        slot = anchor << SLOT_BITS | code
        at: i64 = slot << 4  # the port's field without its value bits
        ports = self.ready
        for k in range(self.ready_count):
            if ports & _SLOT_PART == at:
                field = ports & FIELD
                if not (PIP_MASK[field & 7] >> tile) & 1:
                    return False
                # Once crossed the ports open to play are all of them, in the same order.
                self._place(k if self._crossed else self._index(slot), field, tile, anchor, -1)
                return True
            ports >>= FIELD_BITS
        return False

    def join(self, tile: int, anchor: int, code: int, touch: int = -1) -> None:
        """Place ``tile`` on port ``code`` of ``anchor`` (see :meth:`FivesLayout.place`)."""
        k = self._index(anchor << SLOT_BITS | code)
        if k < 0:
            raise IllegalActionError(f"{TILES[anchor]} has no open {PORT_NAMES[code]} end")
        self._place(k, (self._ports >> FIELD_BITS * k) & FIELD, tile, anchor, touch)

    def _index(self, slot: int) -> i64:
        """Where the open port ``slot`` is among the packed ones (-1: it is not open)."""
        ports = self._ports
        for k in range(PORTS if self._first >= 0 else 0):
            if (ports & FIELD) >> 4 == slot:
                return k
            ports >>= FIELD_BITS
        return -1

    def _place(self, k: i64, field: i64, tile: int, anchor: int, touch: int) -> None:
        """Place ``tile`` on the ``k``-th open port, whose field is ``field``; the count changes
        only where the joint is, as in :meth:`FivesLayout.join`."""
        value = field & 7
        count: i64 = self._count
        slot = int(field >> 4)
        if anchor == self._first:  # the set: it stops counting twice at its second joint
            was = self.connected[anchor]
            now = was | 1 << (slot & 7)
            self.connected[anchor] = now
            if was & _SIDES != _SIDES and now & _SIDES == _SIDES:
                self._unsided -= 1
            if was != 0 and was & (was - 1) == 0:
                count -= 2 * LO[anchor]
            self._crossed = now & _CROSS == _CROSS
        elif field & _DOUBLED:
            count -= value + value
        else:
            count -= value
        self.order.append(tile)
        self.parent[tile] = slot
        lo: i64 = LO[tile]
        hi: i64 = HI[tile]
        here: i64 = (tile << SLOT_BITS | OUT) << 4
        if lo == hi:
            self.role[tile] = R_DOUBLE
            far = lo
            count += lo + lo
            new = here | _DOUBLED | lo
        else:
            self.role[tile] = R_LINE
            # The half against the port: the one matching it, unless ``touch`` names another.
            half: i64 = value if touch < 0 else touch
            far = lo if half == hi else hi
            count += far
            new = here | far
        self.out_value[tile] = far
        self._count = count
        # The k-th port gives way to the new tile's far end, the last to open.
        keep = _KEEP[k]
        ports = self._ports
        ports = ports & keep | (ports >> FIELD_BITS) & ~keep | new << _LAST
        self._ports = ports
        self._stale = True
        if self._crossed:
            self.ready = ports
            self.ready_count = PORTS
        else:
            self._refresh()

    def make_spinner(self, double: int, transfer_from_first: bool) -> None:
        """Refused: Merry-Go-Round has one spinner, the set (PDA 10d is High Five's)."""
        raise IllegalActionError("Merry-Go-Round has one spinner: the set")


__all__ = ["PORTS", "CrossLayout"]
