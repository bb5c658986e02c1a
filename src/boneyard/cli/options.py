"""Reading game options and bots from the command line (``--preset box --option
lead_after_lock=big6``, ``--bots "cmd:python mybot.py,greedy" --on-error greedy``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated

import typer

from boneyard.bots.plugins import check_bot, check_rules
from boneyard.bots.referee import FORFEIT, Rules
from boneyard.core.errors import BoneyardError, OptionError

BOTS_HELP = (
    "random, greedy, easy, medium, hard, expert, an installed plugin, module:attribute, "
    "or cmd:COMMAND (a program speaking the protocol of docs/bots.md)"
)
MoveTimeArg = Annotated[
    float,
    typer.Option(
        "--move-time",
        help="Seconds a cmd: bot has for each move (10 more for its first, while it starts).",
    ),
]
OnErrorArg = Annotated[
    str,
    typer.Option(
        "--on-error",
        help="When a bot answers illegally, times out or crashes: forfeit (it loses the game) "
        "or the name of a bot that plays on for it (greedy...).",
    ),
]


def parse_option_pairs(pairs: Sequence[str], preset: str | None) -> dict[str, object]:
    """``key=value`` strings to an options mapping; values are read as JSON when they can be
    (``true``, ``7``), else as text.

    >>> parse_option_pairs(["bogus_grace=false", "lead_after_lock=big6"], "box")
    {'preset': 'box', 'bogus_grace': False, 'lead_after_lock': 'big6'}
    """
    out: dict[str, object] = {}
    if preset is not None:
        out["preset"] = preset
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"write options as key=value, not {pair!r}")
        try:
            value: object = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[key.strip()] = value
    return out


def parse_bot_names(text: str, game: str) -> list[str]:
    """A comma-separated list of bots (``expert,greedy``, ``cmd:python bot.py,greedy``), each
    one that can play ``game`` (BoneyardError says why not).

    >>> parse_bot_names("expert, greedy", "highfive")
    ['expert', 'greedy']
    """
    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise OptionError("name at least one bot")
    for b in names:
        check_bot(b, game)
    return names


def bot_rules(move_time: float, on_error: str, game: str) -> Rules:
    """The referee's rules from ``--move-time`` and ``--on-error`` (BoneyardError says why
    they cannot be).

    >>> bot_rules(2, "greedy", "highfive").on_error
    'greedy'
    """
    if not move_time > 0:
        raise OptionError("--move-time must be above 0 seconds")
    rules = Rules(move_seconds=move_time, on_error=on_error.strip() or FORFEIT)
    try:
        check_rules(rules, game)
    except BoneyardError as exc:
        raise OptionError(f"--on-error: {exc}") from None
    return rules
