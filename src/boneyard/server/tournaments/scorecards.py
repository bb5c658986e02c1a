"""Over-the-board score cards at work: a game entered by a player of the match (it signs for
their side), a whole paper card typed in by a director or scorekeeper, checked against the
game's rules; signatures (PDA rule 11: a game counts once both sides signed — on screen, or on
the paper card the players handed in), disputes, and the rating of a signed card. (The routes
are :mod:`~boneyard.server.tournaments.cards`.)

A paper card "signed on paper" counts at once as signed by both, is rated, and says it was
entered from the paper card by whom; without that mark (or in an event whose ``signatures``
setting is ``screen``) the director's entry waits for the players' signatures on screen.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from boneyard.server.errors import NotAllowed, NotFound, Refused
from boneyard.server.ratings import store as ratings_store
from boneyard.server.tables.clock import now
from boneyard.server.tournaments.rulings import penalties_to_card
from boneyard.server.tournaments.service import ACTIVE, Tournaments, history, rating_key
from boneyard.server.tournaments.settings import setting
from boneyard.store import tournament_games, unit
from boneyard.store.db import AsyncSession
from boneyard.store.statuses import MatchGameStatus
from boneyard.store.tournaments import Entrant, TournamentGame, TournamentRow
from boneyard.tournament import Tournament, TournamentError, tournament_from_json
from boneyard.tournament.scorecard import ScoreRule

if TYPE_CHECKING:
    from boneyard.server.tournaments.schemas import CardGameIn, CardIn, ReportIn

log = logging.getLogger("boneyard.tournaments")

WAITING = {
    "reported": "waits for the players' signatures on screen",
    "disputed": "is disputed",
    "timeout": "waits for a ruling on its time-out",
    "playing": "is in play",
}


def check_card(ev: TournamentRow, body: ReportIn, director: bool, game: int | None = None) -> None:
    """400 when the scores cannot end a game, with the reason in the words of who typed it
    (a player is told to ask the director; a director, how to override)."""
    try:
        rule = ScoreRule.for_game(ev.game, ev.options)
    except TournamentError as exc:
        raise Refused(str(exc)) from None
    problem = rule.problem((body.score_a, body.score_b), body.reason)
    if problem is None:
        return
    where = f"Game {game}: " if game is not None else ""
    if director:
        raise Refused(
            f"{where}{problem} Check the card; to record a result the rules do not allow, rule "
            "on the game (Rulings)."
        )
    raise Refused(f"{where}{problem} Check the card, or ask the director for a ruling.")


async def match_sides(
    svc: Tournaments, db: AsyncSession, event_id: str, match_id: str
) -> tuple[TournamentRow, Tournament, Entrant, Entrant]:
    """The event in play (over the board), its tournament and the two sides of a ready match,
    which has no game waiting for a signature or a ruling."""
    ev = await svc.need_running(db, event_id)
    if ev.mode != "otb":
        raise Refused("scores are entered only in over-the-board tournaments")
    t = tournament_from_json(ev.bracket or {})
    m = svc.need_ready(t, match_id)
    a = await unit.get(db, Entrant, int(m.a))
    b = await unit.get(db, Entrant, int(m.b))
    assert a is not None and b is not None
    waiting = await tournament_games.match_game_in(db, event_id, match_id, ACTIVE)
    if waiting is not None:
        state = WAITING.get(waiting.status, str(waiting.status))
        raise Refused(
            f"game {waiting.number} of {match_id} ({waiting.score_a}–{waiting.score_b}) {state}: "
            "it is settled first (signed, or ruled on in Rulings)"
        )
    return ev, t, a, b


def game_row(svc: Tournaments, ev: TournamentRow, match_id: str, number: int, a: Entrant,
             b: Entrant, body: ReportIn, by: int) -> TournamentGame:  # fmt: skip
    """A card's game row (status ``reported``) with its scores and the winner they say."""
    g = svc.game_row(ev, match_id, number, "game", a.id, b.id)
    g.status, g.reported_by = MatchGameStatus.REPORTED, by
    g.score_a, g.score_b, g.reason = body.score_a, body.score_b, body.reason
    g.winner = a.id if body.score_a > body.score_b else b.id
    return g


