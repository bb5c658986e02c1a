"""The CSRF check: every state-changing request echoes a signed token bound to its session.

A pure ASGI middleware (the scheme is in accounts.auth). A request whose method is not
GET, HEAD or OPTIONS passes only when its ``X-CSRF-Token`` header equals the ``boneyard_csrf``
cookie and that cookie is a token the site signed for the request's session; anything else is
answered 403 and reaches no route. Every response to a browser without a valid token for its
session brings a fresh one (unless the route set one itself, as signing in and out do).

A bot program's request (``Authorization: Bearer``, accounts.apitokens) carrying no session
cookie is not checked: a browser never adds that header by itself, and such a request is
identified by its token alone. A request with both a session cookie and a bearer header is checked
as any other (a cookie never rides along unchecked).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boneyard.server.accounts import auth

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
REFUSED = "missing or wrong CSRF token: reload the page"


class CsrfMiddleware:
    """See the module docstring; ``secret()`` gives the site's signing key."""

    def __init__(self, app: ASGIApp, secret: Callable[[], bytes]) -> None:
        self.app = app
        self.secret = secret

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        key = self.secret()
        binding = auth.csrf_binding(conn.cookies.get(auth.SESSION_COOKIE))
        token = conn.cookies.get(auth.CSRF_COOKIE)
        valid = auth.csrf_valid(key, binding, token)
        bot = conn.headers.get("authorization", "")[:7].lower() == "bearer "
        if bot and auth.SESSION_COOKIE not in conn.cookies:
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE:
            sent = conn.headers.get(auth.CSRF_HEADER) or ""
            if not valid or not token or not hmac.compare_digest(sent, token):
                await JSONResponse({"detail": REFUSED}, 403)(scope, receive, send)
                return
        if valid:
            await self.app(scope, receive, send)
            return

        async def send_fresh(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                cookies = headers.getlist("set-cookie")
                if not any(c.startswith(f"{auth.CSRF_COOKIE}=") for c in cookies):
                    fresh = auth.csrf_token(key, binding)
                    secure = "; Secure" if conn.url.scheme == "https" else ""
                    headers.append(
                        "set-cookie", f"{auth.CSRF_COOKIE}={fresh}; Path=/; SameSite=lax{secure}"
                    )
            await send(message)

        await self.app(scope, receive, send_fresh)
