"""The lobby: games, creating, listing, joining and starting tables, and a person's games.

Limits on what one person may start (docs/operations.md): at most ``tables`` new tables per
minute and hour (a rate limit), ``open_tables_per_person`` tables waiting for players, and
bot-only tables (no person seated and no seat open) only where ``bot_tables`` allows them, at
most ``bot_tables_per_person`` and ``bot_tables_total`` at once. A table waiting for players
closes after ``open_table_minutes``; a bot-only table pauses while nobody watches it and closes
after ``unwatched_minutes`` unwatched.
"""

import secrets
import time
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import func, select

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.games.registry import available_games, get_spec
from boneyard.server.accounts.service import Accounts, Me
from boneyard.server.lobby.challenges import invited_accounts
from boneyard.server.lobby.sitebots import check_site_bot, site_bots
from boneyard.server.ratelimit import TooMany
from boneyard.server.tables import access
from boneyard.server.tables.clock import DEFAULT_GRACE, DEFAULT_PER_MOVE, ClockIn, clock_settings
from boneyard.server.tables.manager import LiveTable, TableManager, first_commitment, now
from boneyard.server.validation import storable
from boneyard.store.models import GameTable, TablePlayer
from boneyard.store.players import add_players
from boneyard.store.seats import BotSeat, OpenSeat, PersonSeat, Seat, Someone
from boneyard.store.statuses import SeatKind, TableStatus

MAX_BOT_PACE = 5.0
"""The longest a table may ask its bots to take over a move (seconds)."""
LOBBY_SIZE = 100
"""Tables the lobby lists (newest first)."""
LOBBY_FRESH = 1.0
"""Seconds a lobby list is served again before it is read anew (pages poll it)."""
HISTORY = 100
"""Games "Your games" lists."""
RUNNING = ("open", "playing")


class SeatIn(BaseModel):
    """One seat of a new table: ``me``, an ``open`` seat for a person, a built-in ``bot``, or
    an ``account``: a seat kept for the bot account named ``account`` (a challenge it accepts
    or declines, docs/bots.md)."""

    kind: Literal["me", "open", "bot", "account"]
    bot: str = Field(default="greedy", max_length=20)
    account: str | None = Field(default=None, max_length=40)


class TableIn(BaseModel):
    """A new table."""

    game: str = Field(default="highfive", max_length=20)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=30)
    seats: list[SeatIn] = Field(min_length=2, max_length=8)
    start: bool = True
    # The turn clock (docs/server.md): absent, a table where people play each other (a seat
    # open for a person) gets the default; null: none.
    clock: ClockIn | None = None
    private: bool = False  # not listed; reachable with its invite link (docs/server.md)
    # Seconds a bot takes a move where people play (absent: the site's default; 0: at once).
    bot_pace: float | None = Field(default=None, ge=0, le=MAX_BOT_PACE)
    guide: bool = False  # a guided first hand (boneyard.server.tables.guide)


class QuickIn(BaseModel):
    """Play a bot now, guided or not."""

    guide: bool = False


class JoinIn(BaseModel):
    """Take a seat."""

    seat: int = Field(ge=0, le=7)
    invite: str | None = Field(default=None, max_length=100)  # a private table's token


