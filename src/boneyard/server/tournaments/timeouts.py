"""Time-outs at event tables. Every event table has the event's move clock (the turn clock of
boneyard.server.tables.clock: a server task per table, whether or not anyone watches, resumed from
stored times after a restart; the player on the move is warned when the move time ends). When
the grace ends, the event's rule decides, and the event log records it as a ruling:

* ``lose``: the seat loses the game (reason ``timeout``, the scores as they stood); the table
  stops and the match goes on;
* ``bot``: a bot plays on for the seat (the person may take it back, as at any table);
* ``director``: the table stops and the game waits for the directors' ruling.

The directors are told of every time-out; one that decided a game can be undone like a ruling.
"""

from __future__ import annotations

import logging
from typing import Any

from boneyard.server.tables.clock import now
from boneyard.server.tables.live import LiveTable
from boneyard.server.tournaments.service import Tournaments, history
from boneyard.store import tournament_games, unit
from boneyard.store.db import AsyncSession
from boneyard.store.statuses import MatchGameStatus, TournamentStatus
from boneyard.store.tournaments import TournamentGame, TournamentRow
from boneyard.tournament import tournament_from_json

log = logging.getLogger("boneyard.tournaments")

OUTCOMES = {
    "lose": "loses the game",
    "bot": "a bot plays on",
    "director": "the director decides",
}


async def on_timeout(svc: Tournaments, table: LiveTable, seat: int, version: int) -> bool:
    """The clock hook: ``seat``'s time at ``table`` ran out at ``version``. True when the event
    handled it (no bot takes the seat); false for other tables and the ``bot`` rule."""
    event_id = (table.settings or {}).get("event")
    if not event_id:
        return False
    rule = str(((table.settings or {}).get("clock") or {}).get("timeout") or "lose")
    halt = False
    async with svc.lock(str(event_id)):
        async with svc.sessions() as db, db.begin():
            g = await tournament_games.game_playing_at(db, table.id)
            ev = await unit.get(db, TournamentRow, str(event_id))
            st = table.state
            if (
                g is None
                or ev is None
                or ev.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED)
            ):
                svc.halt_later(table.id, "this game no longer counts")
                return True
            if st is None or table.version != version or st.current_seat != seat:
                return False  # it moved meanwhile: the clock plans again
            who = g.side_a if seat == g.seat_a else g.side_b
            scores = _scores(st)
            sa, sb = scores[g.seat_a], scores[1 - g.seat_a]
            await _rule(svc, db, ev, g, rule, who, (sa, sb))
            halt = rule != "bot"
        if rule == "lose":
            await svc.advance_locked(str(event_id))
    if halt:
        await svc.tables.halt(table.id, f"time ran out: {OUTCOMES[rule]}")
    return halt


def _scores(st: Any) -> list[int]:
    view = st.observation(None).to_json()
    return [int(x) for x in view.get("scores") or [0, 0]]


async def _rule(
    svc: Tournaments,
    db: AsyncSession,
    ev: TournamentRow,
    g: TournamentGame,
    rule: str,
    who: int | None,
    scores: tuple[int, int],
) -> None:
    """Apply the event's time-out ``rule`` to game ``g`` lost on time by entrant ``who``."""
    names = await svc.names(db, ev.id)
    name = names.get(who or 0, "?")
    text = f"{name}'s time ran out in {g.match_id} game {g.number}: {OUTCOMES[rule]}"
    history(g, "time-out", None, entrant=who, rule=rule)
    payload: dict[str, Any] = {"match": g.match_id, "game": g.id, "entrant": who, "rule": rule}
    if rule == "lose":
        g.status, g.reason, g.note = MatchGameStatus.RULED, MatchGameStatus.TIMEOUT, text[:500]
        g.winner = g.side_b if who == g.side_a else g.side_a
        g.score_a, g.score_b = scores
        await svc.record(db, ev, tournament_from_json(ev.bracket or {}), g)
    elif rule == "director":
        g.status, g.note, g.updated_at = MatchGameStatus.TIMEOUT, text[:500], now()
    svc.action(db, ev, None, "timeout", payload, text)
    undo = "" if rule == "bot" else " (you may undo it until the next round starts)"
    await svc.notify_directors(db, ev, "timeout", text + undo)
    await svc.notify_match(db, ev, g.match_id, (g.side_a, g.side_b), "director", text)
