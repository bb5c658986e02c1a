"""Reading a Fives game's record: the parts High Five and Merry-Go-Round share (RECORDS.md §2,
§6).

:func:`read_hand` reads a hand's set-up after the checks every Fives hand has; the checks below
read the fields every Fives event has (``seat``, ``play``/``on``/``port``, ``draw``). Each game
reads its own events with them and keeps its own wording (its record reader, for
:mod:`boneyard.games.walk`).

>>> opt_int({"call": 15}, "call", 0, 3), opt_int({}, "call", 0, 3)
(15, None)
>>> opt_int({"call": "15"}, "call", 0, 3)
Traceback (most recent call last):
...
boneyard.core.errors.RecordError: call must be a whole number
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import JSON, Record, event_list, tile_field, tile_list
from boneyard.core.tiles import DOUBLE_SIX, Tile
from boneyard.games.fives.layout import TILES
from boneyard.games.fives.play import Play

A = TypeVar("A")
P = TypeVar("P", bound=Play)


class FivesRecordState(Protocol):
    """What :func:`read_hand` needs of a Fives game state."""

    @property
    def num_seats(self) -> int:
        """Player count."""
        ...

    @property
    def awaiting_deal(self) -> bool:
        """True when the next hand must be dealt."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game is over."""
        ...


def read_hand(
    state: FivesRecordState, record: Record, h: int
) -> tuple[list[list[Tile]], list[Tile], list[JSON]]:
    """Hand ``h``'s deal, boneyard and events, after the checks that come before dealing it: the
    game is not over, the hand before it is finished (RECORDS.md §6), the set-up is made of
    tiles. The game then deals it (its own checks of hand sizes and the whole set)."""
    if state.is_over:
        raise RecordError("the game is already over: no further hand may follow", h, None)
    if h > 0 and not state.awaiting_deal:
        before = event_list(record.hands[h - 1], h - 1)
        raise RecordError(
            "this hand is unfinished, yet another hand follows it", h - 1, len(before)
        )
    hand = record.hands[h]
    n = state.num_seats
    deal_raw = hand.get("deal")
    if not isinstance(deal_raw, list) or len(deal_raw) != n:
        raise RecordError(f"deal must list {n} hands of tiles", h, None)
    deal = [tile_list(DOUBLE_SIX, d, "a dealt tile", h) for d in deal_raw]
    bone = tile_list(DOUBLE_SIX, hand.get("boneyard", []), "a boneyard tile", h)
    return deal, bone, event_list(hand, h)


def check_in_hand(state: FivesRecordState, h: int, i: int) -> None:
    """Refuse an event after the hand (or the game) is over."""
    if state.awaiting_deal or state.is_over:
        why = "the game is over" if state.is_over else "the hand is over"
        raise RecordError(f"{why}: no further event may follow", h, i)


def event_seat(ev: JSON, n: int, h: int, i: int) -> int:
    """The event's ``seat``, checked to be a seat of an ``n``-player table."""
    seat = ev.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise RecordError(f"seat must be a seat number from 0 to {n - 1}", h, i)
    return seat


def check_turn(current: int | None, seat: int, h: int, i: int) -> None:
    """Refuse an event of a seat whose turn it is not."""
    if current != seat:
        raise RecordError(f"it is seat {current}'s turn, not seat {seat}'s", h, i)


def opt_int(ev: JSON, key: str, h: int, i: int) -> int | None:
    """An optional whole-number field."""
    value = ev.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key} must be a whole number", h, i)
    return value


def play_fields(
    ev: JSON, first: bool, h: int, i: int, *, lead: str, placed: str
) -> tuple[Tile, Tile | None, object]:
    """The tile, the tile it joins and the raw ``port`` of a play event.

    The first tile of a hand (``first``) names no ``on`` or ``port``; every later one names
    ``on``. ``lead`` says what the first tile is and ``placed`` why a later one names ``on``,
    in the game's words.
    """
    tile = tile_field(DOUBLE_SIX, ev["play"], "play", h, i)
    on_raw = ev.get("on")
    port = ev.get("port")
    if first:
        if on_raw is not None or port is not None:
            raise RecordError(
                f"{tile} {lead} (the first tile of the hand): it has no on or port", h, i
            )
        return tile, None, None
    if on_raw is None:
        raise RecordError(f"say which placed tile {tile} joins (on): {placed}", h, i)
    return tile, tile_field(DOUBLE_SIX, on_raw, "on", h, i), port


def drawn_tile(ev: JSON, seat: int, boneyard: Sequence[int], bpos: int, h: int, i: int) -> Tile:
    """The tile a draw event names, checked against the next boneyard tile if there is one."""
    tile = tile_field(DOUBLE_SIX, ev["draw"], "draw", h, i)
    if bpos < len(boneyard):
        nxt: Tile = TILES[boneyard[bpos]]
        if tile != nxt:
            raise RecordError(
                f"seat {seat} draws {tile}, but the next boneyard tile is {nxt}", h, i
            )
    return tile


def fives_legal_match(
    legal: Sequence[A],
    action: A,
    play: type[P],
    resolve: Callable[[P], tuple[int, int, int]],
) -> A:
    """The legal action a record's action takes: equal to it, or the same placement (of the
    game's ``play`` class) once its ends are resolved (a spinner play written without its
    port)."""
    for a in legal:
        if a == action:
            return a
    written = action
    if not isinstance(written, play) or written.touch is not None or written.call is not None:
        return action
    try:
        key = resolve(written)
    except BoneyardError:
        return action
    for k, a in enumerate(legal):
        if isinstance(a, play) and a.key == key:
            return legal[k]
    return action
