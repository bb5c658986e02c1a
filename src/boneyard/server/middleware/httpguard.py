"""uvicorn's HTTP protocol with a deadline for each request to arrive (slow clients cut off).

uvicorn times out a connection that idles *between* requests (``timeout_keep_alive``), but not
one that opens and then sends nothing, or dribbles its headers or body a byte at a time
("slowloris"): such connections were kept forever. :class:`GuardedHttp` closes a connection
whose request has not arrived whole within ``REQUEST_TIMEOUT`` seconds of the connection opening
or the request's first byte. Once a request is in, its handling has no deadline, and a socket
upgraded to a WebSocket leaves the guard (WebSockets have their own pings).

``boneyard serve`` runs uvicorn with ``http=guarded(seconds)``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

REQUEST_TIMEOUT = 20.0


class GuardedHttp(HttpToolsProtocol):
    """See the module docstring; ``request_timeout`` is set by :func:`guarded`."""

    request_timeout = REQUEST_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def guarded(seconds: float) -> type[GuardedHttp]:
    """The protocol class with a request deadline of ``seconds``."""
    attrs: dict[str, Any] = {"request_timeout": seconds}
    return type("GuardedHttp", (GuardedHttp,), attrs)
