"""The director's console at work: pause and resume, rulings (a score, a PDA bogus play), the
PDA 9b hand penalty, reopening a decided game, and undoing a ruling while the next round has
not started. Each is written to the event log with the director's note, and the players of the
match are told. (The routes are :mod:`~boneyard.server.tournaments.console`.)"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from boneyard.server.errors import NotFound, Refused
from boneyard.server.tables.clock import now
from boneyard.server.tournaments.absence import ABSENT, give_back
from boneyard.server.tournaments.service import ACTIVE, RUNNING, Tournaments, history
from boneyard.store import tournament_games, unit
from boneyard.store.db import AsyncSession
from boneyard.store.statuses import MatchGameStatus, TournamentStatus
from boneyard.store.tournaments import TournamentAction, TournamentGame, TournamentRow
from boneyard.tournament import tournament_from_json

if TYPE_CHECKING:
    from boneyard.server.tournaments.schemas import PenaltyIn, RulingIn

BOGUS_SCORES = (150, 100)  # PDA 8c-e: beneficiary 150, bogus player 100
UNDOABLE = ("ruling", "forfeit", "timeout", "penalty")
SNAPSHOT = ("status", "score_a", "score_b", "winner", "reason", "note", "signed_a", "signed_b")
"""What a ruling changes on a card (kept in the log to undo it): the signatures go with the
entry they were given to (the card's history keeps them), never with the ruling."""
SIGNED_AT = ("signed_a_at", "signed_b_at")


def snapshot(g: TournamentGame) -> dict[str, object]:
    """The card's fields a ruling overrides, as JSON (to put back on undo)."""
    out = {k: getattr(g, k) for k in SNAPSHOT}
    out.update({k: iso(getattr(g, k)) for k in SIGNED_AT})
    out["paper"] = bool(g.paper)
    return out


def put_back(g: TournamentGame, before: dict[str, Any]) -> None:
    """Restore the fields :func:`snapshot` kept."""
    for k in SNAPSHOT:
        setattr(g, k, before.get(k))
    for k in SIGNED_AT:
        raw = before.get(k)
        setattr(g, k, datetime.fromisoformat(raw) if raw else None)
    g.paper = bool(before.get("paper"))


def iso(t: datetime | None) -> str | None:
    return t.isoformat() if t is not None else None


def ruled_scores(body: RulingIn, a: int, b: int) -> tuple[int, int, int, str]:
    """``(score_a, score_b, winner, reason)`` of a ruling (400 when it names nobody)."""
    if body.kind == "bogus":
        if body.offender not in (a, b):
            raise Refused("name the offender: one of the match's entrants")
        winner = b if body.offender == a else a
        hi, lo = BOGUS_SCORES
        return (hi, lo, winner, "bogus") if winner == a else (lo, hi, winner, "bogus")
    sa, sb = body.score_a, body.score_b
    if sa == sb and body.winner not in (a, b):
        raise Refused("equal scores: name the winner")
    winner = (body.winner if sa == sb else (a if sa > sb else b)) or a
    return sa, sb, winner, "ruling"


async def running_for(svc: Tournaments, db: AsyncSession, event_id: str, by: int) -> TournamentRow:
    """The event in play, which ``by`` directs."""
    ev = await svc.need_running(db, event_id)
    await svc.need_director(db, ev, by)
    return ev


async def running_or_finished(
    svc: Tournaments, db: AsyncSession, event_id: str, by: int
) -> TournamentRow:
    """The event, started (perhaps finished), which ``by`` directs."""
    ev = await svc.need_event(db, event_id)
    await svc.need_director(db, ev, by)
    if ev.bracket is None or ev.status not in (*RUNNING, TournamentStatus.FINISHED):
        raise Refused(f"the event is {ev.status}, not in play")
    return ev


async def set_status(
    svc: Tournaments, event_id: str, by: int, to: TournamentStatus, note: str
) -> None:
    """Pause (``to="paused"``) or resume the event."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await running_for(svc, db, event_id, by)
            ev.status = to
            kind = "pause" if to == TournamentStatus.PAUSED else "resume"
            Tournaments.action(db, ev, by, kind, {}, note)
        await svc.advance_locked(event_id)


async def rule(svc: Tournaments, event_id: str, match_id: str, body: RulingIn, by: int) -> None:
    """A director's ruling on a game of the match (the one under way, a disputed card, or a
    new one): its scores and winner count at once."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await running_for(svc, db, event_id, by)
            t = tournament_from_json(ev.bracket or {})
            m = svc.need_ready(t, match_id)
            a, b = int(m.a), int(m.b)
            sa, sb, winner, reason = ruled_scores(body, a, b)
            g = await ruled_game(svc, db, ev, match_id, body.game_id, a, b)
            before = snapshot(g) if g.id is not None else None
            g.status, g.reason, g.winner = MatchGameStatus.RULED, reason, winner
            g.score_a, g.score_b = sa, sb
            g.note = (body.note or reason)[:500]
            g.signed_a = g.signed_b = g.signed_a_at = g.signed_b_at = None
            g.paper = False
            offender = body.offender if body.kind == "bogus" else None
            history(
                g, "ruling", by, score_a=sa, score_b=sb, note=body.note, kind=body.kind,
                offender=offender, winner=winner,
            )  # fmt: skip
            await unit.flush(db)
            await svc.record(db, ev, t, g)
            payload = {
                "match": match_id,
                "kind": body.kind,
                "winner": winner,
                "scores": [sa, sb],
                "game": g.id,
                "before": before,
            }
            Tournaments.action(db, ev, by, "ruling", payload, body.note)
            names = await svc.names(db, event_id)
            text = f"Ruling on {match_id} game {g.number}: {sa}–{sb}, {names.get(winner)} wins"
            await svc.notify_match(db, ev, match_id, (a, b), "director", text)
            if g.table_id and before and before["status"] == "playing":
                svc.halt_later(g.table_id, f"the director ruled: {sa}–{sb}")
        await svc.advance_locked(event_id)


