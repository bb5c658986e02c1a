"""Replay a High Fives record (RECORDS.md §3, §5, §6): check it and yield the output lines.

Replay drives the same :class:`~boneyard.games.high_fives.state.HighFivesState` as play, so a
record is valid exactly when every pass's set-up and every turn is accepted by the rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from boneyard.core.errors import IllegalActionError, OptionError, RecordError
from boneyard.core.protocol import JSON
from boneyard.core.records import Record, event_list, tile_field, tile_list
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.actions import Pair, Turn
from boneyard.games.high_fives.rules import (
    GAME,
    TILESET,
    HighFivesOptions,
    build_high_fives_options,
    check_players,
)
from boneyard.games.high_fives.state import HighFivesState


def _setup(hand: JSON, h: int) -> tuple[Any, list[list[list[Tile]]], list[Tile], list[Tile]]:
    if "leader" not in hand:
        raise RecordError("the pass has no leader", h, None)
    raw_deals = hand.get("deals")
    if not isinstance(raw_deals, list) or not all(isinstance(d, list) for d in raw_deals):
        raise RecordError(
            "deals must be a list of deals, each a list of every seat's tiles", h, None
        )
    deals = [
        [tile_list(TILESET, tiles, f"deal {k} of seat {i}", h) for i, tiles in enumerate(deal)]
        for k, deal in enumerate(raw_deals)
    ]
    layout = tile_list(TILESET, hand.get("layout"), "layout", h)
    extra = tile_list(TILESET, hand.get("extra", []), "extra", h)
    return hand["leader"], deals, layout, extra


def _turn(ev: JSON, opts: HighFivesOptions, h: int, i: int) -> Turn:
    if "ruling" in ev:
        raise RecordError("High Fives has no rulings: every event is a turn", h, i)
    if "play" not in ev:
        if "draw" in ev or "pass" in ev:
            raise RecordError("High Fives has no draws or passes: every turn plays one tile", h, i)
        raise RecordError('a turn must name the tile it plays ("play")', h, i)
    tile = tile_field(TILESET, ev["play"], "play", h, i)
    capture = None
    if ev.get("capture") is not None:
        capture = tile_field(TILESET, ev["capture"], "capture", h, i)
    unlimited = opts.max_claims_per_turn == "unlimited"
    claim: tuple[Pair, ...] = ()
    raw = ev.get("claim")
    if raw is not None:
        if unlimited:
            if not (
                isinstance(raw, list)
                and raw
                and all(isinstance(p, list) and len(p) == 2 for p in raw)
            ):
                raise RecordError(
                    'claim must be a list of pairs, e.g. [["0-1", "1-2"]] '
                    "(max_claims_per_turn unlimited)",
                    h,
                    i,
                )
            pairs = raw
        else:
            if not (
                isinstance(raw, list)
                and len(raw) == 2
                and not any(isinstance(t, list) for t in raw)
            ):
                raise RecordError(
                    'claim must be two matching layout tiles, e.g. ["0-1", "1-2"] '
                    "(max_claims_per_turn 1: one pair per turn)",
                    h,
                    i,
                )
            pairs = [raw]
        claim = tuple(
            (tile_field(TILESET, a, "claim", h, i), tile_field(TILESET, b, "claim", h, i))
            for a, b in pairs
        )
    return Turn(tile, capture, claim, unlimited)


def _new_state(record: Record) -> HighFivesState:
    if record.game != GAME:
        raise RecordError(f"this is a {record.game} record, not a {GAME} record")
    n = record.num_seats
    try:
        check_players(n)
        opts = build_high_fives_options(record.options, n)
    except OptionError as exc:
        raise RecordError(str(exc)) from None
    return HighFivesState(n, opts, record.seats)


def replay(record: Record) -> Iterator[JSON]:
    """Check ``record`` and yield its replay lines; raises :class:`RecordError` at the first fault.

    >>> rec = Record("high-fives", {}, ("Ann", "Bob"), ())
    >>> list(replay(rec))
    []
    """
    yield from _run(record, _new_state(record))


def load(record: Record) -> HighFivesState:
    """The game a record describes, replayed and checked (e.g. to resume a table from its record).

    >>> load(Record("high-fives", {"target": 50}, ("Ann", "Bob"), ())).awaiting_deal
    True
    """
    state = _new_state(record)
    for _ in _run(record, state):
        pass
    return state


def _run(record: Record, state: HighFivesState) -> Iterator[JSON]:
    opts = state.options
    for h, hand in enumerate(record.hands):
        if state.is_over:
            raise RecordError(
                f"the game ended in pass {h - 1}; no further pass may follow", h, None
            )
        if not state.awaiting_deal:
            prev = event_list(record.hands[h - 1], h - 1)
            raise RecordError(
                f"pass {h - 1} is unfinished, but another pass follows", h - 1, len(prev)
            )
        leader, deals, layout, extra = _setup(hand, h)
        state.start_pass(leader, deals, layout, extra)
        for i, ev in enumerate(event_list(hand, h)):
            if state.is_over:
                raise RecordError("the game is over: no turn may follow", h, i)
            seat = state.current_seat
            if seat is None:
                raise RecordError(
                    f"pass {h} is played out after {i} turns: no turn may follow", h, i
                )
            if ev.get("seat") != seat or type(ev.get("seat")) is not int:
                raise RecordError(
                    f"it is seat {seat}'s turn, but the event is for seat {ev.get('seat')!r}",
                    h,
                    i,
                )
            turn = _turn(ev, opts, h, i)
            before = state.scores[seat]
            try:
                state.apply(turn)
            except IllegalActionError as exc:
                raise RecordError(str(exc), h, i) from None
            scores = list(state.scores)
            line: JSON = {"hand": h, "event": i, "seat": seat, "type": "turn"}
            line.update(turn.to_event())
            line["tile"] = line.pop("play")
            line["points"] = scores[seat] - before
            line["scores"] = scores
            yield _ordered(line)
            if state.current_seat is None:
                result = state.result()
                yield {
                    "hand": h,
                    "type": "hand_end",
                    "reason": state.end_reason,
                    "winner": None if result is None else result.winner,
                    "award": 0,
                    "scores": scores,
                }
                if result is not None:
                    yield {"type": "game_end", "winner": result.winner, "scores": scores}


_ORDER = ("hand", "event", "seat", "type", "tile", "capture", "claim", "points", "scores")


def _ordered(line: JSON) -> JSON:
    return {k: line[k] for k in _ORDER if k in line}
