"""The public parts of a table's view beyond the observation, and the table's result.

Every view (docs/server.md) carries, besides the seat's observation, its moves and how the
game is drawn (``drawing``, the spec's :class:`~boneyard.games.registry.Drawing`):

* ``log``: the move log (:mod:`boneyard.server.tables.movelog`): ``{"from": k, "entries": [...]}``,
  every entry on connect and resync, then only the new ones with each broadcast (a client whose
  log is shorter than ``from`` asks for a resync);
* ``presence``: per seat ``{"online", "away_since"}`` for people (:mod:`tables.presence`)
  and ``claim_after``, the seconds after which the others may claim against an absent person;
  ``stall`` (tables without a clock): the person to act, since when, and after how many seconds
  the others may claim against them (:meth:`tables.clock.TurnClock.stall`);
* ``hand_end``: while the table waits to deal the next hand, and at the game's end, the last
  hand's end: its line, the tiles every seat kept, the scoring in words, who pressed Continue and
  when the next hand is dealt at the latest;
* ``ending`` (a resignation, a claimed win, an abort) and ``rematch`` (who accepted, the new
  table) from the table's settings; ``server_time``;
* for the seat of a guided first hand, ``guide`` (:mod:`boneyard.server.tables.guide`).

None of it depends on the seat except ``guide``: the log is the same for everyone.
"""

from __future__ import annotations

import contextlib
import time

from boneyard.core.protocol import JSON, GameResult
from boneyard.games.registry import get_spec
from boneyard.server.tables.clock import TurnClock
from boneyard.server.tables.guide import hint
from boneyard.server.tables.live import LiveTable, substitutions
from boneyard.server.tables.presence import presence_json
from boneyard.store.statuses import TableStatus


def view(table: LiveTable, seat: int | None, clock: TurnClock, full_log: bool = True) -> JSON:
    """The message for a client of ``seat``: built only from that seat's observation, and
    the table's public facts (the move log: all of it, or with ``full_log`` false what the
    last broadcast has not sent; who is connected; the hand end; how the game ended)."""
    msg: JSON = {
        "type": "view",
        "version": table.version,
        "seat": seat,
        "table": table.public_json(),
        "fairness": table.fairness_json(seat),
        "hand_scores": table.hand_scores,
        "clock": clock.status(table),
        "stall": clock.stall(table),
    }
    if table.private and seat is not None:
        msg["invite"] = table.invite_token
    add_public(table, msg, seat, full_log)
    st = table.state
    if st is None:
        msg["view"] = None
        msg["moves"] = []
        return msg
    obs = st.observation(seat)
    spec = get_spec(table.game)
    msg["view"] = obs.to_json()
    msg["drawing"] = spec.drawing.to_json()
    live = not table.ended and table.status != TableStatus.CLOSED
    msg["moves"] = (
        [{"event": a.to_event(), "text": spec.describe_action(a)} for a in obs.legal_actions]
        if live
        else []
    )
    result = table_result(table)
    msg["result"] = (
        None
        if result is None
        else {"winner": result.winner, "scores": list(result.scores), "reason": result.reason}
    )
    add_private(table, msg, seat, obs)
    return msg


async def send_views(table: LiveTable, clock: TurnClock) -> None:
    """Send every client its fresh view (a dead socket is dropped). Each seat's view is built
    once, however many sockets see from that seat (spectators share theirs)."""
    views: dict[int | None, JSON] = {}
    for client in list(table.clients):
        seat = client.seat
        message = views.get(seat)
        if message is None:
            message = views[seat] = view(table, seat, clock, full_log=False)
        try:
            await client.send(message)
        except Exception:  # a closed socket: forget it
            with contextlib.suppress(ValueError):
                table.clients.remove(client)
    if table.movelog is not None:
        table.log_sent = len(table.movelog.entries)


def record(table: LiveTable) -> JSON:
    """The record so far with fairness meta (only served once the game is over)."""
    assert table.state is not None
    rec = table.state.record()
    meta = dict(rec.get("meta") or {})
    hands = [f for f in table.fairness_json() if not f.get("next")]
    meta["fairness"] = {"scheme": table.scheme, "hands": hands}
    meta["table"] = table.id
    meta["generator"] = "boneyard serve"
    if substitutions(table.settings):
        meta["substitutions"] = substitutions(table.settings)
    ending = record_ending(table)
    if ending is not None:
        meta["ending"] = ending
    rec["meta"] = meta
    return rec


def add_public(table: LiveTable, msg: JSON, seat: int | None, full_log: bool) -> None:
    """Add the public parts (see the module docstring) to view ``msg``."""
    log = table.movelog
    if log is not None:
        start = 0 if full_log else table.log_sent
        if full_log or len(log.entries) > start:
            msg["log"] = {"from": start, "entries": log.entries[start:]}
    msg["presence"] = presence_json(table)
    settings = table.settings or {}
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


def add_private(table: LiveTable, msg: JSON, seat: int | None, obs: object) -> None:
    """Add what only ``seat`` sees: the hints of a guided first hand."""
    if seat is None or not (table.settings or {}).get("guide"):
        return
    tip = hint(table, seat, obs, msg)
    if tip is not None:
        msg["guide"] = tip


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