async def ruled_game(
    svc: Tournaments,
    db: AsyncSession,
    ev: TournamentRow,
    match_id: str,
    game_id: int | None,
    a: int,
    b: int,
) -> TournamentGame:
    """The game a ruling is on (one under way, or a disputed card), or a new one."""
    if game_id is None:
        g = svc.game_row(ev, match_id, await svc.next_number(db, ev, match_id), "game", a, b)
        unit.add(db, g)
        return g
    found = await unit.get(db, TournamentGame, game_id)
    if found is None or found.event_id != ev.id or found.match_id != match_id:
        raise NotFound("no such game in this match")
    if found.status not in ACTIVE:
        raise Refused(f"that game is {found.status}: reopen it first")
    return found


async def penalize(
    svc: Tournaments, event_id: str, match_id: str, body: PenaltyIn, by: int
) -> None:
    """PDA 9b (over the board): the hand ends and the other player scores ``body.points``;
    written in the log and on the card of the game in play (a card not entered yet gets it
    when it is: :func:`penalties_to_card`), and told to the players."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await running_for(svc, db, event_id, by)
        if ev.mode != "otb":
            raise Refused("online, the server deals: a misdeal (9a) cannot happen")
        m = svc.need_ready(tournament_from_json(ev.bracket or {}), match_id)
        a, b = int(m.a), int(m.b)
        if body.offender not in (a, b):
            raise Refused("name the offender: one of the match's entrants")
        number = await svc.next_number(db, ev, match_id)
        card = await tournament_games.match_game_in(db, event_id, match_id, ACTIVE)
        gets = b if body.offender == a else a
        payload: dict[str, object] = {
            "match": match_id,
            "game": number if card is None else card.number,
            "offender": body.offender,
            "beneficiary": gets,
            "points": body.points,
            "rule": "PDA 9b",
        }
        act = Tournaments.action(db, ev, by, "penalty", payload, body.note)
        if card is not None:
            await unit.flush(db)
            penalty_entry(card, act)
        names = await svc.names(db, event_id)
        text = (
            f"PDA 9b in {match_id} game {payload['game']}: the hand ends, {names.get(gets)} "
            f"scores {body.points}"
        )
        await svc.notify_match(db, ev, match_id, (a, b), "director", text)


def penalty_entry(card: TournamentGame, act: TournamentAction) -> None:
    """Write the 9b penalty ``act`` into ``card``'s history (once), at the time it was ruled."""
    p = dict(act.payload or {})
    entry = {
        "at": act.created_at.isoformat(),
        "what": "penalty 9b",
        "by": act.user_id,
        "offender": p.get("offender"),
        "beneficiary": p.get("beneficiary"),
        "points": p.get("points"),
        "note": act.note,
        "action": act.id,
    }
    card.history = [*(card.history or []), entry]
    act.payload = {**p, "card": card.id}


async def penalties_to_card(db: AsyncSession, ev: TournamentRow, card: TournamentGame) -> None:
    """Copy the 9b penalties ruled in the game ``card`` records, before it was entered, into
    its history (the printed card, the card's page and the exports show them)."""
    acts = await tournament_games.actions(db, ev.id, "penalty")
    for act in acts:
        p = act.payload or {}
        if (
            p.get("match") == card.match_id
            and p.get("game") == card.number
            and not p.get("card")
            and not p.get("undone")
        ):
            penalty_entry(card, act)


