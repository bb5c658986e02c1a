"""Replaying a Highrise record (RECORDS.md §4–§6): check every hand and event, print the lines.

>>> from boneyard.core.records import record_from_json
>>> rec = record_from_json({"format": "boneyard-record/1", "game": "highrise",
...                         "options": {"colour": 1}, "seats": ["A", "B"], "hands": []})
>>> list(replay(rec))  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
boneyard.core.errors.RecordError: unknown option 'colour' (known options: ...)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from boneyard.core.errors import BoneyardError, IllegalActionError, RecordError
from boneyard.core.protocol import JSON
from boneyard.core.records import Record, event_list, tile_list
from boneyard.core.tiles import Tile, parse_halves
from boneyard.games.highrise.options import recorded_options
from boneyard.games.highrise.state import (
    Action,
    Draw,
    HandSetup,
    HighriseState,
    Pass,
    Place,
)
from boneyard.games.highrise.tower import Cell


def replay(record: Record) -> Iterator[JSON]:
    """The replay lines of a record; raises :class:`RecordError` at the first fault."""
    yield from _Replayer(record).lines()


def load(record: Record) -> HighriseState:
    """Replay a whole record and return the state it reaches (raises :class:`RecordError`)."""
    r = _Replayer(record)
    for _ in r.lines():
        pass
    return r.state


class _Replayer:
    def __init__(self, record: Record) -> None:
        if record.game != "highrise":
            raise RecordError(f"this is a {record.game} record, not a highrise one")
        try:
            options = recorded_options(record.options)
        except BoneyardError as exc:
            raise RecordError(str(exc)) from None
        try:
            self.state = HighriseState(record.num_seats, options, record.seats)
        except BoneyardError as exc:
            raise RecordError(str(exc)) from None
        self.record = record

    def lines(self) -> Iterator[JSON]:
        state = self.state
        last_events = 0
        for h, hand_doc in enumerate(self.record.hands):
            if state.is_over:
                raise RecordError("the game is over: no hand may follow", h, None)
            if not state.awaiting_deal:
                raise RecordError(
                    f"hand {h - 1} is unfinished but another hand follows", h - 1, last_events
                )
            setup = _setup(state, hand_doc, h)
            try:
                state.deal(setup)
            except BoneyardError as exc:
                raise RecordError(str(exc), h, None) from None
            if state.hand_over:
                yield from _ends(state, h)
            events = event_list(hand_doc, h)
            last_events = len(events)
            for i, ev in enumerate(events):
                if state.hand_over:
                    end = state.last_hand_end
                    why = "the game is over" if state.is_over else "the hand is over"
                    if end is not None and end.reason == "domino":
                        why += f" (seat {end.winner} went out)"
                    elif end is not None:
                        why += " (it was blocked)"
                    raise RecordError(f"{why}: no event may follow", h, i)
                action = _action(state, ev, h, i)
                try:
                    state.apply(action)
                except IllegalActionError as exc:
                    raise RecordError(str(exc), h, i) from None
                yield _line(state, h, i)
                if state.hand_over:
                    yield from _ends(state, h)


def _ends(state: HighriseState, h: int) -> Iterator[JSON]:
    end = state.last_hand_end
    assert end is not None
    yield end.to_json(h)
    game_end = state.game_end_line()
    if game_end is not None:
        yield game_end


def _line(state: HighriseState, h: int, i: int) -> JSON:
    logged = state.events[-1]
    line: JSON = {"hand": h, "event": i, "seat": logged.seat}
    action = logged.action
    if isinstance(action, Place):
        line.update(type="play", tile=action.text, level=logged.level)
    elif isinstance(action, Draw):
        line.update(type="draw", tile=str(action.tile))
    else:
        line["type"] = "pass"
    line["points"] = logged.points
    line["scores"] = list(logged.scores)
    return line


def _setup(state: HighriseState, doc: JSON, h: int) -> HandSetup:
    tiles = state.tileset
    starter = doc.get("starter")
    if starter is None:
        raise RecordError("the hand has no starter", h, None)
    if type(starter) is not int:
        raise RecordError(f"starter must be a seat number, not {starter!r}", h, None)
    raw = doc.get("basement")
    if not isinstance(raw, list):
        raise RecordError("the hand has no basement (a list of 8 tiles)", h, None)
    basement = []
    for text in raw:
        faces = _oriented(text, "a basement tile", h, None)
        if Tile.of(*faces) not in tiles:
            raise RecordError(f"{text} is not a tile of the {tiles.name} set", h, None)
        basement.append(faces)
    deal = doc.get("deal")
    if not isinstance(deal, list):
        raise RecordError("the hand has no deal (a list of tiles per seat)", h, None)
    for d in deal:
        if not isinstance(d, list):
            raise RecordError("the deal must list each seat's tiles as a list", h, None)
    hands = tuple(tuple(tile_list(tiles, d, "a dealt tile", h)) for d in deal)
    if "pile" not in doc:
        raise RecordError("the hand has no pile (the undealt tiles in draw order)", h, None)
    pile = tuple(tile_list(tiles, doc["pile"], "a pile tile", h))
    return HandSetup(starter, tuple(basement), hands, pile)


def _oriented(text: Any, what: str, h: int, i: int | None) -> tuple[int, int]:
    if not isinstance(text, str):
        raise RecordError(f'{what} must be a tile like "W-3", not {text!r}', h, i)
    try:
        a, b = parse_halves(text)
        Tile.of(a, b)
    except BoneyardError as exc:
        raise RecordError(str(exc), h, i) from None
    return a, b


def _cell(value: Any, what: str, h: int, i: int) -> Cell:
    if not isinstance(value, list) or len(value) != 2 or not all(type(v) is int for v in value):
        raise RecordError(f"{what} must be a cell [row, col], not {value!r}", h, i)
    return (value[0], value[1])


def _action(state: HighriseState, ev: JSON, h: int, i: int) -> Action:
    seat = ev.get("seat")
    if type(seat) is not int:
        raise RecordError(f"the event needs the acting seat, not {seat!r}", h, i)
    if seat != state.current_seat:
        raise RecordError(
            f"seat {seat} is not to play: it is seat {state.current_seat}'s turn", h, i
        )
    kinds = [k for k in ("play", "draw", "pass") if k in ev]
    if len(kinds) != 1:
        raise RecordError("an event must have exactly one of play, draw or pass", h, i)
    kind = kinds[0]
    if kind == "pass":
        if ev["pass"] is not True:
            raise RecordError(f"pass must be true, not {ev['pass']!r}", h, i)
        return Pass()
    if kind == "draw":
        tiles = state.tileset
        text = ev["draw"]
        if not isinstance(text, str):
            raise RecordError(f'draw must name the tile drawn, like "5-0", not {text!r}', h, i)
        try:
            named = tiles.parse(text)
        except BoneyardError as exc:
            raise RecordError(str(exc), h, i) from None
        if Draw() in state.legal_actions():
            nxt = state.pile()[0]
            if named != nxt:
                raise RecordError(f"the next pile tile is {nxt}, not {named}", h, i)
        return Draw(named)
    faces = _oriented(ev["play"], "play", h, i)
    cells = ev.get("cells")
    if not isinstance(cells, list) or len(cells) != 2:
        raise RecordError("a play needs cells: two [row, col] pairs", h, i)
    a = _cell(cells[0], "the first cell", h, i)
    b = _cell(cells[1], "the second cell", h, i)
    spacer = None if ev.get("spacer") is None else _cell(ev["spacer"], "spacer", h, i)
    return Place(faces, (a, b), spacer)
