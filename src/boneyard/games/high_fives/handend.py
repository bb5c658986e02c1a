"""A High Fives pass's end in words (``SPEC.explain_hand_end``): the tiles kept are only named
(they count nothing), and a pass played out scores what was captured as it went (RULES §3)."""

from __future__ import annotations

from boneyard.core.words import Ending, kept, scoring


def explain_hand_end(e: Ending) -> list[str]:
    """The tiles kept, then how the pass ended.

    >>> from boneyard.core.words import hand_end
    >>> explain_hand_end(Ending(("Ann", "Bob"), hand_end({"reason": "played_out"})))
    ['Every tile of the pass has been played: tiles left on the layout score nobody.']
    """
    return kept(e, amount=None) + _scoring(e)


def _scoring(e: Ending) -> list[str]:
    if e.end.reason == "played_out":
        return ["Every tile of the pass has been played: tiles left on the layout score nobody."]
    return scoring(e)
