"""Tournament events on the site: online brackets played at live tables, and over-the-board
events with score cards (docs/events.md).

The pairing logic is the pure :mod:`boneyard.tournament` package; this module keeps its JSON in
the event row and feeds it the results: a table's game end (the ``on_game_over`` hook of the
:class:`~boneyard.server.tables.TableManager`), a confirmed score card, a director's ruling or a
forfeit. After each result :meth:`Events.advance` forfeits matches of absent entrants and (online)
creates the next table of every match still undecided, until nothing changes.

Rules (documented in docs/events.md):

* No-show: an entrant not checked in when the director starts the event stays in the draw, but
  loses each of its matches by forfeit (two absent entrants: the lower seed forfeits).
* Withdrawal after the start: the same, from the withdrawal on (a game in play is void).
* Abandonment: when a person is to act at an event table and the table has not moved for
  ``abandon_minutes``, that person forfeits the match (checked whenever the event is looked at).
* Pause: no new table is created while paused (games in play finish); resume creates them.
* Rounds advance as soon as the tournament value pairs them (a bracket match as soon as both
  feeders are decided; a Swiss round once the previous one is over).
"""

import asyncio
import contextlib
import csv
import io
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, Field, model_validator
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from boneyard.core.errors import BoneyardError
from boneyard.games.registry import get_spec
from boneyard.server import ratings_store, validation
from boneyard.server.accounts import Accounts
from boneyard.server.sitebots import check_site_bot
from boneyard.server.tables import LiveTable, TableManager, now
from boneyard.store.events import Entrant, Event, EventAction, EventGame, EventOffer
from boneyard.store.models import GameTable, LogEntry, User
from boneyard.tournament import Event as Tournament
from boneyard.tournament import (
    RoundRobin,
    Schedule,
    SingleElimination,
    Swiss,
    TournamentError,
    event_from_json,
    seed_by_rating,
    seed_random,
)

log = logging.getLogger("boneyard.events")

WEB = Path(__file__).resolve().parent.parent / "web"
FINAL = ("over", "confirmed", "ruled")  # statuses of a game row whose result counts
ACTIVE = ("playing", "reported", "disputed")  # a game under way (or awaiting its signature)
ABSENT = ("no_show", "withdrawn")
SWEEP_EVERY = 10.0  # seconds between abandonment checks of one event
MAX_ID = 2**31 - 1
BOGUS_SCORES = (150, 100)  # PDA 8c-e: beneficiary 150, bogus player 100

RowId = Annotated[int, PathParam(ge=0, le=2**31 - 1)]
UserDep = Callable[..., Awaitable[Any]]


class Clean(BaseModel):
    """A request body whose texts the database can store (no NUL, no lone surrogate)."""

    @model_validator(mode="after")
    def _storable(self) -> "Clean":
        for value in self.__dict__.values():
            texts = [value] if isinstance(value, str) else []
            if isinstance(value, dict):
                texts = [str(k) for k in value] + [v for v in value.values() if isinstance(v, str)]
            for text in texts:
                if not validation.storable(text):
                    raise ValueError("a text contains a character that cannot be stored")
        return self


class EventIn(Clean):
    """A new event."""

    name: str = Field(min_length=1, max_length=80)
    game: str = Field(default="highfive", max_length=20)
    format: Literal["single_elimination", "swiss", "round_robin"] = "single_elimination"
    mode: Literal["online", "otb"] = "online"
    preset: str | None = Field(default=None, max_length=20)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=30)
    schedule: str | None = Field(default=None, max_length=40)
    cap: int = Field(default=64, ge=2, le=256)
    starts_at: datetime | None = None
    rounds: int | None = Field(default=None, ge=1, le=20)
    double: bool = False
    seeding: Literal["rating", "random"] = "rating"
    rated: bool = True
    abandon_minutes: float = Field(default=10.0, gt=0, le=1440)
    max_tables: int | None = Field(default=None, ge=1, le=512)


class BotsIn(Clean):
    """Bot entrants added by the director."""

    bot: str = Field(default="greedy", max_length=20)
    count: int = Field(default=1, ge=1, le=256)


class NoteIn(Clean):
    """A note for the event log."""

    note: str = Field(default="", max_length=500)


class ForfeitIn(NoteIn):
    """The entrant who forfeits a match."""

    loser: int = Field(ge=0, le=MAX_ID)


class ReplaceIn(NoteIn):
    """Who takes an entrant's place: a registered person (``username``) or a ``bot``."""

    username: str | None = Field(default=None, max_length=30)
    bot: str | None = Field(default=None, max_length=20)


class ReportIn(BaseModel):
    """A game's final score as entered over the board (side a, side b of the match)."""

    score_a: int = Field(ge=0, le=10_000)
    score_b: int = Field(ge=0, le=10_000)


class RulingIn(NoteIn):
    """A director's ruling on a game.

    ``kind="bogus"``: ``offender`` committed PDA bogus play; the official score is 150 to the
    opponent, 100 to the offender. ``kind="score"``: the given scores stand (``winner`` breaks a
    tie). ``game_id``: the game ruled on (a disputed card, a table in play); none: a new game.
    """

    kind: Literal["score", "bogus"] = "score"
    game_id: int | None = Field(default=None, ge=0, le=MAX_ID)
    offender: int | None = Field(default=None, ge=0, le=MAX_ID)
    winner: int | None = Field(default=None, ge=0, le=MAX_ID)
    score_a: int = Field(default=0, ge=0, le=10_000)
    score_b: int = Field(default=0, ge=0, le=10_000)


def _entrant_key(e: Entrant) -> str:
    return str(e.id)


def _round_of(match_id: str) -> int:
    """The round of a match id like ``R2M5``.

    >>> _round_of("R12M3")
    12
    """
    return int(match_id[1:].split("M", 1)[0])


