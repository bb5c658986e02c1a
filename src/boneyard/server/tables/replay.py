"""A live table rebuilt from its log: the deals (from the stored seeds) and the actions, in order.

The loader replays a table's whole log when it loads it and only the new entries when another
process moved it on; the operator's ``boneyard tables inspect`` replays one entry at a time to
show where a damaged log stops.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON, GameState
from boneyard.games.registry import get_spec
from boneyard.server.tables import fairness
from boneyard.server.tables.live import LiveTable, scores_at, seat_names
from boneyard.server.tables.movelog import hands_of
from boneyard.store import livetables
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.models import HandSeed, LogEntry
from boneyard.store.statuses import TableStatus


def replay_entries(table: LiveTable, state: GameState, entries: Iterable[LogEntry]) -> None:
    """Apply log ``entries`` (deals from ``table.seeds``, actions) to ``state`` and move
    ``table.version`` and ``table.hand_scores`` along."""
    moves = table.log()
    entries = list(entries)
    for k, e in enumerate(entries):
        if e.kind == "deal":
            _replay_deal(table, state, e)
            moves.take(state)
        else:
            if e.seat != state.current_seat:
                raise BoneyardError(f"table {table.id}: log seq {e.seq} is out of turn")
            # The hands before an action that may end its hand (the last before a deal, or of
            # the log): a hand's end reveals what every seat kept.
            last = k + 1 == len(entries) or entries[k + 1].kind == "deal"
            before = hands_of(state) if last else None
            state.apply(get_spec(table.game).action_from_move(state, e.payload))
            moves.take(state, before)
        table.version = e.seq
        table.last_at = e.created_at
        moves.note_changes(table.settings, e.seq)
    if state.is_over and len(table.hand_scores) < table.hands_dealt():
        table.hand_scores.append(scores_at(state))


def _replay_deal(table: LiveTable, state: GameState, e: LogEntry) -> None:
    """A logged deal dealt again from its stored seed (and the client seeds it names)."""
    hand = e.payload["hand"]
    if hand > 0:
        table.hand_scores.append(scores_at(state))
    scheme = e.payload.get("scheme", fairness.SCHEME_V1)
    clients = e.payload.get("client_seeds")
    if isinstance(clients, list):
        table.client_seeds[hand] = {i: c for i, c in enumerate(clients) if c is not None}
    fairness.deal(state, table.seeds[hand][0], hand, clients, scheme)


def take_seeds(table: LiveTable, rows: Iterable[HandSeed], entries: Sequence[LogEntry]) -> None:
    """Hand seeds read from the database: the dealt hands' (and those ``entries`` deal) go to
    ``table.seeds``, the committed next hand's to ``table.pending`` with its client seeds."""
    deals = {e.payload["hand"] for e in entries if e.kind == "deal"}
    for s in sorted(rows, key=lambda r: r.hand):
        if s.hand in table.seeds or s.hand in deals:
            table.seeds[s.hand] = (s.server_seed, s.commitment)
        else:
            table.pending = (s.hand, s.server_seed, s.commitment)
            given = s.client_seeds or {}
            table.client_seeds[s.hand] = {int(k): str(v) for k, v in given.items()}


async def inspect_log(sessions: async_sessionmaker[AsyncSession], table_id: str) -> JSON | None:
    """For the operator (``boneyard tables inspect``): replay a table's log one entry at a time
    and report where it fails and why (``None``: no such table)."""
    async with sessions() as db:
        row = await livetables.table_row(db, table_id)
        if row is None:
            return None
        seeds, entries = await livetables.log_rows(db, table_id)
    out: JSON = {
        "table": row.id,
        "game": row.game,
        "status": row.status,
        "broken": (row.settings or {}).get("broken"),
        "entries": len(entries),
        "replays_until": 0,
        "error": None,
    }
    table = LiveTable(row.id, row.game, dict(row.options), list(row.seats), TableStatus(row.status))
    take_seeds(table, seeds, entries)
    try:
        state = fairness.new_state(row.game, row.options, seat_names(row.seats))
    except Exception as exc:
        out["error"] = {"seq": None, "why": f"{type(exc).__name__}: {exc}"}
        return out
    for e in entries:
        try:
            replay_entries(table, state, [e])
        except Exception as exc:
            out["error"] = {
                "seq": e.seq,
                "kind": e.kind,
                "seat": e.seat,
                "payload": e.payload,
                "why": f"{type(exc).__name__}: {exc}",
            }
            return out
        out["replays_until"] = e.seq
    return out
