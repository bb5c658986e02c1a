"""Over-the-board score cards. A game's final score is entered by a player of the match or
typed in from the paper card by a director (marked so); both players sign it on screen (PDA
rule 11) and only then does it count. Scores are checked against the game's rules (the winner
reached the target, the loser did not, nothing above what a game allows): a card that fails is
refused with the reason, and only a director's ruling overrides. A disputed card goes to the
directors; every entry, signature and dispute stays in its history and in the exports.
Signed cards are rated like games at a table."""

import logging
from typing import Any

from fastapi import APIRouter, HTTPException
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.server.events.context import Context, Ctx, Me
from boneyard.server.events.schemas import NoteIn, ReportIn, RowId
from boneyard.server.events.service import ACTIVE, Events, history
from boneyard.server.ratings import store as ratings_store
from boneyard.server.tables.clock import now
from boneyard.store.events import Entrant, Event, EventGame
from boneyard.store.statuses import MatchGameStatus
from boneyard.tournament import TournamentError, event_from_json
from boneyard.tournament.scorecard import ScoreRule

log = logging.getLogger("boneyard.events")


def check_card(ev: Event, body: ReportIn) -> None:
    """400 with the reason in the players' words when the scores cannot end a game."""
    try:
        rule = ScoreRule.for_game(ev.game, ev.options)
    except TournamentError as exc:
        raise HTTPException(400, str(exc)) from None
    problem = rule.problem((body.score_a, body.score_b), body.reason)
    if problem is not None:
        raise HTTPException(400, f"{problem} Check the card, or ask the director for a ruling.")


router = APIRouter()


async def new_card(
    ctx: Context, db: AsyncSession, event_id: str, match_id: str, body: ReportIn, user: Any
) -> tuple[Event, EventGame, Entrant, Entrant]:
    """A card for the match's next game, checked (not added yet)."""
    ev = await ctx.svc.need_running(db, event_id)
    if ev.mode != "otb":
        raise HTTPException(400, "scores are entered only in over-the-board events")
    m = ctx.svc.need_ready(event_from_json(ev.bracket or {}), match_id)
    a = await db.get(Entrant, int(m.a))
    b = await db.get(Entrant, int(m.b))
    assert a is not None and b is not None
    for x in (a, b):
        if not x.checked_in:
            raise HTTPException(400, f"{x.name} has not checked in: the director checks them in")
    waiting = await db.scalar(
        select(func.count(EventGame.id)).where(
            EventGame.event_id == event_id,
            EventGame.match_id == match_id,
            EventGame.status.in_(ACTIVE),
        )
    )
    if waiting:
        raise HTTPException(400, "the last game entered awaits a signature or a ruling")
    check_card(ev, body)
    g = ctx.svc.game_row(
        ev, match_id, await ctx.svc.next_number(db, ev, match_id), "game", a.id, b.id
    )
    g.status, g.reported_by = MatchGameStatus.REPORTED, user.id
    g.score_a, g.score_b, g.reason = body.score_a, body.score_b, body.reason
    g.winner = a.id if body.score_a > body.score_b else b.id
    return ev, g, a, b


@router.post("/api/events/{event_id}/matches/{match_id}/report")
async def report(
    event_id: str, match_id: str, body: ReportIn, user: Me, ctx: Ctx
) -> dict[str, Any]:
    """Enter a game's final score (a player of the match: this signs it for your side);
    the opponent signs too, or disputes."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev, g, a, b = await new_card(ctx, db, event_id, match_id, body, user)
        if user.id not in (a.user_id, b.user_id):
            raise HTTPException(403, "only a player of this match enters its scores")
        sign(g, "a" if user.id == a.user_id else "b", user.id)
        history(g, "entered", user.id, score_a=g.score_a, score_b=g.score_b, reason=g.reason)
        db.add(g)
        other = b if user.id == a.user_id else a
        await ask_to_sign(ctx, db, ev, g, [other.user_id] if other.user_id else [])
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/matches/{match_id}/card")
async def director_card(
    event_id: str, match_id: str, body: ReportIn, user: Me, ctx: Ctx
) -> dict[str, Any]:
    """Type in a paper card (directors; marked as entered by the director). It counts
    once both players have signed it on screen."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.need_event(db, event_id)
        await ctx.need_director(db, ev, user)
        ev, g, a, b = await new_card(ctx, db, event_id, match_id, body, user)
        g.by_director = True
        history(
            g,
            "entered by the director",
            user.id,
            score_a=g.score_a,
            score_b=g.score_b,
            reason=g.reason,
        )
        db.add(g)
        await ask_to_sign(ctx, db, ev, g, [x.user_id for x in (a, b) if x.user_id])
    return await ctx.event_json(event_id, user)