class Events:
    """The event service: database rows, the tournament value and the live tables."""

    def __init__(self, tables: TableManager, sessions: async_sessionmaker[AsyncSession]):
        self.tables = tables
        self.sessions = sessions
        self.locks: dict[str, asyncio.Lock] = {}
        self.swept: dict[str, float] = {}

    def lock(self, event_id: str) -> asyncio.Lock:
        """The lock that serialises every change of one event."""
        return self.locks.setdefault(event_id, asyncio.Lock())

    # -- the tournament value ----------------------------------------------------------------

    @staticmethod
    def create_tournament(ev: Event, draw: Sequence[str]) -> Tournament:
        """A fresh tournament of ``ev``'s format over ``draw`` (seed order)."""
        schedule = Schedule.parse(ev.schedule)
        if ev.format == "swiss":
            return Swiss.create(draw, ev.settings.get("rounds"), schedule)
        if ev.format == "round_robin":
            return RoundRobin.create(draw, schedule, bool(ev.settings.get("double")))
        return SingleElimination.create(draw, schedule)

    async def rebuild(self, db: AsyncSession, ev: Event) -> Tournament:
        """The tournament replayed from the draw and every final result, in order."""
        t = self.create_tournament(ev, list(ev.settings["draw"]))
        rows = (
            await db.scalars(
                select(EventGame)
                .where(EventGame.event_id == ev.id, EventGame.final_seq.is_not(None))
                .order_by(EventGame.final_seq)
            )
        ).all()
        for g in rows:
            t = self._apply(t, g)
        return t

    @staticmethod
    def _apply(t: Tournament, g: EventGame) -> Tournament:
        if g.kind == "forfeit":
            loser = g.side_b if g.winner == g.side_a else g.side_a
            return t.record_forfeit(g.match_id, str(loser))
        return t.record_game(
            g.match_id, str(g.winner), (g.score_a or 0, g.score_b or 0), g.reason or "target"
        )

    async def _final_seq(self, db: AsyncSession, event_id: str) -> int:
        top = await db.scalar(
            select(func.max(EventGame.final_seq)).where(EventGame.event_id == event_id)
        )
        return int(top or 0) + 1

    async def _record(self, db: AsyncSession, ev: Event, t: Tournament, g: EventGame) -> Tournament:
        """Make ``g`` final (next ``final_seq``) and feed it to the tournament."""
        g.final_seq = await self._final_seq(db, ev.id)
        g.updated_at = now()
        try:
            t = self._apply(t, g)
        except TournamentError as exc:
            raise HTTPException(400, str(exc)) from None
        ev.bracket = t.to_json()
        if t.is_over and ev.status in ("running", "paused"):
            ev.status = "finished"
            ev.finished_at = now()
        await db.flush()
        return t

    # -- advancing ---------------------------------------------------------------------------

    async def advance(self, event_id: str) -> None:
        """Forfeit absent entrants' matches and start the next tables (takes the lock)."""
        async with self.lock(event_id):
            await self._advance(event_id)

    async def _advance(self, event_id: str) -> None:
        """:meth:`advance` with the lock held."""
        for _ in range(10_000):
            started: list[str] = []
            changed = False
            async with self.sessions() as db, db.begin():
                ev = await db.get(Event, event_id)
                if ev is None or ev.bracket is None or ev.status not in ("running", "paused"):
                    return
                t = event_from_json(ev.bracket)
                entrants = {
                    e.id: e
                    for e in (
                        await db.scalars(select(Entrant).where(Entrant.event_id == event_id))
                    ).all()
                }
                active = (
                    await db.scalars(
                        select(EventGame).where(
                            EventGame.event_id == event_id, EventGame.status.in_(ACTIVE)
                        )
                    )
                ).all()
                busy = {g.match_id for g in active}
                room = ev.settings.get("max_tables") or 1_000_000
                live = sum(1 for g in active if g.status == "playing")
                for m in t.pending():
                    assert m.a is not None and m.b is not None
                    a, b = entrants[int(m.a)], entrants[int(m.b)]
                    absent = [x for x in (a, b) if x.status in ABSENT]
                    if absent:
                        loser = max(absent, key=lambda x: t.seed_of(str(x.id)))
                        for g in active:
                            if g.match_id == m.id:
                                g.status, g.note = "void", f"{loser.name} is {loser.status}"
                        row = self._game_row(ev, m.id, 0, "forfeit", a.id, b.id)
                        row.status = "ruled"
                        row.winner = b.id if loser is a else a.id
                        row.reason = "forfeit"
                        row.note = f"{loser.name}: {loser.status.replace('_', '-')}"
                        db.add(row)
                        t = await self._record(db, ev, t, row)
                        changed = True
                        break
                    if ev.mode != "online" or ev.status != "running" or m.id in busy:
                        continue
                    if live >= room:
                        continue
                    live += 1
                    started.append(await self._new_table(db, ev, m.id, a, b))
            for tid in started:
                table = await self.tables.get(tid)
                if table is not None:
                    try:
                        await self.tables.start(table)
                    except BoneyardError:
                        log.exception("event %s: table %s did not start", event_id, tid)
            if not changed:
                return

    def _game_row(
        self, ev: Event, match_id: str, number: int, kind: str, a: int, b: int
    ) -> EventGame:
        return EventGame(
            event_id=ev.id,
            match_id=match_id,
            number=number,
            kind=kind,
            status="playing",
            side_a=a,
            side_b=b,
            seat_a=0,
            created_at=now(),
            updated_at=now(),
        )

    async def _next_number(self, db: AsyncSession, ev: Event, match_id: str) -> int:
        count = await db.scalar(
            select(func.count(EventGame.id)).where(
                EventGame.event_id == ev.id,
                EventGame.match_id == match_id,
                EventGame.kind == "game",
            )
        )
        return int(count or 0) + 1

    async def _new_table(
        self, db: AsyncSession, ev: Event, match_id: str, a: Entrant, b: Entrant
    ) -> str:
        """The table of the match's next game: seats are the two entrants (alternating)."""
        number = await self._next_number(db, ev, match_id)
        seat_a = 0 if number % 2 == 1 else 1
        seats: list[dict[str, Any]] = [{}, {}]
        seats[seat_a] = seat_of(a)
        seats[1 - seat_a] = seat_of(b)
        tid = secrets.token_hex(8)
        db.add(
            GameTable(
                id=tid,
                game=ev.game,
                options=dict(ev.options),
                seats=seats,
                status="open",
                created_by=ev.director_id,
                created_at=now(),
                settings={"event": ev.id, "match": match_id, "game": number},
            )
        )
        await db.flush()
        row = self._game_row(ev, match_id, number, "game", a.id, b.id)
        row.table_id, row.seat_a = tid, seat_a
        db.add(row)
        return tid

    async def on_game_over(self, table: LiveTable) -> None:
        """The table hook: an event game ended; record it and advance the event."""
        async with self.sessions() as db:
            g = await db.scalar(
                select(EventGame).where(
                    EventGame.table_id == table.id, EventGame.status == "playing"
                )
            )
        if g is None:
            return
        async with self.lock(g.event_id):
            async with self.sessions() as db, db.begin():
                g2 = await db.get(EventGame, g.id)
                ev = await db.get(Event, g.event_id)
                st = table.state
                result = st.result() if st is not None else None
                if g2 is None or ev is None or g2.status != "playing" or result is None:
                    return
                sa, sb = result.scores[g2.seat_a], result.scores[1 - g2.seat_a]
                g2.score_a, g2.score_b = sa, sb
                if result.winner is None:
                    g2.status, g2.note = "void", "no winner: the game is replayed"
                    g2.updated_at = now()
                else:
                    g2.status = "over"
                    g2.winner = g2.side_a if result.winner == g2.seat_a else g2.side_b
                    g2.reason = "bogus" if result.reason == "bogus" else "target"
                    await self._record(db, ev, event_from_json(ev.bracket or {}), g2)
            await self._advance(g.event_id)

    async def sweep(self, event_id: str, force: bool = False) -> None:
        """Forfeit matches abandoned by a person (no move for ``abandon_minutes``)."""
        t0 = time.monotonic()
        if len(event_id) > 32 or not validation.storable(event_id):
            return
        if not force and t0 - self.swept.get(event_id, -1e9) < SWEEP_EVERY:
            return
        self.swept[event_id] = t0
        async with self.sessions() as db:
            ev = await db.get(Event, event_id)
            if ev is None or ev.status != "running" or ev.mode != "online":
                return
            limit = float(ev.settings.get("abandon_minutes", 10.0)) * 60
            rows = (
                await db.scalars(
                    select(EventGame).where(
                        EventGame.event_id == event_id, EventGame.status == "playing"
                    )
                )
            ).all()
            stale: list[tuple[EventGame, int]] = []
            ended: list[LiveTable] = []
            for g in rows:
                table = await self.tables.get(g.table_id) if g.table_id else None
                st = table.state if table is not None else None
                if table is not None and st is not None and st.is_over:
                    ended.append(table)  # its hook was lost (a restart): record it now
                    continue
                if table is not None and st is not None and st.awaiting_deal:
                    await self.tables.deal_awaited(table)
                    continue
                if table is None or st is None or st.current_seat is None:
                    continue
                self.tables.schedule_bots(table)  # a bot stopped by a database hiccup goes on
                seat = table.seats[st.current_seat]
                if seat.get("kind") != "person":
                    continue
                last = await db.scalar(
                    select(func.max(LogEntry.created_at)).where(LogEntry.table_id == table.id)
                )
                if last is None:
                    continue
                if last.tzinfo is None:
                    last = last.replace(tzinfo=now().tzinfo)
                if (now() - last).total_seconds() >= limit:
                    who = g.side_a if st.current_seat == g.seat_a else g.side_b
                    assert who is not None
                    stale.append((g, who))
        for table in ended:
            await self.on_game_over(table)
        for g, who in stale:
            minutes = ev.settings.get("abandon_minutes", 10.0)
            with contextlib.suppress(HTTPException):  # decided meanwhile
                await self.forfeit(
                    event_id, g.match_id, who, f"abandoned: no move for {minutes:g} minutes", None
                )

    # -- actions -----------------------------------------------------------------------------

    async def forfeit(
        self, event_id: str, match_id: str, loser: int, note: str, user_id: int | None
    ) -> None:
        """``loser`` forfeits the match (a game in play is void)."""
        async with self.lock(event_id):
            async with self.sessions() as db, db.begin():
                ev = await self.need_running(db, event_id)
                t = event_from_json(ev.bracket or {})
                m = self.need_ready(t, match_id)
                if str(loser) not in (m.a, m.b):
                    raise HTTPException(400, "that entrant does not play this match")
                a, b = int(m.a or 0), int(m.b or 0)
                await self._void_active(db, ev, match_id, f"forfeit: {note}".strip())
                row = self._game_row(ev, match_id, 0, "forfeit", a, b)
                row.status, row.reason, row.note = "ruled", "forfeit", note or None
                row.winner = b if loser == a else a
                db.add(row)
                await self._record(db, ev, t, row)
                self.action(db, ev, user_id, "forfeit", {"match": match_id, "loser": loser}, note)
            await self._advance(event_id)

    async def _void_active(self, db: AsyncSession, ev: Event, match_id: str, note: str) -> None:
        rows = (
            await db.scalars(
                select(EventGame).where(
                    EventGame.event_id == ev.id,
                    EventGame.match_id == match_id,
                    EventGame.status.in_(ACTIVE),
                )
            )
        ).all()
        for g in rows:
            g.status, g.note, g.updated_at = "void", note[:500], now()

    @staticmethod
    def action(
        db: AsyncSession,
        ev: Event,
        user_id: int | None,
        kind: str,
        payload: dict[str, Any],
        note: str | None,
    ) -> None:
        """Add an entry to the event's log."""
        db.add(
            EventAction(
                event_id=ev.id,
                user_id=user_id,
                kind=kind,
                payload=payload,
                note=note or None,
                created_at=now(),
            )
        )

    @staticmethod
    async def need_running(db: AsyncSession, event_id: str) -> Event:
        """The event, which must have started and not finished."""
        ev = await db.get(Event, event_id)
        if ev is None:
            raise HTTPException(404, "no such event")
        if ev.status not in ("running", "paused") or ev.bracket is None:
            raise HTTPException(400, f"the event is {ev.status}, not in play")
        return ev

    @staticmethod
    def need_ready(t: Tournament, match_id: str) -> Any:
        """The match, which must have both sides and be undecided."""
        try:
            m = t.match(match_id)
        except (TournamentError, KeyError):
            raise HTTPException(404, "no such match") from None
        if m.is_over:
            raise HTTPException(400, "this match is already decided (reopen a game first)")
        if not m.is_ready:
            raise HTTPException(400, "this match waits for its players")
        return m


