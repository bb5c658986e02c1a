"""Replay a Merry-Go-Round record (RECORDS.md §2, §5, §6) into its output lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import Record
from boneyard.games.fives_replay import (
    JSON,
    check_turn,
    drawn_tile,
    event_seat,
    play_fields,
    replay_hands,
)
from boneyard.games.merry_go_round.actions import DRAW, PASS, Play
from boneyard.games.merry_go_round.options import MerryGoRoundOptions
from boneyard.games.merry_go_round.state import MerryGoRoundState


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
    return replay_hands(
        state,
        record,
        lambda deal, bone, events: state.start_hand(deal, bone, _first_setter(state, events)),
        lambda ev, h, i: parse_event(state, ev, h, i),
    )


def parse_event(state: MerryGoRoundState, ev: JSON, h: int, i: int) -> Any:
    """The action an event names, with record-level checks (seat, drawn tile, set shape)."""
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
            raise RecordError(f"port must be SIDE_A, SIDE_B, END_A or END_B, not {port!r}", h, i)
        return Play(tile, on, port)
    if "draw" in ev:
        drawn_tile(ev, seat, state.boneyard, state.bpos, h, i)
        return DRAW
    if ev.get("pass") is True:
        return PASS
    raise RecordError("an event must be a play, a draw or a pass", h, i)
