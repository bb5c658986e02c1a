"""A Highrise hand's end in words (``SPEC.explain_hand_end``): what each seat's tiles are worth
(a wild half counts 7, RULES §4.4), taken by the player who goes out or subtracted on a block."""

from __future__ import annotations

from boneyard.core.tiles import HAND_VALUE_OF_WILD
from boneyard.core.words import Ending, awards, kept, scoring


def worth(total: int) -> str:
    """How a hand is counted: ``: worth 10``."""
    return f": worth {total}"


def explain_hand_end(e: Ending) -> list[str]:
    """What each seat kept is worth, then how the hand was scored.

    >>> from boneyard.core.words import hand_end
    >>> end = hand_end({"reason": "block", "awards": [-14, -3]})
    >>> explain_hand_end(Ending(("Ann", "Bob"), end, (("W-W",), ("1-2",))))[:2]
    ['Ann kept W-W: worth 14.', 'Bob kept 1-2: worth 3.']
    """
    return kept(e, worth) + _scoring(e)


def _scoring(e: Ending) -> list[str]:
    w, reason = e.end.winner, e.end.reason
    if reason == "domino" and w is not None:
        return [
            f"{e.names[w]} went out and scores what the others hold (a wild half counts "
            f"{HAND_VALUE_OF_WILD}): {e.names[w]} scores {e.end.award}."
        ]
    if reason == "block" and e.end.awards is not None:
        return [
            f"Blocked: no tile can be placed. Each player subtracts what they hold: {awards(e)}."
        ]
    return scoring(e)
