"""Replay a Merry-Go-Round record (RECORDS.md §2, §5, §6) into its output lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import Record, event_list, tile_field, tile_list
from boneyard.core.tiles import DOUBLE_SIX, Tile
from boneyard.games.fives import TILES
from boneyard.games.merry_go_round.actions import DRAW, PASS, Play
from boneyard.games.merry_go_round.options import MerryGoRoundOptions
from boneyard.games.merry_go_round.state import MerryGoRoundState

JSON = dict[str, Any]


def replay(record: Record) -> Iterator[JSON]:
    """Yield the replay lines of ``record``; raise :class:`RecordError` at the first fault."""
    state = state_from_record(record)
    yield from replay_into(state, record)


def state_from_record(record: Record) -> MerryGoRoundState:
    """A fresh logging state with the record's options and seats."""
    try:
        options = MerryGoRoundOptions.build(record.options, record.num_seats)
        return MerryGoRoundState(record.num_seats, options, record.seats, log=True)
    except BoneyardError as exc:
        raise RecordError(str(exc)) from None


def _first_setter(state: MerryGoRoundState, events: list[JSON]) -> int | None:
    """Hand 0's setter under ``first_setter = "random"``: the seat of its first event."""
    if state.next_setter is not None or state.options.first_setter != "random":
        return None
    if events:
        seat = events[0].get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n:
            return seat
    return 0


def replay_into(state: MerryGoRoundState, record: Record) -> Iterator[JSON]:
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
            state.start_hand(deal, bone, _first_setter(state, events))
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


def parse_event(state: MerryGoRoundState, ev: JSON, h: int, i: int) -> Any:
    """The action an event names, with record-level checks (seat, drawn tile, set shape)."""
    seat = ev.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n:
        raise RecordError(f"seat must be a seat number from 0 to {state.n - 1}", h, i)
    if state.current_seat != seat:
        raise RecordError(f"it is seat {state.current_seat}'s turn, not seat {seat}'s", h, i)
    if "play" in ev:
        tile = tile_field(DOUBLE_SIX, ev["play"], "play", h, i)
        on_raw = ev.get("on")
        port = ev.get("port")
        if state.layout.empty:
            if on_raw is not None or port is not None:
                raise RecordError(
                    f"{tile} would be the set (the first tile of the hand): it has no on or port",
                    h,
                    i,
                )
            return Play(tile)
        if on_raw is None:
            raise RecordError(
                f"say which placed tile {tile} joins (on): the double was already set", h, i
            )
        on = tile_field(DOUBLE_SIX, on_raw, "on", h, i)
        if port is not None and port not in ("SIDE_A", "SIDE_B", "END_A", "END_B"):
            raise RecordError(f"port must be SIDE_A, SIDE_B, END_A or END_B, not {port!r}", h, i)
        return Play(tile, on, port)
    if "draw" in ev:
        tile = tile_field(DOUBLE_SIX, ev["draw"], "draw", h, i)
        if state.bpos < len(state.boneyard):
            nxt: Tile = TILES[state.boneyard[state.bpos]]
            if tile != nxt:
                raise RecordError(
                    f"seat {seat} draws {tile}, but the next boneyard tile is {nxt}", h, i
                )
        return DRAW
    if ev.get("pass") is True:
        return PASS
    raise RecordError("an event must be a play, a draw or a pass", h, i)
