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
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel

from boneyard.core.errors import BoneyardError, RecordError
from boneyard.core.protocol import JSON, GameState
from boneyard.core.records import Record, record_from_json
from boneyard.games.registry import get_spec
from boneyard.server.tables import LiveTable, TableManager
from boneyard.server.validation import encodable

MAX_UPLOAD = 2_000_000  # bytes of an uploaded record
MAX_EVENTS = 20_000  # events in one replayed record
CACHE_SIZE = 64


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
        if pos.action is None:  # the hand's end
            if h in ends:
                steps[-1]["hand_end"] = ends[h]
            continue
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
    return {
        "game": record.game,
        "title": spec.title,
        "seats": names,
        "options": dict(record.options),
        "steps": steps,
        "hand_ends": [ends[h] for h in sorted(ends)],
        "game_end": game_end,
        "record": record.to_json(),
    }


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


def add_routes(app: FastAPI, tables: TableManager, errors: dict[int | str, Any]) -> None:
    """The replay endpoints (docs/server.md)."""
    cache: dict[str, JSON] = {}

    async def need_table(table_id: str) -> LiveTable:
        table = await tables.get(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise HTTPException(404, "no such table")
        return table

    @app.get("/api/tables/{table_id}/replay", responses=errors)
    async def table_replay(table_id: str, request: Request) -> JSON:
        """Every step of a finished game, as public views with all hands shown."""
        table = await need_table(table_id)
        await request.app.state.visible_table(table_id, request)  # a private table: invite
        if table.state is None or not table.state.is_over:
            raise HTTPException(400, "the replay is available once the game is over")
        if table_id not in cache:
            try:
                out = replay_steps(record_from_json(table.record()))
            except BoneyardError as exc:  # pragma: no cover - a table's own record replays
                raise HTTPException(400, f"the record does not replay: {exc}") from None
            out["table"] = table.id
            if len(cache) >= CACHE_SIZE:
                cache.pop(next(iter(cache)))
            cache[table_id] = out
        return cache[table_id]

    @app.get("/api/tables/{table_id}/hands", responses=errors)
    async def table_hands(table_id: str, request: Request) -> JSON:
        """The ends (winner, award, scores) of the hands this table has finished."""
        table = await need_table(table_id)
        await request.app.state.visible_table(table_id, request)  # a private table: invite
        async with table.lock:
            return {"hands": hand_ends(table)}

    @app.post("/api/replays", responses=errors)
    async def upload_replay(body: RecordIn, request: Request) -> JSON:
        """Replay an uploaded record; a record that does not replay is refused with why."""
        length = request.headers.get("content-length") or "0"
        if not length.isdigit():
            raise HTTPException(400, "the request's Content-Length is not a number")
        if int(length) > MAX_UPLOAD:
            raise HTTPException(400, f"the record is too large (over {MAX_UPLOAD} bytes)")
        if not encodable(body.record):
            raise HTTPException(400, "the record is not valid UTF-8 text (a lone surrogate)")
        try:
            record = record_from_json(body.record)
            return replay_steps(record)
        except RecordError as exc:
            where = ""
            if exc.hand is not None:
                where = f" (hand {exc.hand}" + (
                    f", event {exc.event})" if exc.event is not None else ")"
                )
            raise HTTPException(400, f"the record does not replay: {exc.why}{where}") from None
        except BoneyardError as exc:
            raise HTTPException(400, f"the record does not replay: {exc}") from None
