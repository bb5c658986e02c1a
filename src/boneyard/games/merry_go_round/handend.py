"""A Merry-Go-Round hand's end in words (``SPEC.explain_hand_end``): a point for every five of
the pips the others kept when a player goes out — or nothing, when that would take them past
the target (RULES §2) — and the differences a block pays."""

from __future__ import annotations

from boneyard.core.tiles import round5
from boneyard.core.words import Ending, awards, kept, pip_count, pips, points, scoring

TARGET = 61
"""The target when the record's options do not state one (its default)."""


def explain_hand_end(e: Ending) -> list[str]:
    """The tiles kept in pips, then how the hand was scored.

    >>> from boneyard.core.words import hand_end
    >>> end = hand_end({"reason": "domino", "winner": 0, "award": 0})
    >>> explain_hand_end(Ending(("Ann", "Bob"), end, ((), ("6-6", "4-4"))))[2]
    'That would take Ann past 61 (exactly 61 wins): it scores nothing.'
    """
    return kept(e) + _scoring(e)


def _scoring(e: Ending) -> list[str]:
    names, w, award, reason = e.names, e.end.winner, e.end.award, e.end.reason
    stated = e.options.get("target")
    target = stated if isinstance(stated, int) and stated else TARGET
    plain = not e.partners and e.options.get("domino_bonus_rounding") != "per_opponent"
    if reason == "domino" and w is not None and len(e.hands) == len(names) and plain:
        total = sum(pips(h) for i, h in enumerate(e.hands) if i != w)
        would = round5(total) // 5
        kept_all = f"the others kept {pip_count(total)}, rounded to {round5(total)}"
        went = f"{names[w]} went out: {kept_all}"
        if would and not award:
            return [
                f"{went}: {points(would)}, a point for every 5.",
                f"That would take {names[w]} past {target} (exactly {target} wins): it scores "
                "nothing.",
            ]
        return [f"{went}: a point for every 5 — {names[w]} scores {award}."]
    differences = e.options.get("block_scoring", "differences") == "differences"
    if reason == "block" and e.end.awards is not None and differences:
        return [
            "Blocked: nobody can play or draw. Each player scores a point for every 5 pips the "
            f"players above them hold more: {awards(e)}."
        ]
    return scoring(e)
