"""The account routes: ``GET /api/me``, ``POST /api/register``, ``/api/login``, ``/api/guest``,
``/api/logout``, ``GET /api/me/sessions``, ``DELETE /api/me/sessions/{id}`` and
``POST /api/me/sessions/end-all`` ("sign out everywhere"). They set and clear the cookies; the
rest is :class:`boneyard.server.accounts.service.Accounts`."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from boneyard.server.accounts.cookies import sign_in, signed_out
from boneyard.server.accounts.schemas import (
    Credentials,
    EndedOut,
    GuestIn,
    MeOut,
    Registration,
    SessionsOut,
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
) -> MeOut:
    """Sign in with username and password."""
    user = await accounts.login(body.username, body.password, address(request))
    return await sign_in(accounts, request, response, user)


@router.post("/api/guest")
async def guest(
    body: GuestIn, request: Request, response: Response, accounts: AccountsDep
) -> MeOut:
    """Play as a guest under a display name."""
    user = await accounts.guest(body.display_name, address(request))
    return await sign_in(accounts, request, response, user)


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
