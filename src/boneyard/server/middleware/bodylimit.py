"""A bound on request bodies, enforced while they stream (a pure ASGI middleware).

A body declared longer than its route's limit (``Content-Length``) is refused at once; a body
without a length (chunked) is counted as it arrives, and the moment it passes the limit the
client gets 413 and the route sees the client as gone (it stops reading; nothing it would have
answered is sent). So no request makes the server hold more than the limit in memory, whatever
it claims. Limits: :data:`DEFAULT_LIMIT` for every route, larger ones by path prefix
(``{"/api/replays": 2_000_000}``).
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_LIMIT = 64 * 1024
"""Bytes of any request body (a table, an event, a chat line are far smaller)."""


class BodyLimit:
    """See the module docstring."""

    def __init__(
        self, app: ASGIApp, limits: Mapping[str, int] | None = None, default: int = DEFAULT_LIMIT
    ) -> None:
        self.app = app
        self.limits = dict(limits or {})
        self.default = default

    def limit(self, path: str) -> int:
        """The limit for a request to ``path``."""
        for prefix, size in self.limits.items():
            if path.startswith(prefix):
                return size
        return self.default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit(scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and not declared.isdigit():
            bad = {"detail": "the request's Content-Length is not a number"}
            await JSONResponse(bad, status_code=400)(scope, receive, send)
            return
        if declared is not None and int(declared) > limit:
            await self.refuse(limit)(scope, receive, send)
            return
        seen = 0
        refused = False

        async def counted() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    refused = True
                    await self.refuse(limit)(scope, receive, send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded(message: Message) -> None:
            if not refused:  # once refused, the route's own answer is dropped
                await send(message)

        await self.app(scope, counted, guarded)

    @staticmethod
    def refuse(limit: int) -> JSONResponse:
        """The 413 answer."""
        return JSONResponse(
            {"detail": f"the request is too large (over {limit:,} bytes)"},
            status_code=413,
            headers={"connection": "close"},
        )
