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
from boneyard.server.replays.steps import MAX_EVENTS, count_events, replay_steps
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


def _uploaded(body: bytes) -> tuple[dict[str, Any], str | None]:
    """The document of an uploaded body, ``{"record": {...}, ...}``, or why it is refused."""
    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        return {}, 'the upload is not valid JSON: send {"record": {...}}'
    record = doc.get("record") if isinstance(doc, dict) else None
    if not isinstance(record, dict):
        return {}, 'send {"record": {...}}: the record is a JSON object'
    if not encodable(record):
        return {}, "the record is not valid UTF-8 text (a lone surrogate)"
    if count_events(record) > MAX_EVENTS:
        return {}, f"the record is too long to view (over {MAX_EVENTS} events)"
    return doc, None


def upload(body: bytes) -> Outcome:
    """An uploaded request body, ``{"record": {...}}``: parsed and checked here too (a large
    body's parsing costs the event loop nothing), then replayed."""
    doc, why = _uploaded(body)
    if why is not None:
        return "error", why
    return replay(doc["record"])


def canonical(record: dict[str, object]) -> str:
    """A record's canonical JSON text: what analyses are keyed by and sent to the workers as."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def analysis_upload(body: bytes) -> Outcome:
    """An uploaded analysis request, ``{"record": {...}, "seat": n}``, parsed and checked here:
    ``("ok", (canonical record text, seat))``."""
    doc, why = _uploaded(body)
    if why is not None:
        return "error", why
    seat = doc.get("seat")
    if type(seat) is not int or not 0 <= seat <= 7:
        return "error", 'send {"record": {...}, "seat": n}: the seat is a number from 0 to 7'
    record = doc["record"]
    seats = record.get("seats")
    if seat >= len(seats if isinstance(seats, list) else []):
        return "error", f"there is no seat {seat + 1} at this table"
    return "ok", (canonical(record), seat)


def analyse(text: str, seat: int, first: int, count: int, worlds: int) -> Outcome:
    """Decisions ``first`` … ``first + count - 1`` of ``seat`` in a finished game, valued by
    the expert (actions in words beside their record form), and the seat's number of decisions:
    ``{"total": n, "decisions": [...]}`` (boneyard.server.replays.analysis). ``text``: the
    record's canonical JSON (parsed here, never on the event loop)."""
    try:
        record = record_from_json(json.loads(text))
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
