"""Game records (``boneyard-record/1``, RECORDS.md): read, write and check the envelope.

The per-game parts (hands and events) are checked by each game's replay, which is the only
validator of the rules: a record is valid exactly when it replays. Which games exist is the
registry's business (:func:`boneyard.games.registry.get_spec` refuses an unknown ``game``).

>>> rec = parse_record('{"format": "boneyard-record/1", "game": "highfive", "options": {},'
...                    ' "seats": ["Ann", "Bob"], "hands": []}')
>>> rec.game, rec.seats, rec.num_seats
('highfive', ('Ann', 'Bob'), 2)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.tiles import Tile, TileSet

FORMAT = "boneyard-record/1"

JSON = dict[str, Any]
"""A JSON object as records, replay lines and observations write it (values of any JSON type)."""


@dataclass(frozen=True)
class Record:
    """A parsed record envelope; ``hands`` stay as JSON for the game's replay to check."""

    game: str
    options: Mapping[str, object]
    seats: tuple[str, ...]
    hands: tuple[JSON, ...]
    meta: Mapping[str, object] = field(default_factory=dict)

    @property
    def num_seats(self) -> int:
        """Player count."""
        return len(self.seats)

    def to_json(self) -> JSON:
        """The record document."""
        return {
            "format": FORMAT,
            "game": self.game,
            "options": dict(self.options),
            "seats": list(self.seats),
            "hands": [dict(h) for h in self.hands],
            "meta": dict(self.meta),
        }


def parse_record(text: str) -> Record:
    """Parse record text; raises :class:`RecordError` with ``hand`` and ``event`` ``None``."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        why = f"the record is not valid JSON ({exc.msg} at line {exc.lineno})"
        raise RecordError(why) from None
    return record_from_json(doc)


def record_from_json(doc: object) -> Record:
    """Check the envelope of a decoded record (RECORDS.md §1)."""
    if not isinstance(doc, dict):
        raise RecordError("a record must be a JSON object")
    if doc.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {doc.get('format')!r}")
    game = doc.get("game")
    if not isinstance(game, str) or not game:
        raise RecordError(f"game {game!r} is unknown")  # a name: the registry knows the games
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("options must be an object")
    seats = doc.get("seats")
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        raise RecordError("seats must be a list of player names")
    hands = doc.get("hands", [])
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise RecordError("hands must be a list of objects")
    meta = doc.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError("meta must be an object")
    return Record(game, options, tuple(seats), tuple(hands), meta)


def dump_record(doc: Mapping[str, object]) -> str:
    """Record text: one hand per line block, stable key order, ending with a newline."""
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def tile_field(tileset: TileSet, value: object, what: str, hand: int, event: int | None) -> Tile:
    """Parse one tile string of a record, with the error located."""
    if not isinstance(value, str):
        raise RecordError(f'{what} must be a tile like "5-0", not {value!r}', hand, event)
    try:
        return tileset.parse(value)
    except BoneyardError as exc:
        raise RecordError(str(exc), hand, event) from None


def tile_list(
    tileset: TileSet, value: object, what: str, hand: int, event: int | None = None
) -> list[Tile]:
    """Parse a list of tile strings."""
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of tiles", hand, event)
    return [tile_field(tileset, v, what, hand, event) for v in value]


def check_whole_set(tileset: TileSet, groups: Sequence[Sequence[Tile]], hand: int) -> None:
    """Every tile of the set exactly once across ``groups`` (a hand's set-up)."""
    seen: set[Tile] = set()
    for group in groups:
        for t in group:
            if t in seen:
                raise RecordError(f"{t} is dealt twice", hand, None)
            seen.add(t)
    missing = [t for t in tileset if t not in seen]
    if missing:
        shown = ", ".join(str(t) for t in missing[:6])
        more = "" if len(missing) <= 6 else f" and {len(missing) - 6} more"
        raise RecordError(f"the set-up leaves out {shown}{more}", hand, None)


def event_list(hand_doc: JSON, hand: int) -> list[JSON]:
    """The ``events`` of a hand, each an object."""
    events = hand_doc.get("events", [])
    if not isinstance(events, list):
        raise RecordError("events must be a list", hand, None)
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise RecordError("an event must be an object", hand, i)
    return events


def iter_jsonl(lines: Iterator[JSON]) -> Iterator[str]:
    """Replay output lines as compact JSON."""
    for line in lines:
        yield json.dumps(line, ensure_ascii=False)
