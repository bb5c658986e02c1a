"""Security headers on every HTTP response (a pure ASGI middleware).

* ``Content-Security-Policy``: scripts, styles, images and sockets from this site only, no
  inline script or style, no plugins, never framed. A page sets its own, which also allows its
  import map by its digest (:class:`boneyard.server.webfiles.Page`). The site's own pages pass
  it (checked in Chromium by tests/server/site/test_browser_security.py: no violation in the
  console).
* ``X-Frame-Options: DENY`` (older browsers), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: same-origin`` (an invite link's token never leaves in a Referer),
  ``Cross-Origin-Opener-Policy: same-origin``, a ``Permissions-Policy`` that turns off what the
  site never uses.
* ``Strict-Transport-Security`` on responses sent over HTTPS (behind nginx: ``X-Forwarded-Proto``,
  which uvicorn's proxy headers turn into the request's scheme).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}
HSTS = "max-age=31536000; includeSubDomains"


class SecurityHeaders:
    """Adds :data:`HEADERS` (and HSTS over HTTPS) to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    if name not in headers:
                        headers[name] = value
                if https:
                    headers["strict-transport-security"] = HSTS
            await send(message)

        await self.app(scope, receive, send_with_headers)
