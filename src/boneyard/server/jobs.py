"""The jobs worker processes run (boneyard.server.workers): pure computations on records.

Each takes JSON values and returns ``("ok", json_bytes)`` or ``("error", message)`` — plain
values, so that nothing but data crosses between the processes.
"""

from __future__ import annotations

from typing import Any

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.records import record_from_json
from boneyard.server.replays import replay_steps
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