async def report(svc: Tournaments, event_id: str, match_id: str, body: ReportIn, by: int) -> None:
    """A player of the match (``by``) enters a game's final score: it signs for their side;
    the opponent is asked to sign."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev, _t, a, b = await match_sides(svc, db, event_id, match_id)
        if by not in (a.user_id, b.user_id):
            raise NotAllowed("only a player of this match enters its scores")
        for x in (a, b):
            if not x.checked_in:
                raise Refused(f"{x.name} has not checked in: the director checks them in")
        check_card(ev, body, director=False)
        g = game_row(svc, ev, match_id, await svc.next_number(db, ev, match_id), a, b, body, by)
        sign(g, "a" if by == a.user_id else "b", by)
        await penalties_to_card(db, ev, g)
        history(g, "entered", by, score_a=g.score_a, score_b=g.score_b, reason=g.reason)
        unit.add(db, g)
        other = b if by == a.user_id else a
        await ask_to_sign(svc, db, ev, g, [other.user_id] if other.user_id else [])


async def enter_card(svc: Tournaments, event_id: str, match_id: str, body: CardIn, by: int) -> None:
    """A director or scorekeeper (``by``) types in a match's paper card: with ``paper`` (both
    players signed it on paper) every game counts at once and is rated; without, its one game
    waits for the players' signatures on screen. Checked whole: nothing is entered when one
    game is refused."""
    rated: list[TournamentGame] = []
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await svc.need_event(db, event_id)
            await svc.need_scorekeeper(db, ev, by)
            ev, t, a, b = await match_sides(svc, db, event_id, match_id)
            if body.paper and setting(ev, "signatures") == "screen":
                raise Refused(
                    "this event's players sign their cards on screen (Settings: signatures): "
                    "untick “signed on paper”"
                )
            await arrived(db, ev, (a, b), by)
            if not body.paper:
                await for_signing(svc, db, ev, match_id, a, b, body, by)
                return
            rows = await paper_games(svc, db, ev, t, match_id, a, b, body.games, by)
            rated = rows if ev.rated else []
        await svc.advance_locked(event_id)
    for g in rated:
        await rate_card(svc, g, ev)


async def arrived(db: AsyncSession, ev: TournamentRow, sides: Sequence[Entrant], by: int) -> None:
    """A card says both played: a side not checked in is checked in (in the log)."""
    for x in sides:
        if not x.checked_in:
            x.checked_in = True
            Tournaments.action(db, ev, by, "checkin", {"entrant": x.id}, "played: card entered")


async def for_signing(
    svc: Tournaments,
    db: AsyncSession,
    ev: TournamentRow,
    match_id: str,
    a: Entrant,
    b: Entrant,
    body: CardIn,
    by: int,
) -> None:
    """One game typed in by the director, for both players to sign on screen."""
    if len(body.games) != 1:
        raise Refused("a card for the players to sign on screen holds one game at a time")
    for x in (a, b):
        if x.user_id is None:
            raise Refused(
                f"{x.name} has no account to sign with on screen: tick “signed on paper” once "
                "both players signed the paper card"
            )
    check_card(ev, body.games[0], director=True)
    number = await svc.next_number(db, ev, match_id)
    g = game_row(svc, ev, match_id, number, a, b, body.games[0], by)
    g.by_director = True
    await penalties_to_card(db, ev, g)
    history(g, "entered by the director", by, score_a=g.score_a, score_b=g.score_b,
            reason=g.reason)  # fmt: skip
    unit.add(db, g)
    await ask_to_sign(svc, db, ev, g, [x.user_id for x in (a, b) if x.user_id])


async def paper_games(
    svc: Tournaments,
    db: AsyncSession,
    ev: TournamentRow,
    t: Tournament,
    match_id: str,
    a: Entrant,
    b: Entrant,
    games: Sequence[CardGameIn],
    by: int,
) -> list[TournamentGame]:
    """The games of a paper card, each checked and recorded in order (signed on paper)."""
    rows = []
    for k, body in enumerate(games):
        m = t.match(match_id)
        number = await svc.next_number(db, ev, match_id)
        if m.is_over:
            won = max(m.wins)
            raise Refused(
                f"game {number}: {a.name if m.winner == m.a else b.name} had won the match "
                f"{won}–{min(m.wins)} after game {number - 1} (best of {m.best_of}): the card "
                f"has {len(games) - k} game(s) too many"
            )
        check_card(ev, body, director=True, game=number)
        g = game_row(svc, ev, match_id, number, a, b, body, by)
        if body.winner is not None and body.winner != g.winner:
            said = a.name if body.winner == a.id else b.name if body.winner == b.id else "?"
            raise Refused(
                f"game {number}: the scores {g.score_a}–{g.score_b} say "
                f"{a.name if g.winner == a.id else b.name} won, not {said}: check the card"
            )
        g.status, g.paper, g.by_director, g.confirmed_by = (
            MatchGameStatus.CONFIRMED, True, True, by,
        )  # fmt: skip
        unit.add(db, g)
        await unit.flush(db)
        await penalties_to_card(db, ev, g)
        history(g, "entered from the paper card", by, score_a=g.score_a, score_b=g.score_b,
                reason=g.reason, signed="paper")  # fmt: skip
        t = await svc.record(db, ev, t, g)
        rows.append(g)
    return rows


async def ask_to_sign(
    svc: Tournaments, db: AsyncSession, ev: TournamentRow, g: TournamentGame, people: list[int]
) -> None:
    """Tell ``people`` that card ``g`` waits for their signature."""
    await svc.notes.add(
        db,
        people,
        "sign",
        f"Sign the card of {g.match_id} game {g.number}: {g.score_a}–{g.score_b}",
        ev.name,
        f"/tournaments/{ev.id}/matches/{g.match_id}",
        ev.id,
    )


async def card_of(
    db: AsyncSession, event_id: str, game_id: int, user_id: int
) -> tuple[TournamentGame, str]:
    """The card awaiting ``user_id``'s signature, and their side (``a`` or ``b``)."""
    g = await unit.get(db, TournamentGame, game_id)
    if g is None or g.event_id != event_id:
        raise NotFound("no such game")
    if g.status != MatchGameStatus.REPORTED:
        raise Refused(f"that game is {g.status}, not awaiting a signature")
    a = await unit.get(db, Entrant, g.side_a)
    b = await unit.get(db, Entrant, g.side_b)
    side = "a" if a is not None and a.user_id == user_id else None
    side = "b" if b is not None and b.user_id == user_id else side
    if side is None:
        raise NotAllowed("only the players of this match sign its cards")
    if getattr(g, f"signed_{side}") is not None:
        raise NotAllowed("you have signed this card: your opponent signs next")
    return g, side


