"""Accounts on the site: sign-up, sign-in, guests, sessions (listed, renewed, revocable).

Routes: ``GET /api/me``, ``POST /api/register``, ``/api/login``, ``/api/guest``, ``/api/logout``,
``GET /api/me/sessions``, ``DELETE /api/me/sessions/{id}`` and ``POST /api/me/sessions/end-all``
("sign out everywhere"). The rules are in boneyard.server.accounts.auth and docs/server.md.

Password hashing runs in a worker thread (argon2 takes tens of milliseconds; the event loop
never waits for it). Rate limits (boneyard.server.ratelimit): sign-ups and guests per address,
sign-in attempts per address and failed ones per account.
"""

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.requests import HTTPConnection

from boneyard.core.protocol import JSON
from boneyard.server.accounts import apitokens, auth
from boneyard.server.ratelimit import Limits
from boneyard.server.settings import SiteSettings
from boneyard.server.validation import storable
from boneyard.store.models import Session, SiteSecret, User, name_key

CSRF_SECRET = "csrf"


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


class Credentials(BaseModel):
    """Username and password."""

    username: str = Field(max_length=30)
    password: str = Field(max_length=auth.MAX_PASSWORD)


class Registration(Credentials):
    """A new account."""

    display_name: str | None = Field(default=None, max_length=30)


class GuestIn(BaseModel):
    """A guest's display name."""

    display_name: str = Field(max_length=30)


