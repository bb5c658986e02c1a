"""The bots the site seats: the built-in ones, and installed plugins where the operator allows.

``plugin_bots`` (off by default, docs/operations.md) lets the bot seats of tables and tournaments
take the bot plugins installed on the server (entry points of the group ``boneyard.bots``,
docs/bots.md). A name typed by a person never runs code the operator did not install: no
``module:attribute`` and no ``cmd:`` program is ever taken here.
"""

from __future__ import annotations

from boneyard.bots.plugins import check_bot, known
from boneyard.core.errors import BoneyardError
from boneyard.server.errors import Refused
from boneyard.server.settings import SiteSettings


def site_bots(settings: SiteSettings) -> list[str]:
    """The names the site's bot seats take."""
    return known(plugins=settings.plugin_bots)


def check_site_bot(name: str, game: str | None, settings: SiteSettings) -> None:
    """:class:`Refused` with the reason when the site does not seat bot ``name`` (at ``game``)."""
    try:
        check_bot(name, game, local=False, plugins=settings.plugin_bots)
    except BoneyardError as exc:
        raise Refused(str(exc)) from None
