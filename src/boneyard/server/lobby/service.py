"""The lobby: games, creating, listing, joining and starting tables, and a person's games.

Limits on what one person may start (docs/operations.md): at most ``tables`` new tables per
minute and hour (a rate limit), ``open_tables_per_person`` tables waiting for players, and
bot-only tables (no person seated and no seat open) only where ``bot_tables`` allows them, at
most ``bot_tables_per_person`` and ``bot_tables_total`` at once. A table waiting for players
closes after ``open_table_minutes``; a bot-only table pauses while nobody watches it and closes
after ``unwatched_minutes`` unwatched.

The routes are in :mod:`.router`; this service raises the domain errors of
boneyard.server.errors, never an HTTP one.
"""

import functools
import secrets
import time
from datetime import timedelta

from boneyard.core.errors import BoneyardError
from boneyard.core.protocol import JSON
from boneyard.games.registry import available_games, get_spec
from boneyard.server.accounts.service import Accounts, Me
from boneyard.server.errors import Gone, NotAllowed, NotFound, OverLimit, Refused
from boneyard.server.lobby.challenges import invited_accounts
from boneyard.server.lobby.schemas import TableIn
from boneyard.server.lobby.sitebots import check_site_bot, site_bots
from boneyard.server.ratelimit import TooMany
from boneyard.server.rules.service import option_words
from boneyard.server.tables import access
from boneyard.server.tables.clock import DEFAULT_GRACE, DEFAULT_PER_MOVE, ClockIn, clock_settings
from boneyard.server.tables.commands import Join
from boneyard.server.tables.live import LiveTable, now
from boneyard.server.tables.manager import TableManager, first_commitment
from boneyard.server.validation import storable
from boneyard.store import tables as repo
from boneyard.store import unit
from boneyard.store.db import AsyncSession
from boneyard.store.models import GameTable
from boneyard.store.players import add_players
from boneyard.store.seats import BotSeat, OpenSeat, PersonSeat, Seat, Someone
from boneyard.store.statuses import SeatKind, TableStatus

LOBBY_SIZE = 50
"""Tables on a page of the lobby's list."""
MINE = 20
"""A person's own tables the lobby lists beside the page."""
INVITES_SCANNED = 200
"""Newest tables waiting for players scanned for seats kept for the requester."""
LOBBY_FRESH = 1.0
"""Seconds a lobby list is served again before it is read anew (pages poll it)."""
HISTORY = 100
"""Games "Your games" lists."""


