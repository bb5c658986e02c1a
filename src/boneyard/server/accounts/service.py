"""Accounts on the site: sign-up, sign-in, guests, sessions (listed, renewed, revocable).

The routes are in :mod:`.router`; the rules in :mod:`.auth` and docs/server.md. This service
knows nothing of HTTP: it reads who asks from a connection's headers and cookies (any object
with both), hands back session tokens for the router to set, and refuses with the domain
errors of boneyard.server.errors.

Password hashing runs in a worker thread (argon2 takes tens of milliseconds; the event loop
never waits for it). Rate limits (boneyard.server.ratelimit): sign-ups and guests per address,
sign-in attempts per address, failed ones per address and per address and account (never per
account alone: nobody can lock another person out), and a slowdown for the addresses failing
on an account that fails from many (:meth:`Accounts.login`).
"""

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from boneyard.core.protocol import JSON
from boneyard.server.accounts import apitokens, auth
from boneyard.server.errors import NotAllowed, NotFound, NotSignedIn, Refused
from boneyard.server.metrics import Metrics
from boneyard.server.ratelimit import Limits
from boneyard.server.settings import SiteSettings
from boneyard.server.validation import storable
from boneyard.store import accounts as repo
from boneyard.store import unit
from boneyard.store.db import AsyncSession, IntegrityError, async_sessionmaker
from boneyard.store.models import Session, SiteSecret, User, name_key

CSRF_SECRET = "csrf"
SLOW_SECONDS = 2.0
"""How long a sign-in attempt on an account that fails from many addresses waits, when it comes
from an address that has failed on it (docs/operations.md, "Limits and settings")."""
log = logging.getLogger("boneyard.server.accounts")
SESSIONS_LISTED = 100
"""The most sessions of one person listed."""
GUEST_NAME_TRIES = 8
"""Names the site tries for a guest who gave none before it asks for one (each is taken with
odds of guests / 90,000)."""


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


