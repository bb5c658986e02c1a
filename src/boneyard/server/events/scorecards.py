"""Over-the-board score cards at work: a card entered by a player of the match (it signs for
their side) or typed in by a director, checked against the game's rules; signatures (PDA rule
11: the card counts once both sides signed), disputes, and the rating of a signed card. (The
routes are :mod:`~boneyard.server.events.cards`.)"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from boneyard.server.errors import NotAllowed, NotFound, Refused
from boneyard.server.events.service import ACTIVE, Events, history
from boneyard.server.ratings import store as ratings_store
from boneyard.server.tables.clock import now
from boneyard.store.events import Entrant, Event, EventGame
from boneyard.store.statuses import MatchGameStatus
from boneyard.tournament import TournamentError, event_from_json
from boneyard.tournament.scorecard import ScoreRule

if TYPE_CHECKING:
    from boneyard.server.events.schemas import ReportIn

log = logging.getLogger("boneyard.events")


def check_card(ev: Event, body: ReportIn) -> None:
    """400 with the reason in the players' words when the scores cannot end a game."""
    try:
        rule = ScoreRule.for_game(ev.game, ev.options)
    except TournamentError as exc:
        raise Refused(str(exc)) from None
    problem = rule.problem((body.score_a, body.score_b), body.reason)
    if problem is not None:
        raise Refused(f"{problem} Check the card, or ask the director for a ruling.")


async def new_card(
    svc: Events, db: AsyncSession, event_id: str, match_id: str, body: ReportIn, by: int
) -> tuple[Event, EventGame, Entrant, Entrant]:
    """A card for the match's next game, checked (not added yet)."""
    ev = await svc.need_running(db, event_id)
    if ev.mode != "otb":
        raise Refused("scores are entered only in over-the-board events")
    m = svc.need_ready(event_from_json(ev.bracket or {}), match_id)
    a = await db.get(Entrant, int(m.a))
    b = await db.get(Entrant, int(m.b))
    assert a is not None and b is not None
    for x in (a, b):
        if not x.checked_in:
            raise Refused(f"{x.name} has not checked in: the director checks them in")
    waiting = await db.scalar(
        select(func.count(EventGame.id)).where(
            EventGame.event_id == event_id,
            EventGame.match_id == match_id,
            EventGame.status.in_(ACTIVE),
        )
    )
    if waiting:
        raise Refused("the last game entered awaits a signature or a ruling")
    check_card(ev, body)
    g = svc.game_row(ev, match_id, await svc.next_number(db, ev, match_id), "game", a.id, b.id)
    g.status, g.reported_by = MatchGameStatus.REPORTED, by
    g.score_a, g.score_b, g.reason = body.score_a, body.score_b, body.reason
    g.winner = a.id if body.score_a > body.score_b else b.id
    return ev, g, a, b


async def report(svc: Events, event_id: str, match_id: str, body: ReportIn, by: int) -> None:
    """A player of the match (``by``) enters a game's final score: it signs for their side;
    the opponent is asked to sign."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev, g, a, b = await new_card(svc, db, event_id, match_id, body, by)
        if by not in (a.user_id, b.user_id):
            raise NotAllowed("only a player of this match enters its scores")
        sign(g, "a" if by == a.user_id else "b", by)
        history(g, "entered", by, score_a=g.score_a, score_b=g.score_b, reason=g.reason)
        db.add(g)
        other = b if by == a.user_id else a
        await ask_to_sign(svc, db, ev, g, [other.user_id] if other.user_id else [])


async def enter_paper_card(
    svc: Events, event_id: str, match_id: str, body: ReportIn, by: int
) -> None:
    """A director (``by``) types in a paper card; both players are asked to sign it."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_event(db, event_id)
        await svc.need_director(db, ev, by)
        ev, g, a, b = await new_card(svc, db, event_id, match_id, body, by)
        g.by_director = True
        history(
            g,
            "entered by the director",
            by,
            score_a=g.score_a,
            score_b=g.score_b,
            reason=g.reason,
        )
        db.add(g)
        await ask_to_sign(svc, db, ev, g, [x.user_id for x in (a, b) if x.user_id])