async def ask_to_sign(
    ctx: Context, db: AsyncSession, ev: Event, g: EventGame, people: list[int]
) -> None:
    """Tell ``people`` that card ``g`` waits for their signature."""
    await ctx.notes.add(
        db,
        people,
        "sign",
        f"Sign the card of {g.match_id} game {g.number}: {g.score_a}–{g.score_b}",
        ev.name,
        f"/events/{ev.id}/matches/{g.match_id}",
        ev.id,
    )


async def card_of(
    db: AsyncSession, event_id: str, game_id: int, user: Any
) -> tuple[EventGame, str]:
    """The card awaiting ``user``'s signature, and their side (``a`` or ``b``)."""
    g = await db.get(EventGame, game_id)
    if g is None or g.event_id != event_id:
        raise HTTPException(404, "no such game")
    if g.status != MatchGameStatus.REPORTED:
        raise HTTPException(400, f"that game is {g.status}, not awaiting a signature")
    a = await db.get(Entrant, g.side_a)
    b = await db.get(Entrant, g.side_b)
    side = "a" if a is not None and a.user_id == user.id else None
    side = "b" if b is not None and b.user_id == user.id else side
    if side is None:
        raise HTTPException(403, "only the players of this match sign its cards")
    if getattr(g, f"signed_{side}") is not None:
        raise HTTPException(403, "you have signed this card: your opponent signs next")
    return g, side


async def signed(ctx: Context, event_id: str, game_id: int, user: Any) -> dict[str, Any]:
    rated: EventGame | None = None
    async with ctx.svc.lock(event_id):
        async with ctx.sessions() as db, db.begin():
            ev = await ctx.svc.need_running(db, event_id)
            g, side = await card_of(db, event_id, game_id, user)
            sign(g, side, user.id)
            history(g, "signed", user.id, side=side)
            if g.signed_a is not None and g.signed_b is not None:
                g.status, g.confirmed_by = MatchGameStatus.CONFIRMED, user.id
                await ctx.svc.record(db, ev, event_from_json(ev.bracket or {}), g)
                rated = g if ev.rated else None
        await ctx.svc.advance_locked(event_id)
    if rated is not None:
        await rate_card(ctx, rated, ev)
    return await ctx.event_json(event_id, user)


@router.post("/api/events/{event_id}/games/{game_id}/sign")
async def sign_card(event_id: str, game_id: RowId, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Sign a game's card for your side (PDA rule 11): it counts once both sides signed."""
    return await signed(ctx, event_id, game_id, user)


@router.post("/api/events/{event_id}/games/{game_id}/confirm")
async def confirm(event_id: str, game_id: RowId, user: Me, ctx: Ctx) -> dict[str, Any]:
    """Sign the score the opponent entered (the same as ``/sign``)."""
    return await signed(ctx, event_id, game_id, user)


@router.post("/api/events/{event_id}/games/{game_id}/dispute")
async def dispute(
    event_id: str, game_id: RowId, body: NoteIn, user: Me, ctx: Ctx
) -> dict[str, Any]:
    """Dispute a card instead of signing it: the directors rule (the entry is kept)."""
    async with ctx.svc.lock(event_id), ctx.sessions() as db, db.begin():
        ev = await ctx.svc.need_running(db, event_id)
        g, _side = await card_of(db, event_id, game_id, user)
        g.status, g.note, g.updated_at = (
            MatchGameStatus.DISPUTED,
            body.note or MatchGameStatus.DISPUTED,
            now(),
        )
        history(g, "disputed", user.id, note=body.note)
        Events.action(db, ev, user.id, "dispute", {"game": g.id, "match": g.match_id}, body.note)
        await ctx.svc.notify_directors(
            db, ev, "dispute", f"{g.match_id} game {g.number} is disputed: {body.note}"
        )
    return await ctx.event_json(event_id, user)


async def rate_card(ctx: Context, g: EventGame, ev: Event) -> None:
    """Rate a signed card like a game at a table (two people; bots never play OTB)."""
    try:
        async with ctx.sessions() as db:
            a = await db.get(Entrant, g.side_a)
            b = await db.get(Entrant, g.side_b)
        if a is None or b is None or a.user_id is None or b.user_id is None:
            return
        players = [(f"u:{a.user_id}", a.name), (f"u:{b.user_id}", b.name)]
        winner = 0 if g.winner == a.id else 1
        await ratings_store.rate_result(
            ctx.sessions, ev.game, "2p", players, [g.score_a or 0, g.score_b or 0], winner
        )
    except Exception:
        log.exception("rating the card of game %s failed", g.id)


def sign(g: EventGame, side: str, user_id: int) -> None:
    """Sign card ``g`` for ``side`` (``a`` or ``b``) now."""
    setattr(g, f"signed_{side}", user_id)
    setattr(g, f"signed_{side}_at", now())
    g.updated_at = now()
