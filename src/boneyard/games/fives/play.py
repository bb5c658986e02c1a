"""Play on the Fives layout, shared by High Five and Merry-Go-Round (RULES §1.3, §2.2).

Both games place tiles on a :class:`~boneyard.games.fives.layout.FivesLayout` and differ in their
rules, not in how a placement is named, found, dealt, shown or written down. This module holds
that common part: the actions (:class:`Play`, :class:`Draw`, :class:`Pass`), the interned plays
and the placements of a hand (:class:`PlayTable`), dealing (:func:`deal_ids`)
and the public views of the table (:class:`PlacedView`, :class:`PublicEvent`).

>>> from boneyard.games.fives.layout import Availability, mask_of, tile_id
>>> lay = FivesLayout()
>>> lay.place(tile_id(5, 5))
>>> hand = mask_of([tile_id(0, 5), tile_id(5, 6), tile_id(1, 2)])
>>> [str(p) for p in PLAYS.placements(lay, Availability.SIDES_FIRST, hand)]
['0-5 on 5-5 SIDE_A', '5-6 on 5-5 SIDE_A', '0-5 on 5-5 SIDE_B', '5-6 on 5-5 SIDE_B']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.records import JSON
from boneyard.core.tiles import Tile
from boneyard.games.fives.layout import (
    HI,
    LO,
    NUM_SLOTS,
    NUM_TILES,
    PIP_MASK,
    PORT_CODE,
    PORT_NAMES,
    R_SPINNER,
    ROLES,
    SIDE_A,
    SLOT_BITS,
    SPINNER_PORT_ORDER,
    TILE_ID,
    TILES,
    FivesLayout,
    Port,
)

if TYPE_CHECKING:  # a native 64-bit int once compiled, a plain int otherwise
    from mypy_extensions import i64

NAMES: Final[tuple[str, ...]] = tuple(str(t) for t in TILES)
"""``NAMES[t]``: the record notation of tile id ``t``."""
ALL_IDS: Final[list[int]] = list(range(NUM_TILES))
FIELD_BITS: Final = 12
"""Bits of a packed port (:meth:`PlayTable.on_ports`): a slot (8 bits) above a value (4)."""
FIELD: Final = (1 << FIELD_BITS) - 1

# --- actions (RECORDS.md §2) -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """Place ``tile``: the lead when ``on`` is None, else on an open end of ``on``.

    ``port`` names a spinner edge (``SIDE_A``...``END_B``). ``touch`` (High Five tabletop only)
    is the half laid against the end when the tile does not match it; ``call`` is the score the
    player called (only read when ``require_score_call`` is on). ``key`` is the engine's
    internal ``(tile, anchor, port)`` ids (not part of equality).

    >>> Play(Tile(5, 6), Tile(5, 5), "SIDE_B").to_event()
    {'play': '5-6', 'on': '5-5', 'port': 'SIDE_B'}
    """

    tile: Tile
    on: Tile | None = None
    port: str | None = None
    touch: int | None = None
    call: int | None = None
    key: tuple[int, int, int] = field(default=(-1, -1, -1), compare=False, repr=False)

    def to_event(self) -> dict[str, object]:
        """Record fields without ``seat``."""
        ev: dict[str, object] = {"play": str(self.tile)}
        if self.on is not None:
            ev["on"] = str(self.on)
        if self.port is not None:
            ev["port"] = self.port
        if self.touch is not None:
            ev["touch"] = self.touch
        if self.call is not None:
            ev["call"] = self.call
        return ev

    def __str__(self) -> str:
        if self.on is None:
            return f"lead {self.tile}"
        where = f" {self.port}" if self.port else ""
        return f"{self.tile} on {self.on}{where}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next boneyard tile (the state writes the tile into the record)."""

    def to_event(self) -> dict[str, object]:
        """Record fields without ``seat``; the drawn tile is filled in by the state."""
        return {"draw": None}

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: nothing to play and nothing to draw."""

    def to_event(self) -> dict[str, object]:
        """Record fields without ``seat``."""
        return {"pass": True}

    def __str__(self) -> str:
        return "pass"


DRAW: Final = Draw()
PASS: Final = Pass()

# --- interned plays --------------------------------------------------------------------------


P = TypeVar("P", bound=Play)


class PlayTable(Generic[P]):
    """The interned plays of one :class:`Play` class, by internal ids, filled on first use.

    A game's legal actions are these shared values: listing them allocates nothing, and a
    play carries its ids in ``key`` so that applying it needs no lookup.
    """

    __slots__ = ("_cls", "_leads", "_rows")

    def __init__(self, cls: type[P]) -> None:
        self._cls = cls
        self._leads: list[P | None] = [None] * NUM_TILES
        self._rows: list[list[P | None]] = [[None] * NUM_TILES for _k in range(NUM_SLOTS)]
        """``_rows[slot][tile]``: the plays on each port slot of the layout."""

    def get(self, tile: int, anchor: int, code: int) -> P:
        """The play of ``tile`` on port ``code`` of ``anchor`` (``anchor`` -1: the lead)."""
        row = self._leads if anchor < 0 else self._rows[anchor << SLOT_BITS | code]
        play = row[tile]
        if play is None:
            port = PORT_NAMES[code] if code >= SIDE_A else None
            on = TILES[anchor] if anchor >= 0 else None
            play = self._cls(TILES[tile], on, port, key=(tile, anchor, code))
            row[tile] = play
        return play

    def placements(self, layout: FivesLayout, policy: int, hand: int) -> list[P]:
        """Every placement of a tile of ``hand`` (a bit mask) on the ends ``policy`` opens, port
        by port in the layout's order, tiles ascending within a port."""
        out: list[P] = []
        slots = layout.available_slots(policy)
        values = layout.avail_values
        for k in range(len(slots)):
            m = hand & PIP_MASK[values[k]]
            if not m:
                continue
            slot = slots[k]
            row = self._rows[slot]
            while m:
                low = m & -m
                t = low.bit_length() - 1
                m ^= low
                play = row[t]
                if play is None:
                    play = self.get(t, slot >> SLOT_BITS, slot & 7)
                out.append(play)
        return out

    def on_ports(self, ports: i64, n: i64, hand: int) -> list[P]:
        """:meth:`placements` on ``n`` ports packed in one int, :data:`FIELD_BITS` a port from
        the low bits: its slot above 4 bits holding its value (bit 3 is free for the packer's
        use). Shifting a native int costs the compiled build far less than reading two lists
        (Merry-Go-Round's layout keeps its ports so)."""
        out: list[P] = []
        rows = self._rows
        for _k in range(n):
            m: i64 = hand & PIP_MASK[ports & 7]
            if m:
                slot = (ports & FIELD) >> 4
                row = rows[slot]
                while m:
                    low = m & -m
                    t = int(low).bit_length() - 1
                    m ^= low
                    play = row[t]
                    if play is None:
                        play = self.get(t, slot >> SLOT_BITS, slot & 7)
                    out.append(play)
            ports >>= FIELD_BITS
        return out