def seat_of(e: Entrant) -> dict[str, Any]:
    """The table seat of an entrant."""
    if e.bot:
        return {"kind": "bot", "bot": e.bot, "name": e.name}
    return {"kind": "person", "user_id": e.user_id, "name": e.name}


def router(
    tables: TableManager,
    sessions: async_sessionmaker[AsyncSession],
    accounts: Accounts,
    errors: dict[int | str, dict[str, Any]],
) -> APIRouter:
    """The event routes (API and pages); registers the game-over hooks on ``tables``."""
    svc = Events(tables, sessions)
    api = APIRouter()
    current_user: UserDep = accounts.current_user
    cfg = accounts.settings

    async def rate(table: LiveTable) -> None:
        try:
            async with sessions() as db:
                rated = await db.scalar(
                    select(Event.rated)
                    .join(EventGame, EventGame.event_id == Event.id)
                    .where(EventGame.table_id == table.id)
                )
            if rated is False:  # a table of an unrated event
                return
            await ratings_store.rate_table(sessions, table, cfg.rate_bot_games)
        except Exception:
            log.exception("rating table %s failed", table.id)

    async def hook(table: LiveTable) -> None:
        try:
            await svc.on_game_over(table)
        except Exception:
            log.exception("event hook of table %s failed", table.id)

    tables.on_game_over.extend([hook, rate])

    async def need_user(me: Annotated[Any, Depends(current_user)]) -> Any:
        if me is None:
            raise HTTPException(401, "sign in or play as a guest first")
        return me

    User_ = Annotated[Any, Depends(need_user)]
    MaybeUser = Annotated[Any, Depends(current_user)]

    async def need_event(db: AsyncSession, event_id: str) -> Event:
        ok = len(event_id) <= 32 and validation.storable(event_id)
        ev = await db.get(Event, event_id) if ok else None
        if ev is None:
            raise HTTPException(404, "no such event")
        return ev

    def need_director(ev: Event, user: Any) -> None:
        if ev.director_id != user.id:
            raise HTTPException(403, "only the event's director may do that")

    # -- events ------------------------------------------------------------------------------

    @api.post("/api/events", responses=errors)
    async def create_event(body: EventIn, user: User_) -> dict[str, Any]:
        """Create an event (you are its director; signed-in accounts only, a few at a time)."""
        if user.is_guest:
            raise HTTPException(403, "sign up to run an event (guests cannot)")
        await accounts.limits.check("events", str(user.id), "too many new events")
        async with sessions() as db:
            running = await db.scalar(
                select(func.count())
                .select_from(Event)
                .where(
                    Event.director_id == user.id,
                    Event.status.in_(("registration", "running", "paused")),
                )
            )
        if (running or 0) >= cfg.events_per_person:
            tables.metrics.refused.labels("events").inc()
            raise HTTPException(
                429,
                f"you already run {running} events (at most {cfg.events_per_person} at once): "
                "finish one first",
            )
        try:
            spec = get_spec(body.game)
        except BoneyardError as exc:
            raise HTTPException(400, str(exc)) from None
        if not spec.min_players <= 2 <= spec.max_players:
            raise HTTPException(400, f"{spec.title} is not a two-player game")
        options = dict(body.options)
        if body.preset:
            options["preset"] = body.preset
        try:
            spec.new_game(2, options)
        except BoneyardError as exc:
            raise HTTPException(400, str(exc)) from None
        schedule = body.schedule or (
            "pda"
            if body.preset == "pda" and body.format == "single_elimination"
            else ("bo1" if body.format != "single_elimination" else "bo3")
        )
        try:
            Schedule.parse(schedule)
        except (TournamentError, ValueError) as exc:
            raise HTTPException(400, str(exc)) from None
        eid = secrets.token_hex(6)
        async with sessions() as db, db.begin():
            ev = Event(
                id=eid,
                name=body.name.strip(),
                game=body.game,
                format=body.format,
                mode=body.mode,
                options=options,
                schedule=schedule,
                settings={
                    "rounds": body.rounds,
                    "double": body.double,
                    "seeding": body.seeding,
                    "abandon_minutes": body.abandon_minutes,
                    "max_tables": body.max_tables,
                },
                cap=body.cap,
                starts_at=(
                    body.starts_at.replace(tzinfo=UTC)
                    if body.starts_at is not None and body.starts_at.tzinfo is None
                    else body.starts_at
                ),
                status="registration",
                director_id=user.id,
                rated=body.rated,
                created_at=now(),
            )
            db.add(ev)
            await db.flush()
            Events.action(db, ev, user.id, "create", {"name": ev.name}, None)
        return await event_json(eid, user)

    @api.get("/api/events")
    async def list_events() -> dict[str, Any]:
        """Every event, newest first, with its entrant count."""
        async with sessions() as db:
            rows = (
                await db.execute(
                    select(Event, User.display_name)
                    .join(User, User.id == Event.director_id)
                    .order_by(Event.created_at.desc())
                    .limit(200)
                )
            ).all()
            counts = dict(
                (
                    await db.execute(
                        select(Entrant.event_id, func.count(Entrant.id)).group_by(Entrant.event_id)
                    )
                ).all()
            )
        return {
            "events": [
                {
                    "id": e.id,
                    "name": e.name,
                    "game": e.game,
                    "format": e.format,
                    "mode": e.mode,
                    "schedule": e.schedule,
                    "status": e.status,
                    "cap": e.cap,
                    "entrants": int(counts.get(e.id, 0)),
                    "starts_at": e.starts_at.isoformat() if e.starts_at else None,
                    "director": director,
                }
                for e, director in rows
            ]
        }

    async def event_json(event_id: str, user: Any) -> dict[str, Any]:
        async with sessions() as db:
            ev = await need_event(db, event_id)
            entrants = (
                await db.scalars(
                    select(Entrant).where(Entrant.event_id == event_id).order_by(Entrant.id)
                )
            ).all()
            games = (
                await db.scalars(
                    select(EventGame)
                    .where(EventGame.event_id == event_id)
                    .order_by(EventGame.match_id, EventGame.id)
                )
            ).all()
            actions = (
                await db.scalars(
                    select(EventAction)
                    .where(EventAction.event_id == event_id)
                    .order_by(EventAction.id)
                )
            ).all()
            director = await db.get(User, ev.director_id)
        names = {e.id: e.name for e in entrants}
        by_match: dict[str, list[dict[str, Any]]] = {}
        for g in games:
            by_match.setdefault(g.match_id, []).append(game_json(g, names))
        mine = next((e for e in entrants if user is not None and e.user_id == user.id), None)
        out: dict[str, Any] = {
            "id": ev.id,
            "name": ev.name,
            "game": ev.game,
            "title": get_spec(ev.game).title,
            "format": ev.format,
            "mode": ev.mode,
            "options": ev.options,
            "schedule": ev.schedule,
            "settings": ev.settings,
            "cap": ev.cap,
            "starts_at": ev.starts_at.isoformat() if ev.starts_at else None,
            "status": ev.status,
            "rated": ev.rated,
            "director": {"id": ev.director_id, "name": director.display_name if director else "?"},
            "entrants": [
                {
                    "id": e.id,
                    "name": e.name,
                    "bot": e.bot,
                    "user_id": e.user_id,
                    "checked_in": e.checked_in,
                    "status": e.status,
                    "seed": e.seed,
                }
                for e in entrants
            ],
            "rounds": [],
            "standings": [],
            "champion": None,
            "actions": [
                {
                    "kind": a.kind,
                    "payload": a.payload,
                    "note": a.note,
                    "at": a.created_at.isoformat(),
                }
                for a in actions
            ],
            "me": {
                "entrant": mine.id if mine else None,
                "director": user is not None and user.id == ev.director_id,
            },
        }
        if ev.bracket is not None:
            t = event_from_json(ev.bracket)
            out["num_rounds"] = t.num_rounds
            out["current_round"] = t.current_round
            out["rounds"] = [
                [match_json(m, names, by_match.get(m.id, [])) for m in rnd] for rnd in t.rounds
            ]
            out["standings"] = [
                {**s.to_json(), "name": names.get(int(s.entrant), s.entrant)} for s in t.standings()
            ]
            if t.champion is not None:
                out["champion"] = {"id": int(t.champion), "name": names.get(int(t.champion))}
        return out

    @api.get("/api/events/{event_id}", responses=errors)
    async def get_event(event_id: str, user: MaybeUser) -> dict[str, Any]:
        """An event: entrants, rounds with every match and game, standings, champion, log."""
        await svc.sweep(event_id)
        return await event_json(event_id, user)

    @api.get("/api/events/{event_id}/matches/{match_id}", responses=errors)
    async def get_match(event_id: str, match_id: str) -> dict[str, Any]:
        """One match with its games (each with its table for the replay)."""
        data = await event_json(event_id, None)
        for rnd in data["rounds"]:
            for m in rnd:
                if m["id"] == match_id:
                    return {"event": {"id": data["id"], "name": data["name"]}, "match": m}
        raise HTTPException(404, "no such match")

    # -- entrants ----------------------------------------------------------------------------

    async def in_registration(db: AsyncSession, event_id: str) -> Event:
        ev = await need_event(db, event_id)
        if ev.status != "registration":
            raise HTTPException(400, "registration is closed: the event has started")
        return ev

    async def count_entrants(db: AsyncSession, event_id: str) -> int:
        n = await db.scalar(select(func.count(Entrant.id)).where(Entrant.event_id == event_id))
        return int(n or 0)

    async def entrant_of(db: AsyncSession, event_id: str, user_id: int) -> Entrant | None:
        """The person's entrant row in the event (``None``: not entered)."""
        return await db.scalar(
            select(Entrant).where(Entrant.event_id == event_id, Entrant.user_id == user_id)
        )

    @api.post("/api/events/{event_id}/register", responses=errors)
    async def register(event_id: str, user: User_) -> dict[str, Any]:
        """Enter the event."""
        async with svc.lock(event_id), sessions() as db, db.begin():
            ev = await in_registration(db, event_id)
            if ev.director_id == user.id:
                raise HTTPException(400, "a director runs the event and does not play in it")
            if await entrant_of(db, event_id, user.id) is not None:
                raise HTTPException(400, "you are already registered")
            if await count_entrants(db, event_id) >= ev.cap:
                raise HTTPException(400, f"the event is full ({ev.cap} entrants)")
            db.add(
                Entrant(
                    event_id=event_id,
                    user_id=user.id,
                    name=user.display_name,
                    checked_in=False,
                    status="registered",
                    created_at=now(),
                )
            )
        return await event_json(event_id, user)

    @api.post("/api/events/{event_id}/withdraw", responses=errors)
    async def withdraw(event_id: str, user: User_) -> dict[str, Any]:
        """Leave the event (after the start: every remaining match is forfeited)."""
        async with svc.lock(event_id):
            async with sessions() as db, db.begin():
                ev = await need_event(db, event_id)
                e = await entrant_of(db, event_id, user.id)
                if e is None:
                    raise HTTPException(400, "you are not registered")
                if ev.status == "registration":
                    await db.delete(e)
                elif ev.status == "finished":
                    raise HTTPException(400, "the event is over")
                else:
                    e.status = "withdrawn"
                    Events.action(db, ev, user.id, "withdraw", {"entrant": e.id}, None)
            await svc._advance(event_id)
        return await event_json(event_id, user)

    @api.post("/api/events/{event_id}/checkin", responses=errors)
    async def checkin(event_id: str, user: User_) -> dict[str, Any]:
        """Check in before the start (an entrant not checked in at the start is a no-show)."""
        async with sessions() as db, db.begin():
            await in_registration(db, event_id)
            e = await entrant_of(db, event_id, user.id)
            if e is None:
                raise HTTPException(400, "register first")
            e.checked_in = True
        return await event_json(event_id, user)

    @api.post("/api/events/{event_id}/bots", responses=errors)
    async def add_bots(event_id: str, body: BotsIn, user: User_) -> dict[str, Any]:
        """Add bot entrants (director; online events; bots are checked in)."""
        check_site_bot(body.bot, None, cfg)
        async with svc.lock(event_id), sessions() as db, db.begin():
            ev = await in_registration(db, event_id)
            need_director(ev, user)
            if ev.mode != "online":
                raise HTTPException(400, "bots play online events only")
            have = await count_entrants(db, event_id)
            if have + body.count > ev.cap:
                raise HTTPException(400, f"the event is full ({ev.cap} entrants)")
            bots = await db.scalar(
                select(func.count(Entrant.id)).where(
                    Entrant.event_id == event_id, Entrant.bot.is_not(None)
                )
            )
            if (bots or 0) + body.count > cfg.event_bots:
                raise HTTPException(
                    400, f"an event takes at most {cfg.event_bots} bots on this site"
                )
            for k in range(body.count):
                db.add(
                    Entrant(
                        event_id=event_id,
                        bot=body.bot,
                        name=f"{body.bot.capitalize()} bot {have + k + 1}",
                        checked_in=True,
                        status="registered",
                        created_at=now(),
                    )
                )
        return await event_json(event_id, user)

    @api.post("/api/events/{event_id}/start", responses=errors)
    async def start(event_id: str, user: User_) -> dict[str, Any]:
        """Start the event (director): seed the draw, mark no-shows, start the first tables."""
        async with svc.lock(event_id):
            async with sessions() as db, db.begin():
                ev = await in_registration(db, event_id)
                need_director(ev, user)
                entrants = (
                    await db.scalars(
                        select(Entrant).where(Entrant.event_id == event_id).order_by(Entrant.id)
                    )
                ).all()
                if len(entrants) < 2:
                    raise HTTPException(400, "an event needs at least 2 entrants")
                keys = [_entrant_key(e) for e in entrants]
                if ev.settings.get("seeding") == "random":
                    draw = list(seed_random(keys, random.Random(secrets.randbits(64))))
                else:
                    players = [
                        ratings_store.player_key(seat_of(e)) or _entrant_key(e) for e in entrants
                    ]
                    ords = await ratings_store.ordinals(sessions, ev.game, "2p", players)
                    # ties (newcomers) by registration order
                    draw = list(
                        seed_by_rating(
                            {
                                k: ords[p] - i * 1e-6
                                for i, (k, p) in enumerate(zip(keys, players, strict=True))
                            }
                        )
                    )
                try:
                    t = svc.create_tournament(ev, draw)
                except TournamentError as exc:
                    raise HTTPException(400, str(exc)) from None
                for e in entrants:
                    e.seed = t.seed_of(_entrant_key(e))
                    e.status = "playing" if e.checked_in else "no_show"
                ev.settings = {**ev.settings, "draw": draw}
                ev.bracket = t.to_json()
                ev.status = "running"
                ev.started_at = now()
                no_shows = [e.id for e in entrants if not e.checked_in]
                Events.action(db, ev, user.id, "start", {"no_shows": no_shows}, None)
            await svc._advance(event_id)
        return await event_json(event_id, user)

    # -- director's console ------------------------------------------------------------------

    async def set_status(event_id: str, user: Any, to: str, body: NoteIn) -> dict[str, Any]:
        async with svc.lock(event_id):
            async with sessions() as db, db.begin():
                ev = await svc.need_running(db, event_id)
                need_director(ev, user)
                ev.status = to
                Events.action(
                    db, ev, user.id, "pause" if to == "paused" else "resume", {}, body.note
                )
            await svc._advance(event_id)
        return await event_json(event_id, user)

    @api.post("/api/events/{event_id}/pause", responses=errors)
    async def pause(event_id: str, body: NoteIn, user: User_) -> dict[str, Any]:
        """Pause (director): games in play finish, no new table starts."""
        return await set_status(event_id, user, "paused", body)

    @api.post("/api/events/{event_id}/resume", responses=errors)
    async def resume(event_id: str, body: NoteIn, user: User_) -> dict[str, Any]:
        """Resume a paused event (director)."""
        return await set_status(event_id, user, "running", body)

    @api.post("/api/events/{event_id}/matches/{match_id}/forfeit", responses=errors)
    async def forfeit(event_id: str, match_id: str, body: ForfeitIn, user: User_) -> dict[str, Any]:
        """Rule that an entrant forfeits a match (director)."""
        async with sessions() as db:
            need_director(await need_event(db, event_id), user)
        await svc.forfeit(event_id, match_id, body.loser, body.note, user.id)
        return await event_json(event_id, user)

    @api.post("/api/events/{event_id}/entrants/{entrant_id}/replace", responses=errors)
    async def replace(
        event_id: str, entrant_id: RowId, body: ReplaceIn, user: User_
    ) -> dict[str, Any]:
        """Put a bot in an entrant's place (at its tables too), or offer the place to a person
        by username: they take it only by accepting (``/offers/{id}/accept``). The answer is the
        same whether an account has that username or not."""
        if (body.username is None) == (body.bot is None):
            raise HTTPException(400, "give either a username or a bot")
        if body.bot is not None:
            check_site_bot(body.bot, None, cfg)
        async with svc.lock(event_id):
            async with sessions() as db, db.begin():
                ev = await need_event(db, event_id)
                need_director(ev, user)
                e = await db.get(Entrant, entrant_id)
                if e is None or e.event_id != event_id:
                    raise HTTPException(404, "no such entrant")
                if body.username is not None:
                    if not validation.storable(body.username):
                        raise HTTPException(400, "that is not a username")
                    db.add(
                        EventOffer(
                            event_id=event_id,
                            entrant_id=e.id,
                            username=body.username,
                            status="pending",
                            note=body.note or None,
                            created_at=now(),
                        )
                    )
                    Events.action(
                        db,
                        ev,
                        user.id,
                        "offer",
                        {"entrant": e.id, "was": e.name, "to": body.username},
                        body.note,
                    )
                    moves: list[tuple[str | None, int]] = []
                else:
                    assert body.bot is not None
                    moves = await take_place(db, ev, e, None, body.bot, user.id, body.note)
            await apply_moves(event_id, e.id, moves)
        out = await event_json(event_id, user)
        if body.username is not None:
            out["message"] = (
                f"offered: if {body.username} has an account, they take the place when they "
                "accept it"
            )
        return out

    async def take_place(
        db: AsyncSession,
        ev: Event,
        e: Entrant,
        person: User | None,
        bot: str | None,
        by: int | None,
        note: str | None,
    ) -> list[tuple[str | None, int]]:
        """Put ``person`` (or ``bot``) in entrant ``e``'s place; returns the live tables and
        seats where the entrant plays now (the caller reseats them after the commit)."""
        old = e.name
        if person is not None:
            e.user_id, e.bot, e.name = person.id, None, person.display_name
        else:
            assert bot is not None
            e.user_id, e.bot = None, bot
            e.name = f"{bot.capitalize()} bot ({old})"[:40]
        if ev.status != "registration":
            e.status, e.checked_in = "playing", True
        rows = (
            await db.scalars(
                select(EventGame).where(
                    EventGame.event_id == ev.id,
                    EventGame.status == "playing",
                    EventGame.table_id.is_not(None),
                )
            )
        ).all()
        Events.action(db, ev, by, "replace", {"entrant": e.id, "was": old, "now": e.name}, note)
        return [
            (g.table_id, g.seat_a if g.side_a == e.id else 1 - g.seat_a)
            for g in rows
            if e.id in (g.side_a, g.side_b)
        ]

    async def apply_moves(
        event_id: str, entrant_id: int, moves: list[tuple[str | None, int]]
    ) -> None:
        """Reseat the entrant's live tables (after the commit), then advance the event."""
        if moves:
            async with sessions() as db:
                e = await db.get(Entrant, entrant_id)
            for tid, seat_no in moves:
                if tid is not None and e is not None:
                    await reseat(tid, seat_no, seat_of(e))
        await svc._advance(event_id)

    @api.get("/api/me/offers", responses=errors)
    async def my_offers(user: User_) -> dict[str, Any]:
        """Places in events that directors offered you (pending ones)."""
        if user.username is None:
            return {"offers": []}
        async with sessions() as db:
            rows = (
                await db.execute(
                    select(EventOffer, Event.name, Entrant.name)
                    .join(Event, Event.id == EventOffer.event_id)
                    .join(Entrant, Entrant.id == EventOffer.entrant_id)
                    .where(EventOffer.username == user.username, EventOffer.status == "pending")
                    .order_by(EventOffer.id.desc())
                    .limit(50)
                )
            ).all()
        return {
            "offers": [
                {
                    "id": o.id,
                    "event": o.event_id,
                    "event_name": name,
                    "place_of": place,
                    "note": o.note,
                    "at": o.created_at.isoformat(),
                }
                for o, name, place in rows
            ]
        }

    async def need_offer(db: AsyncSession, event_id: str, offer_id: int, user: Any) -> EventOffer:
        offer = await db.get(EventOffer, offer_id)
        mine = offer is not None and user.username is not None and offer.username == user.username
        if offer is None or offer.event_id != event_id or not mine or offer.status != "pending":
            raise HTTPException(404, "no such offer")
        return offer

    @api.post("/api/events/{event_id}/offers/{offer_id}/accept", responses=errors)
    async def accept_offer(event_id: str, offer_id: RowId, user: User_) -> dict[str, Any]:
        """Take the place a director offered you."""
        async with svc.lock(event_id):
            async with sessions() as db, db.begin():
                offer = await need_offer(db, event_id, offer_id, user)
                ev = await need_event(db, event_id)
                if ev.director_id == user.id:
                    raise HTTPException(400, "a director runs the event and does not play in it")
                if ev.status == "finished":
                    raise HTTPException(400, "the event is over")
                if await entrant_of(db, event_id, user.id) is not None:
                    raise HTTPException(400, "you are already an entrant of this event")
                e = await db.get(Entrant, offer.entrant_id)
                person = await db.get(User, user.id)
                if e is None or person is None:
                    raise HTTPException(404, "no such offer")
                offer.status = "accepted"
                moves = await take_place(db, ev, e, person, None, user.id, offer.note)
            await apply_moves(event_id, e.id, moves)
        return await event_json(event_id, user)

    @api.post("/api/events/{event_id}/offers/{offer_id}/decline", responses=errors)
    async def decline_offer(event_id: str, offer_id: RowId, user: User_) -> dict[str, Any]:
        """Turn down the place a director offered you."""
        async with sessions() as db, db.begin():
            offer = await need_offer(db, event_id, offer_id, user)
            offer.status = "declined"
        return {"offers": (await my_offers(user))["offers"]}

    async def reseat(table_id: str, seat_no: int, seat: dict[str, Any]) -> None:
        table = await tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            await tables.refresh_shared(table)
            seats = [dict(s) for s in table.seats]
            seats[seat_no] = seat
            await tables.save_seats(table, seats)
            table.make_bots()
            await table.broadcast()
        tables.schedule_bots(table)

    @api.post("/api/events/{event_id}/matches/{match_id}/ruling", responses=errors)
    async def ruling(event_id: str, match_id: str, body: RulingIn, user: User_) -> dict[str, Any]:
        """A director's ruling on a game: a PDA bogus play (150-100) or a score, with a note."""
        async with svc.lock(event_id):
            async with sessions() as db, db.begin():
                ev = await svc.need_running(db, event_id)
                need_director(ev, user)
                t = event_from_json(ev.bracket or {})
                m = svc.need_ready(t, match_id)
                a, b = int(m.a), int(m.b)
                if body.kind == "bogus":
                    if body.offender not in (a, b):
                        raise HTTPException(400, "name the offender: one of the match's entrants")
                    winner = b if body.offender == a else a
                    hi, lo = BOGUS_SCORES
                    sa, sb = (hi, lo) if winner == a else (lo, hi)
                    reason = "bogus"
                else:
                    sa, sb = body.score_a, body.score_b
                    if sa == sb and body.winner not in (a, b):
                        raise HTTPException(400, "equal scores: name the winner")
                    picked = body.winner if sa == sb else (a if sa > sb else b)
                    assert picked is not None
                    winner = picked
                    reason = "ruling"
                g: EventGame | None = None
                if body.game_id is not None:
                    g = await db.get(EventGame, body.game_id)
                    if g is None or g.event_id != event_id or g.match_id != match_id:
                        raise HTTPException(404, "no such game in this match")
                    if g.status not in ACTIVE:
                        raise HTTPException(400, f"that game is {g.status}: reopen it first")
                else:
                    g = svc._game_row(
                        ev, match_id, await svc._next_number(db, ev, match_id), "game", a, b
                    )
                    db.add(g)
                g.status, g.reason, g.winner = "ruled", reason, winner
                g.score_a, g.score_b = sa, sb
                g.note = (body.note or reason)[:500]
                await svc._record(db, ev, t, g)
                Events.action(
                    db,
                    ev,
                    user.id,
                    "ruling",
                    {"match": match_id, "kind": body.kind, "winner": winner, "scores": [sa, sb]},
                    body.note,
                )
            await svc._advance(event_id)
        return await event_json(event_id, user)

    @api.post("/api/events/{event_id}/games/{game_id}/reopen", responses=errors)
    async def reopen(event_id: str, game_id: RowId, body: NoteIn, user: User_) -> dict[str, Any]:
        """Reopen a decided game (director): its result no longer counts and it is played (or
        entered) again. Not once a later round has a result."""
        async with svc.lock(event_id):
            async with sessions() as db, db.begin():
                ev = await need_event(db, event_id)
                need_director(ev, user)
                if ev.bracket is None:
                    raise HTTPException(400, "the event has not started")
                g = await db.get(EventGame, game_id)
                if g is None or g.event_id != event_id:
                    raise HTTPException(404, "no such game")
                if g.final_seq is None:
                    raise HTTPException(400, "only a decided game can be reopened")
                if ev.format != "round_robin":
                    later = await db.scalar(
                        select(func.count(EventGame.id))
                        .where(
                            EventGame.event_id == event_id,
                            EventGame.final_seq.is_not(None),
                            EventGame.id != g.id,
                        )
                        .where(
                            EventGame.match_id.not_in(
                                [
                                    m.id
                                    for m in event_from_json(ev.bracket).matches()
                                    if m.round <= _round_of(g.match_id)
                                ]
                            )
                        )
                    )
                    if later:
                        raise HTTPException(400, "a later round has results: too late to reopen")
                g.status, g.final_seq, g.updated_at = "void", None, now()
                g.note = f"reopened: {body.note}".strip()[:500]
                t = await svc.rebuild(db, ev)
                ready = {m.id for m in t.pending()}
                playing = (
                    await db.scalars(
                        select(EventGame).where(
                            EventGame.event_id == event_id, EventGame.status.in_(ACTIVE)
                        )
                    )
                ).all()
                for p in playing:
                    if p.match_id not in ready:
                        p.status, p.note = "void", "reopened an earlier game"
                ev.bracket = t.to_json()
                if ev.status == "finished" and not t.is_over:
                    ev.status, ev.finished_at = "running", None
                Events.action(
                    db, ev, user.id, "reopen", {"game": game_id, "match": g.match_id}, body.note
                )
            await svc._advance(event_id)
        return await event_json(event_id, user)

    # -- over the board ----------------------------------------------------------------------

    @api.post("/api/events/{event_id}/matches/{match_id}/report", responses=errors)
    async def report(event_id: str, match_id: str, body: ReportIn, user: User_) -> dict[str, Any]:
        """Enter a game's final score (a player of the match); the opponent signs or disputes."""
        if body.score_a == body.score_b:
            raise HTTPException(400, "a game has a winner: the scores cannot be equal")
        async with svc.lock(event_id), sessions() as db, db.begin():
            ev = await svc.need_running(db, event_id)
            if ev.mode != "otb":
                raise HTTPException(400, "scores are entered only in over-the-board events")
            t = event_from_json(ev.bracket or {})
            m = svc.need_ready(t, match_id)
            a = await db.get(Entrant, int(m.a))
            b = await db.get(Entrant, int(m.b))
            assert a is not None and b is not None
            if user.id not in (a.user_id, b.user_id):
                raise HTTPException(403, "only a player of this match enters its scores")
            waiting = await db.scalar(
                select(func.count(EventGame.id)).where(
                    EventGame.event_id == event_id,
                    EventGame.match_id == match_id,
                    EventGame.status.in_(ACTIVE),
                )
            )
            if waiting:
                raise HTTPException(400, "the last game entered awaits a signature or a ruling")
            g = svc._game_row(
                ev, match_id, await svc._next_number(db, ev, match_id), "game", a.id, b.id
            )
            g.status, g.reported_by = "reported", user.id
            g.score_a, g.score_b = body.score_a, body.score_b
            g.winner = a.id if body.score_a > body.score_b else b.id
            g.reason = "target"
            db.add(g)
        return await event_json(event_id, user)

    async def opponent_game(
        db: AsyncSession, event_id: str, game_id: RowId, user: Any
    ) -> EventGame:
        g = await db.get(EventGame, game_id)
        if g is None or g.event_id != event_id:
            raise HTTPException(404, "no such game")
        if g.status != "reported":
            raise HTTPException(400, f"that game is {g.status}, not awaiting a signature")
        a = await db.get(Entrant, g.side_a)
        b = await db.get(Entrant, g.side_b)
        players = {x.user_id for x in (a, b) if x is not None}
        if user.id not in players or user.id == g.reported_by:
            raise HTTPException(403, "only the opponent of the player who entered it may sign")
        return g

    @api.post("/api/events/{event_id}/games/{game_id}/confirm", responses=errors)
    async def confirm(event_id: str, game_id: RowId, user: User_) -> dict[str, Any]:
        """Sign the score the opponent entered: it counts."""
        async with svc.lock(event_id):
            async with sessions() as db, db.begin():
                ev = await svc.need_running(db, event_id)
                g = await opponent_game(db, event_id, game_id, user)
                g.status, g.confirmed_by = "confirmed", user.id
                await svc._record(db, ev, event_from_json(ev.bracket or {}), g)
            await svc._advance(event_id)
        return await event_json(event_id, user)

    @api.post("/api/events/{event_id}/games/{game_id}/dispute", responses=errors)
    async def dispute(event_id: str, game_id: RowId, body: NoteIn, user: User_) -> dict[str, Any]:
        """Dispute the score the opponent entered: the director rules."""
        async with svc.lock(event_id), sessions() as db, db.begin():
            ev = await svc.need_running(db, event_id)
            g = await opponent_game(db, event_id, game_id, user)
            g.status, g.note, g.updated_at = "disputed", body.note or "disputed", now()
            Events.action(
                db, ev, user.id, "dispute", {"game": g.id, "match": g.match_id}, body.note
            )
        return await event_json(event_id, user)

    # -- score cards -------------------------------------------------------------------------

    def card_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for rnd in data["rounds"]:
            for m in rnd:
                for g in m["games"]:
                    rows.append(
                        {
                            "event": data["name"],
                            "round": m["round"],
                            "match": m["id"],
                            "game": g["number"],
                            "player_a": m["a_name"],
                            "player_b": m["b_name"],
                            "score_a": g["score_a"],
                            "score_b": g["score_b"],
                            "winner": g["winner_name"],
                            "reason": g["reason"],
                            "status": g["status"],
                            "reported_by": g["reported_by_name"],
                            "confirmed_by": g["confirmed_by_name"],
                            "table": g["table_id"],
                            "note": g["note"],
                        }
                    )
        return rows

    async def cards(event_id: str) -> dict[str, Any]:
        data = await event_json(event_id, None)
        async with sessions() as db:
            users = {u.id: u.display_name for u in (await db.scalars(select(User))).all()}
        for rnd in data["rounds"]:
            for m in rnd:
                for g in m["games"]:
                    g["reported_by_name"] = users.get(g["reported_by"])
                    g["confirmed_by_name"] = users.get(g["confirmed_by"])
        return data

    @api.get("/api/events/{event_id}/scorecards.json", responses=errors)
    async def cards_json(event_id: str) -> JSONResponse:
        """Every game's score card as JSON."""
        data = await cards(event_id)
        doc = {
            "event": {k: data[k] for k in ("id", "name", "game", "format", "mode")},
            "cards": card_rows(data),
        }
        return JSONResponse(
            doc,
            headers={"Content-Disposition": f'attachment; filename="scorecards-{event_id}.json"'},
        )

    @api.get("/api/events/{event_id}/scorecards.csv", responses=errors)
    async def cards_csv(event_id: str) -> Response:
        """Every game's score card as CSV."""
        rows = card_rows(await cards(event_id))
        buf = io.StringIO()
        fields = [
            "event",
            "round",
            "match",
            "game",
            "player_a",
            "player_b",
            "score_a",
            "score_b",
            "winner",
            "reason",
            "status",
            "reported_by",
            "confirmed_by",
            "table",
            "note",
        ]
        w = csv.DictWriter(buf, fieldnames=fields)
        w.writeheader()
        w.writerows({k: csv_cell(v) for k, v in row.items()} for row in rows)
        return Response(
            buf.getvalue(),
            media_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="scorecards-{event_id}.csv"'},
        )

    # -- ratings -----------------------------------------------------------------------------

    @api.get("/api/ratings")
    async def ratings(game: str = "highfive", category: str = "2p") -> dict[str, Any]:
        """The leaderboard of a game and player-count category (OpenSkill, by ordinal)."""
        if len(game) > 32 or len(category) > 16 or not validation.storable(game + category):
            raise HTTPException(400, "no such game or category")
        rows = await ratings_store.leaderboard(sessions, game, category)
        return {"game": game, "category": category, "ratings": rows}

    # -- pages -------------------------------------------------------------------------------

    @api.get("/events", include_in_schema=False)
    async def events_page() -> FileResponse:
        return FileResponse(WEB / "events.html")

    @api.get("/events/{event_id}", include_in_schema=False)
    async def event_page(event_id: str) -> FileResponse:
        return FileResponse(WEB / "events.html")

    @api.get("/events/{event_id}/matches/{match_id}", include_in_schema=False)
    async def match_page(event_id: str, match_id: str) -> FileResponse:
        return FileResponse(WEB / "events.html")

    @api.get("/events/{event_id}/scorecard", include_in_schema=False)
    async def scorecard_page(event_id: str) -> FileResponse:
        return FileResponse(WEB / "scorecard.html")

    @api.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return FileResponse(WEB / "events.html")

    return api


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: a text that starts like a formula (``= + - @``,
    a tab or a carriage return) gets a leading apostrophe; numbers stay numbers.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell("-2"), csv_cell(-2), csv_cell("Ann")
    ("'=HYPERLINK(1)", "'-2", -2, 'Ann')
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def game_json(g: EventGame, names: dict[int, str]) -> dict[str, Any]:
    """A game row for the pages."""
    return {
        "id": g.id,
        "number": g.number,
        "kind": g.kind,
        "table_id": g.table_id,
        "status": g.status,
        "score_a": g.score_a,
        "score_b": g.score_b,
        "winner": g.winner,
        "winner_name": names.get(g.winner) if g.winner is not None else None,
        "reason": g.reason,
        "note": g.note,
        "reported_by": g.reported_by,
        "confirmed_by": g.confirmed_by,
        "final": g.final_seq is not None,
    }


def match_json(m: Any, names: dict[int, str], games: list[dict[str, Any]]) -> dict[str, Any]:
    """A match of the tournament value with its names and game rows."""
    a = int(m.a) if m.a is not None else None
    b = int(m.b) if m.b is not None else None
    winner = int(m.winner) if m.winner is not None else None
    return {
        "id": m.id,
        "round": m.round,
        "index": m.index,
        "a": a,
        "b": b,
        "a_name": names.get(a) if a is not None else None,
        "b_name": names.get(b) if b is not None else None,
        "best_of": m.best_of,
        "wins": list(m.wins),
        "winner": winner,
        "winner_name": names.get(winner) if winner is not None else None,
        "bye": m.bye,
        "forfeit": int(m.forfeit) if m.forfeit is not None else None,
        "over": m.is_over,
        "ready": m.is_ready,
        "games": games,
    }
