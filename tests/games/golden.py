"""Golden records on disk (tests/records/<game>/NAME.json with its replay output NAME.jsonl) and
replaying record documents: the helpers every game's tests share (each game's ``helpers``
binds them to its game)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from boneyard.core.errors import RecordError
from boneyard.core.protocol import GameState
from boneyard.core.records import record_from_json
from boneyard.core.words import Ending, hand_end, reveal
from boneyard.games.registry import get_spec

RECORDS = Path(__file__).resolve().parents[1] / "records"

Doc = dict[str, Any]


def records_dir(game: str) -> Path:
    """The directory of a game's golden records (named after its record name)."""
    return RECORDS / game


def golden_names(game: str) -> list[str]:
    """Every golden record of a game (file stems)."""
    return sorted(p.stem for p in records_dir(game).glob("*.json"))


def load(game: str, name: str) -> Doc:
    """A golden record document."""
    doc: Doc = json.loads((records_dir(game) / f"{name}.json").read_text(encoding="utf-8"))
    return doc


def expected(game: str, name: str) -> list[Doc]:
    """A golden record's committed replay output."""
    text = (records_dir(game) / f"{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def replay_lines(doc: Doc) -> list[Doc]:
    """Every replay line of a record document (raises RecordError at a fault)."""
    record = record_from_json(doc)
    return list(get_spec(record.game).replay(record))


def replay_state(doc: Doc) -> GameState:
    """The state a record document reaches."""
    record = record_from_json(doc)
    return get_spec(record.game).from_record(record)


def replay_partial(doc: Doc) -> tuple[list[Doc], RecordError | None]:
    """The replay lines printed before the first fault, and that fault (None if valid)."""
    record = record_from_json(doc)
    lines: list[Doc] = []
    try:
        for line in get_spec(record.game).replay(record):
            lines.append(line)
    except RecordError as exc:
        return lines, exc
    return lines, None


def replay_error(doc: Doc) -> RecordError:
    """The fault of a record that must not replay."""
    _lines, error = replay_partial(doc)
    if error is None:
        raise AssertionError("the record replayed without error")
    return error


def endings(doc: Doc) -> list[Ending]:
    """Every finished hand of a record document as a player may know it once it is over: its
    ``hand_end`` line, and the tiles every seat kept (each seat's observed tiles before the
    hand's last event, with that event's tiles moved: what the table reveals)."""
    record = record_from_json(doc)
    spec = get_spec(record.game)
    before: dict[int, tuple[list[list[str]], bool]] = {}
    for position in spec.positions(record):
        state = position.state  # (the walk's own state: read it now)
        if position.action is not None:
            hands = [held(state.observation(s).to_json()) for s in range(state.num_seats)]
            partners = bool(state.observation(None).to_json().get("partnerships"))
            before[position.hand] = (hands, partners)
    out = []
    for line in spec.replay(record):
        if line.get("type") == "hand_end":
            hands, partners = before[line["hand"]]
            last = (record.hands[line["hand"]].get("events") or [])[-1]
            kept = tuple(tuple(h) for h in reveal(hands, last))
            out.append(Ending(record.seats, hand_end(line), kept, record.options, partners))
    return out


def held(view: Doc) -> list[str]:
    """The tiles a seat's observation shows it holds (Highrise: a drawn tile still to place)."""
    tiles = [str(t) for t in view.get("hand") or []]
    drawn = view.get("drawn")
    return [*tiles, drawn] if isinstance(drawn, str) and drawn not in tiles else tiles