PLAYS: Final = PlayTable(Play)
"""The interned plays of :class:`Play` itself."""


def can_place(layout: FivesLayout, policy: int, hand: int) -> bool:
    """Whether a tile of ``hand`` fits an end ``policy`` opens (the layout is not empty)."""
    layout.available_slots(policy)
    # A loop: compiled, any() over a generator allocates the generator.
    for v in layout.avail_values:  # noqa: SIM110
        if hand & PIP_MASK[v]:
            return True
    return False


def play_ids(action: Play, layout: FivesLayout, first: str) -> tuple[int, int]:
    """The ids of a play's tile and of the placed tile it joins (-1 for the first tile of a
    hand, which the game calls ``first``); raises :class:`IllegalActionError` unless both
    exist."""
    tile = TILE_ID.get(action.tile, -1)
    if tile < 0:
        raise IllegalActionError(f"{action.tile} is not a double-six tile")
    if action.on is None:
        if action.port is not None:
            raise IllegalActionError(f"the {first} is not played on a port")
        return tile, -1
    anchor = TILE_ID.get(action.on, -1)
    if anchor < 0 or layout.role[anchor] < 0:
        raise IllegalActionError(f"{action.on} is not on the table")
    return tile, anchor


def default_port(layout: FivesLayout, policy: int, tile: int, anchor: int) -> int:
    """The port of ``anchor`` a play takes when it names none: a spinner's first edge open to
    play (``SIDE_A`` ... ``END_B``), another tile's end matching ``tile``, else its first open
    end. Raises :class:`IllegalActionError` when ``anchor`` has no open end."""
    ports = [p for p in layout.open if p[1] == anchor]
    if not ports:
        raise IllegalActionError(
            f"{TILES[anchor]} has no open end (open: {layout.describe_open() or 'none'})"
        )
    if layout.role[anchor] == R_SPINNER:
        for code in SPINNER_PORT_ORDER:
            if layout.is_available(policy, anchor, code):
                return code
        return ports[0][2]
    for value, _a, code in ports:
        if value == LO[tile] or value == HI[tile]:
            return code
    return ports[0][2]