async def sign_card(svc: Tournaments, event_id: str, game_id: int, by: int) -> None:
    """``by`` signs the card for their side; with both signatures it counts (and is rated
    when the event is)."""
    rated: TournamentGame | None = None
    async with svc.lock(event_id):
        async with svc.sessions() as db, db.begin():
            ev = await svc.need_running(db, event_id)
            g, side = await card_of(db, event_id, game_id, by)
            sign(g, side, by)
            history(g, "signed", by, side=side)
            if g.signed_a is not None and g.signed_b is not None:
                g.status, g.confirmed_by = MatchGameStatus.CONFIRMED, by
                await svc.record(db, ev, tournament_from_json(ev.bracket or {}), g)
                rated = g if ev.rated else None
        await svc.advance_locked(event_id)
    if rated is not None:
        await rate_card(svc, rated, ev)


async def dispute(svc: Tournaments, event_id: str, game_id: int, note: str, by: int) -> None:
    """``by`` disputes the card instead of signing it: the directors are told (the entry is
    kept)."""
    async with svc.lock(event_id), svc.sessions() as db, db.begin():
        ev = await svc.need_running(db, event_id)
        g, _side = await card_of(db, event_id, game_id, by)
        g.status, g.note, g.updated_at = MatchGameStatus.DISPUTED, note or "disputed", now()
        history(g, "disputed", by, note=note)
        Tournaments.action(db, ev, by, "dispute", {"game": g.id, "match": g.match_id}, note)
        await svc.notify_directors(
            db, ev, "dispute", f"{g.match_id} game {g.number} is disputed: {note}"
        )


def walk_in_key(entrant_id: int) -> str:
    """The rating key of a walk-in (no account) until the entry is claimed."""
    return f"w:{entrant_id}"


def player_key(e: Entrant) -> str | None:
    """Whose rating a card changes: the account's, or the walk-in's; bots never."""
    return None if e.bot else rating_key(e)


async def rate_card(svc: Tournaments, g: TournamentGame, ev: TournamentRow) -> None:
    """Rate a signed card like a game at a table (people and walk-ins; bots never play
    over the board)."""
    try:
        async with svc.sessions() as db:
            a = await unit.get(db, Entrant, g.side_a)
            b = await unit.get(db, Entrant, g.side_b)
        keys = [player_key(x) if x is not None else None for x in (a, b)]
        if a is None or b is None or keys[0] is None or keys[1] is None:
            return
        players = [(keys[0], a.name), (keys[1], b.name)]
        winner = 0 if g.winner == a.id else 1
        await ratings_store.rate_result(
            svc.sessions, ev.game, "2p", players, [g.score_a or 0, g.score_b or 0], winner
        )
    except Exception:
        log.exception("rating the card of game %s failed", g.id)


async def rated_cards(db: AsyncSession, entrant_id: int) -> Sequence[TournamentGame]:
    """The entrant's cards that were rated (signed by both, on screen or paper), in order."""
    return await tournament_games.rated_cards(db, entrant_id)


def sign(g: TournamentGame, side: str, user_id: int) -> None:
    """Sign card ``g`` for ``side`` (``a`` or ``b``) now."""
    setattr(g, f"signed_{side}", user_id)
    setattr(g, f"signed_{side}_at", now())
    g.updated_at = now()