class Lobby:
    """Table creation under the site's limits (see the module docstring)."""

    def __init__(self, tables: TableManager, accounts: Accounts) -> None:
        self.tables = tables
        self.accounts = accounts
        self.settings = accounts.settings

    def seats_for(
        self, body: TableIn, user: Me, invited: dict[int, dict[str, Any]] | None = None
    ) -> list[Seat]:
        """The seats of a new table, or HTTP 400 with the reason (``invited``: the bot accounts
        of ``account`` seats by seat, :func:`boneyard.server.botapi.service.invited_accounts`)."""
        if sum(1 for s in body.seats if s.kind == "me") > 1:
            raise HTTPException(400, "you can take only one seat")
        seats: list[Seat] = []
        for i, s in enumerate(body.seats):
            if s.kind == "me":
                seats.append(PersonSeat(user_id=user.id, name=user.display_name))
            elif s.kind == "account":
                seats.append(OpenSeat(invited=Someone.model_validate((invited or {})[i])))
            elif s.kind == "bot":
                check_site_bot(s.bot, body.game, self.settings)
                seats.append(BotSeat(bot=s.bot, name=f"{s.bot.capitalize()} bot {i + 1}"))
            else:
                seats.append(OpenSeat())
        return seats

    async def check_caps(self, user: Me, bot_only: bool) -> None:
        """HTTP 429/403 when ``user`` may not start one more table (of this kind)."""
        cfg = self.settings
        metrics = self.tables.metrics
        try:
            await self.accounts.limits.check("tables", str(user.id), "too many new tables")
        except TooMany:
            metrics.refused.labels("tables").inc()
            raise
        guest_refused = cfg.bot_tables == "accounts" and user.is_guest
        if bot_only and (cfg.bot_tables == "off" or guest_refused):
            metrics.refused.labels("bot_tables").inc()
            if guest_refused:
                raise HTTPException(403, "sign up to start a table with only bots")
            raise HTTPException(403, "this site does not run tables with only bots")
        async with self.tables.sessions() as db:
            mine = (
                select(func.count()).select_from(GameTable).where(GameTable.created_by == user.id)
            )
            if bot_only:
                running = GameTable.status.in_(RUNNING) & GameTable.bot_only.is_(True)
                own = await db.scalar(mine.where(running))
                total = await db.scalar(select(func.count()).select_from(GameTable).where(running))
            else:
                own = await db.scalar(mine.where(GameTable.status == TableStatus.OPEN))
                total = 0
        if bot_only and (own or 0) >= cfg.bot_tables_per_person:
            metrics.refused.labels("bot_tables").inc()
            raise HTTPException(
                429,
                f"you already run {own} tables with only bots (at most "
                f"{cfg.bot_tables_per_person}): watch or wait for one to end",
            )
        if bot_only and (total or 0) >= cfg.bot_tables_total:
            metrics.refused.labels("bot_tables").inc()
            raise HTTPException(
                429, "the site runs as many tables with only bots as it can: try again later"
            )
        if not bot_only and (own or 0) >= cfg.open_tables_per_person:
            metrics.refused.labels("open_tables").inc()
            raise HTTPException(
                429,
                f"you already have {own} tables waiting for players (at most "
                f"{cfg.open_tables_per_person}): start or wait for one of them first",
            )

    async def create(
        self, body: TableIn, user: Me, invited: dict[int, dict[str, Any]] | None = None
    ) -> LiveTable:
        """A new table (started when every seat is taken and ``start``; see arm_start);
        ``invited``: the bot accounts challenged to its ``account`` seats."""
        try:
            spec = get_spec(body.game)
            n = len(body.seats)
            if not spec.min_players <= n <= spec.max_players:
                raise BoneyardError(
                    f"{spec.title} is for {spec.min_players} to {spec.max_players} players"
                )
            spec.new_game(n, dict(body.options))
            chosen = body.clock
            if "clock" not in body.model_fields_set and any(s.kind == "open" for s in body.seats):
                chosen = ClockIn(per_move=DEFAULT_PER_MOVE)  # people play each other: timed
            clock = clock_settings(chosen, body.game)
        except BoneyardError as exc:
            raise HTTPException(400, str(exc)) from None
        seats = self.seats_for(body, user, invited)
        full = not any(s.kind == SeatKind.OPEN for s in seats)
        bot_only = full and not any(s.kind == SeatKind.PERSON for s in seats)
        await self.check_caps(user, bot_only)
        settings: dict[str, Any] = {"clock": clock} if clock else {}
        if body.bot_pace is not None:
            settings["bot_pace"] = body.bot_pace
        if body.guide:
            settings["guide"] = True
        return await self.open_table(
            body.game, dict(body.options), seats, settings, body.private, user.id, body.start
        )

    async def open_table(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[Seat],
        settings: dict[str, Any],
        private: bool,
        created_by: int | None,
        start: bool = True,
    ) -> LiveTable:
        """Store a new table (checked already) and start it when every seat is taken and
        ``start`` (created full with people: once their seeds for hand 0 are in; arm_start)."""
        full = not any(s.kind == SeatKind.OPEN for s in seats)
        bot_only = full and not any(s.kind == SeatKind.PERSON for s in seats)
        settings = dict(settings)
        if full and start and self.tables.seed_window > 0 and not bot_only:
            # Dealt once the players' browsers have seeded hand 0, or after the seed window.
            at = now() + timedelta(seconds=self.tables.seed_window)
            settings["start_by"] = at.isoformat()
        tid = secrets.token_hex(8)
        created = now()
        async with self.tables.sessions() as s, s.begin():
            s.add(
                GameTable(
                    id=tid,
                    game=game,
                    options=options,
                    seats=seats,
                    status=TableStatus.OPEN,
                    created_by=created_by,
                    created_at=created,
                    settings=settings or None,
                    private=private,
                    invite_token=access.new_invite_token() if private else None,
                    bot_only=bot_only,
                )
            )
            await s.flush()
            s.add(first_commitment(tid))  # hand 0's seed: committed before anyone adds one
            await add_players(s, tid, seats, created)
        table = await self.tables.get(tid)
        assert table is not None
        if "start_by" in settings:
            self.tables.arm_start(table)
        elif start and full:
            await self.start(table)
        return table

    async def start(self, table: LiveTable) -> None:
        """Start ``table`` (HTTP 400 with the reason when it cannot)."""
        try:
            await self.tables.start(table)
        except BoneyardError as exc:
            raise HTTPException(400, str(exc)) from None

    async def need_table(self, table_id: str) -> LiveTable:
        """The table, or HTTP 404 (410 for a table set aside as broken)."""
        table = await self.tables.get(table_id) if len(table_id) <= 32 else None
        if table is not None:
            return table
        if len(table_id) <= 32 and storable(table_id):
            async with self.tables.sessions() as db:
                status = await db.scalar(select(GameTable.status).where(GameTable.id == table_id))
            if status == TableStatus.BROKEN:
                raise HTTPException(
                    410,
                    "this game could not be restored after a server change: the operator "
                    "has been told",
                )
        raise HTTPException(404, "no such table")

    async def visible_table(self, table_id: str, request: Request) -> LiveTable:
        """The table, if the requester may see it (private: a seat, its creator or ?invite=)."""
        table = await self.need_table(table_id)
        me = await self.accounts.current_user(request)
        access.check_access(table, me.id if me else None, request.query_params.get("invite"))
        return table

    async def take_seat(self, table: LiveTable, seat: int, user: Me) -> None:
        """Seat ``user`` at open seat ``seat`` (a seat kept for a bot account: only that one),
        or HTTP 400 with the reason."""
        async with table.lock:
            await self.tables.refresh_shared(table)  # another process may have seated someone
            if table.status != TableStatus.OPEN:
                raise HTTPException(400, "the game has already started")
            if any(s.user_id == user.id for s in table.seats):
                raise HTTPException(400, "you already have a seat at this table")
            if seat >= len(table.seats) or table.seats[seat].kind != "open":
                raise HTTPException(400, "that seat is not free")
            kept = table.seats[seat].invited
            if kept and kept.user_id != user.id:
                raise HTTPException(400, f"that seat is kept for the bot {kept.name}")
            seats = list(table.seats)
            seats[seat] = PersonSeat(user_id=user.id, name=user.display_name)
            await self.tables.save_seats(table, seats)
            await table.broadcast()

    async def my_games(self, user: Me) -> list[JSON]:
        """``user``'s tables, newest first (from the per-person index)."""
        async with self.tables.sessions() as s:
            rows = (
                await s.execute(
                    select(GameTable, TablePlayer.seat)
                    .join(TablePlayer, TablePlayer.table_id == GameTable.id)
                    .where(TablePlayer.user_id == user.id)
                    .order_by(TablePlayer.created_at.desc())
                    .limit(HISTORY)
                )
            ).all()
        out = []
        for row, seat in rows:
            item: JSON = {
                "id": row.id,
                "game": row.game,
                "status": row.status,
                "seat": seat,
                "seats": [x.name for x in row.seats],
                "created_at": row.created_at.isoformat(),
            }
            result = (row.settings or {}).get("result")
            if row.status == TableStatus.OVER and isinstance(result, dict):
                item["winner"] = result.get("winner")
                item["scores"] = result.get("scores")
            out.append(item)
        return out


