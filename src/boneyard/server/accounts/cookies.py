"""The cookies of a session: signing a person in (a session cookie, and a CSRF token bound to
it) and out. The account routes use them, and so does any route that makes an account and signs
its person in (an event's venue sign-up, docs/tournaments-site.md)."""

from __future__ import annotations

from fastapi import Request, Response

from boneyard.server.accounts import auth
from boneyard.server.accounts.schemas import MeOut
from boneyard.server.accounts.service import Accounts, Me


async def sign_in(accounts: Accounts, request: Request, response: Response, me: Me) -> MeOut:
    """A new session for ``me``: its cookie, and a CSRF token bound to it."""
    token = await accounts.open_session(me.id, request.headers.get("user-agent") or "")
    secure = request.url.scheme == "https"
    max_age = int(accounts.settings.session_max_days * 86400)
    response.set_cookie(
        auth.SESSION_COOKIE,
        token,
        httponly=True,
        secure=secure,
        samesite="lax",
        max_age=max_age,
        path="/",
    )
    set_csrf(accounts, request, response, auth.csrf_binding(token))
    return MeOut.model_validate({"user": me.to_json()})


def set_csrf(accounts: Accounts, request: Request, response: Response, binding: str) -> None:
    """A fresh CSRF cookie bound to ``binding`` (the page's script reads it)."""
    token = accounts.csrf_token(binding)
    secure = request.url.scheme == "https"
    response.set_cookie(auth.CSRF_COOKIE, token, samesite="lax", secure=secure, path="/")


def signed_out(accounts: Accounts, request: Request, response: Response) -> None:
    """Clear the session cookie; a CSRF token for nobody."""
    response.delete_cookie(auth.SESSION_COOKIE, path="/")
    set_csrf(accounts, request, response, "anon")
