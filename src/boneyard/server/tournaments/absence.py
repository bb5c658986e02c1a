"""Absent entrants, handled in the open (docs/tournaments-site.md, "No-shows and withdrawals").

* Who forfeits a ready match: a side that withdrew, or a no-show (not checked in when the grace
  period that began when the match became ready is over).
* The forfeit is a game row of kind ``forfeit`` and an entry of the event log (kind
  ``forfeit``, ``auto``: nobody clicked it), so it is in the exports, the directors are told,
  and it can be undone like any ruling until the next round starts.
* Taking such a forfeit back (an undo, a reopen) says what must happen for it not to be
  forfeited again: a no-show gets a new grace period from now, or must be checked in first
  when the event gives none; a withdrawn entrant must be checked in (reinstated) first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from boneyard.server.errors import Refused
from boneyard.server.tables.clock import aware, now
from boneyard.server.tournaments.settings import setting
from boneyard.store import unit
from boneyard.store.db import AsyncSession
from boneyard.store.statuses import EntrantStatus, MatchGameStatus
from boneyard.store.tournaments import Entrant, TournamentGame, TournamentRow
from boneyard.tournament import Tournament
from boneyard.tournament.match import Match

if TYPE_CHECKING:
    from boneyard.server.tournaments.service import Tournaments

GONE = (EntrantStatus.NO_SHOW, EntrantStatus.WITHDRAWN)
"""Entrants whose matches are forfeited at once."""
ABSENT = ("no_show", "withdrawn")
"""The reasons of a forfeit for an absence."""


def minutes_text(minutes: float) -> str:
    """A number of minutes in words.

    >>> minutes_text(1), minutes_text(10), minutes_text(2.5), minutes_text(0.5)
    ('1 minute', '10 minutes', '2.5 minutes', '30 seconds')
    """
    if minutes < 1:
        seconds = round(minutes * 60)
        return f"{seconds} second" + ("" if seconds == 1 else "s")
    return f"{minutes:g} minute" + ("" if minutes == 1 else "s")


def absence(
    ev: TournamentRow, t: Tournament, a: Entrant, b: Entrant, since: str
) -> tuple[Entrant | None, str]:
    """Who forfeits a ready match between ``a`` and ``b`` now and why (``no_show``,
    ``withdrawn``), or nobody and ``wait`` (a side is not checked in, its grace runs from
    ``since``) or ``play``. A side whose grace ended becomes a no-show."""
    gone = [x for x in (a, b) if x.status in GONE]
    if gone:
        loser = max(gone, key=lambda x: t.seed_of(str(x.id)))
        return loser, "withdrawn" if loser.status == EntrantStatus.WITHDRAWN else "no_show"
    late = [x for x in (a, b) if not x.checked_in]
    if not late:
        return None, "play"
    grace = timedelta(minutes=float(setting(ev, "grace_minutes")))
    if now() < aware(datetime.fromisoformat(since)) + grace:
        return None, "wait"
    loser = max(late, key=lambda x: t.seed_of(str(x.id)))
    loser.status = EntrantStatus.NO_SHOW
    return loser, "no_show"


def why_text(ev: TournamentRow, loser: Entrant, reason: str) -> str:
    """What the log, the card and the players read about the forfeit."""
    if reason == "withdrawn":
        return f"{loser.name} withdrew: forfeit"
    minutes = minutes_text(float(setting(ev, "grace_minutes")))
    return f"{loser.name}: no-show, not checked in {minutes} after the match was ready: forfeit"


async def forfeit_absent(
    svc: Tournaments,
    db: AsyncSession,
    ev: TournamentRow,
    t: Tournament,
    m: Match,
    loser: Entrant,
    reason: str,
    active: Sequence[TournamentGame],
) -> None:
    """Forfeit the ready match ``m`` for ``loser``'s absence: a game in play is void and its
    table stops; the log says so (undoable), the players and the directors are told."""
    why = why_text(ev, loser, reason)
    halts = [g.table_id for g in active if g.match_id == m.id and g.table_id]
    for g in active:
        if g.match_id == m.id:
            g.status, g.note, g.updated_at = MatchGameStatus.VOID, why[:500], now()
    assert m.a is not None and m.b is not None  # a ready match has both sides
    a, b = int(m.a), int(m.b)
    row = svc.game_row(ev, m.id, 0, "forfeit", a, b)
    row.status, row.reason, row.note = MatchGameStatus.RULED, reason, why[:500]
    row.winner = b if loser.id == a else a
    row.history = [{"at": now().isoformat(), "what": "forfeit", "by": None, "note": why[:200]}]
    unit.add(db, row)
    await unit.flush(db)
    await svc.record(db, ev, t, row)
    payload = {"match": m.id, "loser": loser.id, "game": row.id, "reason": reason, "auto": True}
    svc.action(db, ev, None, "forfeit", payload, why)
    await svc.notify_match(db, ev, m.id, (a, b), "forfeit", why)
    await svc.notify_directors(db, ev, "forfeit", f"{m.id}: {why} (you may undo it)")
    for tid in halts:
        svc.halt_later(tid, why)


async def give_back(db: AsyncSession, ev: TournamentRow, g: TournamentGame) -> str:
    """After the forfeit row ``g`` (an absence) was taken back: give the absent side a new
    grace period from now, or refuse (400, nothing changed) when it would be forfeited again at
    once. Returns what the directors read: what must happen for it not to forfeit again."""
    loser_id = g.side_b if g.winner == g.side_a else g.side_a
    loser = await unit.get(db, Entrant, loser_id)
    if loser is None or (loser.checked_in and loser.status not in GONE):
        return f"{g.match_id} is open again: both players are checked in."
    minutes = float(setting(ev, "grace_minutes"))
    if loser.status == EntrantStatus.WITHDRAWN:
        raise Refused(
            f"{loser.name} withdrew: the match would be forfeited again at once. Check "
            f"{loser.name} in first (Entrants: this puts them back in the event), then undo."
        )
    if minutes <= 0:
        raise Refused(
            f"{loser.name} is not checked in and this event gives no grace period: the match "
            f"would be forfeited again at once. Check {loser.name} in first, then undo."
        )
    loser.status = EntrantStatus.PLAYING
    ready = dict((ev.settings or {}).get("ready") or {})
    ready[g.match_id] = now().isoformat()
    ev.settings = {**ev.settings, "ready": ready}
    return (
        f"{g.match_id} is open again. {loser.name} is not checked in: the match is forfeited "
        f"again in {minutes_text(minutes)} unless {loser.name} checks in (or you check them in)."
    )