# --- dealing ---------------------------------------------------------------------------------


def deal_ids(
    deal: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
) -> tuple[list[list[int]], list[int]]:
    """Tile ids of an explicit deal and its boneyard; raises :class:`BoneyardError` unless
    together they hold the double-six set, each tile once (hand sizes are the game's check).

    >>> deal_ids([[Tile(0, 0)]], [t for t in TILES if t != Tile(0, 1)])
    Traceback (most recent call last):
    ...
    boneyard.core.errors.BoneyardError: 0-0 is dealt twice
    """
    try:
        hands = [[TILE_ID[t] for t in h] for h in deal]
        bone = [TILE_ID[t] for t in boneyard]
    except KeyError as exc:
        raise BoneyardError(f"{exc.args[0]} is not a double-six tile") from None
    seen: set[int] = set()
    for t in [x for h in hands for x in h] + bone:
        if t in seen:
            raise BoneyardError(f"{TILES[t]} is dealt twice")
        seen.add(t)
    if len(seen) != NUM_TILES:
        missing = [str(TILES[t]) for t in range(NUM_TILES) if t not in seen]
        raise BoneyardError(f"the deal leaves out {', '.join(missing)}")
    return hands, bone


def hand_masks(hands: list[list[int]]) -> list[int]:
    """Each hand's tile ids as a bit mask."""
    masks = []
    for hand in hands:
        m = 0
        for t in hand:
            m |= 1 << t
        masks.append(m)
    return masks


