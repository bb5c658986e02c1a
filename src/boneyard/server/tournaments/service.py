"""The tournament service: the tournament value kept in the tournament's row, fed by results,
and the tables of the matches that are ready.

After each result :meth:`Tournaments.advance` forfeits the matches of entrants who are gone
(withdrawn, or a no-show whose grace period is over), waits for late ones, and (online) creates
the next table of every match that can be played, until nothing changes. Every change of one
tournament is serialised by a lock in this process, and by a row lock on its row across processes
(PostgreSQL; docs/tournaments-site.md).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.core.errors import BoneyardError
from boneyard.server import validation
from boneyard.server.errors import NotAllowed, NotFound, Refused
from boneyard.server.tables.clock import ClockIn, clock_settings, now
from boneyard.server.tables.live import LiveTable
from boneyard.server.tables.manager import TableManager
from boneyard.server.tournaments.absence import absence, forfeit_absent
from boneyard.server.tournaments.notify import Notes
from boneyard.server.tournaments.settings import clock_rule, rebuilt, setting
from boneyard.store import tournament_games, tournament_people, unit
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.models import GameTable
from boneyard.store.seats import BotSeat, PersonSeat, Seat
from boneyard.store.statuses import MatchGameStatus, TableStatus, TournamentStatus
from boneyard.store.tournaments import (
    Entrant,
    TournamentAction,
    TournamentDirector,
    TournamentGame,
    TournamentRow,
)
from boneyard.tournament import Tournament, TournamentError, tournament_from_json
from boneyard.tournament.match import FORFEIT_REASONS, Match
from boneyard.tournament.scorecard import game_number

log = logging.getLogger("boneyard.tournaments")

FINAL = (MatchGameStatus.OVER, MatchGameStatus.CONFIRMED, MatchGameStatus.RULED)
"""Statuses of a game row whose result counts."""
ACTIVE = (
    MatchGameStatus.PLAYING,
    MatchGameStatus.REPORTED,
    MatchGameStatus.DISPUTED,
    MatchGameStatus.TIMEOUT,
)
"""A game under way, awaiting a signature, or awaiting the director."""
DIRECTOR, SCOREKEEPER = "director", "scorekeeper"
"""The roles of ``event_directors``: a co-director runs the event; a scorekeeper enters cards
and checks entrants in."""
RUNNING = (TournamentStatus.RUNNING, TournamentStatus.PAUSED)
LIVE = (TournamentStatus.REGISTRATION, *RUNNING)
"""Tournaments not over: still taking entrants, or in play."""


def seat_of(e: Entrant) -> Seat:
    """The table seat of an entrant."""
    if e.bot:
        return BotSeat(bot=e.bot, name=e.name)
    if e.user_id is None:
        raise ValueError(f"entrant {e.id} is neither a person nor a bot")
    return PersonSeat(user_id=e.user_id, name=e.name)


def rating_key(e: Entrant) -> str:
    """Whose rating an entrant plays with: ``u:<account>``, ``bot:<name>``, or a walk-in's
    ``w:<entrant>`` until an account claims the entry."""
    if e.user_id is not None:
        return f"u:{e.user_id}"
    return f"bot:{e.bot}" if e.bot else f"w:{e.id}"


def history(g: TournamentGame, what: str, by: int | None, **fields: object) -> None:
    """Add an entry to a game's card history (kept whole: exports show every entry)."""
    entry = {"at": now().isoformat(), "what": what, "by": by, **fields}
    g.history = [*(g.history or []), entry]


@dataclass(frozen=True, slots=True)
class Final:
    """A game's final result as the tournament takes it, read off its row (so that feeding it
    may run in a thread, away from the database session)."""

    kind: str
    match_id: str
    winner: str
    loser: str
    scores: tuple[int, int]
    reason: str | None

    @classmethod
    def of(cls, g: TournamentGame) -> Final:
        """The result of game row ``g``."""
        loser = g.side_b if g.winner == g.side_a else g.side_a
        scores = (g.score_a or 0, g.score_b or 0)
        return cls(g.kind, g.match_id, str(g.winner), str(loser), scores, g.reason)

    def apply(self, t: Tournament) -> Tournament:
        """``t`` with this result."""
        if self.kind == "forfeit":
            reason = self.reason if self.reason in FORFEIT_REASONS else "forfeit"
            return t.record_forfeit(self.match_id, self.loser, reason)
        return t.record_game(self.match_id, self.winner, self.scores, self.reason or "target")


