"""Reading Highrise records (RECORDS.md §4–§6): the envelope's options (an absent
``early_block`` read as ``false``: docs/records.md) and seats, each hand's set-up, and each
event as the action it names.

:data:`READER` is the game's :class:`~boneyard.games.walk.RecordReader`.

>>> from boneyard.core.records import record_from_json
>>> from boneyard.games.highrise import SPEC
>>> rec = record_from_json({"format": "boneyard-record/1", "game": "highrise",
...                         "options": {"colour": 1}, "seats": ["A", "B"], "hands": []})
>>> list(SPEC.replay(rec))  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
boneyard.core.errors.RecordError: unknown option 'colour' (known options: ...)
"""

from __future__ import annotations

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import JSON, Record, event_list, tile_list
from boneyard.core.tiles import Tile, parse_halves
from boneyard.games.highrise.actions import Draw, HighriseAction, Pass, Place
from boneyard.games.highrise.options import recorded_options
from boneyard.games.highrise.state import HandSetup, HighriseState
from boneyard.games.highrise.tower import Cell


class HighriseReader:
    """The record reader of Highrise."""

    def new_state(self, record: Record) -> HighriseState:
        """A game with the record's options (read as records are) and seats."""
        if record.game != "highrise":
            raise RecordError(f"this is a {record.game} record, not a highrise one")
        try:
            options = recorded_options(record.options)
            return HighriseState(record.num_seats, options, record.seats)
        except BoneyardError as exc:
            raise RecordError(str(exc)) from None

    def deal(self, state: HighriseState, record: Record, h: int) -> list[JSON]:
        """Deal hand ``h`` after the checks that come before it (an early block may end it at
        once)."""
        if state.is_over:
            raise RecordError("the game is over: no hand may follow", h, None)
        if not state.awaiting_deal:
            last = event_list(record.hands[h - 1], h - 1)
            raise RecordError(
                f"hand {h - 1} is unfinished but another hand follows", h - 1, len(last)
            )
        hand_doc = record.hands[h]
        setup = _setup(state, hand_doc, h)
        try:
            state.deal_hand(setup)
        except BoneyardError as exc:
            raise RecordError(str(exc), h, None) from None
        return event_list(hand_doc, h)

    def action(self, state: HighriseState, ev: JSON, h: int, i: int) -> HighriseAction:
        """The action an event names, after the hand-over check."""
        if state.hand_over:
            end = state.last_hand_end
            why = "the game is over" if state.is_over else "the hand is over"
            if end is not None and end.reason == "domino":
                why += f" (seat {end.winner} went out)"
            elif end is not None:
                why += " (it was blocked)"
            raise RecordError(f"{why}: no event may follow", h, i)
        return _action(state, ev, h, i)

    def legal_match(self, state: HighriseState, action: HighriseAction) -> HighriseAction:
        """The legal action a record's action takes: the same placement whichever cell a record
        writes first (the faces follow their cells)."""
        legal = state.legal_actions()
        for a in legal:
            if a == action:
                return a
        if isinstance(action, Place):
            where = _where(action)
            for a in legal:
                if isinstance(a, Place) and _where(a) == where:
                    return a
        return action


def _where(place: Place) -> tuple[tuple[tuple[Cell, int], ...], Cell | None]:
    """A placement's identity: which face goes on which cell, and the spacer."""
    halves = tuple(sorted(zip(place.cells, place.faces, strict=True)))
    return halves, place.spacer


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


def _oriented(text: object, what: str, h: int, i: int | None) -> tuple[int, int]:
    if not isinstance(text, str):
        raise RecordError(f'{what} must be a tile like "W-3", not {text!r}', h, i)
    try:
        a, b = parse_halves(text)
        Tile.of(a, b)
    except BoneyardError as exc:
        raise RecordError(str(exc), h, i) from None
    return a, b


def _cell(value: object, what: str, h: int, i: int) -> Cell:
    if not isinstance(value, list) or len(value) != 2 or not all(type(v) is int for v in value):
        raise RecordError(f"{what} must be a cell [row, col], not {value!r}", h, i)
    return (value[0], value[1])


def _action(state: HighriseState, ev: JSON, h: int, i: int) -> HighriseAction:
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


READER = HighriseReader()