async def shared_secret(sessions: async_sessionmaker[AsyncSession], name: str) -> bytes:
    """The site secret ``name``, made on first use; every process reads the same one."""
    async with sessions() as db:
        row = await db.get(SiteSecret, name)
    if row is None:
        try:
            async with sessions() as db, db.begin():
                db.add(SiteSecret(name=name, value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process made it at the same moment: read theirs
        async with sessions() as db:
            row = await db.get(SiteSecret, name)
    assert row is not None
    return bytes.fromhex(row.value)


def address(request: Request) -> str:
    """The client's address (behind nginx, the forwarded one: uvicorn's proxy headers)."""
    return request.client.host if request.client else "?"


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
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.limits = limits
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
            row = await db.get(Session, key)
            if row is None:
                return None
            t = now()
            if aware(row.expires_at) < t:
                return None
            user = await db.get(User, row.user_id)
            renew = self._renewed(row, t)
        if user is None:
            return None
        if renew is not None:
            async with self.sessions() as db, db.begin():
                fresh = await db.get(Session, key)
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

    async def current_user(self, request: Request) -> Me | None:
        """The signed-in person of a request, or ``None`` (see :meth:`user_of`)."""
        return await self.user_of(request)

    async def user_of(self, conn: HTTPConnection) -> Me | None:
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

    async def need_user(self, request: Request) -> Me:
        """The signed-in person, or HTTP 401."""
        me = await self.current_user(request)
        if me is None:
            raise HTTPException(401, "sign in or play as a guest first")
        return me

    # -- signing in and out ----------------------------------------------------------------------

    async def sign_in(self, request: Request, response: Response, user_id: int) -> None:
        """A new session for ``user_id``: its cookie, and a CSRF token bound to it."""
        token = auth.new_token()
        t = now()
        label = auth.browser_label(request.headers.get("user-agent") or "")
        async with self.sessions() as db, db.begin():
            db.add(
                Session(
                    token_hash=auth.token_hash(token),
                    user_id=user_id,
                    created_at=t,
                    expires_at=t + timedelta(days=self.settings.session_days),
                    last_seen_at=t,
                    label=label if storable(label) else None,
                )
            )
        secure = request.url.scheme == "https"
        response.set_cookie(
            auth.SESSION_COOKIE,
            token,
            httponly=True,
            secure=secure,
            samesite="lax",
            max_age=int(self.settings.session_max_days * 86400),
            path="/",
        )
        self.set_csrf(response, auth.csrf_binding(token), secure)

    def set_csrf(self, response: Response, binding: str, secure: bool) -> None:
        """A fresh CSRF cookie bound to ``binding`` (the page's script reads it)."""
        token = auth.csrf_token(self.csrf_secret, binding)
        response.set_cookie(auth.CSRF_COOKIE, token, samesite="lax", secure=secure, path="/")

    async def end_sessions(self, user_id: int, keys: list[str] | None = None) -> list[str]:
        """End the sessions ``keys`` of ``user_id`` (``None``: all); returns the ended ones."""
        async with self.sessions() as db, db.begin():
            q = select(Session.token_hash).where(Session.user_id == user_id)
            if keys is not None:
                q = q.where(Session.token_hash.in_(keys))
            ended = list((await db.scalars(q)).all())
            if ended:
                await db.execute(delete(Session).where(Session.token_hash.in_(ended)))
        if ended and self.ended is not None:
            await self.ended(ended)
        return ended

    async def list_sessions(self, me: Me) -> list[JSON]:
        """``me``'s sessions, newest first: an id (a prefix of the hash), when made, last used
        and until when, the browser, and whether it is this one."""
        async with self.sessions() as db:
            rows = (
                await db.scalars(
                    select(Session)
                    .where(Session.user_id == me.id)
                    .order_by(Session.created_at.desc())
                    .limit(100)
                )
            ).all()
        t = now()
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
            if aware(r.expires_at) >= t
        ]

    # -- making accounts ---------------------------------------------------------------------------

    async def new_user(self, display: str, username: str | None, password: str | None) -> int:
        """Store a new person; HTTP 400 when the username or display name is taken."""
        hashed = await asyncio.to_thread(auth.hash_password, password) if password else None
        try:
            async with self.sessions() as db, db.begin():
                if username is not None:
                    taken = await db.scalar(select(User.id).where(User.username == username))
                    if taken is not None:
                        raise HTTPException(400, "that username is taken")
                if await self.name_taken(db, display):
                    raise HTTPException(400, "that display name is taken: choose another")
                user = User(
                    username=username,
                    display_name=display,
                    display_key=name_key(display),
                    password_hash=hashed,
                    is_guest=username is None,
                    created_at=now(),
                )
                db.add(user)
                await db.flush()
                return user.id
        except IntegrityError:  # taken at the same moment by someone else
            raise HTTPException(400, "that name is taken: choose another") from None

    @staticmethod
    async def name_taken(db: AsyncSession, display: str) -> bool:
        """Whether a person already has ``display`` (in :func:`name_key` form)."""
        found = await db.scalar(select(User.id).where(User.display_key == name_key(display)))
        return found is not None


def router(accounts: Accounts, errors: dict[int | str, Any]) -> APIRouter:
    """The account routes (see the module docstring)."""
    r = APIRouter()
    NeedUser = Annotated[Me, Depends(accounts.need_user)]
    MaybeUser = Annotated[Me | None, Depends(accounts.current_user)]

    @r.get("/api/me")
    async def me(user: MaybeUser) -> JSON:
        """Who is signed in (``user`` is null when nobody)."""
        return {"user": user.to_json() if user else None}

    @r.post("/api/register", responses=errors)
    async def register(body: Registration, request: Request, response: Response) -> JSON:
        """Create an account and sign in."""
        await accounts.limits.check(
            "register", address(request), "too many new accounts from your address"
        )
        display = (body.display_name or body.username).strip()
        why = auth.check_username(body.username) or auth.check_display_name(display)
        why = why or await asyncio.to_thread(
            auth.password_problem, body.password, body.username, display
        )
        if why:
            raise HTTPException(400, why)
        uid = await accounts.new_user(display, body.username, body.password)
        await accounts.sign_in(request, response, uid)
        return {"user": Me(uid, display, body.username, False).to_json()}

    @r.post("/api/login", responses=errors)
    async def login(body: Credentials, request: Request, response: Response) -> JSON:
        """Sign in with username and password."""
        limits = accounts.limits
        await limits.check("login", address(request), "too many sign-in attempts")
        account = body.username.casefold()[:40]
        if not await limits.allowed("login_account", account):
            await limits.refuse("login_account", account, "too many failed sign-ins here")
        user = None
        if storable(body.username):  # (a NUL: PostgreSQL refuses to look it up)
            async with accounts.sessions() as db:
                user = await db.scalar(select(User).where(User.username == body.username))
        stored = user.password_hash if user is not None else None
        if not await asyncio.to_thread(auth.check_password, stored, body.password):
            await limits.hit("login_account", account)
            raise HTTPException(400, "wrong username or password")
        assert user is not None
        await accounts.sign_in(request, response, user.id)
        return {"user": Me(user.id, user.display_name, user.username, False).to_json()}

    @r.post("/api/guest", responses=errors)
    async def guest(body: GuestIn, request: Request, response: Response) -> JSON:
        """Play as a guest under a display name."""
        await accounts.limits.check("guest", address(request), "too many guests from your address")
        display = body.display_name.strip()
        why = auth.check_display_name(display)
        if why:
            raise HTTPException(400, why)
        uid = await accounts.new_user(display, None, None)
        await accounts.sign_in(request, response, uid)
        return {"user": Me(uid, display, None, True).to_json()}

    @r.post("/api/logout", responses=errors)
    async def logout(request: Request, response: Response, user: MaybeUser) -> JSON:
        """Sign out (this session is ended)."""
        if user is not None:
            await accounts.end_sessions(user.id, [user.session])
        response.delete_cookie(auth.SESSION_COOKIE, path="/")
        accounts.set_csrf(response, "anon", request.url.scheme == "https")
        return {"user": None}

    @r.get("/api/me/sessions", responses=errors)
    async def my_sessions(user: NeedUser) -> JSON:
        """Where you are signed in."""
        return {"sessions": await accounts.list_sessions(user)}

    @r.delete("/api/me/sessions/{session_id}", responses=errors)
    async def end_session(session_id: str, user: NeedUser) -> JSON:
        """End one of your sessions (sign that browser out)."""
        mine = [s for s in await accounts.list_sessions(user) if s["id"] == session_id]
        if not mine:
            raise HTTPException(404, "no such session")
        async with accounts.sessions() as db:
            keys = (
                await db.scalars(
                    select(Session.token_hash).where(
                        Session.user_id == user.id, Session.token_hash.startswith(session_id)
                    )
                )
            ).all()
        await accounts.end_sessions(user.id, list(keys))
        return {"sessions": await accounts.list_sessions(user)}

    @r.post("/api/me/sessions/end-all", responses=errors)
    async def end_all(request: Request, response: Response, user: NeedUser) -> JSON:
        """Sign out everywhere: every session of yours ends, this one too."""
        ended = await accounts.end_sessions(user.id)
        response.delete_cookie(auth.SESSION_COOKIE, path="/")
        accounts.set_csrf(response, "anon", request.url.scheme == "https")
        return {"ended": len(ended), "user": None}

    return r
