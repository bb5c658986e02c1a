"""A High Five hand's end in words (``SPEC.explain_hand_end``): who went out or held the fewest
pips, and whose pips, rounded to five, they were paid (RULES §1.8: the partner's opposite seat
pays at four, the seat before otherwise, or every opponent under
``fourp_bonus_from=all_opponents``)."""

from __future__ import annotations

from boneyard.core.tiles import round5
from boneyard.core.words import Ending, awards, kept, pip_count, pips, scoring
from boneyard.games.highfive.settlement import payer_of


def explain_hand_end(e: Ending) -> list[str]:
    """The tiles kept in pips, then how a domino or a block was paid.

    >>> from boneyard.core.words import hand_end
    >>> end = hand_end({"reason": "domino", "winner": 0, "award": 20})
    >>> explain_hand_end(Ending(("Ann", "Bob"), end, ((), ("5-5", "6-2"))))[1]
    "Ann went out: Bob's 18 pips, rounded to 20, go to Ann — Ann scores 20."
    """
    return kept(e) + _scoring(e)


def _scoring(e: Ending) -> list[str]:
    names, hands, n = e.names, e.hands, len(e.names)
    w, award, reason = e.end.winner, e.end.award, e.end.reason
    if reason not in ("domino", "block") or len(hands) != n:
        return scoring(e)
    every = n == 4 and e.options.get("fourp_bonus_from") == "all_opponents"

    def pays(seat: int) -> str:
        if every:
            total = sum(pips(h) for i, h in enumerate(hands) if i != seat)
            return f"the others' {pip_count(total)}, rounded to {round5(total)},"
        p = payer_of(seat, n)
        return f"{names[p]}'s {pip_count(pips(hands[p]))}, rounded to {round5(pips(hands[p]))},"

    if reason == "domino" and w is not None:
        return [f"{names[w]} went out: {pays(w)} go to {names[w]} — {names[w]} scores {award}."]
    out = ["Blocked: nobody can play and the boneyard is empty."]
    if e.end.awards is not None:
        out.append(f"Each player with fewer pips than the one who pays them scores: {awards(e)}.")
    elif w is not None:
        out.append(
            f"{names[w]} holds the fewest pips ({pips(hands[w])}): {pays(w)} go to "
            f"{names[w]} — {names[w]} scores {award}."
        )
    else:
        out.append("The fewest pips are tied: nobody scores.")
    return out
