"""The director's console: pause and resume, forfeits, rulings (a score, a PDA bogus play), the
PDA 9b hand penalty, reopening a decided game, and undoing a ruling while the next round has not
started. Each is written to the event log with the director's note, and the players of the
match are told."""

from typing import Any

from fastapi import APIRouter, HTTPException
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.server.events.context import Context, Ctx, Me
from boneyard.server.events.schemas import ForfeitIn, NoteIn, PenaltyIn, RowId, RulingIn
from boneyard.server.events.service import ACTIVE, Events, history
from boneyard.server.tables.clock import now
from boneyard.store.events import Event, EventAction, EventGame
from boneyard.store.statuses import EventStatus, MatchGameStatus
from boneyard.tournament import event_from_json

BOGUS_SCORES = (150, 100)  # PDA 8c-e: beneficiary 150, bogus player 100
UNDOABLE = ("ruling", "forfeit", "timeout", "penalty")
SNAPSHOT = ("status", "score_a", "score_b", "winner", "reason", "note")


def ruled_scores(body: RulingIn, a: int, b: int) -> tuple[int, int, int, str]:
    """``(score_a, score_b, winner, reason)`` of a ruling (400 when it names nobody)."""
    if body.kind == "bogus":
        if body.offender not in (a, b):
            raise HTTPException(400, "name the offender: one of the match's entrants")
        winner = b if body.offender == a else a
        hi, lo = BOGUS_SCORES
        return (hi, lo, winner, "bogus") if winner == a else (lo, hi, winner, "bogus")
    sa, sb = body.score_a, body.score_b
    if sa == sb and body.winner not in (a, b):
        raise HTTPException(400, "equal scores: name the winner")
    winner = (body.winner if sa == sb else (a if sa > sb else b)) or a
    return sa, sb, winner, "ruling"


router = APIRouter()


async def running_for(ctx: Context, db: AsyncSession, event_id: str, user: Any) -> Event:
    ev = await ctx.svc.need_running(db, event_id)
    await ctx.need_director(db, ev, user)
    return ev


