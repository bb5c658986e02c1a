"""Reading game options from the command line (``--preset box --option lead_after_lock=big6``)."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from boneyard.core.errors import OptionError


def parse_option_pairs(pairs: Sequence[str], preset: str | None) -> dict[str, Any]:
    """``key=value`` strings to an options mapping; values are read as JSON when they can be
    (``true``, ``7``), else as text.

    >>> parse_option_pairs(["bogus_grace=false", "lead_after_lock=big6"], "box")
    {'preset': 'box', 'bogus_grace': False, 'lead_after_lock': 'big6'}
    """
    out: dict[str, Any] = {}
    if preset is not None:
        out["preset"] = preset
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"write options as key=value, not {pair!r}")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[key.strip()] = value
    return out


def parse_bot_names(text: str, known: Collection[str]) -> list[str]:
    """A comma-separated list of bot names (``expert,greedy``), each one of ``known``.

    >>> parse_bot_names("expert, greedy", ["greedy", "expert"])
    ['expert', 'greedy']
    """
    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise OptionError("name at least one bot")
    for b in names:
        if b not in known:
            raise OptionError(f"bot {b!r} is unknown (bots: {', '.join(known)})")
    return names