def router(lobby: Lobby, errors: dict[int | str, Any]) -> APIRouter:
    """The lobby routes."""
    r = APIRouter()
    tables = lobby.tables
    NeedUser = Annotated[Me, Depends(lobby.accounts.need_user)]

    @r.get("/api/games")
    async def games() -> JSON:
        """The games, their player counts and the bots."""
        out = []
        for name in available_games():
            spec = get_spec(name)
            out.append(
                {
                    "game": name,
                    "title": spec.title,
                    "min_players": spec.min_players,
                    "max_players": spec.max_players,
                }
            )
        return {
            "games": out,
            "bots": site_bots(lobby.settings),
            "clock": {"per_move": DEFAULT_PER_MOVE, "grace": DEFAULT_GRACE},
            "bot_pace": tables.bot_pace,
        }

    @r.post("/api/tables", responses=errors)
    async def new_table(body: TableIn, user: NeedUser) -> JSON:
        """Create a table (started at once when no seat is open and ``start`` is true); an
        ``account`` seat challenges a bot account, which accepts or declines (docs/bots.md)."""
        invited = await invited_accounts(tables.sessions, body.seats, user.id)
        table = await lobby.create(body, user, invited)
        return {**table.public_json(), **access.invite_json(table)}

    @r.post("/api/quickplay", responses=errors)
    async def quickplay(user: NeedUser, body: QuickIn | None = None) -> JSON:
        """Play a bot now: a started two-player High Five table against the greedy bot
        (``{"guide": true}``: the guided first hand, with a hint at each step)."""
        guide = body is not None and body.guide
        table = TableIn(game="highfive", seats=[SeatIn(kind="me"), SeatIn(kind="bot")], guide=guide)
        return (await lobby.create(table, user)).public_json()

    @r.get("/api/me/games", responses=errors)
    async def my_games(user: NeedUser) -> JSON:
        """The signed-in person's tables, newest first (finished ones with their result)."""
        return {"games": await lobby.my_games(user)}

    listed: dict[str, Any] = {"at": -1.0, "body": None, "version": -1}

    @r.get("/api/tables")
    async def list_tables() -> JSON:
        """Open tables (a seat to take) and tables in play (to watch), newest first. Lobby
        pages ask every few seconds: the answer is kept for ``LOBBY_FRESH`` seconds, unless a
        table of this process changed meanwhile (``lobby_version``)."""
        fresh = time.monotonic() - listed["at"] < LOBBY_FRESH
        if listed["body"] is not None and fresh and listed["version"] == tables.lobby_version:
            body: JSON = listed["body"]
            return body
        version = tables.lobby_version
        listed["body"], listed["at"] = await lobby_tables(), time.monotonic()
        listed["version"] = version
        return dict(listed["body"])

    async def lobby_tables() -> JSON:
        async with tables.sessions() as s:
            ids = (
                await s.scalars(
                    select(GameTable.id)
                    .where(GameTable.status.in_(RUNNING), GameTable.private.is_(False))
                    .order_by(GameTable.created_at.desc())
                    .limit(LOBBY_SIZE)
                )
            ).all()
        out = []
        for tid in ids:
            t = await tables.get(tid)
            if t is not None:
                out.append(t.public_json())
        return {"tables": out}

    @r.get("/api/tables/{table_id}", responses=errors)
    async def table_info(table_id: str, request: Request) -> JSON:
        """A table's public information (a private table: with ``?invite=TOKEN`` or a seat)."""
        return (await lobby.visible_table(table_id, request)).public_json()

    @r.post("/api/tables/{table_id}/join", responses=errors)
    async def join(table_id: str, body: JoinIn, user: NeedUser) -> JSON:
        """Take an open seat (a private table's needs ``invite``, its token)."""
        table = await lobby.need_table(table_id)
        access.check_access(table, user.id, body.invite)
        await lobby.take_seat(table, body.seat, user)
        return table.public_json()

    @r.post("/api/tables/{table_id}/start", responses=errors)
    async def start(table_id: str, user: NeedUser) -> JSON:
        """Start a table whose seats are all taken (anyone seated may start it)."""
        table = await lobby.need_table(table_id)
        if not any(s.user_id == user.id for s in table.seats):
            raise HTTPException(403, "only a seated player can start the table")
        await lobby.start(table)
        return table.public_json()

    @r.get("/api/tables/{table_id}/record", responses=errors)
    async def record(table_id: str, request: Request) -> JSONResponse:
        """The record (RECORDS.md) of a finished game, with its revealed seeds."""
        table = await lobby.visible_table(table_id, request)
        if table.state is None or not table.ended:
            raise HTTPException(400, "the record is available once the game is over")
        return JSONResponse(
            table.record(),
            headers={"Content-Disposition": f'attachment; filename="boneyard-{table.id}.json"'},
        )

    return r
