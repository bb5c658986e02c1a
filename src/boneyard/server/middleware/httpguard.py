"""uvicorn's protocols with deadlines and the connection caps (slow and greedy clients cut off).

uvicorn times out a connection that idles *between* requests (``timeout_keep_alive``), but not
one that opens and then sends nothing, or dribbles its headers or body a byte at a time
("slowloris"): such connections were kept forever. :class:`GuardedHttp` closes a connection
whose request headers have not arrived within ``header_timeout`` seconds of the connection
opening or the request's first byte, or whose whole request has not arrived within
``request_timeout``. Once a request is in, its handling has no deadline, and a socket upgraded
to a WebSocket leaves the deadlines (WebSockets have their own pings).

Every connection passes the :class:`~.connections.Gate` as it is made (the caps per address and
for the whole process): a refused one is closed before any byte of it is read; one from a
trusted proxy is counted under the client its request names, and answered 429 when that client
holds too many. :class:`GuardedWs` tells the gate when an upgraded connection ends.

``boneyard serve`` runs uvicorn with ``http=guarded(gate, …)`` and ``ws=guarded_ws(gate)``.
"""

from __future__ import annotations

import asyncio
import json
import time

from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from boneyard.server.middleware.connections import Gate

REQUEST_TIMEOUT = 20.0
HEADER_TIMEOUT = 10.0
TOO_MANY = {"detail": "too many connections from your address: close some and try again"}


def trusted_proxies(allowed: str | list[str]) -> _TrustedHosts:
    """The trusted proxies as uvicorn reads ``FORWARDED_ALLOW_IPS`` (the same class, so that a
    connection is counted under the very address the request's scope gets)."""
    return _TrustedHosts(allowed)


class GuardedHttp(HttpToolsProtocol):
    """See the module docstring; the class attributes are set by :func:`guarded`."""

    gate: Gate = Gate()
    proxies: _TrustedHosts = _TrustedHosts([])
    request_timeout = REQUEST_TIMEOUT
    header_timeout = HEADER_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None
    _started = 0.0
    _refused = False
    _upgraded = False

    # -- the deadlines ----------------------------------------------------------------------------

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(max(0.0, seconds), self._expire)

    def _begin(self) -> None:
        self._started = time.monotonic()
        self._arm(min(self.header_timeout, self.request_timeout))

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    # -- the gate ----------------------------------------------------------------------------------

    def idle(self) -> bool:
        """No request under way (or a WebSocket): the gate may shed it."""
        return self._upgraded or self.cycle is None or self.cycle.response_complete

    def shed(self) -> None:
        """Closed to make room for another client."""
        if not self.transport.is_closing():
            self.transport.close()

    def _forwarded_ok(self) -> bool:
        """A trusted proxy's request: counted under its client (false: refused, answered)."""
        if self.client is None or self.client[0] not in self.proxies:
            return True
        values = [v for n, v in self.headers if n == b"x-forwarded-for"]
        if not values:
            return True
        host, _port = self.proxies.get_trusted_client_address(b", ".join(values).decode("latin1"))
        if not host or self.gate.forwarded(self, host):
            return True
        self._refused = True
        body = json.dumps(TOO_MANY).encode()
        self.transport.write(
            b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
            b"retry-after: 10\r\nconnection: close\r\ncontent-length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        self.transport.close()
        return False

    # -- uvicorn's protocol ----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.gate.open(self, self.client[0] if self.client else "?"):
            self._refused = True
            transport.close()
            return
        self._begin()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._begin()

    def on_headers_complete(self) -> None:
        if self._refused or not self._forwarded_ok():
            return
        super().on_headers_complete()
        self._arm(self.request_timeout - (time.monotonic() - self._started))

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        if not self._refused:
            super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        if self._refused:
            return
        self._upgraded = True
        super().handle_websocket_upgrade()
        ws = self.transport.get_protocol()
        if isinstance(ws, GuardedWs):
            ws.owner = self

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.gate.close(self)
        super().connection_lost(exc)


class GuardedWs(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol that gives the connection's place back to the gate."""

    gate: Gate = Gate()
    owner: GuardedHttp | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.owner is not None:
            self.gate.close(self.owner)
        super().connection_lost(exc)


def guarded(
    gate: Gate,
    proxies: _TrustedHosts,
    request_timeout: float = REQUEST_TIMEOUT,
    header_timeout: float = HEADER_TIMEOUT,
) -> type[GuardedHttp]:
    """The HTTP protocol class with ``gate``, the trusted ``proxies`` and the deadlines."""
    attrs: dict[str, object] = {
        "gate": gate,
        "proxies": proxies,
        "request_timeout": request_timeout,
        "header_timeout": header_timeout,
    }
    return type("GuardedHttp", (GuardedHttp,), attrs)


def guarded_ws(gate: Gate) -> type[GuardedWs]:
    """The WebSocket protocol class that reports to ``gate``."""
    return type("GuardedWs", (GuardedWs,), {"gate": gate})
