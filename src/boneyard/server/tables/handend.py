"""A hand's end in words: the tiles every seat kept and how the hand was scored.

When a hand ends the server keeps the final board on screen with every hand's remaining tiles face
up (public from that moment: the hand's seed is revealed too, docs/fairness.md) and explains the
scoring in a player's words — "Bob kept 5-5 and 6-2: 18 pips, rounded to 20 — Ann scores 20".
Everything here works from public facts: the ``hand_end`` replay line (RECORDS.md §5: reason,
winner, award, awards, scores), the tiles revealed and the game's options. What a game says is
its own (``GameSpec.explain_hand_end``, built from :mod:`boneyard.core.words`); this module adds
what every game says alike: a redeal, the scores after the hand, the log's one-line summary.

The tiles each seat kept are the hands just before the hand's last event, with that event's
tiles taken out or added (:func:`~boneyard.core.words.reveal`): an observation after a hand's end
no longer shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.core.words import Ending, hand_end
from boneyard.games.registry import get_spec


def explain(
    game: str,
    names: Sequence[str],
    line: Mapping[str, Any],
    hands: Sequence[Sequence[str]] | None,
    options: Mapping[str, object] | None = None,
    partners: bool = False,
) -> list[str]:
    """How a hand of ``game`` ended and was scored, sentence by sentence (see the module
    docstring); ``partners``: the seats play in partnerships (the view's ``partnerships``)."""
    if line.get("reason") == "redeal":
        return ["Nobody held a double: the tiles were dealt again."]
    kept = tuple(tuple(h) for h in hands or ())
    ending = Ending(tuple(names), hand_end(line), kept, dict(options or {}), partners)
    out = get_spec(game).explain_hand_end(ending)
    scores = line.get("scores") or []
    if scores:
        out.append("Scores: " + " · ".join(f"{names[i]} {s}" for i, s in enumerate(scores)) + ".")
    return out


def summary(names: Sequence[str], line: Mapping[str, Any], word: str = "Hand") -> str:
    """One line for the log: ``Hand 2 is over: Ann went out and scores 15.`` (``word``: what
    the game calls a hand, ``GameSpec.hand_word``)."""
    w = line.get("winner")
    who = names[w] if isinstance(w, int) and w < len(names) else None
    reason = line.get("reason")
    award = int(line.get("award") or 0)
    text = {
        "domino": f"{who} went out",
        "block": f"blocked: {who} wins it" if who else "blocked: nobody wins it",
        "game_over": f"{who} reached the target" if who else "the game is over",
        "played_out": "the pass is played out",
        "redeal": "nobody held a double: dealt again",
        "bogus": "a bogus play ended it",
        "ruling": "a referee's ruling ended it",
    }.get(str(reason), "it ended")
    if award and who:
        text += f" and scores {award}" if reason == "domino" else f", {who} scores {award}"
    return f"{word} {int(line.get('hand') or 0) + 1} is over: {text}."
