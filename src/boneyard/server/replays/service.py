"""Replays: step through a finished game (or an uploaded record) as public views.

A replay is computed server-side by replaying the record with the engine: the game's own
``replay`` checks the whole record first (its :class:`RecordError` is the answer to a bad one),
then the game's positions walk it once (each hand dealt from the record's set-up, its events
applied one at a time). Every step carries the spectator observation of that moment plus every
seat's hand: a replay is only served for a game that is over (or a record someone uploads), so
nothing hidden is live any more.

Also :func:`hand_ends`: the ``hand_end``/``game_end`` lines of the hands a live table has
finished (public once the hand is over), for the table page's hand summaries.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from cachetools import LRUCache
from fastapi import FastAPI, HTTPException, Request, Response
from pydantic import BaseModel

from boneyard.core.errors import RecordError
from boneyard.core.protocol import JSON, GameState
from boneyard.core.records import Record, record_from_json
from boneyard.games.registry import get_spec
from boneyard.server.tables import handend

if TYPE_CHECKING:
    from boneyard.server.lobby.service import Lobby
    from boneyard.server.ratelimit import Limits
    from boneyard.server.tables.manager import LiveTable
    from boneyard.server.workers import Workers

MAX_EVENTS = 5_000
"""Events in one replayed record (the longest real games have a few hundred)."""
CACHE_BYTES = 64_000_000
"""Bytes of finished tables' replays kept in memory."""


class RecordIn(BaseModel):
    """An uploaded record (RECORDS.md), as its JSON document."""

    record: dict[str, Any]


def _snapshot(state: GameState) -> JSON:
    """The public view of a moment, with every seat's hand (the game is over)."""
    view = dict(state.observation(None).to_json())
    view["hands"] = [state.observation(s).to_json().get("hand", []) for s in range(state.num_seats)]
    view.pop("legal_actions", None)
    return view


def replay_steps(record: Record) -> JSON:
    """Every step of ``record``: ``{"steps": [{hand, event, seat, text, line, view}], ...}``.

    Raises :class:`RecordError` (the game's replay error) when the record does not replay.
    """
    spec = get_spec(record.game)
    for h, hand in enumerate(record.hands):
        if not isinstance(hand.get("events", []), list):
            raise RecordError("events must be a list", h, None)
    events = sum(len(h.get("events") or []) for h in record.hands)
    if events > MAX_EVENTS:
        raise RecordError(f"the record is too long to view (over {MAX_EVENTS} events)")
    lines = list(spec.replay(record))
    by_event: dict[tuple[int, int], list[JSON]] = {}
    ends: dict[int, JSON] = {}
    game_end: JSON | None = None
    for line in lines:
        if line.get("type") == "hand_end" and isinstance(line.get("hand"), int):
            ends[line["hand"]] = line
        elif line.get("type") == "game_end":
            game_end = line
        elif isinstance(line.get("hand"), int) and isinstance(line.get("event"), int):
            by_event.setdefault((line["hand"], line["event"]), []).append(line)
    names = list(record.seats)
    steps: list[JSON] = []
    applied: JSON | None = None  # the step of the event just applied: its view comes next
    before: list[list[str]] = []  # every seat's tiles before the event just applied
    for pos in spec.positions(record):
        h, i, state = pos.hand, pos.event, pos.state
        if applied is not None:
            applied["view"] = _snapshot(state)
            steps.append(applied)
            applied = None
        if i == 0:
            steps.append(
                {"hand": h, "event": None, "seat": None, "text": f"Hand {h + 1} is dealt",
                 "view": _snapshot(state)}
            )  # fmt: skip
        if pos.action is None:  # the hand's end: the final board, with what everyone kept
            if h in ends:
                steps[-1]["hand_end"] = _hand_end(record, h, ends[h], steps[-1], before)
            continue
        before = [list(x) for x in steps[-1]["view"]["hands"]]
        seat = state.current_seat
        who = names[seat] if seat is not None and seat < len(names) else "?"
        found = by_event.get((h, i), [])
        legal = spec.legal_match(state, pos.action)
        shown = legal if type(legal) is type(pos.action) else pos.action
        text = f"{who} {spec.describe_action(shown)}"
        drawn = next((x.get("tile") for x in found if x.get("type") == "draw"), None)
        if drawn:
            text += f" ({drawn})"
        points = sum(int(x.get("points") or 0) for x in found)
        if points and "point" not in text:
            text += f": {points} points"
        applied = {"hand": h, "event": i, "seat": seat, "text": text, "lines": found}
    if game_end is not None and steps:
        steps[-1]["game_end"] = game_end
    ending = (record.meta or {}).get("ending")
    return {
        "game": record.game,
        "title": spec.title,
        "seats": names,
        "options": dict(record.options),
        "steps": steps,
        "hand_ends": [ends[h] for h in sorted(ends)],
        "game_end": game_end,
        "ending": ending if isinstance(ending, dict) else None,
        "record": record.to_json(),
    }


