"""Accounts: argon2 password hashes, session cookies, CSRF tokens and a login rate limit.

* The session cookie (``boneyard_session``) is HttpOnly, SameSite=Lax; the database keeps only
  the sha256 of its token.
* CSRF: double-submit. Every response sets a random ``boneyard_csrf`` cookie (readable by the
  page's script) when the browser has none; every state-changing request must echo it in the
  ``X-CSRF-Token`` header. A cross-site page can neither read the cookie nor set the header.
* Login and registration: at most ``LOGIN_LIMIT`` attempts per client address per
  ``LOGIN_WINDOW`` seconds (HTTP 429 after that).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections import deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

SESSION_COOKIE = "boneyard_session"
CSRF_COOKIE = "boneyard_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
LOGIN_LIMIT = 10
LOGIN_WINDOW = 60.0

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,30}$")

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """An argon2id hash of ``password``."""
    return _hasher.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the stored hash (``None``: a guest, never)."""
    if stored is None:
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A random cookie token."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database stores for a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_username(name: str) -> str | None:
    """Why ``name`` is not a valid username, or ``None``.

    >>> check_username("ann") is None, check_username("a b") is not None
    (True, True)
    """
    if not USERNAME.match(name):
        return "a username has 3 to 30 letters, digits, dots, dashes or underscores"
    return None


def check_display_name(name: str) -> str | None:
    """Why ``name`` is not a valid display name, or ``None``."""
    clean = name.strip()
    if not 1 <= len(clean) <= 30:
        return "a display name has 1 to 30 characters"
    if any(not ch.isprintable() for ch in clean):
        return "a display name cannot contain control characters"
    return None


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds per key (a sliding window)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.events: dict[str, deque[float]] = {}

    def allow(self, key: str, at: float | None = None) -> bool:
        """Record an event for ``key``; false when over the limit.

        >>> r = RateLimiter(2, 10)
        >>> [r.allow("a", at=t) for t in (0, 1, 2, 11)]
        [True, True, False, True]
        """
        t = time.monotonic() if at is None else at
        q = self.events.setdefault(key, deque())
        while q and q[0] <= t - self.window:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(t)
        if len(self.events) > 10_000:  # forget idle keys
            for k in [k for k, v in self.events.items() if not v]:
                del self.events[k]
        return True