async def set_status(
    ctx: Context, event_id: str, user: Any, to: EventStatus, body: NoteIn
) -> dict[str, Any]:
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            ev = await running_for(ctx, db, event_id, user)
            ev.status = to
            kind = "pause" if to == EventStatus.PAUSED else "resume"
            Events.action(db, ev, user.id, kind, {}, body.note)
        await ctx.svc.advance_locked(event_id)
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/pause")
async def pause(event_id: str, body: NoteIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Pause (directors): games in play finish, no new table starts."""
    return await set_status(ctx, event_id, user, EventStatus.PAUSED, body)


@router.post("/api/events/{event_id}/resume")
async def resume(event_id: str, body: NoteIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Resume a paused event (directors)."""
    return await set_status(ctx, event_id, user, EventStatus.RUNNING, body)


@router.post("/api/events/{event_id}/matches/{match_id}/forfeit")
async def forfeit(
    event_id: str, match_id: str, body: ForfeitIn, user: Me, ctx: Ctx
) -> dict[str, Any]:
    """Rule that an entrant forfeits a match (directors; the page asks first)."""
    async with ctx.sessions() as db:
        await ctx.need_director(db, await ctx.need_event(db, event_id), user)
    await ctx.svc.forfeit(event_id, match_id, body.loser, body.note, user.id)
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/matches/{match_id}/ruling")
async def ruling(
    event_id: str, match_id: str, body: RulingIn, user: Me, ctx: Ctx
) -> dict[str, Any]:
    """A director's ruling on a game: a PDA bogus play (150-100) or a score, with a note.
    A ruling is not checked against the game's scores: it is how a director overrides."""
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            ev = await running_for(ctx, db, event_id, user)
            t = event_from_json(ev.bracket or {})
            m = ctx.svc.need_ready(t, match_id)
            a, b = int(m.a), int(m.b)
            sa, sb, winner, reason = ruled_scores(body, a, b)
            g = await ruled_game(ctx, db, ev, match_id, body.game_id, a, b)
            before = {k: getattr(g, k) for k in SNAPSHOT} if g.id is not None else None
            g.status, g.reason, g.winner = MatchGameStatus.RULED, reason, winner
            g.score_a, g.score_b = sa, sb
            g.note = (body.note or reason)[:500]
            history(g, "ruling", user.id, score_a=sa, score_b=sb, note=body.note)
            await db.flush()
            await ctx.svc.record(db, ev, t, g)
            payload = {
                "match": match_id,
                "kind": body.kind,
                "winner": winner,
                "scores": [sa, sb],
                "game": g.id,
                "before": before,
            }
            Events.action(db, ev, user.id, "ruling", payload, body.note)
            names = await ctx.svc.names(db, event_id)
            text = f"Ruling on {match_id} game {g.number}: {sa}–{sb}, {names.get(winner)} wins"
            await ctx.svc.notify_match(db, ev, match_id, (a, b), "director", text)
            if g.table_id and before and before["status"] == "playing":
                ctx.svc.halt_later(g.table_id, f"the director ruled: {sa}–{sb}")
        await ctx.svc.advance_locked(event_id)
    return await ctx.event_json(event_id, user)


async def ruled_game(
    ctx: Context, db: AsyncSession, ev: Event, match_id: str, game_id: int | None, a: int, b: int
) -> EventGame:
    """The game a ruling is on (one under way, or a disputed card), or a new one."""
    if game_id is None:
        g = ctx.svc.game_row(
            ev, match_id, await ctx.svc.next_number(db, ev, match_id), "game", a, b
        )
        db.add(g)
        return g
    found = await db.get(EventGame, game_id)
    if found is None or found.event_id != ev.id or found.match_id != match_id:
        raise HTTPException(404, "no such game in this match")
    if found.status not in ACTIVE:
        raise HTTPException(400, f"that game is {found.status}: reopen it first")
    return found


@router.post("/api/events/{event_id}/matches/{match_id}/penalty")
async def penalty(
    event_id: str, match_id: str, body: PenaltyIn, user: Me, ctx: Ctx
) -> dict[str, Any]:
    """PDA 9b (over the board): the hand ends at once and the other player scores
    ``points`` (at least 50). Recorded as a ruling on the game in play, in the log and on
    its card; the players' final card includes the points."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await running_for(ctx, db, event_id, user)
        if ev.mode != "otb":
            raise HTTPException(400, "online, the server deals: a misdeal (9a) cannot happen")
        m = ctx.svc.need_ready(event_from_json(ev.bracket or {}), match_id)
        a, b = int(m.a), int(m.b)
        if body.offender not in (a, b):
            raise HTTPException(400, "name the offender: one of the match's entrants")
        number = await ctx.svc.next_number(db, ev, match_id)
        card = await db.scalar(
            select(EventGame).where(
                EventGame.event_id == event_id,
                EventGame.match_id == match_id,
                EventGame.status.in_(ACTIVE),
            )
        )
        if card is not None:
            number = card.number
            history(card, "penalty 9b", user.id, offender=body.offender, points=body.points)
        gets = b if body.offender == a else a
        payload = {
            "match": match_id,
            "game": number,
            "offender": body.offender,
            "beneficiary": gets,
            "points": body.points,
            "rule": "PDA 9b",
        }
        Events.action(db, ev, user.id, "penalty", payload, body.note)
        names = await ctx.svc.names(db, event_id)
        text = (
            f"PDA 9b in {match_id} game {number}: the hand ends, {names.get(gets)} "
            f"scores {body.points}"
        )
        await ctx.svc.notify_match(db, ev, match_id, (a, b), "director", text)
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/games/{game_id}/reopen")
async def reopen(event_id: str, game_id: RowId, body: NoteIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Reopen a decided game (directors): its result no longer counts and it is played (or
    entered) again. Not once the next round has started on it."""
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            ev = await running_or_finished(ctx, db, event_id, user)
            g = await db.get(EventGame, game_id)
            if g is None or g.event_id != event_id:
                raise HTTPException(404, "no such game")
            if g.final_seq is None:
                raise HTTPException(400, "only a decided game can be reopened")
            g.status, g.final_seq, g.updated_at = MatchGameStatus.VOID, None, now()
            g.note = f"reopened: {body.note}".strip()[:500]
            history(g, "reopened", user.id, note=body.note)
            await settle(ctx, db, ev)
            Events.action(
                db, ev, user.id, "reopen", {"game": game_id, "match": g.match_id}, body.note
            )
            await ctx.svc.notify_match(
                db,
                ev,
                g.match_id,
                (g.side_a, g.side_b),
                "director",
                f"The director reopened {g.match_id} game {g.number}",
            )
        await ctx.svc.advance_locked(event_id)
    return await ctx.event_json(event_id, user)


async def running_or_finished(ctx: Context, db: AsyncSession, event_id: str, user: Any) -> Event:
    ev = await ctx.need_event(db, event_id)
    await ctx.need_director(db, ev, user)
    if ev.bracket is None or ev.status not in (
        EventStatus.RUNNING,
        EventStatus.PAUSED,
        EventStatus.FINISHED,
    ):
        raise HTTPException(400, f"the event is {ev.status}, not in play")
    return ev


async def settle(ctx: Context, db: AsyncSession, ev: Event) -> None:
    """Rebuild the tournament after a result was taken back: refused (400, nothing
    changed) when another match's result or game no longer fits."""
    await db.flush()
    t = await ctx.svc.rebuild(db, ev)
    await ctx.svc.check_consistent(db, ev, t)
    ev.bracket = t.to_json()
    if ev.status == EventStatus.FINISHED and not t.is_over:
        ev.status, ev.finished_at = EventStatus.RUNNING, None


@router.post("/api/events/{event_id}/actions/{action_id}/undo")
async def undo(event_id: str, action_id: RowId, body: NoteIn, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Undo a ruling, a forfeit, a time-out or a penalty (directors) while the next round
    has not started: a ruled card goes back to what it was (a disputed card is disputed
    again), a game ruled or forfeited at a table is played again."""
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            ev = await running_or_finished(ctx, db, event_id, user)
            act = await db.get(EventAction, action_id)
            if act is None or act.event_id != event_id or act.kind not in UNDOABLE:
                raise HTTPException(404, "no such ruling")
            payload = dict(act.payload or {})
            if payload.get("undone"):
                raise HTTPException(400, "that ruling is already undone")
            if act.kind == "timeout" and payload.get("rule") == "bot":
                raise HTTPException(400, "a bot played on for that seat: no result to undo")
            if act.kind != "penalty":
                await take_back(ctx, db, ev, payload, user.id, body.note)
            act.payload = {**payload, "undone": True}
            Events.action(db, ev, user.id, "undo", {"action": act.id, "kind": act.kind}, body.note)
            match_id = str(payload.get("match", ""))
            t = event_from_json(ev.bracket or {})
            sides = t.match(match_id).sides if match_id else ()
            await ctx.svc.notify_match(
                db,
                ev,
                match_id,
                [int(s) for s in sides if s],
                "director",
                f"The director undid the {act.kind} on {match_id}",
            )
        await ctx.svc.advance_locked(event_id)
    return await ctx.event_json(event_id, user)


async def take_back(
    ctx: Context, db: AsyncSession, ev: Event, payload: dict[str, Any], by: int, note: str
) -> None:
    g = await db.get(EventGame, int(payload.get("game") or 0))
    if g is None or g.event_id != ev.id:
        raise HTTPException(404, "the game of that ruling is gone")
    before = payload.get("before") or {}
    g.final_seq, g.updated_at = None, now()
    if before and before.get("status") in ("reported", "disputed"):
        for k in SNAPSHOT:
            setattr(g, k, before.get(k))
    else:  # a new result, or a table stopped by it: that game is played again
        g.status = MatchGameStatus.VOID
    history(g, "undone", by, note=note)
    await settle(ctx, db, ev)
