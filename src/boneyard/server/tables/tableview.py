"""The public parts of a table's view beyond the observation, and the table's result.

Every view (docs/server.md) carries, besides the seat's observation and moves:

* ``log``: the move log (:mod:`boneyard.server.tables.movelog`): ``{"from": k, "entries": [...]}``,
  every entry on connect and resync, then only the new ones with each broadcast (a client whose
  log is shorter than ``from`` asks for a resync);
* ``presence``: per seat ``{"online", "away_since"}`` for people (:mod:`tables.presence`)
  and ``claim_after``, the seconds after which the others may claim (tables without a clock);
* ``hand_end``: while the table waits to deal the next hand, and at the game's end, the last
  hand's end: its line, the tiles every seat kept, the scoring in words, who pressed Continue and
  when the next hand is dealt at the latest;
* ``ending`` (a resignation, a claimed win, an abort) and ``rematch`` (who accepted, the new
  table) from the table's settings; ``server_time``;
* for the seat of a guided first hand, ``guide`` (:mod:`boneyard.server.tables.guide`).

None of it depends on the seat except ``guide``: the log is the same for everyone.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from boneyard.core.protocol import JSON, GameResult
from boneyard.store.statuses import TableStatus

if TYPE_CHECKING:
    from boneyard.server.tables.manager import LiveTable

CLAIM_AFTER = 60.0
"""Seconds a person seat must have been disconnected before the others may claim the win or
hand it to a bot (tables without a clock; docs/server.md)."""


def add_public(table: LiveTable, msg: JSON, seat: int | None, full_log: bool) -> None:
    """Add the public parts (see the module docstring) to view ``msg``."""
    log = table.movelog
    if log is not None:
        start = 0 if full_log else table.log_sent
        if full_log or len(log.entries) > start:
            msg["log"] = {"from": start, "entries": log.entries[start:]}
    msg["presence"] = presence_json(table)
    if not (settings := table.settings or {}).get("clock"):
        msg["claim_after"] = table.claim_after
    msg["server_time"] = round(time.time(), 3)
    end = hand_end_json(table)
    if end is not None:
        msg["hand_end"] = end
    if settings.get("ending"):
        msg["ending"] = settings["ending"]
    if settings.get("rematch"):
        msg["rematch"] = settings["rematch"]
    msg["abortable"] = abortable(table)


def add_private(table: LiveTable, msg: JSON, seat: int | None, obs: Any) -> None:
    """Add what only ``seat`` sees: the hints of a guided first hand."""
    if seat is None or not (table.settings or {}).get("guide"):
        return
    from boneyard.server.tables.guide import hint

    tip = hint(table, seat, obs, msg)
    if tip is not None:
        msg["guide"] = tip


def presence_json(table: LiveTable) -> list[JSON | None]:
    """Per seat: ``{"online", "away_since"}`` for a person's seat, ``None`` for a bot or an open
    seat."""
    from boneyard.server.tables.presence import online_users

    users = online_users(table)
    out: list[JSON | None] = []
    for i, s in enumerate(table.seats):
        if s.kind != "person":
            out.append(None)
            continue
        online = s.user_id in users
        away = None if online else table.away.get(i)
        out.append({"online": online, "away_since": away})
    return out


def hand_end_json(table: LiveTable) -> JSON | None:
    """The last hand's end while the next deal waits, and at the game's end (else ``None``)."""
    log = table.movelog
    st = table.state
    if log is None or st is None or log.last_end is None:
        return None
    end = log.last_end
    waiting = table.break_until is not None
    if not waiting and not (st.is_over or table.ended):
        return None
    if end.get("hand") != st.hands_dealt - 1:
        return None  # (the game ended early, in a later hand)
    return {
        "hand": end.get("hand"),
        "entry": end.get("n"),
        "waiting": waiting,
        "deadline": table.break_until,
        "continued": sorted(table.continued),
    }


def abortable(table: LiveTable) -> bool:
    """Whether the game may still be aborted: started, in its first hand, and not every seat
    has moved yet (docs/server.md)."""
    st = table.state
    if st is None or table.ended or table.status != TableStatus.PLAYING:
        return False
    if (table.settings or {}).get("event"):
        return False
    log = table.movelog
    return log is not None and not log.played and len(log.movers) < len(table.seats)


def resigned_seats(table: LiveTable) -> list[int]:
    """Seats whose person resigned (a bot played them out)."""
    return [i for i, s in enumerate(table.seats) if s.resigned]


def table_result(table: LiveTable) -> GameResult | None:
    """The result of the table (see :meth:`LiveTable.result`)."""
    ending = (table.settings or {}).get("ending")
    if isinstance(ending, dict):
        if ending.get("reason") == "abort":
            return None
        scores = tuple(int(x) for x in ending.get("scores") or [])
        return GameResult(ending.get("winner"), scores, str(ending.get("reason")))
    st = table.state
    result = st.result() if st is not None else None
    if result is None:
        return None
    out = set(resigned_seats(table))
    if result.winner is None or result.winner not in out:
        return result
    stayed = [i for i in range(len(result.scores)) if i not in out]
    if not stayed:
        return result
    best = max(stayed, key=lambda i: (result.scores[i], -i))
    return GameResult(best, result.scores, "resigned_last")


def record_ending(table: LiveTable) -> JSON | None:
    """What a record's ``meta.ending`` says (docs/records.md): how a game that did not end by
    its rules ended, or the winner when a resigned seat was placed last."""
    ending = (table.settings or {}).get("ending")
    if isinstance(ending, dict):
        return dict(ending)
    result = table_result(table)
    if result is not None and result.reason == "resigned_last":
        return {
            "reason": "resigned_last",
            "winner": result.winner,
            "scores": list(result.scores),
            "resigned": resigned_seats(table),
        }
    return None
