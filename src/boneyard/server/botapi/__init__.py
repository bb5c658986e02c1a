"""The bot accounts' API, as lichess's BOT API: the upgrade, the event stream, moves and
challenges over HTTP (:mod:`.service`; docs/bots.md)."""
