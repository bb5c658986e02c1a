"""Accounts' building blocks: argon2 password hashes, the password policy, session tokens,
display names, and the signed CSRF token.

* The session cookie (``boneyard_session``) is HttpOnly, SameSite=Lax; the database keeps only
  the sha256 of its token. A session unused for ``session_days`` ends, and none outlives
  ``session_max_days`` (boneyard.server.settings); each use renews it.
* Passwords: 8 to 200 characters, not only spaces, not the username, and not guessable by
  zxcvbn's estimate (score 2 of 4 or better: it knows the common-password lists). A failed
  sign-in costs one argon2 verification whether the account exists or not, so its timing does not
  tell which names exist.
* Display names are unique whatever their case or Unicode form (:func:`name_key`), and names an
  impostor would want (``admin``, ``moderator``, "… bot") are reserved.
* CSRF: a signed double-submit token bound to the session (:func:`csrf_token`). The cookie
  ``boneyard_csrf`` (readable by the page's script) holds ``nonce.signature``, where the
  signature is an HMAC of the nonce and the session under the site's secret; every state-changing
  request must echo it in ``X-CSRF-Token``. A token made for another session, or by anyone
  without the secret, is refused, and signing in or out issues a new one.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn

from boneyard.store.models import name_key

SESSION_COOKIE = "boneyard_session"
CSRF_COOKIE = "boneyard_csrf"
CSRF_HEADER = "x-csrf-token"
MIN_PASSWORD = 8
MAX_PASSWORD = 200
MAX_TOKEN = 100
"""The longest session or CSRF token looked at (longer ones are refused unread)."""

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,30}$")
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "boneyard",
        "director",
        "guest",
        "mod",
        "moderator",
        "official",
        "operator",
        "root",
        "staff",
        "support",
        "system",
        "tournament director",
        "you",
    }
)
"""Names nobody may take (compared by :func:`name_key`); names of bots are refused too."""
BOT_LIKE = re.compile(r"\bbots?\b")
"""A person may not look like a bot seat ("Greedy bot 2")."""

_hasher = PasswordHasher()
_DUMMY = _hasher.hash(secrets.token_hex(16))
"""Verified against when a sign-in names no account: a failure then takes as long."""


def hash_password(password: str) -> str:
    """An argon2id hash of ``password`` (tens of milliseconds: call it from a thread)."""
    return _hasher.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the stored hash. ``None`` (no such account, or a guest)
    is never a match, and costs one verification like a wrong password."""
    try:
        matched = _hasher.verify(stored if stored is not None else _DUMMY, password)
    except (VerificationError, InvalidHashError):
        return False
    return matched and stored is not None


def password_problem(password: str, username: str, display_name: str = "") -> str | None:
    """Why ``password`` is refused for ``username``, or ``None``.

    >>> password_problem("password", "ann")
    'that password is too easy to guess (This is a top-10 common password.)'
    >>> password_problem("        ", "ann")
    'a password cannot be only spaces'
    >>> password_problem("correct horse", "ann") is None
    True
    """
    if len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    if not password.strip():
        return "a password cannot be only spaces"
    if password.strip().casefold() in (username.casefold(), display_name.strip().casefold()):
        return "a password cannot be your name"
    # zxcvbn looks at 72 characters at most; a longer password is at least as strong.
    found = zxcvbn(password[:72], user_inputs=[username, display_name])
    if found["score"] < 2:
        hint = found["feedback"]["warning"] or "add words or characters nobody would guess"
        return f"that password is too easy to guess ({hint})"
    return None


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
    >>> check_username("Admin")
    'that name is reserved'
    """
    if not USERNAME.match(name):
        return "a username has 3 to 30 letters, digits, dots, dashes or underscores"
    if name_key(name) in RESERVED:
        return "that name is reserved"
    return None


def check_display_name(name: str) -> str | None:
    """Why ``name`` is not a valid display name, or ``None`` (uniqueness is the database's).

    >>> check_display_name("Ann") is None
    True
    >>> check_display_name("ADMIN"), check_display_name("Expert bot 2")
    ('that name is reserved', 'that name is reserved')
    """
    clean = name.strip()
    if not 1 <= len(clean) <= 30:
        return "a display name has 1 to 30 characters"
    if any(not ch.isprintable() for ch in clean):
        return "a display name cannot contain control characters"
    key = name_key(clean)
    if key in RESERVED or BOT_LIKE.search(key):
        return "that name is reserved"
    return None


# -- CSRF ---------------------------------------------------------------------------------------


def csrf_binding(session_token: str | None) -> str:
    """What a CSRF token is bound to: the session (its hash), or ``anon`` when signed out."""
    if not session_token or len(session_token) > MAX_TOKEN:
        return "anon"
    return token_hash(session_token)


def csrf_token(secret: bytes, binding: str) -> str:
    """A fresh CSRF token for ``binding``: ``nonce.signature``.

    >>> t = csrf_token(b"k", "anon")
    >>> csrf_valid(b"k", "anon", t), csrf_valid(b"k", "other", t), csrf_valid(b"x", "anon", t)
    (True, False, False)
    """
    nonce = secrets.token_urlsafe(18)
    return f"{nonce}.{_sign(secret, binding, nonce)}"


def csrf_valid(secret: bytes, binding: str, token: str | None) -> bool:
    """Whether ``token`` was made by :func:`csrf_token` for ``binding`` under ``secret``."""
    if not token or len(token) > MAX_TOKEN or token.count(".") != 1:
        return False
    nonce, signature = token.split(".")
    return hmac.compare_digest(signature, _sign(secret, binding, nonce))


def _sign(secret: bytes, binding: str, nonce: str) -> str:
    mac = hmac.new(secret, f"csrf|{binding}|{nonce}".encode(), hashlib.sha256)
    return mac.hexdigest()[:43]


BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
            ("Safari/", "Safari"))  # fmt: skip
SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
           ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))  # fmt: skip


def browser_label(user_agent: str) -> str:
    """A browser as a person names it, from its User-Agent (only for the list of sessions).

    >>> browser_label("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    ...               "Chrome/156.0.0.0 Safari/537.36")
    'Chrome on Linux'
    >>> browser_label("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1")
    'Safari on iPhone'
    >>> browser_label("curl/8.0")
    'curl/8.0'
    """
    name = next((n for key, n in BROWSERS if key in user_agent), None)
    system = next((n for key, n in SYSTEMS if key in user_agent), None)
    if name is None or system is None:
        return user_agent[:40] or "unknown browser"
    return f"{name} on {system}"
