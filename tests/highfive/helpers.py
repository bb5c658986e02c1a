"""Helpers for the High Five tests: replay records, build small games."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from boneyard.core.errors import RecordError
from boneyard.core.records import record_from_json
from boneyard.games.highfive import SPEC
from boneyard.games.highfive.replay import replay_into, state_from_record
from boneyard.games.highfive.state import HighFiveState

RECORDS = Path(__file__).parent.parent / "records" / "highfive"


def load(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / f"{name}.json").read_text())


def expected(name: str) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (RECORDS / f"{name}.jsonl").read_text().splitlines() if x]


def replay_lines(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return list(SPEC.replay(record_from_json(doc)))


def replay_state(doc: dict[str, Any]) -> HighFiveState:
    rec = record_from_json(doc)
    state = state_from_record(rec)
    for _ in replay_into(state, rec):
        pass
    return state


def replay_error(doc: dict[str, Any]) -> RecordError:
    try:
        replay_lines(doc)
    except RecordError as exc:
        return exc
    raise AssertionError("the record replayed without error")


def edited(name: str) -> dict[str, Any]:
    return copy.deepcopy(load(name))


def events_of(lines: list[dict[str, Any]], hand: int) -> list[dict[str, Any]]:
    return [x for x in lines if x.get("hand") == hand and "event" in x]
