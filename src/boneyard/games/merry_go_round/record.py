"""Reading Merry-Go-Round records (RECORDS.md §2, §6 "Merry-Go-Round"): the envelope's options
and seats, each hand's set-up (and hand 0's setter), and each event as the action it names.

:data:`READER` is the game's :class:`~boneyard.games.walk.RecordReader`.
"""

from __future__ import annotations

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import JSON, Record
from boneyard.games.fives.record import (
    check_in_hand,
    check_turn,
    drawn_tile,
    event_seat,
    fives_legal_match,
    play_fields,
    read_hand,
)
from boneyard.games.merry_go_round.actions import DRAW, PASS, MerryGoRoundAction, Play
from boneyard.games.merry_go_round.options import MerryGoRoundOptions
from boneyard.games.merry_go_round.state import MerryGoRoundState


def first_setter(state: MerryGoRoundState, events: list[JSON]) -> int | None:
    """Hand 0's setter under ``first_setter = "random"``: the seat of its first event (RECORDS
    §6; seat 0 when that names no seat, and the event itself is refused then)."""
    if state.next_setter is not None or state.options.first_setter != "random":
        return None
    if events:
        seat = events[0].get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n:
            return seat
    return 0


class MerryGoRoundReader:
    """The record reader of Merry-Go-Round."""

    def new_state(self, record: Record) -> MerryGoRoundState:
        """A game with the record's options and seats."""
        try:
            options = MerryGoRoundOptions.build(record.options, record.num_seats)
            return MerryGoRoundState(record.num_seats, options, record.seats)
        except BoneyardError as exc:
            raise RecordError(str(exc)) from None

    def deal(self, state: MerryGoRoundState, record: Record, h: int) -> list[JSON]:
        """Deal hand ``h``; hand 0's setter is the seat of its first event."""
        deal, bone, events = read_hand(state, record, h)
        try:
            state.deal_hand(deal, bone, first_setter(state, events))
        except BoneyardError as exc:
            raise RecordError(str(exc), h, None) from None
        return events

    def action(self, state: MerryGoRoundState, ev: JSON, h: int, i: int) -> MerryGoRoundAction:
        """The action an event names, with record-level checks (seat, drawn tile, set shape)."""
        check_in_hand(state, h, i)
        seat = event_seat(ev, state.n, h, i)
        check_turn(state.current_seat, seat, h, i)
        if "play" in ev:
            tile, on, port = play_fields(
                ev,
                state.layout.empty,
                h,
                i,
                lead="would be the set",
                placed="the double was already set",
            )
            if on is None:
                return Play(tile)
            if port is not None and port not in ("SIDE_A", "SIDE_B", "END_A", "END_B"):
                raise RecordError(
                    f"port must be SIDE_A, SIDE_B, END_A or END_B, not {port!r}", h, i
                )
            return Play(tile, on, port)
        if "draw" in ev:
            drawn_tile(ev, seat, state.boneyard, state.bpos, h, i)
            return DRAW
        if ev.get("pass") is True:
            return PASS
        raise RecordError("an event must be a play, a draw or a pass", h, i)

    def legal_match(
        self, state: MerryGoRoundState, action: MerryGoRoundAction
    ) -> MerryGoRoundAction:
        """The legal action a record's action takes (a spinner play without its port...)."""
        return fives_legal_match(state.legal_actions(), action, Play, state.resolve)


READER = MerryGoRoundReader()
