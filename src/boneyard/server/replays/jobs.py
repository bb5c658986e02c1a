"""The jobs worker processes run (boneyard.server.workers): pure computations on records.

Each takes JSON values and returns ``("ok", json_bytes)`` or ``("error", message)`` — plain
values, so that nothing but data crosses between the processes.
"""

from __future__ import annotations

import json
from typing import Any

from boneyard.bots.analysis import analyse_part, decision_json
from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import record_from_json
from boneyard.games.registry import get_spec
from boneyard.server.replays.service import MAX_EVENTS, count_events, replay_steps
from boneyard.server.validation import encodable
from boneyard.server.workers import encode

Outcome = tuple[str, Any]


def replay(raw: dict[str, Any], table: str | None = None) -> Outcome:
    """Every step of a record (an upload, or a finished table's own with ``table`` set)."""
    try:
        steps = replay_steps(record_from_json(raw))
    except RecordError as exc:
        where = "" if exc.hand is None else f" (hand {exc.hand}"
        if where:
            where += f", event {exc.event})" if exc.event is not None else ")"
        return "error", f"the record does not replay: {exc.why}{where}"
    except BoneyardError as exc:
        return "error", f"the record does not replay: {exc}"
    if table is not None:
        steps["table"] = table
    return "ok", encode(steps)


def upload(body: bytes) -> Outcome:
    """An uploaded request body, ``{"record": {...}}``: parsed and checked here too (a large
    body's parsing costs the event loop nothing), then replayed."""
    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        return "error", 'the upload is not valid JSON: send {"record": {...}}'
    record = doc.get("record") if isinstance(doc, dict) else None
    if not isinstance(record, dict):
        return "error", 'send {"record": {...}}: the record is a JSON object'
    if not encodable(record):
        return "error", "the record is not valid UTF-8 text (a lone surrogate)"
    if count_events(record) > MAX_EVENTS:
        return "error", f"the record is too long to view (over {MAX_EVENTS} events)"
    return replay(record)


def analyse(raw: dict[str, Any], seat: int, first: int, count: int, worlds: int) -> Outcome:
    """Decisions ``first`` … ``first + count - 1`` of ``seat`` in a finished game, valued by
    the expert (actions in words beside their record form), and the seat's number of decisions:
    ``{"total": n, "decisions": [...]}`` (boneyard.server.replays.analysis)."""
    try:
        record = record_from_json(raw)
        spec = get_spec(record.game)
        if first == 0 and not spec.from_record(record).is_over:
            return "error", "the expert analyses finished games only: this one has not ended"
        decisions, total = analyse_part(record, seat, first, count, worlds=worlds)
    except RecordError as exc:
        return "error", f"the record does not replay: {exc.why}"
    except BoneyardError as exc:
        return "error", str(exc)
    doc = {"total": total, "decisions": [decision_json(d, spec.describe_action) for d in decisions]}
    return "ok", encode(doc)
