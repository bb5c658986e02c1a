"""Replay a High Five record (RECORDS.md §2, §5, §6) into its output lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import Record, tile_list
from boneyard.core.tiles import DOUBLE_SIX
from boneyard.games.fives_replay import (
    JSON,
    check_turn,
    drawn_tile,
    event_seat,
    opt_int,
    play_fields,
    replay_hands,
)
from boneyard.games.highfive.actions import DRAW, PASS, RULING_KINDS, Play, ReturnTile, Ruling
from boneyard.games.highfive.options import HighFiveOptions
from boneyard.games.highfive.state import HighFiveState


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
    return replay_hands(
        state,
        record,
        lambda deal, bone, _events: state.start_hand(deal, bone),
        lambda ev, h, i: parse_event(state, ev, h, i),
    )


def parse_event(state: HighFiveState, ev: JSON, h: int, i: int) -> Any:
    """The action an event names, with record-level checks (seat, drawn tile, lead shape)."""
    seat = event_seat(ev, state.n, h, i)
    if "ruling" in ev:
        kind = ev["ruling"]
        if kind not in RULING_KINDS:
            raise RecordError(f"{kind!r} is not a ruling ({', '.join(RULING_KINDS)})", h, i)
        if state.options.enforcement == "strict":
            raise RecordError("rulings are valid only under detect or tabletop enforcement", h, i)
        position = opt_int(ev, "position", h, i)
        if kind == "DRAW_RETRACTED":
            check_turn(state.current_seat, seat, h, i)
            if position is None:  # records written before returns went to a random place
                position = len(state.boneyard) - state.bpos
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
            opt_int(ev, "winner", h, i),
            position,
        )
    check_turn(state.current_seat, seat, h, i)
    if "play" in ev:
        tile, on, port = play_fields(
            ev,
            state.layout.empty,
            h,
            i,
            lead="is the lead",
            placed="the lead was already played",
        )
        if on is None:
            return Play(tile)
        if port is not None and not isinstance(port, str):
            raise RecordError("port must be SIDE_A, SIDE_B, END_A or END_B", h, i)
        touch = opt_int(ev, "touch", h, i)
        call = opt_int(ev, "call", h, i)
        return Play(tile, on, port, touch, call)
    if "draw" in ev:
        tile = drawn_tile(ev, seat, state.boneyard, state.bpos, h, i)
        if state.bpos >= len(state.boneyard):
            raise RecordError(f"seat {seat} draws {tile} but the boneyard is empty", h, i)
        return DRAW
    if ev.get("pass") is True:
        return PASS
    raise RecordError("an event must be a play, a draw, a pass or a ruling", h, i)
