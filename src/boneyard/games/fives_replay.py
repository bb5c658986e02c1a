"""Replaying a Fives game's record: the parts High Five and Merry-Go-Round share (RECORDS.md §2,
§5).

:func:`replay_hands` feeds a record to a state hand by hand and yields its replay lines; the
checks below read the fields every Fives event has (``seat``, ``play``/``on``/``port``,
``draw``). Each game parses its own events with them and keeps its own wording.

>>> opt_int({"call": 15}, "call", 0, 3), opt_int({}, "call", 0, 3)
(15, None)
>>> opt_int({"call": "15"}, "call", 0, 3)
Traceback (most recent call last):
...
boneyard.core.errors.RecordError: call must be a whole number
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import Record, event_list, tile_field, tile_list
from boneyard.core.tiles import DOUBLE_SIX, Tile
from boneyard.games.fives import TILES

JSON = dict[str, Any]


class ReplayState(Protocol):
    """What :func:`replay_hands` needs of a game state (one built with ``log=True``)."""

    n: int
    lines: list[JSON] | None

    @property
    def awaiting_deal(self) -> bool:
        """True when the next hand must be dealt."""

    @property
    def is_over(self) -> bool:
        """True once the game is over."""

    def apply(self, action: Any) -> None:
        """Apply an action; raises :class:`BoneyardError` when it is not allowed."""


def replay_hands(
    state: ReplayState,
    record: Record,
    start_hand: Callable[[list[list[Tile]], list[Tile], list[JSON]], None],
    parse_event: Callable[[JSON, int, int], Any],
) -> Iterator[JSON]:
    """Feed every hand of ``record`` to ``state``, yielding output lines as they appear.

    ``start_hand(deal, boneyard, events)`` deals a hand; ``parse_event(event, hand, index)``
    turns an event into the action to apply. The first fault raises :class:`RecordError`,
    after the lines the events before it produced.
    """
    lines = state.lines
    assert lines is not None
    shown = 0
    for h, hand in enumerate(record.hands):
        if state.is_over:
            raise RecordError("the game is already over: no further hand may follow", h, None)
        deal_raw = hand.get("deal")
        if not isinstance(deal_raw, list) or len(deal_raw) != state.n:
            raise RecordError(f"deal must list {state.n} hands of tiles", h, None)
        deal = [tile_list(DOUBLE_SIX, d, "a dealt tile", h) for d in deal_raw]
        bone = tile_list(DOUBLE_SIX, hand.get("boneyard", []), "a boneyard tile", h)
        events = event_list(hand, h)
        try:
            start_hand(deal, bone, events)
        except BoneyardError as exc:
            raise RecordError(str(exc), h, None) from None
        for i, ev in enumerate(events):
            if state.awaiting_deal or state.is_over:
                why = "the game is over" if state.is_over else "the hand is over"
                raise RecordError(f"{why}: no further event may follow", h, i)
            action = parse_event(ev, h, i)
            try:
                state.apply(action)
            except BoneyardError as exc:
                yield from lines[shown:]
                raise RecordError(str(exc), h, i) from None
            yield from lines[shown:]
            shown = len(lines)
        yield from lines[shown:]
        shown = len(lines)
        if not state.awaiting_deal and not state.is_over and h + 1 < len(record.hands):
            raise RecordError(
                "this hand is unfinished, yet another hand follows it", h, len(events)
            )


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
) -> tuple[Tile, Tile | None, Any]:
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