async def ask_to_sign(
    svc: Events, db: AsyncSession, ev: Event, g: EventGame, people: list[int]
) -> None:
    """Tell ``people`` that card ``g`` waits for their signature."""
    await svc.notes.add(
        db,
        people,
        "sign",
        f"Sign the card of {g.match_id} game {g.number}: {g.score_a}–{g.score_b}",
        ev.name,
        f"/events/{ev.id}/matches/{g.match_id}",
        ev.id,
    )


async def card_of(
    db: AsyncSession, event_id: str, game_id: int, user_id: int
) -> tuple[EventGame, str]:
    """The card awaiting ``user_id``'s signature, and their side (``a`` or ``b``)."""
    g = await db.get(EventGame, game_id)
    if g is None or g.event_id != event_id:
        raise NotFound("no such game")
    if g.status != MatchGameStatus.REPORTED:
        raise Refused(f"that game is {g.status}, not awaiting a signature")
    a = await db.get(Entrant, g.side_a)
    b = await db.get(Entrant, g.side_b)
    side = "a" if a is not None and a.user_id == user_id else None
    side = "b" if b is not None and b.user_id == user_id else side
    if side is None:
        raise NotAllowed("only the players of this match sign its cards")
    if getattr(g, f"signed_{side}") is not None:
        raise NotAllowed("you have signed this card: your opponent signs next")
    return g, side


async def sign_card(svc: Events, event_id: str, game_id: int, by: int) -> None:
    """``by`` signs the card for their side; with both signatures it counts (and is rated
    when the event is)."""
    rated: EventGame | None = None
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await svc.need_running(db, event_id)
            g, side = await card_of(db, event_id, game_id, by)
            sign(g, side, by)
            history(g, "signed", by, side=side)
            if g.signed_a is not None and g.signed_b is not None:
                g.status, g.confirmed_by = MatchGameStatus.CONFIRMED, by
                await svc.record(db, ev, event_from_json(ev.bracket or {}), g)
                rated = g if ev.rated else None
        await svc.advance_locked(event_id)
    if rated is not None:
        await rate_card(svc, rated, ev)


async def dispute(svc: Events, event_id: str, game_id: int, note: str, by: int) -> None:
    """``by`` disputes the card instead of signing it: the directors are told (the entry is
    kept)."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_running(db, event_id)
        g, _side = await card_of(db, event_id, game_id, by)
        g.status, g.note, g.updated_at = MatchGameStatus.DISPUTED, note or "disputed", now()
        history(g, "disputed", by, note=note)
        Events.action(db, ev, by, "dispute", {"game": g.id, "match": g.match_id}, note)
        await svc.notify_directors(
            db, ev, "dispute", f"{g.match_id} game {g.number} is disputed: {note}"
        )


async def rate_card(svc: Events, g: EventGame, ev: Event) -> None:
    """Rate a signed card like a game at a table (two people; bots never play OTB)."""
    try:
        async with svc.sessions() as db:
            a = await db.get(Entrant, g.side_a)
            b = await db.get(Entrant, g.side_b)
        if a is None or b is None or a.user_id is None or b.user_id is None:
            return
        players = [(f"u:{a.user_id}", a.name), (f"u:{b.user_id}", b.name)]
        winner = 0 if g.winner == a.id else 1
        await ratings_store.rate_result(
            svc.sessions, ev.game, "2p", players, [g.score_a or 0, g.score_b or 0], winner
        )
    except Exception:
        log.exception("rating the card of game %s failed", g.id)


def sign(g: EventGame, side: str, user_id: int) -> None:
    """Sign card ``g`` for ``side`` (``a`` or ``b``) now."""
    setattr(g, f"signed_{side}", user_id)
    setattr(g, f"signed_{side}_at", now())
    g.updated_at = now()
