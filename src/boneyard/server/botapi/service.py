"""Bot accounts on the site (as lichess's BOT API): the upgrade, API tokens, the event stream,
challenges, and the ``act`` messages a bot's seat gets over the table's socket.

* ``POST /api/me/bot``: the signed-in account becomes a bot account — for good, and only while it
  has played no game and entered no event (its games so far were a person's).
* ``GET/POST /api/me/tokens``, ``DELETE /api/me/tokens/{id}``: a bot account's API tokens
  (accounts.apitokens), managed from a signed-in browser only: a token never makes or
  revokes tokens. A new token is in the answer once; a revoked one is refused at once, and the
  sockets and streams opened with it are closed.
* ``GET /api/bot/stream``: a bot program's events, one JSON object per line (ndjson), as long as
  it stays open: ``challenge`` (a seat kept for it), ``seat`` (it holds a seat at a table waiting
  for players), ``game_start`` (a game it plays has started, or was under way when the stream
  opened), ``game_finish`` (a table it was told of and sat at is no longer played: its ``status``),
  ``challenge_gone``; a ``ping`` every :data:`HEARTBEAT` seconds.
* ``POST /api/bot/challenges/{table}/accept`` and ``…/decline``: take the kept seat (the table
  starts once every seat is taken) or refuse it (the table is closed, its creator told why).

At the table a bot plays through the same socket, clock, rate limits and seat view as a person;
whenever its seat is to act it also gets ``{"type": "act", "version", "table", "observation",
"legal_actions"}``, the ``boneyard-bot/1`` form (docs/bots.md) built from that seat's own view.

The routes are in :mod:`.router`; this service raises the domain errors of boneyard.server.errors.
"""

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import Any

from boneyard.core.protocol import JSON
from boneyard.server.accounts import apitokens
from boneyard.server.accounts.service import Accounts, Me
from boneyard.server.errors import NotAllowed, NotFound, OverLimit, Refused
from boneyard.server.lobby.service import Lobby
from boneyard.server.validation import storable
from boneyard.store import accounts as accounts_repo
from boneyard.store import tables as tables_repo
from boneyard.store import unit
from boneyard.store.models import ApiToken, User
from boneyard.store.statuses import TableStatus

HEARTBEAT = 10.0
"""Seconds between two ``ping`` lines of an idle stream (a proxy keeps it open)."""
POLL = 1.0
"""Seconds between two looks at the database for a stream's news."""
MAX_TOKENS = 20
"""Live tokens one bot account may hold."""
TOKENS_LISTED = 100
"""The most tokens listed."""
CHALLENGE_SCAN = 500
"""Newest tables waiting for players scanned for a bot's challenges on each look."""


def act_message(msg: JSON) -> JSON | None:
    """The ``act`` message of a bot seat's view, when that seat is to act (``None``: it is not).

    Built from the seat's own view only, so it shows nothing the seat may not see.

    >>> view = {"type": "view", "version": 4, "seat": 1, "table": {"id": "t", "status": "playing"},
    ...         "view": {"game": "highfive", "hand": ["5-5"], "legal_actions": [{"play": "5-5"}]}}
    >>> act_message(view)["legal_actions"], act_message(view)["observation"]
    ([{'play': '5-5'}], {'game': 'highfive', 'hand': ['5-5']})
    >>> act_message({**view, "seat": None}) is None
    True
    """
    if msg.get("type") not in ("view", "resync") or msg.get("seat") is None:
        return None
    obs = msg.get("view")
    if not isinstance(obs, dict) or not obs.get("legal_actions"):
        return None
    if (msg.get("table") or {}).get("status") != "playing":
        return None
    return {
        "type": "act",
        "protocol": "boneyard-bot/1",
        "version": msg.get("version"),
        "table": (msg.get("table") or {}).get("id"),
        "observation": {k: v for k, v in obs.items() if k != "legal_actions"},
        "legal_actions": obs["legal_actions"],
    }


def bot_sender(send: Callable[[JSON], Awaitable[None]]) -> Callable[[JSON], Awaitable[None]]:
    """A bot seat's socket sender: every message as a person's seat gets it, then its ``act``
    message when it is to act."""

    async def relay(msg: JSON) -> None:
        await send(msg)
        act = act_message(msg)
        if act is not None:
            await send(act)

    return relay