class Lobby:
    """Table creation under the site's limits (see the module docstring)."""

    def __init__(self, tables: TableManager, accounts: Accounts) -> None:
        self.tables = tables
        self.accounts = accounts
        self.settings = accounts.settings
        # The lobby's last answers by page: (answer, when, lobby_version).
        self._listed: dict[int, tuple[JSON, float, int]] = {}

    def seats_for(
        self, body: TableIn, user: Me, invited: dict[int, dict[str, object]] | None = None
    ) -> list[Seat]:
        """The seats of a new table, or :class:`Refused` with the reason (``invited``: the bot
        accounts of ``account`` seats by seat, :func:`.challenges.invited_accounts`)."""
        if sum(1 for s in body.seats if s.kind == "me") > 1:
            raise Refused("you can take only one seat")
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

    async def check_caps(
        self, user: Me, bot_only: bool, waits: bool = True, address: str | None = None
    ) -> None:
        """:class:`OverLimit` or :class:`NotAllowed` when ``user`` may not start one more
        table (of this kind; ``waits``: it has a seat open for people; ``address``: where the
        request came from)."""
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
                raise NotAllowed("sign up to start a table with only bots")
            raise NotAllowed("this site does not run tables with only bots")
        async with self.tables.sessions() as db:
            own = await repo.count_created(db, user.id, bot_only=bot_only)
            total = await repo.count_bot_only(db) if bot_only else 0
            here = await repo.count_from(db, address) if address and waits else 0
        if bot_only and own >= cfg.bot_tables_per_person:
            metrics.refused.labels("bot_tables").inc()
            raise OverLimit(
                f"you already run {own} tables with only bots (at most "
                f"{cfg.bot_tables_per_person}): watch or wait for one to end",
            )
        if bot_only and total >= cfg.bot_tables_total:
            metrics.refused.labels("bot_tables").inc()
            raise OverLimit(
                "the site runs as many tables with only bots as it can: try again later"
            )
        if not bot_only and waits:
            self.check_open_caps(user, own, here)

    def check_open_caps(self, user: Me, own: int, here: int) -> None:
        """:class:`OverLimit` when ``user`` (with ``own`` tables waiting for players, ``here``
        from their address) may not open one more (docs/operations.md)."""
        cfg = self.settings
        mine = cfg.open_tables_per_guest if user.is_guest else cfg.open_tables_per_person
        if own >= mine:
            self.tables.metrics.refused.labels("open_tables").inc()
            raise OverLimit(
                f"you already have {own} tables waiting for players (at most {mine}"
                f"{' for a guest' if user.is_guest else ''}): start or wait for one of them first",
            )
        if here >= cfg.open_tables_per_address:
            self.tables.metrics.refused.labels("open_tables_address").inc()
            raise OverLimit(
                f"{here} tables are already waiting for players from your address (at most "
                f"{cfg.open_tables_per_address}): join one of the tables listed, or wait",
            )

    async def create(
        self,
        body: TableIn,
        user: Me,
        invited: dict[int, dict[str, object]] | None = None,
        address: str | None = None,
    ) -> LiveTable:
        """A new table (started when every seat is taken and ``start``; see arm_start);
        ``invited``: the bot accounts challenged to its ``account`` seats; ``address``: the
        client's (the cap on open tables per address)."""
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
            raise Refused(str(exc)) from None
        seats = self.seats_for(body, user, invited)
        full = not any(s.kind == SeatKind.OPEN for s in seats)
        bot_only = full and not any(s.kind == SeatKind.PERSON for s in seats)
        await self.check_caps(user, bot_only, not full, address)
        settings: dict[str, object] = {"clock": clock} if clock else {}
        if body.bot_pace is not None:
            settings["bot_pace"] = body.bot_pace
        if body.guide:
            settings["guide"] = True
        if body.start_when_full and body.start and not full:
            settings["start_when_full"] = True
        return await self.open_table(
            body.game,
            dict(body.options),
            seats,
            settings,
            body.private,
            user.id,
            body.start,
            address,
        )

    async def new_table(self, body: TableIn, user: Me, address: str | None = None) -> JSON:
        """A new table (see :meth:`create`); its ``account`` seats challenge bot accounts, which
        accept or decline (docs/bots.md). With its invite for a private one's creator."""
        invited = await invited_accounts(self.tables.sessions, body.seats, user.id)
        table = await self.create(body, user, invited, address)
        return {**table.public_json(), **access.invite_json(table)}

    async def open_table(
        self,
        game: str,
        options: dict[str, object],
        seats: list[Seat],
        settings: dict[str, object],
        private: bool,
        created_by: int | None,
        start: bool = True,
        address: str | None = None,
    ) -> LiveTable:
        """Store a new table (checked already) and start it when every seat is taken and
        ``start`` (created full with people: once their seeds for hand 0 are in; arm_start)."""
        settings = self.start_settings(seats, settings, start)
        tid = secrets.token_hex(8)
        async with self.tables.sessions() as s, s.begin():
            await store_table(s, tid, game, options, seats, settings, private, created_by, address)
        return await self.opened(tid, start)

    def start_settings(
        self, seats: list[Seat], settings: dict[str, object], start: bool
    ) -> dict[str, object]:
        """``settings`` of a new table, with ``start_by`` when it is created full with people
        and ``start``: dealt once the players' browsers have seeded hand 0, or at that time."""
        full = not any(s.kind == SeatKind.OPEN for s in seats)
        bot_only = full and not any(s.kind == SeatKind.PERSON for s in seats)
        settings = dict(settings)
        if full and start and self.tables.seed_window > 0 and not bot_only:
            at = now() + timedelta(seconds=self.tables.seed_window)
            settings["start_by"] = at.isoformat()
        return settings

    async def opened(self, tid: str, start: bool = True) -> LiveTable:
        """The table ``tid`` just stored, live: its start armed (``start_by``), or started now
        when it is full and ``start``."""
        table = await self.tables.get(tid)
        assert table is not None
        full = not any(s.kind == SeatKind.OPEN for s in table.seats)
        if "start_by" in table.settings:
            self.tables.arm_start(table)
        elif start and full:
            await self.start(table)
        return table

    async def start(self, table: LiveTable) -> None:
        """Start ``table`` (:class:`Refused` with the reason when it cannot)."""
        try:
            await self.tables.start(table)
        except BoneyardError as exc:
            raise Refused(str(exc)) from None

    async def need_table(self, table_id: str) -> LiveTable:
        """The table, or :class:`NotFound` (:class:`Gone` for a table set aside as broken)."""
        table = await self.tables.get(table_id) if len(table_id) <= 32 else None
        if table is not None:
            return table
        if len(table_id) <= 32 and storable(table_id):
            async with self.tables.sessions() as db:
                status = await repo.status_of(db, table_id)
            if status == TableStatus.BROKEN:
                raise Gone(
                    "this game could not be restored after a server change: the operator "
                    "has been told",
                )
        raise NotFound("no such table")

    async def take_seat(self, table: LiveTable, seat: int, user: Me) -> None:
        """Seat ``user`` at open seat ``seat`` (a seat kept for a bot account: only that one),
        or :class:`Refused` with the reason."""
        await table.ask(Join(seat, user.id, user.display_name))  # (tables.seating)
        full = not any(s.kind == SeatKind.OPEN for s in table.seats)
        if table.status == TableStatus.OPEN and full and table.settings.get("start_when_full"):
            await self.opened(table.id)  # dealt once the seeds are in (or at once: no window)

    async def my_games(self, user: Me) -> list[JSON]:
        """``user``'s tables, newest first (from the per-person index)."""
        async with self.tables.sessions() as db:
            rows = await repo.history(db, user.id, HISTORY, user.id)
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

    def games(self) -> JSON:
        """The games with their player counts, presets and options (for the New table form),
        the bots a seat takes, the default clock and bot pace."""
        return {
            "games": [game_json(name) for name in available_games()],
            "bots": site_bots(self.settings),
            "clock": {"per_move": DEFAULT_PER_MOVE, "grace": DEFAULT_GRACE},
            "bot_pace": self.tables.bot_pace,
        }

    async def listing(self, user: Me | None = None, page: int = 1) -> JSON:
        """A page of the public tables not yet over, in the lobby's order (store.tables:
        waiting with a seated person connected, in play, waiting with nobody there, bots
        only), with ``mine``: the requester's own tables and the seats kept for them, always.
        Lobby pages ask every few seconds: a page is kept for ``LOBBY_FRESH`` seconds, unless
        a table of this process changed meanwhile (``lobby_version``)."""
        listed = await self.listed_page(max(1, page))
        mine = await self.mine(user) if user is not None else []
        return {**listed, "mine": mine}

    async def listed_page(self, page: int) -> JSON:
        """Page ``page`` of the public tables (see :meth:`listing`), kept a moment."""
        version = self.tables.lobby_version
        kept = self._listed.get(page)
        if kept is not None and kept[2] == version and time.monotonic() - kept[1] < LOBBY_FRESH:
            return dict(kept[0])
        async with self.tables.sessions() as db:
            ids, total = await repo.listed(db, LOBBY_SIZE, (page - 1) * LOBBY_SIZE)
        out = [t.public_json() for t in await self.live_tables(ids)]
        answer: JSON = {
            "tables": out,
            "page": page,
            "pages": max(1, -(-total // LOBBY_SIZE)),
            "total": total,
        }
        if len(self._listed) > 20:
            self._listed.clear()
        self._listed[page] = (answer, time.monotonic(), version)
        return dict(answer)

    async def mine(self, user: Me) -> list[JSON]:
        """``user``'s own tables not yet over (seated or made, private ones too) and the open
        seats kept for them (a bot account's challenges), newest first."""
        since = now() - timedelta(minutes=self.settings.open_table_minutes)
        async with self.tables.sessions() as db:
            ids = await repo.own_running(db, user.id, MINE)
            waiting = await repo.waiting(db, since, INVITES_SCANNED)
        for tid, _game, seats, _by in waiting:
            kept = any(s.invited is not None and s.invited.user_id == user.id for s in seats)
            if kept and tid not in ids:
                ids.append(tid)
        return [t.public_json() for t in await self.live_tables(ids[:MINE])]

    async def live_tables(self, ids: list[str]) -> list[LiveTable]:
        """The live tables of ``ids`` (loaded as needed), in that order."""
        out = []
        for tid in ids:
            t = await self.tables.get(tid)
            if t is not None:
                out.append(t)
        return out


async def store_table(
    s: AsyncSession,
    tid: str,
    game: str,
    options: dict[str, object],
    seats: list[Seat],
    settings: dict[str, object],
    private: bool,
    created_by: int | None,
    address: str | None = None,
) -> None:
    """Add table ``tid`` (open, its hand 0 committed to, its people indexed) in the caller's
    transaction ``s``; ``address``: its creator's client (the cap on open tables per address)."""
    full = not any(x.kind == SeatKind.OPEN for x in seats)
    created = now()
    unit.add(
        s,
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
            bot_only=full and not any(x.kind == SeatKind.PERSON for x in seats),
            created_from=address[:64] if address else None,
        ),
    )
    await unit.flush(s)
    unit.add(s, first_commitment(tid))  # hand 0's seed: committed before anyone adds one
    await add_players(s, tid, seats, created)


@functools.cache
def game_json(name: str) -> JSON:
    """A game as the New table form offers it: player counts, presets (the first is the
    default) and every option with its words (from the game's rules page)."""
    spec = get_spec(name)
    words = option_words(name)
    return {
        "game": name,
        "title": spec.title,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "presets": list(spec.presets),
        "options": [
            {**f.to_json(), "label": words[f.name][0], "help": words[f.name][1]}
            for f in spec.option_fields
        ],
    }