def _hand_end(record: Record, h: int, line: JSON, step: JSON, before: list[list[str]]) -> JSON:
    """A hand's end as the table shows it: the tiles every seat kept (shown on the step's view:
    the hands before the hand's last event, with its tiles moved) and the scoring in words."""
    view = step["view"]
    events = record.hands[h].get("events") or []
    kept: list[list[str]] | None = None
    if events and before and line.get("reason") != "redeal":
        kept = handend.reveal(before, events[-1])
        view["hands"] = kept
    words = handend.explain(
        record.game,
        list(record.seats),
        line,
        kept,
        dict(record.options),
        bool(view.get("partnerships")),
    )
    return {**line, "kept": kept, "explain": words}


def hand_ends(table: LiveTable) -> list[JSON]:
    """The ``hand_end`` (and ``game_end``) replay lines of the hands ``table`` has finished."""
    st = table.state
    if st is None:
        return []
    record = record_from_json(table.record())
    out: list[JSON] = []
    lines: Iterator[JSON] = get_spec(table.game).replay(record)
    for line in lines:
        if line.get("type") in ("hand_end", "game_end"):
            out.append(line)
    return out


def count_events(raw: dict[str, Any]) -> int:
    """How many events an uploaded record holds (counted before any replay; a malformed
    record counts 0 and is refused by the replay with its reason).

    >>> count_events({"hands": [{"events": [{}, {}]}, {"events": [{}]}]})
    3
    """
    hands = raw.get("hands")
    if not isinstance(hands, list):
        return 0
    return sum(
        len(h["events"]) for h in hands if isinstance(h, dict) and isinstance(h.get("events"), list)
    )


def add_routes(
    app: FastAPI, lobby: Lobby, workers: Workers, limits: Limits, errors: dict[int | str, Any]
) -> None:
    """The replay endpoints (docs/server.md). Every replay is computed by a worker process
    (boneyard.server.workers); a finished table's is kept (at most ``CACHE_BYTES``)."""
    from boneyard.server.accounts.service import address
    from boneyard.server.replays import jobs  # (jobs import this module: the workers run it)
    from boneyard.server.workers import Busy, TooSlow

    cache: LRUCache[str, bytes] = LRUCache(maxsize=CACHE_BYTES, getsizeof=len)
    ends: LRUCache[tuple[str, int], list[JSON]] = LRUCache(maxsize=256)
    metrics = lobby.tables.metrics

    async def job(function: Any, *args: Any) -> bytes:
        try:
            status, value = await workers.run(function, *args)
        except Busy as exc:
            metrics.jobs.labels("busy").inc()
            raise HTTPException(503, str(exc)) from None
        except TooSlow as exc:
            metrics.jobs.labels("timeout").inc()
            raise HTTPException(400, f"the record could not be replayed: {exc}") from None
        metrics.jobs.labels(status).inc()
        if status != "ok":
            raise HTTPException(400, str(value))
        assert isinstance(value, bytes)
        return value

    @app.get("/api/tables/{table_id}/replay", responses=errors)
    async def table_replay(table_id: str, request: Request) -> Response:
        """Every step of a finished game, as public views with all hands shown."""
        table = await lobby.visible_table(table_id, request)
        if table.state is None or not table.ended:
            raise HTTPException(400, "the replay is available once the game is over")
        body = cache.get(table_id)
        if body is None:
            body = cache[table_id] = await job(jobs.replay, table.record(), table.id)
        return Response(body, media_type="application/json")

    @app.get("/api/tables/{table_id}/hands", responses=errors)
    async def table_hands(table_id: str, request: Request) -> JSON:
        """The ends (winner, award, scores) of the hands this table has finished."""
        table = await lobby.visible_table(table_id, request)
        key = (table.id, table.version)
        if key not in ends:
            async with table.lock:
                ends[key] = hand_ends(table)
        return {"hands": ends[key]}

    upload_body = {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": RecordIn.model_json_schema()}},
        }
    }

    @app.post(
        "/api/replays",
        responses={**errors, 503: {"description": "Busy: try again"}},
        openapi_extra=upload_body,
    )
    async def upload_replay(request: Request) -> Response:
        """Replay an uploaded record (``{"record": {...}}``, at most 2 MB); a record that does
        not replay is refused with why. The body is parsed in the worker, not here."""
        await limits.check("uploads", address(request), "too many uploads from your address")
        return Response(await job(jobs.upload, await request.body()), media_type="application/json")
