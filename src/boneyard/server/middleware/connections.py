"""Who holds the server's connections: a cap per client address and one for the whole process.

uvicorn accepts every TCP connection and keeps it until the client sends a request (or the
request deadline, :mod:`.httpguard`, cuts it): the ASGI app never sees a connection that sends
nothing, so a cap there cannot stop one client from holding thousands of them (issue 28: 8,300
idle connections from one client, every honest request answered 503). :class:`Gate` counts
connections where uvicorn makes them — its protocol's ``connection_made`` (HTTP, kept alive or
upgraded to a WebSocket, spectators' sockets included) — by the client's address:

* **Per address** (``per_address``): a client that already holds that many connections has its
  next one closed at once, before any byte of it is read. IPv6 addresses count by their /64 (one
  machine gets a whole /64).
* **Behind a proxy**: a connection from a trusted proxy (uvicorn's ``FORWARDED_ALLOW_IPS``,
  127.0.0.1 and ::1 by default: nginx) is not capped as the proxy's, but counted under the
  client its request names (``X-Forwarded-For``, as uvicorn reads it) once its headers are in;
  over the cap, that request is answered 429 and the connection closed.
* **A venue** (:meth:`Gate.allow`): a hall's players share its one address, 128 phones each
  keeping a connection or two open as they follow the event's page. While the staff of an
  over-the-board event follow it from an address, that address may hold ``VENUE_PER_PERSON``
  connections for each person entered (the event says so: :mod:`boneyard.server.tournaments`),
  for ``VENUE_HOLD`` seconds after their last look.
* **The whole process** (``total``): when every place is taken, a newcomer is let in only if
  some address holds at least two more connections than the newcomer's does: that address's
  oldest idle connection (no request under way, or a WebSocket) is closed to make room. So an
  attacker's connections go first, and a client with few is never the one refused while
  someone holds many.

The gate is pure bookkeeping; the protocols (:mod:`.httpguard`) close what it refuses or sheds.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from typing import Protocol

PER_ADDRESS = 64
"""Connections one client address may hold: a browser opens 6 per site plus a socket per table
page; a household or an office behind one address stays far below."""
TOTAL = 8192
"""Connections one process holds at most."""
VENUE_PER_PERSON = 8
"""Connections a venue's address may hold for each person entered in its event: a phone opens
up to 6 as a page loads, then keeps one or two open between the page's questions."""
VENUE_MOST = 1024
"""The most connections any venue's address may hold (a hall of 128; an event of 256 gets no
more): an account that makes an event cannot raise its own address's cap further."""
VENUE_HOLD = 1800.0
"""Seconds a venue's allowance lasts after the event's staff last looked at it from there."""


class Held(Protocol):
    """A connection as the gate sees it (the HTTP protocol of one transport)."""

    def idle(self) -> bool:
        """Whether no request is under way (a WebSocket counts as idle: it may be shed)."""
        ...

    def shed(self) -> None:
        """Close it to make room."""
        ...