# --- what everyone sees ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlacedView:
    """A placed tile as everyone sees it."""

    tile: Tile
    role: str
    on: Tile | None
    port: str | None
    joined: int | None = None
    """The value of the end it was laid against (None for the lead)."""

    def to_json(self) -> dict[str, object]:
        """JSON form (``joined`` is left out: the client reads it from ``on``)."""
        return {
            "tile": str(self.tile),
            "role": self.role,
            "on": None if self.on is None else str(self.on),
            "port": self.port,
        }


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """One event of the current hand as the observer may see it (a draw shows its tile only
    to the drawer)."""

    seat: int
    kind: str
    tile: Tile | None = None
    on: Tile | None = None
    port: str | None = None
    points: int = 0
    open_values: tuple[int, ...] = ()

    def to_json(self) -> dict[str, object]:
        """JSON form, without ``points`` and ``open_values``."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "tile": None if self.tile is None else str(self.tile),
            "on": None if self.on is None else str(self.on),
            "port": self.port,
        }


def placed_views(lay: FivesLayout) -> tuple[PlacedView, ...]:
    """Every placed tile of ``lay`` in placement order, with the end it joins.

    >>> from boneyard.games.fives.layout import tile_id
    >>> lay = FivesLayout()
    >>> lay.place(tile_id(5, 5)); lay.place(tile_id(0, 5), tile_id(5, 5), SIDE_A)
    >>> [(str(p.tile), p.role, str(p.on), p.port, p.joined) for p in placed_views(lay)]
    [('5-5', 'SPINNER', 'None', None, None), ('0-5', 'LINE_SINGLE', '5-5', 'SIDE_A', 5)]
    """
    placed = []
    for t in lay.order:
        slot = lay.parent[t]
        a = slot >> SLOT_BITS if slot >= 0 else -1
        placed.append(
            PlacedView(
                TILES[t],
                ROLES[lay.role[t]].name,
                TILES[a] if a >= 0 else None,
                PORT_NAMES[slot & 7] if a >= 0 and lay.role[a] == R_SPINNER else None,
                lay.slot_value(slot) if a >= 0 else None,
            )
        )
    return tuple(placed)


def ends_view(ports: Sequence[Port]) -> tuple[tuple[int, Tile, str], ...]:
    """Open ports as ``(value, tile, port name)``."""
    return tuple((v, TILES[a], PORT_NAMES[c]) for v, a, c in ports)


def ends_json(ends: Sequence[tuple[int, Tile, str]]) -> list[list[object]]:
    """JSON form of :func:`ends_view`."""
    return [[v, str(t), port] for v, t, port in ends]


# --- back from JSON (a bot account's client: boneyard.cli.botclient) --------------------------


def ends_from_json(ends: Sequence[Sequence[Any]]) -> tuple[tuple[int, Tile, str], ...]:
    """:func:`ends_json` read back."""
    return tuple((int(v), Tile.parse(t), str(port)) for v, t, port in ends)


def events_from_json(history: Sequence[JSON]) -> tuple[PublicEvent, ...]:
    """An observation's ``history`` read back (``points`` as written, 0 when absent)."""
    return tuple(
        PublicEvent(
            int(e["seat"]),
            str(e["kind"]),
            None if e.get("tile") is None else Tile.parse(e["tile"]),
            None if e.get("on") is None else Tile.parse(e["on"]),
            e.get("port"),
            int(e.get("points", 0)),
        )
        for e in history
    )


def layout_from_json(doc: JSON, policy: int) -> FivesLayout:
    """The layout an observation's JSON shows, rebuilt by placing its ``layout`` tiles in order
    (a tile on a spinner takes the port named, any other the end it matches, as a record's play
    does); raises :class:`BoneyardError` unless the result shows exactly the JSON's tiles, roles
    and open ends (a wrong bone left on the table under tabletop enforcement does not)."""
    lay = FivesLayout()
    for placed in doc["layout"]:
        tile = TILE_ID[Tile.parse(placed["tile"])]
        if placed.get("on") is None:
            lay.place(tile)
            continue
        anchor = TILE_ID[Tile.parse(placed["on"])]
        port = placed.get("port")
        code = PORT_CODE[port] if port is not None else default_port(lay, policy, tile, anchor)
        lay.place(tile, anchor, code)
    shown = [p.to_json() for p in placed_views(lay)]
    if shown != list(doc["layout"]) or ends_json(ends_view(lay.open)) != doc["open_ends"]:
        raise BoneyardError("this layout cannot be rebuilt from its tiles (a wrong bone?)")
    return lay


def play_from_json(ev: JSON, lay: FivesLayout, policy: int, plays: PlayTable[P]) -> P:
    """The interned play (with its internal ids) a legal action's record form names."""
    tile = TILE_ID[Tile.parse(ev["play"])]
    if ev.get("on") is None:
        return plays.get(tile, -1, -1)
    anchor = TILE_ID[Tile.parse(ev["on"])]
    port = ev.get("port")
    code = PORT_CODE[port] if port is not None else default_port(lay, policy, tile, anchor)
    return plays.get(tile, anchor, code)


__all__ = [
    "ALL_IDS",
    "DRAW",
    "FIELD",
    "FIELD_BITS",
    "NAMES",
    "PASS",
    "PLAYS",
    "Draw",
    "Pass",
    "PlacedView",
    "Play",
    "PlayTable",
    "PublicEvent",
    "can_place",
    "deal_ids",
    "default_port",
    "ends_from_json",
    "ends_json",
    "ends_view",
    "events_from_json",
    "hand_masks",
    "layout_from_json",
    "placed_views",
    "play_from_json",
    "play_ids",
]
