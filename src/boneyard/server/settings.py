"""The operator's settings of a site: who may start bot-only tables, caps, sessions, metrics.

One frozen value, given to ``create_app(settings=...)``; ``boneyard serve`` builds it from its
options and ``BONEYARD_*`` environment variables (docs/operations.md lists every one). Rate
limits are separate (boneyard.server.ratelimit), as a mapping of name to rate.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from boneyard.core.errors import BoneyardError

BotTables = Literal["off", "accounts", "everyone"]


@dataclass(frozen=True, slots=True)
class SiteSettings:
    """What the operator decides (defaults in brackets; docs/operations.md).

    * ``bot_tables``: who may start a table with no person seated — ``off``, ``accounts``
      (signed-in accounts, not guests) [``accounts``] or ``everyone``.
    * ``bot_tables_per_person`` [2] and ``bot_tables_total`` [20]: how many such tables may run
      at once per person and on the whole site.
    * ``pause_unwatched`` [true]: a bot-only table's bots move only while someone watches it;
      ``unwatched_minutes`` [10]: it is closed after this long with no move.
    * ``open_tables_per_person`` [3]: tables waiting for players one person may have;
      ``open_tables_per_guest`` [1]: one guest; ``open_tables_per_address`` [6]: all the
      people of one client address together.
    * ``open_table_minutes`` [60]: a table still waiting for players after this long is closed.
    * ``events_per_person`` [3]: events one account may have in registration or running.
    * ``event_bots`` [64]: bot entrants a director may add to one event (also never more than
      the event's size).
    * ``rate_bot_games`` [false]: rate games where a bot held a seat (bots are never rated).
    * ``session_days`` [7]: a session unused this long ends (each use renews it) and
      ``session_max_days`` [30]: no session lasts longer.
    * ``metrics_token`` [none]: ``/metrics`` needs ``Authorization: Bearer <token>``; without a
      token it answers only connections from this machine (127.0.0.1, ::1).
    * ``upload_workers`` [1], ``upload_seconds`` [20], ``upload_queue`` [4]: record replays and
      analyses run in worker processes, at most this long each, with at most this many waiting.
    * ``smtp_host`` [none: no e-mail], ``smtp_port`` [25], ``smtp_security`` [``none``,
      ``starttls`` or ``ssl``], ``smtp_user`` / ``smtp_password`` [none], ``smtp_from``
      [``boneyard@localhost``]: where event notifications go out by e-mail, to the people who
      gave an address and asked for it; ``site_url`` [``http://localhost:8000``]: the address
      the e-mails link to.
    * ``plugin_bots`` [false]: bot seats may take the bot plugins installed on the server
      (docs/bots.md), as well as the built-in bots.
    * ``analysis_worlds`` [24]: worlds the expert samples per decision when it analyses a
      finished game for the replay viewer.
    * ``pairing_bot_after`` [30]: seconds a person waits in a quick-pairing pool before the
      site offers them a bot instead (boneyard.server.lobby.pairing).
    * ``pairing_per_address`` [4]: people from one address who may wait in the pools at once.
    """

    bot_tables: BotTables = "accounts"
    bot_tables_per_person: int = 2
    bot_tables_total: int = 20
    pause_unwatched: bool = True
    unwatched_minutes: float = 10.0
    open_tables_per_person: int = 3
    open_tables_per_guest: int = 1
    open_tables_per_address: int = 6
    open_table_minutes: float = 60.0
    events_per_person: int = 3
    event_bots: int = 64
    rate_bot_games: bool = False
    session_days: float = 7.0
    session_max_days: float = 30.0
    metrics_token: str | None = None
    upload_workers: int = 1
    upload_seconds: float = 20.0
    upload_queue: int = 4
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_security: str = "none"
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str = "boneyard@localhost"
    site_url: str = "http://localhost:8000"
    plugin_bots: bool = False
    analysis_worlds: int = 24
    pairing_bot_after: float = 30.0
    pairing_per_address: int = 4

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> SiteSettings:
        """The defaults with every ``BONEYARD_<FIELD>`` variable of ``env`` (``os.environ``).

        >>> SiteSettings.from_env({"BONEYARD_BOT_TABLES": "off", "BONEYARD_EVENT_BOTS": "8"})
        ... # doctest: +ELLIPSIS
        SiteSettings(bot_tables='off', ..., event_bots=8, ...)
        """
        source = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = source.get(f"BONEYARD_{f.name.upper()}")
            if raw is not None:
                values[f.name] = _parse(f.name, str(f.type), raw)
        return replace(cls(), **values).checked()

    def checked(self) -> SiteSettings:
        """Itself, or :class:`BoneyardError` naming the setting that is out of range."""
        if self.bot_tables not in ("off", "accounts", "everyone"):
            raise BoneyardError("bot_tables is off, accounts or everyone")
        capped = ("bot_tables_per_person", "bot_tables_total", "open_tables_per_person")
        for name in (*capped, "open_tables_per_guest", "open_tables_per_address"):
            if getattr(self, name) < 0:
                raise BoneyardError(f"{name} cannot be negative")
        if self.upload_workers < 1 or self.upload_seconds <= 0 or self.upload_queue < 0:
            raise BoneyardError("upload_workers is at least 1 and upload_seconds above 0")
        if self.smtp_security not in ("none", "starttls", "ssl"):
            raise BoneyardError("smtp_security is none, starttls or ssl")
        if not 0 < self.smtp_port < 65536:
            raise BoneyardError("smtp_port is a port number (1 to 65535)")
        if not 1 <= self.analysis_worlds <= 1000:
            raise BoneyardError("analysis_worlds is 1 to 1000")
        if self.pairing_bot_after < 0 or self.pairing_per_address < 1:
            raise BoneyardError("pairing_bot_after is 0 or more and pairing_per_address 1 or more")
        if self.session_days <= 0 or self.session_max_days < self.session_days:
            raise BoneyardError("session_days is above 0 and at most session_max_days")
        return self


def _parse(name: str, kind: str, raw: str) -> object:
    """The value of environment variable text ``raw`` for a field of type ``kind``."""
    try:
        if kind == "bool":
            if raw.lower() not in ("1", "0", "true", "false", "yes", "no"):
                raise ValueError(raw)
            return raw.lower() in ("1", "true", "yes")
        if kind == "int":
            return int(raw)
        if kind == "float":
            return float(raw)
    except ValueError:
        raise BoneyardError(f"BONEYARD_{name.upper()} cannot be {raw!r}") from None
    return raw or None if "None" in kind else raw
