"""The account routes: ``GET /api/me``, ``POST /api/register``, ``/api/login``, ``/api/guest``,
``/api/logout``, ``POST /api/me/name`` (a guest's name), ``GET /api/me/sessions``,
``DELETE /api/me/sessions/{id}`` and ``POST /api/me/sessions/end-all`` ("sign out
everywhere"). They set and clear the cookies; the rest is
:class:`boneyard.server.accounts.service.Accounts`."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from boneyard.server.accounts.cookies import sign_in, signed_out
from boneyard.server.accounts.schemas import (
    Credentials,
    EndedOut,
    FailedSignIns,
    GuestIn,
    MeOut,
    NameIn,
    Registration,
    SessionsOut,
    SignedInOut,
)
from boneyard.server.deps import AccountsDep, MaybeUser, NeedUser, address
from boneyard.server.errors import ERRORS

router = APIRouter(responses=ERRORS)


@router.get("/api/me")
async def me(user: MaybeUser) -> MeOut:
    """Who is signed in (``user`` is null when nobody)."""
    return MeOut.model_validate({"user": user.to_json() if user else None})


@router.post("/api/register")
async def register(
    body: Registration, request: Request, response: Response, accounts: AccountsDep
) -> MeOut:
    """Create an account and sign in."""
    user = await accounts.register(
        body.username, body.password, body.display_name, address(request)
    )
    return await sign_in(accounts, request, response, user)


@router.post("/api/login")
async def login(
    body: Credentials, request: Request, response: Response, accounts: AccountsDep
) -> SignedInOut:
    """Sign in with username and password (``failed_sign_ins``: the failed attempts on the
    account since its owner last signed in, if any)."""
    user, failed = await accounts.login(body.username, body.password, address(request))
    signed = await sign_in(accounts, request, response, user)
    told = FailedSignIns.model_validate(failed) if failed is not None else None
    return SignedInOut(user=signed.user, failed_sign_ins=told)


@router.post("/api/guest")
async def guest(
    body: GuestIn, request: Request, response: Response, accounts: AccountsDep
) -> MeOut:
    """Play as a guest under a display name (none: the site picks one, changed later)."""
    user = await accounts.guest(body.display_name, address(request))
    return await sign_in(accounts, request, response, user)


@router.post("/api/me/name")
async def guest_name(
    body: NameIn, request: Request, user: NeedUser, accounts: AccountsDep
) -> MeOut:
    """A guest chooses their display name (for the tables they sit at from now on)."""
    me = await accounts.rename_guest(user, body.display_name, address(request))
    return MeOut.model_validate({"user": me.to_json()})


@router.post("/api/logout")
async def logout(
    request: Request, response: Response, user: MaybeUser, accounts: AccountsDep
) -> MeOut:
    """Sign out (this session is ended)."""
    if user is not None:
        await accounts.end_sessions(user.id, [user.session])
    signed_out(accounts, request, response)
    return MeOut(user=None)


@router.get("/api/me/sessions")
async def my_sessions(user: NeedUser, accounts: AccountsDep) -> SessionsOut:
    """Where you are signed in."""
    return SessionsOut.model_validate({"sessions": await accounts.list_sessions(user)})


@router.delete("/api/me/sessions/{session_id}")
async def end_session(session_id: str, user: NeedUser, accounts: AccountsDep) -> SessionsOut:
    """End one of your sessions (sign that browser out)."""
    await accounts.end_session(user, session_id)
    return SessionsOut.model_validate({"sessions": await accounts.list_sessions(user)})


@router.post("/api/me/sessions/end-all")
async def end_all(
    request: Request, response: Response, user: NeedUser, accounts: AccountsDep
) -> EndedOut:
    """Sign out everywhere: every session of yours ends, this one too."""
    ended = await accounts.end_sessions(user.id)
    signed_out(accounts, request, response)
    return EndedOut(ended=len(ended))