def aware(t: datetime) -> datetime:
    """``t`` with its zone (SQLite drops it: stored times are UTC)."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


@dataclass
class Me:
    """The signed-in person of a request (``session``: the hash of their session token, or
    ``token:<hash>`` for a bot's API token; ``by_token``: the request carried a bot's token)."""

    id: int
    display_name: str
    username: str | None
    is_guest: bool
    session: str = ""
    is_bot: bool = False
    by_token: bool = False

    def to_json(self) -> JSON:
        """The public form."""
        return {
            "id": self.id,
            "display_name": self.display_name,
            "username": self.username,
            "guest": self.is_guest,
            "bot": self.is_bot,
        }


class Connection(Protocol):
    """What the service reads of a request or socket: its headers and cookies."""

    @property
    def headers(self) -> Mapping[str, str]: ...

    @property
    def cookies(self) -> Mapping[str, str]: ...


async def shared_secret(sessions: async_sessionmaker[AsyncSession], name: str) -> bytes:
    """The site secret ``name``, made on first use; every process reads the same one."""
    async with sessions() as db:
        value = await repo.site_secret(db, name)
    if value is None:
        try:
            async with sessions() as db, db.begin():
                unit.add(db, SiteSecret(name=name, value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process made it at the same moment: read theirs
        async with sessions() as db:
            value = await repo.site_secret(db, name)
    assert value is not None
    return bytes.fromhex(value)


SessionsEnded = Callable[[list[str]], Awaitable[None]]


class Accounts:
    """Sessions and accounts on the database ``sessions`` (see the module docstring).

    ``ended`` is called with the hashes of sessions that were ended (to close their sockets).
    """

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        settings: SiteSettings,
        limits: Limits,
        metrics: Metrics | None = None,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.limits = limits
        self.metrics = metrics
        self.attacked: set[str] = set()  # accounts failing from many addresses (logged once)
        self.csrf_secret = b""  # read at start-up (load)
        self.ended: SessionsEnded | None = None

    async def load(self) -> None:
        """Read (or make) the CSRF signing key shared by every process."""
        self.csrf_secret = await shared_secret(self.sessions, CSRF_SECRET)

    # -- who is asking -------------------------------------------------------------------------

    async def user_for_token(self, token: str | None) -> Me | None:
        """The person of a session token, renewing the session at most once an hour."""
        if not token or len(token) > auth.MAX_TOKEN:
            return None
        key = auth.token_hash(token)
        async with self.sessions() as db:
            row = await unit.get(db, Session, key)
            if row is None:
                return None
            t = now()
            if aware(row.expires_at) < t:
                return None
            user = await unit.get(db, User, row.user_id)
            renew = self._renewed(row, t)
        if user is None:
            return None
        if renew is not None:
            async with self.sessions() as db, db.begin():
                fresh = await unit.get(db, Session, key)
                if fresh is not None:
                    fresh.expires_at, fresh.last_seen_at = renew, t
        return Me(user.id, user.display_name, user.username, user.is_guest, key, user.is_bot)

    def _renewed(self, row: Session, t: datetime) -> datetime | None:
        """The new expiry of a session used at ``t`` (``None``: renewed less than an hour ago)."""
        last = aware(row.last_seen_at or row.created_at)
        if t - last < timedelta(hours=1):
            return None
        idle = t + timedelta(days=self.settings.session_days)
        return min(idle, aware(row.created_at) + timedelta(days=self.settings.session_max_days))

    async def current_user(self, conn: Connection) -> Me | None:
        """The signed-in person of a request, or ``None`` (see :meth:`user_of`)."""
        return await self.user_of(conn)

    async def user_of(self, conn: Connection) -> Me | None:
        """The person of a request or socket, or ``None``. One with an ``Authorization: Bearer``
        header is a bot program's: only its API token counts (never a cookie)."""
        bearer = apitokens.bearer(conn.headers.get("authorization"))
        if bearer is not None:
            found = await apitokens.lookup(self.sessions, bearer)
            if found is None:
                return None
            u, key = found
            return Me(u.id, u.display_name, u.username, u.is_guest, f"token:{key}", True, True)
        return await self.user_for_token(conn.cookies.get(auth.SESSION_COOKIE))

    async def need_user(self, conn: Connection) -> Me:
        """The signed-in person, or :class:`NotSignedIn` (401)."""
        me = await self.current_user(conn)
        if me is None:
            raise NotSignedIn("sign in or play as a guest first")
        return me

    # -- signing in and out ----------------------------------------------------------------------

    async def open_session(self, user_id: int, user_agent: str) -> str:
        """A new session for ``user_id`` in the browser ``user_agent``: its token (the
        router sets it as the session cookie, with a CSRF token bound to it)."""
        token = auth.new_token()
        t = now()
        label = auth.browser_label(user_agent)
        async with self.sessions() as db, db.begin():
            unit.add(
                db,
                Session(
                    token_hash=auth.token_hash(token),
                    user_id=user_id,
                    created_at=t,
                    expires_at=t + timedelta(days=self.settings.session_days),
                    last_seen_at=t,
                    label=label if storable(label) else None,
                ),
            )
        return token

    def csrf_token(self, binding: str) -> str:
        """A fresh CSRF token bound to ``binding`` (a session's, or "anon")."""
        return auth.csrf_token(self.csrf_secret, binding)

    async def end_sessions(self, user_id: int, keys: list[str] | None = None) -> list[str]:
        """End the sessions ``keys`` of ``user_id`` (``None``: all); returns the ended ones."""
        async with self.sessions() as db, db.begin():
            ended = await repo.session_keys(db, user_id, keys)
            await repo.delete_sessions(db, ended)
        if ended and self.ended is not None:
            await self.ended(ended)
        return ended

    async def end_session(self, me: Me, session_id: str) -> None:
        """End the session of ``me`` listed as ``session_id`` (404 when there is none)."""
        mine = [s for s in await self.list_sessions(me) if s["id"] == session_id]
        if not mine:
            raise NotFound("no such session")
        async with self.sessions() as db:
            keys = await repo.session_keys(db, me.id, prefix=session_id)
        await self.end_sessions(me.id, keys)

    async def list_sessions(self, me: Me) -> list[JSON]:
        """``me``'s sessions, newest first: an id (a prefix of the hash), when made, last used
        and until when, the browser, and whether it is this one."""
        async with self.sessions() as db:
            rows = await repo.live_sessions(db, me.id, now(), SESSIONS_LISTED)
        return [
            {
                "id": r.token_hash[:16],
                "created_at": aware(r.created_at).isoformat(),
                "last_seen_at": aware(r.last_seen_at or r.created_at).isoformat(),
                "expires_at": aware(r.expires_at).isoformat(),
                "browser": r.label or "",
                "current": r.token_hash == me.session,
            }
            for r in rows
        ]

    # -- making accounts and signing in ------------------------------------------------------------

    async def register(
        self,
        username: str,
        password: str,
        display_name: str | None,
        address: str,
        venue: str | None = None,
    ) -> Me:
        """A new account (not yet signed in), or the reason it is refused. ``venue``: made at
        that event's venue with its join code (docs/tournaments-site.md): counted per event and per
        minute (``venue_signups``) instead of per address, which the hall's players share."""
        if venue is None:
            await self.limits.check("register", address, "too many new accounts from your address")
        else:
            await self.limits.check("venue_signups", venue, "too many new accounts for this event")
        display = (display_name or username).strip()
        why = auth.check_username(username) or auth.check_display_name(display)
        why = why or await asyncio.to_thread(auth.password_problem, password, username, display)
        if why:
            raise Refused(why)
        uid = await self.new_user(display, username, password)
        return Me(uid, display, username, False)

    async def guest(self, display_name: str | None, address: str) -> Me:
        """A new guest under ``display_name`` (not yet signed in); without one, under a name the
        site picks ("Guest 48213", another if taken), which the guest may change later."""
        await self.limits.check("guest", address, "too many guests from your address")
        if display_name is None:
            for _ in range(GUEST_NAME_TRIES):
                display = f"Guest {secrets.randbelow(90_000) + 10_000}"
                with contextlib.suppress(Refused):  # (taken: pick another)
                    return Me(await self.new_user(display, None, None), display, None, True)
            raise Refused("choose a display name to play as a guest")
        display = display_name.strip()
        why = auth.check_display_name(display)
        if why:
            raise Refused(why)
        return Me(await self.new_user(display, None, None), display, None, True)

    async def rename_guest(self, user: Me, display_name: str, address: str) -> Me:
        """``user`` (a guest) plays on under ``display_name``: at the tables they sit at from
        now on (a seat keeps the name it was taken under)."""
        if not user.is_guest or user.is_bot:
            raise NotAllowed("only a guest changes their name here")
        await self.limits.check("guest", address, "too many new names from your address")
        display = display_name.strip()
        why = auth.check_display_name(display)
        if why:
            raise Refused(why)
        try:
            async with self.sessions() as db, db.begin():
                same = name_key(display) == name_key(user.display_name)
                if not same and await repo.display_name_taken(db, display):
                    raise Refused("that display name is taken: choose another")
                row = await unit.get(db, User, user.id)
                if row is None:
                    raise NotSignedIn("sign in or play as a guest first")
                row.display_name, row.display_key = display, name_key(display)
        except IntegrityError:  # taken at the same moment by someone else
            raise Refused("that name is taken: choose another") from None
        return Me(user.id, display, None, True, user.session)

    async def login(self, username: str, password: str, address: str) -> tuple[Me, JSON | None]:
        """The account of ``username`` if ``password`` is its own (one argon2 check either
        way, so the time taken tells nothing of which usernames exist), with the failed
        sign-ins to it since its owner last signed in (``None``: none).

        Failures are limited per address and account and per address, never per account: the
        right password from an address that has not failed always signs in. While one account
        fails from many addresses (``login_account``), the attempts of the addresses that have
        failed on it wait ``SLOW_SECONDS`` first (docs/operations.md)."""
        await self.limits.check("login", address, "too many sign-in attempts")
        account = username.casefold()[:40]
        pair = f"{address} {account}"
        if not await self.limits.allowed("login_pair", pair):
            await self.limits.refuse(
                "login_pair", pair, "too many failed sign-ins to this account from your address"
            )
        if not await self.limits.allowed("login_failed", address):
            await self.limits.refuse("login_failed", address, "too many failed sign-ins")
        await self.slow_down(account, pair)
        user = None
        if storable(username):  # (a NUL: PostgreSQL refuses to look it up)
            async with self.sessions() as db:
                user = await repo.user_by_username(db, username)
        stored = user.password_hash if user is not None else None
        if not await asyncio.to_thread(auth.check_password, stored, password):
            await self.failed(account, pair, address, user.id if user is not None else None)
            raise Refused("wrong username or password")
        assert user is not None
        async with self.sessions() as db, db.begin():
            count, since = await repo.take_failed_sign_ins(db, user.id)
        notice = {"count": count, "since": aware(since).isoformat()} if since else None
        return Me(user.id, user.display_name, user.username, False), notice

    async def slow_down(self, account: str, pair: str) -> None:
        """Wait ``SLOW_SECONDS`` when ``account`` is failing from many addresses and this one
        (``pair``) is among them."""
        if await self.limits.allowed("login_account", account):
            return  # not under attack
        if not await self.limits.used("login_pair", pair):
            return  # this address has not failed on it: the owner, from a clean address
        if self.metrics is not None:
            self.metrics.login_slowed.inc()
        await asyncio.sleep(SLOW_SECONDS)

    async def failed(self, account: str, pair: str, address: str, user_id: int | None) -> None:
        """Count a failed sign-in: the address and account, the address, the account; tell the
        operator when the account starts failing from many addresses, and its owner later."""
        await self.limits.hit("login_pair", pair)
        await self.limits.hit("login_failed", address)
        if self.metrics is not None:
            self.metrics.login_failed.inc()
        if user_id is not None:
            async with self.sessions() as db, db.begin():
                await repo.note_failed_sign_in(db, user_id, now())
        over = not await self.limits.hit("login_account", account)
        if over and account not in self.attacked:
            self.attacked.add(account)
            log.warning(
                "sign-in: account %r keeps failing from several addresses: their attempts on it "
                "are slowed (its owner is told at their next sign-in)",
                account,
            )
        elif not over:
            self.attacked.discard(account)

    async def new_user(self, display: str, username: str | None, password: str | None) -> int:
        """Store a new person; :class:`Refused` when the username or display name is taken."""
        hashed = await asyncio.to_thread(auth.hash_password, password) if password else None
        try:
            async with self.sessions() as db, db.begin():
                if username is not None and await repo.username_taken(db, username):
                    raise Refused("that username is taken")
                if await repo.display_name_taken(db, display):
                    raise Refused("that display name is taken: choose another")
                user = User(
                    username=username,
                    display_name=display,
                    display_key=name_key(display),
                    password_hash=hashed,
                    is_guest=username is None,
                    created_at=now(),
                )
                unit.add(db, user)
                await unit.flush(db)
                return user.id
        except IntegrityError:  # taken at the same moment by someone else
            raise Refused("that name is taken: choose another") from None
