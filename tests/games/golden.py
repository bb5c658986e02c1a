"""Golden records on disk (tests/records/<game>/NAME.json with its replay output NAME.jsonl),
replaying record documents, and the games the tests run over: what every game's tests share.

:class:`Golden` is one game's golden records (each game's ``helpers`` binds its own); the replay
helpers read the game from the record.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boneyard.core.errors import RecordError
from boneyard.core.protocol import GameState
from boneyard.core.records import record_from_json
from boneyard.core.words import Ending, hand_end, reveal
from boneyard.games.registry import SHIPPED, get_spec

RECORDS = Path(__file__).resolve().parents[1] / "records"

GAMES: tuple[str, ...] = SHIPPED
"""The shipped games, from the registry: the tests that run over every game take this (a game
registered by a test, as the toy game, is not shipped: it has no golden records)."""

Doc = dict[str, Any]


@dataclass(frozen=True)
class Golden:
    """One game's golden records (tests/records/<game>/: NAME.json, with NAME.jsonl its
    committed replay output)."""

    game: str

    @property
    def dir(self) -> Path:
        """The directory of the game's golden records (named after its record name)."""
        return RECORDS / self.game

    def names(self) -> list[str]:
        """Every golden record of the game (file stems)."""
        return sorted(p.stem for p in self.dir.glob("*.json"))

    def load(self, name: str) -> Doc:
        """A golden record document."""
        doc: Doc = json.loads((self.dir / f"{name}.json").read_text(encoding="utf-8"))
        return doc

    def edited(self, name: str) -> Doc:
        """A golden record to spoil (a deep copy)."""
        return copy.deepcopy(self.load(name))

    def expected(self, name: str) -> list[Doc]:
        """A golden record's committed replay output."""
        text = (self.dir / f"{name}.jsonl").read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def endings(self, name: str) -> list[Ending]:
        """Every finished hand of a golden record as a player may know it (:func:`endings`)."""
        return endings(self.load(name))


def events_of(lines: list[Doc], hand: int) -> list[Doc]:
    """The event lines of one hand of a replay."""
    return [x for x in lines if x.get("hand") == hand and "event" in x]


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
            held = spec.held
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