class BotApi:
    """The bot accounts of one app (see the module docstring)."""

    def __init__(self, accounts: Accounts, lobby: Lobby) -> None:
        self.accounts = accounts
        self.lobby = lobby
        self.tables = lobby.tables

    async def upgrade(self, me: Me) -> JSON:
        """Make ``me`` a bot account (see the module docstring)."""
        if me.is_guest:
            raise Refused("a guest cannot become a bot account: sign up first")
        if me.is_bot:
            raise Refused("this account is already a bot account")
        async with self.accounts.sessions() as db:
            played = await accounts_repo.has_played(db, me.id)
        if played:
            raise Refused(
                "only an account that has played no game can become a bot account: make a new "
                "account for your bot",
            )
        async with self.accounts.sessions() as db, db.begin():
            user = await unit.get(db, User, me.id)
            assert user is not None
            user.is_bot = True
        me.is_bot = True
        return {"user": me.to_json()}

    async def list_tokens(self, me: Me) -> list[JSON]:
        """``me``'s tokens, newest first (revoked ones too)."""
        async with self.accounts.sessions() as db:
            rows = await accounts_repo.api_tokens(db, me.id, TOKENS_LISTED)
        return [apitokens.token_json(r) for r in rows]

    async def new_token(self, me: Me, name: str) -> JSON:
        """A new token of bot account ``me``: the token itself, shown this once."""
        if not me.is_bot:
            raise NotAllowed("only a bot account has API tokens: make this one a bot")
        if not storable(name) or not name.strip():
            raise Refused("give the token a name you will recognise")
        await self.accounts.limits.check("api_tokens", str(me.id), "too many new tokens")
        token = apitokens.new_token()
        async with self.accounts.sessions() as db, db.begin():
            if await accounts_repo.live_token_count(db, me.id) >= MAX_TOKENS:
                raise OverLimit(f"at most {MAX_TOKENS} tokens: revoke one first")
            row = ApiToken(
                user_id=me.id,
                token_hash=apitokens.token_hash(token),
                prefix=apitokens.prefix(token),
                name=name.strip(),
                created_at=apitokens.now(),
            )
            unit.add(db, row)
            await unit.flush(db)
            shown = apitokens.token_json(row)
        return {**shown, "token": token}

    async def revoke(self, me: Me, token_id: int) -> JSON:
        """Revoke one of ``me``'s tokens; its sockets close."""
        async with self.accounts.sessions() as db, db.begin():
            row = await unit.get(db, ApiToken, token_id)
            if row is None or row.user_id != me.id:
                raise NotFound("no such token")
            key = row.token_hash
            if row.revoked_at is None:
                row.revoked_at = apitokens.now()
        if self.accounts.ended is not None:
            await self.accounts.ended([f"token:{key}"])
        return {"tokens": await self.list_tokens(me)}

    # -- the stream ----------------------------------------------------------------------------

    async def news(self, me: Me, seen: dict[str, str]) -> list[JSON]:
        """What changed for ``me`` since ``seen`` (table id -> what was said of it).

        A table the stream named gets one last event when it is gone: ``game_finish`` where
        ``me`` took a seat (a game can start and end between two looks: the bot must not wait
        for it), else ``challenge_gone``."""
        out: list[JSON] = []
        async with self.accounts.sessions() as db:
            mine = await tables_repo.running_seats(db, me.id)
            cut = apitokens.now() - timedelta(minutes=self.accounts.settings.open_table_minutes)
            waiting = await tables_repo.waiting(db, cut, CHALLENGE_SCAN)
            running = {tid for tid, *_ in mine}
            invited = {tid: (game, seats, by) for tid, game, seats, by in waiting}
            gone = [tid for tid in seen if tid not in running and tid not in invited]
            ended = await tables_repo.ended_seats(db, me.id, gone)
        for tid, status, game, seat in mine:
            said = "game_start" if status == TableStatus.PLAYING else "seat"
            if seen.get(tid) != said:
                seen[tid] = said
                out.append(_table_event(said, tid, game, seat))
        out += _challenges(me.id, invited, seen)
        for tid, status, game, seat in ended:
            del seen[tid]
            out.append({**_table_event("game_finish", tid, game, seat), "status": str(status)})
        for tid in gone:
            if seen.get(tid) == "challenge":
                del seen[tid]
                out.append({"type": "challenge_gone", "table": tid})
        return out

    async def stream(self, me: Me, token: str) -> AsyncIterator[bytes]:
        """The event stream's lines (ends when the token is revoked)."""
        seen: dict[str, str] = {}
        quiet = time.monotonic()
        yield _line({"type": "hello", "user": me.to_json(), "heartbeat": HEARTBEAT})
        while True:
            if await apitokens.lookup(self.accounts.sessions, token) is None:
                yield _line({"type": "bye", "reason": "this token was revoked"})
                return
            for event in await self.news(me, seen):
                quiet = time.monotonic()
                yield _line(event)
            if time.monotonic() - quiet >= HEARTBEAT:
                quiet = time.monotonic()
                yield _line({"type": "ping"})
            await asyncio.sleep(POLL)

    async def answer(self, me: Me, table_id: str, accept: bool) -> JSON:
        """Accept or decline the challenge of table ``table_id``."""
        table = await self.lobby.need_table(table_id)
        seat = next(
            (
                i
                for i, s in enumerate(table.seats)
                if s.kind == "open" and (s.invited.user_id if s.invited else None) == me.id
            ),
            None,
        )
        if seat is None or table.status != TableStatus.OPEN:
            raise NotFound("no such challenge (taken back, or the table went on)")
        if not accept:
            await self.tables.halt(table.id, f"{me.display_name} declined the challenge")
            return table.public_json()
        await self.lobby.take_seat(table, seat, me)
        if not any(s.kind == "open" for s in table.seats):
            await self.lobby.start(table)
        return table.public_json()


def _challenges(user_id: int, invited: dict[str, Any], seen: dict[str, str]) -> list[JSON]:
    """The ``challenge`` events of the seats kept for ``user_id`` not yet said (``invited``:
    table id -> its game, seats and creator)."""
    out: list[JSON] = []
    for tid, (game, seats, by) in invited.items():
        for i, s in enumerate(seats):
            if (s.invited.user_id if s.invited else None) == user_id and tid not in seen:
                seen[tid] = "challenge"
                event = _table_event("challenge", tid, game, i)
                event["players"] = len(seats)
                event["by"] = next((x.name for x in seats if x.user_id == by), None)
                out.append(event)
    return out


def _table_event(kind: str, table_id: str, game: str, seat: int) -> JSON:
    return {
        "type": kind,
        "table": table_id,
        "game": game,
        "seat": seat,
        "socket": f"/ws/tables/{table_id}",
    }


def _line(event: JSON) -> bytes:
    return (json.dumps(event, separators=(",", ":")) + "\n").encode()