def address_key(host: str) -> str:
    """The address a connection counts under: IPv4 as it is, IPv6 by its /64 (an IPv4 address
    mapped into IPv6 as the IPv4 one).

    >>> address_key("10.1.2.3"), address_key("2001:db8::1"), address_key("::ffff:10.0.0.1")
    ('10.1.2.3', '2001:db8::/64', '10.0.0.1')
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{host}/64", strict=False))
    return host


class Gate:
    """Connections by client address (see the module docstring). ``trusted`` tells whether a
    peer is a trusted proxy; ``refused(reason)`` is called for every refusal and shed
    (``connections_address``, ``connections_site``, ``connections_shed``: /metrics).

    >>> class C:
    ...     def __init__(self): self.open = True
    ...     def idle(self): return True
    ...     def shed(self): self.open = False
    >>> gate = Gate(per_address=2, total=3, trusted=lambda host: host == "127.0.0.1")
    >>> a1, a2, a3, b1 = C(), C(), C(), C()
    >>> gate.open(a1, "10.0.0.1"), gate.open(a2, "10.0.0.1"), gate.open(a3, "10.0.0.1")
    (True, True, False)
    >>> gate.open(b1, "10.0.0.2"), gate.open(C(), "10.0.0.3")  # full: 10.0.0.1 gives one up
    (True, True)
    >>> a1.open, gate.count("10.0.0.1"), len(gate)
    (False, 1, 3)
    """

    def __init__(
        self,
        per_address: int = PER_ADDRESS,
        total: int = TOTAL,
        trusted: Callable[[str], bool] = lambda _host: False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address = per_address
        self.total = total
        self.trusted = trusted
        self.clock = clock
        self.venues: dict[str, tuple[int, float]] = {}  # address -> (its cap, until)
        self.held: dict[str, dict[Held, None]] = {}  # address -> its connections, oldest first
        self.where: dict[Held, str] = {}
        self.refused: Callable[[str], None] = lambda _reason: None

    def __len__(self) -> int:
        return len(self.where)

    def count(self, host: str) -> int:
        """Connections held under ``host``'s address."""
        return len(self.held.get(address_key(host), ()))

    def allow(self, host: str, cap: int, seconds: float = VENUE_HOLD) -> None:
        """``host``'s address (a venue) may hold up to ``cap`` connections (at most
        :data:`VENUE_MOST`) for the next ``seconds`` (the largest of the caps given while they
        last); expired ones are dropped.

        >>> now = [0.0]
        >>> gate = Gate(per_address=2, clock=lambda: now[0])
        >>> gate.allow("10.0.0.9", 5, seconds=60)
        >>> gate.cap("10.0.0.9"), gate.cap("10.0.0.1")
        (5, 2)
        >>> now[0] = 61.0
        >>> gate.cap("10.0.0.9")
        2
        >>> gate.allow("10.0.0.9", 100_000)
        >>> gate.cap("10.0.0.9")
        1024
        """
        key, now = address_key(host), self.clock()
        self.venues = {k: v for k, v in self.venues.items() if v[1] > now}
        before = self.venues.get(key, (0, now))[0]
        self.venues[key] = (min(max(cap, before), VENUE_MOST), now + seconds)

    def cap(self, key: str) -> int:
        """Connections address ``key`` may hold: ``per_address``, or a venue's allowance."""
        venue = self.venues.get(key)
        if venue is None or venue[1] <= self.clock():
            return self.per_address
        return max(venue[0], self.per_address)

    def open(self, conn: Held, host: str) -> bool:
        """A new connection from peer ``host``; false: refused (close it unread)."""
        if self.trusted(host):
            return self._admit(conn, f"proxy {host}", capped=False)
        return self._admit(conn, address_key(host), capped=True)

    def forwarded(self, conn: Held, client: str) -> bool:
        """``conn`` (from a trusted proxy) carries a request of ``client``: counted under that
        address from now on; false: that address holds too many already (refuse the request)."""
        key = address_key(client)
        if self.where.get(conn) == key:
            return True
        if len(self.held.get(key, ())) >= self.cap(key):
            self.refused("connections_address")
            return False
        self._drop(conn)
        self._add(conn, key)
        return True

    def close(self, conn: Held) -> None:
        """``conn`` is gone."""
        self._drop(conn)

    def _admit(self, conn: Held, key: str, capped: bool) -> bool:
        mine = len(self.held.get(key, ()))
        if capped and mine >= self.cap(key):
            self.refused("connections_address")
            return False
        if len(self.where) >= self.total and not self._make_room(mine):
            self.refused("connections_site")
            return False
        self._add(conn, key)
        return True

    def _make_room(self, mine: int) -> bool:
        """Shed one connection of the address that holds the most (proxies aside), if it holds
        at least two more than ``mine``."""
        biggest = max(
            (k for k in self.held if not k.startswith("proxy ")),
            key=lambda k: len(self.held[k]),
            default=None,
        )
        if biggest is None or len(self.held[biggest]) < mine + 2:
            return False
        theirs = list(self.held[biggest])
        victim = next((c for c in theirs if c.idle()), theirs[0])
        self._drop(victim)
        self.refused("connections_shed")
        victim.shed()
        return True

    def _add(self, conn: Held, key: str) -> None:
        self.held.setdefault(key, {})[conn] = None
        self.where[conn] = key

    def _drop(self, conn: Held) -> None:
        key = self.where.pop(conn, None)
        if key is None:
            return
        mine = self.held.get(key)
        if mine is not None:
            mine.pop(conn, None)
            if not mine:
                del self.held[key]