async def reopen(svc: Tournaments, event_id: str, game_id: int, note: str, by: int) -> str:
    """Reopen a decided game: its result no longer counts (refused once the next round has
    started on it). Returns what must happen for the match to go on (:func:`after`)."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await running_or_finished(svc, db, event_id, by)
            g = await unit.get(db, TournamentGame, game_id)
            if g is None or g.event_id != event_id:
                raise NotFound("no such game")
            if g.final_seq is None:
                raise Refused("only a decided game can be reopened")
            g.status, g.final_seq, g.updated_at = MatchGameStatus.VOID, None, now()
            g.note = f"reopened: {note}".strip()[:500]
            history(g, "reopened", by, note=note)
            await settle(svc, db, ev)
            told = await after(db, ev, g)
            Tournaments.action(db, ev, by, "reopen", {"game": game_id, "match": g.match_id}, note)
            await svc.notify_match(
                db,
                ev,
                g.match_id,
                (g.side_a, g.side_b),
                "director",
                f"The director reopened {g.match_id} game {g.number}",
            )
        await svc.advance_locked(event_id)
    svc.wake_scheduler.set()  # (a new grace period may end before the scheduler's next look)
    return told


async def after(db: AsyncSession, ev: TournamentRow, g: TournamentGame) -> str:
    """What the directors read once ``g``'s result was taken back: for a forfeit for an
    absence, what must happen for it not to be forfeited again (absence.give_back); else
    how the game is played or entered again."""
    if g.kind == "forfeit" and g.reason in ABSENT:
        return await give_back(db, ev, g)
    if g.kind == "forfeit":
        return f"{g.match_id} is open again: it is played on from where it was."
    if g.table_id:
        return f"{g.match_id} game {g.number} is played again at a new table."
    if g.status == MatchGameStatus.VOID:
        return f"{g.match_id} game {g.number} no longer counts: enter its card again."
    return f"{g.match_id} game {g.number} is {g.status} again, as before the ruling."


async def settle(svc: Tournaments, db: AsyncSession, ev: TournamentRow) -> None:
    """Rebuild the tournament after a result was taken back: refused (400, nothing
    changed) when another match's result or game no longer fits."""
    await unit.flush(db)
    t = await svc.rebuild(db, ev)
    await svc.check_consistent(db, ev, t)
    ev.bracket = t.to_json()
    if ev.status == TournamentStatus.FINISHED and not t.is_over:
        ev.status, ev.finished_at = TournamentStatus.RUNNING, None


async def undo(svc: Tournaments, event_id: str, action_id: int, note: str, by: int) -> str:
    """Undo a ruling, a forfeit, a time-out or a penalty of the log (see ``console.undo``);
    returns what must happen for the match to go on (:func:`after`)."""
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await running_or_finished(svc, db, event_id, by)
            act = await unit.get(db, TournamentAction, action_id)
            if act is None or act.event_id != event_id or act.kind not in UNDOABLE:
                raise NotFound("no such ruling")
            payload = dict(act.payload or {})
            if payload.get("undone"):
                raise Refused("that ruling is already undone")
            if act.kind == "timeout" and payload.get("rule") == "bot":
                raise Refused("a bot played on for that seat: no result to undo")
            if act.kind == "penalty":
                told = await penalty_back(db, ev, payload, by, note)
            else:
                told = await take_back(svc, db, ev, payload, by, note)
            act.payload = {**payload, "undone": True}
            Tournaments.action(db, ev, by, "undo", {"action": act.id, "kind": act.kind}, note)
            match_id = str(payload.get("match", ""))
            t = tournament_from_json(ev.bracket or {})
            sides = t.match(match_id).sides if match_id else ()
            await svc.notify_match(
                db,
                ev,
                match_id,
                [int(s) for s in sides if s],
                "director",
                f"The director undid the {act.kind} on {match_id}",
            )
        await svc.advance_locked(event_id)
    svc.wake_scheduler.set()  # (a new grace period may end before the scheduler's next look)
    return told


async def penalty_back(
    db: AsyncSession, ev: TournamentRow, payload: dict[str, Any], by: int, note: str
) -> str:
    """An undone 9b penalty: its card (if it has one) says so."""
    card = (
        await unit.get(db, TournamentGame, int(payload.get("card") or 0))
        if payload.get("card")
        else None
    )
    if card is not None and card.event_id == ev.id:
        history(card, "penalty undone", by, note=note, points=payload.get("points"))
    return f"The 9b penalty on {payload.get('match')} no longer counts: correct the card if needed."


async def take_back(
    svc: Tournaments,
    db: AsyncSession,
    ev: TournamentRow,
    payload: dict[str, Any],
    by: int,
    note: str,
) -> str:
    """Take back the result an undone action made: a ruled card goes back to what it was, a
    game ruled or forfeited at a table is played again; returns :func:`after`'s words."""
    g = await unit.get(db, TournamentGame, int(payload.get("game") or 0))
    if g is None or g.event_id != ev.id:
        raise NotFound("the game of that ruling is gone")
    before = payload.get("before") or {}
    g.final_seq, g.updated_at = None, now()
    if before and before.get("status") in ("reported", "disputed", "confirmed", "timeout"):
        put_back(g, before)
    else:  # a new result, or a table stopped by it: that game is played again
        g.status = MatchGameStatus.VOID
    history(g, "undone", by, note=note)
    await settle(svc, db, ev)
    return await after(db, ev, g)