class Tournaments:
    """The event service: database rows, the tournament value and the live tables."""

    def __init__(
        self, tables: TableManager, sessions: async_sessionmaker[AsyncSession], notes: Notes
    ) -> None:
        self.tables = tables
        self.sessions = sessions
        self.notes = notes
        self.locks: dict[str, asyncio.Lock] = {}
        self.wake_scheduler: asyncio.Event = asyncio.Event()

    def lock(self, event_id: str) -> asyncio.Lock:
        """The lock that serialises every change of one event."""
        return self.locks.setdefault(event_id, asyncio.Lock())

    # -- the tournament value ----------------------------------------------------------------

    async def rebuild(self, db: AsyncSession, ev: TournamentRow) -> Tournament:
        """The tournament replayed from the draw and every final result, in order."""
        rows = await tournament_games.final_games(db, ev.id)
        replay = rebuilt(ev, list(ev.settings["draw"]))
        # (in a thread, off the rows: each Swiss round is paired again, seconds at 1,024)
        return await asyncio.to_thread(replay, [Final.of(g).apply for g in rows])

    async def record(
        self, db: AsyncSession, ev: TournamentRow, t: Tournament, g: TournamentGame
    ) -> Tournament:
        """Make ``g`` final (next ``final_seq``) and feed it to the tournament."""
        top = await tournament_games.last_final_seq(db, ev.id)
        g.final_seq = top + 1
        g.updated_at = now()
        try:  # (in a thread: a result that ends a Swiss round pairs the next round)
            t = await asyncio.to_thread(Final.of(g).apply, t)
        except TournamentError as exc:
            raise Refused(str(exc)) from None
        ev.bracket = t.to_json()
        if t.is_over and ev.status in RUNNING:
            ev.status = TournamentStatus.FINISHED
            ev.finished_at = now()
            self.action(db, ev, None, "finish", {"champion": t.champion}, None)
        await unit.flush(db)
        return t

    async def check_consistent(self, db: AsyncSession, ev: TournamentRow, t: Tournament) -> None:
        """Refuse (400) a change after which a result or a game of another match no longer
        fits the event: the next round has started on what the change would undo."""
        rows = await tournament_games.games_not_void(db, ev.id)
        for r in rows:
            try:
                m = t.match(r.match_id)
            except TournamentError:
                m = None
            if m is None or (m.a, m.b) != (str(r.side_a), str(r.side_b)):
                raise Refused("the next round has started: too late to change this")

    # -- advancing ---------------------------------------------------------------------------

    async def advance(self, event_id: str) -> None:
        """Forfeit gone entrants' matches and start the next tables (takes the lock)."""
        async with self.lock(event_id):
            await self.advance_locked(event_id)

    async def advance_locked(self, event_id: str) -> None:
        """:meth:`advance` with the lock held."""
        for _ in range(10_000):
            started: list[str] = []
            async with self.sessions() as db, db.begin():
                # (the row lock serialises the event's changes across processes too)
                ev = await unit.get(db, TournamentRow, event_id, for_update=True)
                if ev is None or ev.bracket is None or ev.status not in RUNNING:
                    return
                changed = await self._step(db, ev, started)
            for tid in started:
                await self._start_table(event_id, tid)
            if not changed:
                return

    async def _step(self, db: AsyncSession, ev: TournamentRow, started: list[str]) -> bool:
        """One pass over the ready matches; true when a forfeit changed the tournament."""
        t = tournament_from_json(ev.bracket or {})
        entrants = {e.id: e for e in await tournament_people.entrants(db, ev.id)}
        active = await tournament_games.games_in(db, ev.id, ACTIVE)
        busy = {g.match_id for g in active}
        room = setting(ev, "max_tables") or 1_000_000
        live = sum(1 for g in active if g.status == MatchGameStatus.PLAYING)
        pending = t.pending()
        ids = {m.id for m in pending}
        ready = {k: v for k, v in ((ev.settings or {}).get("ready") or {}).items() if k in ids}
        for m in pending:
            a, b = entrants[int(m.a or 0)], entrants[int(m.b or 0)]
            if m.id not in ready:
                ready[m.id] = now().isoformat()
                self._seat_table(ev, m.id, ready)
                await self._announce(db, ev, m, a, b)
            loser, reason = absence(ev, t, a, b, ready[m.id])
            if loser is not None:
                await forfeit_absent(self, db, ev, t, m, loser, reason, active)
                self._keep_ready(ev, ready)
                return True
            if reason == "wait" or ev.mode != "online" or ev.status != TournamentStatus.RUNNING:
                continue
            if m.id in busy or live >= room:
                continue
            live += 1
            started.append(await self.new_table(db, ev, m.id, a, b))
        self._keep_ready(ev, ready)
        return False

    @staticmethod
    def _seat_table(ev: TournamentRow, match_id: str, ready: dict[str, str]) -> None:
        """Give a match that just became ready a table number: the lowest one no other ready
        match holds (a hall's tables are reused as matches end; the number stays with the
        match for the pairing lists and the cards)."""
        tables = dict((ev.settings or {}).get("tables") or {})
        taken = {tables[k] for k in ready if k in tables and k != match_id}
        tables[match_id] = next(n for n in range(1, len(taken) + 2) if n not in taken)
        ev.settings = {**ev.settings, "tables": tables}

    def _keep_ready(self, ev: TournamentRow, ready: dict[str, str]) -> None:
        """Keep when each pending match became ready (its no-show grace counts from then)."""
        if ready != (ev.settings or {}).get("ready"):
            ev.settings = {**ev.settings, "ready": ready}
            self.wake_scheduler.set()  # a grace period may end sooner than it planned

    def halt_later(self, table_id: str, why: str) -> None:
        """Stop a table whose game no longer counts (in the background: it waits for the
        table's actor, never while this event's commit holds it up)."""
        self.tables.spawn(self.tables.halt(table_id, why))

    async def _start_table(self, event_id: str, tid: str) -> None:
        table = await self.tables.get(tid)
        if table is None:
            return
        try:
            await self.tables.start(table)
        except BoneyardError:
            log.exception("event %s: table %s did not start", event_id, tid)

    def game_row(
        self, ev: TournamentRow, match_id: str, number: int, kind: str, a: int, b: int
    ) -> TournamentGame:
        """A new game row (status ``playing``) of ``match_id`` between entrants ``a``, ``b``."""
        return TournamentGame(
            event_id=ev.id,
            match_id=match_id,
            number=number,
            kind=kind,
            status=MatchGameStatus.PLAYING,
            side_a=a,
            side_b=b,
            seat_a=0,
            by_director=False,
            created_at=now(),
            updated_at=now(),
        )

    async def next_number(self, db: AsyncSession, ev: TournamentRow, match_id: str) -> int:
        """The number of the match's next game: the lowest not taken by a game that counts
        or is under way, so numbers stay put after a void."""
        taken = await tournament_games.numbers_taken(db, ev.id, match_id)
        return game_number(taken)

    async def new_table(
        self, db: AsyncSession, ev: TournamentRow, match_id: str, a: Entrant, b: Entrant
    ) -> str:
        """The table of the match's next game: seats are the two entrants (alternating), the
        move clock is the event's."""
        number = await self.next_number(db, ev, match_id)
        seat_a = 0 if number % 2 == 1 else 1
        seats = [seat_of(a), seat_of(b)] if seat_a == 0 else [seat_of(b), seat_of(a)]
        rule = clock_rule(ev)
        clock = clock_settings(ClockIn(per_move=rule["per_move"], grace=rule["grace"]), ev.game)
        assert clock is not None
        tid = secrets.token_hex(8)
        unit.add(
            db,
            GameTable(
                id=tid,
                game=ev.game,
                options=dict(ev.options),
                seats=seats,
                status=TableStatus.OPEN,
                created_by=ev.director_id,
                created_at=now(),
                settings={
                    "event": ev.id,
                    "match": match_id,
                    "game": number,
                    "clock": {**clock, "timeout": rule["timeout"]},
                },
            ),
        )
        await unit.flush(db)
        row = self.game_row(ev, match_id, number, "game", a.id, b.id)
        row.table_id, row.seat_a = tid, seat_a
        unit.add(db, row)
        return tid

    async def on_game_over(self, table: LiveTable) -> None:
        """The table hook: an event game ended; record it and advance the event."""
        async with self.sessions() as db:
            g = await tournament_games.game_playing_at(db, table.id)
        if g is None:
            return
        async with self.lock(g.event_id):
            async with self.sessions() as db, db.begin():
                ev = await unit.get(db, TournamentRow, g.event_id, for_update=True)
                row = await unit.get(db, TournamentGame, g.id)
                st = table.state
                result = st.result() if st is not None else None
                if (
                    row is None
                    or ev is None
                    or row.status != MatchGameStatus.PLAYING
                    or result is None
                ):
                    return
                await self._game_result(db, ev, row, result)
            await self.advance_locked(g.event_id)

    async def _game_result(
        self, db: AsyncSession, ev: TournamentRow, g: TournamentGame, result: Any
    ) -> None:
        g.score_a, g.score_b = result.scores[g.seat_a], result.scores[1 - g.seat_a]
        if result.winner is None:
            g.status, g.note = MatchGameStatus.VOID, "no winner: the game is replayed"
            g.updated_at = now()
            return
        g.status = MatchGameStatus.OVER
        g.winner = g.side_a if result.winner == g.seat_a else g.side_b
        g.reason = "bogus" if result.reason == "bogus" else "target"
        await self.record(db, ev, tournament_from_json(ev.bracket or {}), g)
        names = await self.names(db, ev.id)
        text = (
            f"Game {g.number} of {g.match_id}: {names.get(g.winner or 0, '?')} wins "
            f"{max(g.score_a or 0, g.score_b or 0)}–{min(g.score_a or 0, g.score_b or 0)}"
        )
        await self.notify_match(db, ev, g.match_id, (g.side_a, g.side_b), "game_over", text)

    # -- forfeits and the log ------------------------------------------------------------------

    async def forfeit(
        self,
        event_id: str,
        match_id: str,
        loser: int,
        note: str,
        user_id: int | None,
        reason: str = "forfeit",
    ) -> None:
        """``loser`` forfeits the match (a game in play is void and its table stopped)."""
        async with self.lock(event_id):
            async with self.sessions() as db, db.begin():
                ev = await self.need_running(db, event_id)
                t = tournament_from_json(ev.bracket or {})
                m = self.need_ready(t, match_id)
                if str(loser) not in (m.a, m.b):
                    raise Refused("that entrant does not play this match")
                a, b = int(m.a or 0), int(m.b or 0)
                await self.void_active(db, ev, match_id, f"forfeit: {note}".strip())
                row = self.game_row(ev, match_id, 0, "forfeit", a, b)
                row.status, row.reason, row.note = MatchGameStatus.RULED, reason, note or None
                row.winner = b if loser == a else a
                unit.add(db, row)
                await unit.flush(db)
                await self.record(db, ev, t, row)
                self.action(
                    db,
                    ev,
                    user_id,
                    "forfeit",
                    {"match": match_id, "loser": loser, "game": row.id},
                    note,
                )
                names = await self.names(db, event_id)
                text = f"{names.get(loser, '?')} forfeits {match_id}" + (
                    f": {note}" if note else ""
                )
                await self.notify_match(db, ev, match_id, (a, b), "director", text)
            await self.advance_locked(event_id)

    async def void_active(
        self, db: AsyncSession, ev: TournamentRow, match_id: str, note: str
    ) -> None:
        """Void the match's games under way; their tables stop after the commit."""
        rows = await tournament_games.match_games_in(db, ev.id, match_id, ACTIVE)
        for g in rows:
            g.status, g.note, g.updated_at = MatchGameStatus.VOID, note[:500], now()
            history(g, "void", None, note=note[:200])
            if g.table_id:
                self.halt_later(g.table_id, note[:200])

    @staticmethod
    def action(
        db: AsyncSession,
        ev: TournamentRow,
        user_id: int | None,
        kind: str,
        payload: dict[str, object],
        note: str | None,
    ) -> TournamentAction:
        """Add an entry to the event's log."""
        row = TournamentAction(
            event_id=ev.id,
            user_id=user_id,
            kind=kind,
            payload=payload,
            note=note or None,
            created_at=now(),
        )
        unit.add(db, row)
        return row

    # -- notifications ---------------------------------------------------------------------------

    async def names(self, db: AsyncSession, event_id: str) -> dict[int, str]:
        """Entrant names by id."""
        return await tournament_people.entrant_names(db, event_id)

    async def notify_match(
        self,
        db: AsyncSession,
        ev: TournamentRow,
        match_id: str,
        sides: Sequence[int | None],
        kind: str,
        text: str,
    ) -> None:
        """Tell the people of a match (``kind``: ``ready``, ``game_over``, ``director`` …)."""
        users = await tournament_people.accounts_of_entrants(
            db, [s for s in sides if s is not None]
        )
        url = f"/tournaments/{ev.id}/matches/{match_id}"
        await self.notes.add(
            db, [u for u in users if u is not None], kind, text, ev.name, url, ev.id
        )

    async def _announce(
        self, db: AsyncSession, ev: TournamentRow, m: Match, a: Entrant, b: Entrant
    ) -> None:
        where = f"table {m.id}" if ev.mode == "online" else "the board: see the pairings"
        text = f"Your match {m.id} is ready: {a.name} v {b.name} ({where})"
        await self.notify_match(db, ev, m.id, (a.id, b.id), "ready", text)

    async def notify_directors(
        self, db: AsyncSession, ev: TournamentRow, kind: str, text: str
    ) -> None:
        """Tell every director of ``ev``."""
        co = await tournament_people.staff_ids(db, ev.id, DIRECTOR)
        await self.notes.add(
            db, [ev.director_id, *co], kind, text, ev.name, f"/tournaments/{ev.id}", ev.id
        )

    # -- checks ----------------------------------------------------------------------------------

    @staticmethod
    async def need_event(db: AsyncSession, event_id: str) -> TournamentRow:
        """The event (404 when there is none)."""
        ok = len(event_id) <= 32 and validation.storable(event_id)
        ev = await unit.get(db, TournamentRow, event_id) if ok else None
        if ev is None:
            raise NotFound("no such event")
        return ev

    @staticmethod
    async def is_director(db: AsyncSession, ev: TournamentRow, user_id: int | None) -> bool:
        """Whether ``user_id`` runs ``ev`` (its owner or a co-director)."""
        if user_id is None:
            return False
        if ev.director_id == user_id:
            return True
        row = await unit.get(db, TournamentDirector, (ev.id, user_id))
        return row is not None and row.role == DIRECTOR

    @staticmethod
    async def role_of(db: AsyncSession, ev: TournamentRow, user_id: int | None) -> str | None:
        """``director``, ``scorekeeper`` or ``None``: what ``user_id`` does in ``ev``."""
        if user_id is None:
            return None
        if ev.director_id == user_id:
            return DIRECTOR
        row = await unit.get(db, TournamentDirector, (ev.id, user_id))
        return row.role if row is not None else None

    async def need_director(self, db: AsyncSession, ev: TournamentRow, user_id: int) -> None:
        """Refused (403) unless ``user_id`` runs ``ev``."""
        if not await self.is_director(db, ev, user_id):
            raise NotAllowed("only the event's directors may do that")

    async def need_scorekeeper(self, db: AsyncSession, ev: TournamentRow, user_id: int) -> None:
        """Refused (403) unless ``user_id`` runs ``ev`` or keeps its score cards."""
        if await self.role_of(db, ev, user_id) is None:
            raise NotAllowed("only the event's directors and scorekeepers may do that")

    @staticmethod
    async def need_running(db: AsyncSession, event_id: str) -> TournamentRow:
        """The event, which must have started and not finished."""
        found = len(event_id) <= 32 and validation.storable(event_id)
        ev = await unit.get(db, TournamentRow, event_id, for_update=True) if found else None
        if ev is None:
            raise NotFound("no such event")
        if ev.status not in RUNNING or ev.bracket is None:
            raise Refused(f"the event is {ev.status}, not in play")
        return ev

    @staticmethod
    def need_ready(t: Tournament, match_id: str) -> Any:
        """The match, which must have both sides and be undecided."""
        try:
            m = t.match(match_id)
        except (TournamentError, KeyError):
            raise NotFound("no such match") from None
        if m.is_over:
            raise Refused("this match is already decided (reopen a game first)")
        if not m.is_ready:
            raise Refused("this match waits for its players")
        return m
