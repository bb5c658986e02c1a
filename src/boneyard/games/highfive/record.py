"""Reading High Five records (RECORDS.md §2, §6; docs/records.md): the envelope's options and
seats, each hand's set-up, and each event as the action it names.

:data:`READER` is the game's :class:`~boneyard.games.walk.RecordReader`; the walk applies the
actions, so a record is valid exactly when the rules accept every hand and event.
"""

from __future__ import annotations

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import JSON, Record, tile_list
from boneyard.core.tiles import DOUBLE_SIX
from boneyard.games.fives.record import (
    check_in_hand,
    check_turn,
    drawn_tile,
    event_seat,
    fives_legal_match,
    opt_int,
    play_fields,
    read_hand,
)
from boneyard.games.highfive.actions import (
    DRAW,
    PASS,
    RULING_KINDS,
    HighFiveAction,
    Play,
    ReturnTile,
    Ruling,
)
from boneyard.games.highfive.options import HighFiveOptions
from boneyard.games.highfive.state import HighFiveState


class HighFiveReader:
    """The record reader of High Five."""

    def new_state(self, record: Record) -> HighFiveState:
        """A game with the record's options and seats."""
        try:
            options = HighFiveOptions.build(record.options)
            return HighFiveState(record.num_seats, options, record.seats)
        except BoneyardError as exc:
            raise RecordError(str(exc)) from None

    def deal(self, state: HighFiveState, record: Record, h: int) -> list[JSON]:
        """Deal hand ``h`` (its events are read one by one afterwards)."""
        deal, bone, events = read_hand(state, record, h)
        try:
            state.deal_hand(deal, bone)
        except BoneyardError as exc:
            raise RecordError(str(exc), h, None) from None
        return events

    def action(self, state: HighFiveState, ev: JSON, h: int, i: int) -> HighFiveAction:
        """The action an event names, with record-level checks (seat, drawn tile, lead shape)."""
        check_in_hand(state, h, i)
        seat = event_seat(ev, state.n, h, i)
        if "ruling" in ev:
            return _ruling(state, ev, seat, h, i)
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

    def legal_match(self, state: HighFiveState, action: HighFiveAction) -> HighFiveAction:
        """The legal action a record's action takes (a spinner play without its port...)."""
        return fives_legal_match(state.legal_actions(), action, Play, state.resolve)


def _ruling(state: HighFiveState, ev: JSON, seat: int, h: int, i: int) -> HighFiveAction:
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


READER = HighFiveReader()
