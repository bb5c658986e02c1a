"""Replay a High Five record (RECORDS.md §2, §5, §6) into its output lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import Record, event_list, tile_field, tile_list
from boneyard.core.tiles import DOUBLE_SIX, Tile
from boneyard.games.fives import TILES
from boneyard.games.highfive.actions import DRAW, PASS, RULING_KINDS, Play, ReturnTile, Ruling
from boneyard.games.highfive.options import HighFiveOptions
from boneyard.games.highfive.state import HighFiveState

JSON = dict[str, Any]


def replay(record: Record) -> Iterator[JSON]:
    """Yield the replay lines of ``record``; raise :class:`RecordError` at the first fault."""
    state = state_from_record(record)
    yield from replay_into(state, record)


def state_from_record(record: Record) -> HighFiveState:
    """A fresh logging state with the record's options and seats."""
    try:
        options = HighFiveOptions.build(record.options)
        return HighFiveState(record.num_seats, options, record.seats, log=True)
    except BoneyardError as exc:
        raise RecordError(str(exc)) from None


def replay_into(state: HighFiveState, record: Record) -> Iterator[JSON]:
    """Feed every hand of ``record`` to ``state``, yielding output lines as they appear."""
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
            state.start_hand(deal, bone)
        except BoneyardError as exc:
            raise RecordError(str(exc), h, None) from None
        for i, ev in enumerate(events):
            if state.awaiting_deal or state.is_over:
                why = "the game is over" if state.is_over else "the hand is over"
                raise RecordError(f"{why}: no further event may follow", h, i)
            action = parse_event(state, ev, h, i)
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


def parse_event(state: HighFiveState, ev: JSON, h: int, i: int) -> Any:
    """The action an event names, with record-level checks (seat, drawn tile, lead shape)."""
    seat = ev.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise RecordError(f"seat must be a seat number from 0 to {state.n - 1}", h, i)
    if "ruling" in ev:
        kind = ev["ruling"]
        if kind not in RULING_KINDS:
            raise RecordError(f"{kind!r} is not a ruling ({', '.join(RULING_KINDS)})", h, i)
        if state.options.enforcement == "strict":
            raise RecordError("rulings are valid only under detect or tabletop enforcement", h, i)
        position = _opt_int(ev, "position", h, i)
        if kind == "DRAW_RETRACTED":
            _check_turn(state, seat, h, i)
            return ReturnTile(position)
        tiles = tuple(tile_list(DOUBLE_SIX, ev.get("tiles", []), "a ruling tile", h, i))
        adjust = ev.get("adjust", [])
        if not isinstance(adjust, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in adjust
        ):
            raise RecordError("adjust must be a list of whole numbers", h, i)
        caught = ev.get("caught", True)
        if not isinstance(caught, bool):
            raise RecordError("caught must be true or false", h, i)
        note = ev.get("note", "")
        return Ruling(
            kind,
            seat,
            caught,
            note if isinstance(note, str) else str(note),
            tiles,
            tuple(adjust),
            _opt_int(ev, "winner", h, i),
            position,
        )
    _check_turn(state, seat, h, i)
    if "play" in ev:
        tile = tile_field(DOUBLE_SIX, ev["play"], "play", h, i)
        on_raw = ev.get("on")
        port = ev.get("port")
        if state.layout.empty:
            if on_raw is not None or port is not None:
                raise RecordError(
                    f"{tile} is the lead (the first tile of the hand): it has no on or port",
                    h,
                    i,
                )
            return Play(tile)
        if on_raw is None:
            raise RecordError(
                f"say which placed tile {tile} joins (on): the lead was already played", h, i
            )
        on = tile_field(DOUBLE_SIX, on_raw, "on", h, i)
        if port is not None and not isinstance(port, str):
            raise RecordError("port must be SIDE_A, SIDE_B, END_A or END_B", h, i)
        touch = _opt_int(ev, "touch", h, i)
        call = _opt_int(ev, "call", h, i)
        return Play(tile, on, port, touch, call)
    if "draw" in ev:
        tile = tile_field(DOUBLE_SIX, ev["draw"], "draw", h, i)
        if state.bpos >= len(state.boneyard):
            raise RecordError(f"seat {seat} draws {tile} but the boneyard is empty", h, i)
        nxt: Tile = TILES[state.boneyard[state.bpos]]
        if tile != nxt:
            raise RecordError(
                f"seat {seat} draws {tile}, but the next boneyard tile is {nxt}", h, i
            )
        return DRAW
    if ev.get("pass") is True:
        return PASS
    raise RecordError("an event must be a play, a draw, a pass or a ruling", h, i)


def _check_turn(state: HighFiveState, seat: int, h: int, i: int) -> None:
    if state.current_seat != seat:
        raise RecordError(f"it is seat {state.current_seat}'s turn, not seat {seat}'s", h, i)


def _opt_int(ev: JSON, key: str, h: int, i: int) -> int | None:
    value = ev.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key} must be a whole number", h, i)
    return value
