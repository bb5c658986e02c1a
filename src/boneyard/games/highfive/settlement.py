"""How a High Five hand ends and is paid (RULES §1.7, §1.10): the domino bonus, the lock, the
bogus-play penalties, who leads next, and the end of the game at 150.

The rules (:mod:`boneyard.games.highfive.state`) call these when a hand ends; the referee's
rulings (:mod:`boneyard.games.highfive.rulings`) call the penalties too. Every payment goes
through the state's own ``_pay`` (chips capped, RULES §1.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from boneyard.core.tiles import round5
from boneyard.games.fives.events import Drew
from boneyard.games.fives.layout import TILE_ID, pips_of_mask

if TYPE_CHECKING:
    from boneyard.games.highfive.state import HighFiveState

TARGET: Final = 150


def payer_of(seat: int, n: int) -> int:
    """The seat that pays ``seat``'s scores at a table of ``n`` (RULES §1.2): the seat across
    with four players, else the seat before it in turn order.

    >>> payer_of(0, 4), payer_of(0, 3), payer_of(2, 2)
    (2, 2, 1)
    """
    return (seat + 2) % 4 if n == 4 else (seat - 1) % n


def creditor_of(seat: int, n: int) -> int:
    """The seat that ``seat`` pays: the one whose payer it is (:func:`payer_of`).

    >>> all(payer_of(creditor_of(s, n), n) == s for n in (2, 3, 4) for s in range(n))
    True
    """
    return (seat + 2) % 4 if n == 4 else (seat + 1) % n


def domino_bonus(state: HighFiveState, winner: int) -> int:
    """The domino bonus: the payer's pips rounded (4 players, ``all_opponents``: every
    opponent's)."""
    if state.n == 4 and state.options.fourp_bonus_from == "all_opponents":
        return round5(sum(pips_of_mask(state.hands[i]) for i in range(4) if i != winner))
    return round5(pips_of_mask(state.hands[state.payer(winner)]))


def domino(state: HighFiveState, winner: int, award: int) -> None:
    """``winner`` went out and was paid ``award``: it leads next, and wins at 150."""
    state.domino_holder = winner
    next_start(state, winner)
    state._end_hand("domino", winner, award)
    if state.scores[winner] >= TARGET:
        state._end_game(winner)


def lock(state: HighFiveState) -> None:
    """Nobody can play and nothing can be drawn: the fewest pips win the payer's (RULES §1.7;
    ``per_pair``: every seat against its payer, docs/rules-notes.md 4)."""
    opts = state.options
    n = state.n
    pips = [pips_of_mask(h) for h in state.hands]
    cmp = pips if opts.lock_tie_compare == "raw" else [round5(p) for p in pips]
    low = min(cmp)
    lowest = [i for i in range(n) if cmp[i] == low]
    winner = lowest[0] if len(lowest) == 1 else None
    awards = [0] * n
    per_pair = opts.multiplayer_lock == "per_pair" and n > 2
    if per_pair:
        for i in range(n):
            p = state.payer(i)
            if cmp[i] < cmp[p]:
                awards[i] = state._pay(p, i, lock_bonus(state, i, pips))
    elif winner is not None:
        awards[winner] = state._pay(state.payer(winner), winner, lock_bonus(state, winner, pips))
    if winner is None and opts.lead_after_lock == "last_domino_holder":
        state.domino_holder = None
    next_start(state, None, lock_winner=winner)
    award = awards[winner] if winner is not None else 0
    state._end_hand("block", winner, award, tuple(awards) if per_pair else None)
    champion_at_target(state)


def lock_bonus(state: HighFiveState, winner: int, pips: list[int]) -> int:
    """What the lock pays ``winner``: its payer's pips rounded (or every opponent's)."""
    if state.n == 4 and state.options.fourp_bonus_from == "all_opponents":
        return round5(sum(p for i, p in enumerate(pips) if i != winner))
    return round5(pips[state.payer(winner)])


def champion_at_target(state: HighFiveState) -> None:
    """End the game if a settlement took a seat to 150 (the highest, then the lowest seat
    number, when two got there at once)."""
    best = max(state.scores)
    if best >= TARGET:
        state._end_game(state.scores.index(best))


def next_start(
    state: HighFiveState, domino_winner: int | None, lock_winner: int | None = None
) -> None:
    """Who leads the next hand with any tile (``None``: the Big 6 call, RULES §1.7, H5-3)."""
    if domino_winner is not None:
        state.advantage = domino_winner
        return
    rule = state.options.lead_after_lock
    if lock_winner is None or rule == "big6":
        state.advantage = None
    elif rule == "lock_winner":
        state.advantage = lock_winner
    else:
        state.advantage = state.domino_holder


def bogus(state: HighFiveState, offender: int, kind: str, reason: str = "bogus") -> None:
    """Apply a bogus-play penalty (box: end the hand; PDA: end the game 150–100); the
    offending event is logged already."""
    state.pending_grace = -1
    state.unruled.pop(offender, None)
    opts = state.options
    beneficiary = state.creditor(offender)
    end_game = opts.bogus_effect == "end_game_150_100" and not (
        kind == "BOGUS_PASS" and opts.pda_bogus_pass == "commissioner"
    )
    if end_game:
        state.scores[beneficiary] = TARGET
        state.scores[offender] = 100
        state._end_hand(reason, beneficiary, 0)
        state._end_game(beneficiary, reason="bogus")
        return
    award_and_advantage(state, offender, beneficiary, bogus_award(state, offender), reason)


def bogus_award(state: HighFiveState, offender: int) -> int:
    """The box penalty: ``max(50, round5(pips))`` of the offender (its last drawn tile left
    out under ``bogus_count_drawn_tile: false``)."""
    hand = state.hands[offender]
    last = state.events[-1] if state.events else None
    own_draw = isinstance(last, Drew) and last.seat == offender
    if not state.options.bogus_count_drawn_tile and own_draw and isinstance(last, Drew):
        hand &= ~(1 << TILE_ID[last.tile])
    pips = pips_of_mask(hand)
    if state.options.bogus_award_rounding == "round5":
        pips = round5(pips)
    return max(50, pips)


def award_and_advantage(
    state: HighFiveState, offender: int, beneficiary: int, award: int, reason: str
) -> None:
    """Pay a penalty (to the beneficiary, or every opponent), end the hand; the beneficiary
    leads next."""
    if state.options.bogus_beneficiary == "all_opponents":
        got = 0
        for k in range(1, state.n):
            seat = (offender + k) % state.n
            paid = state._pay(offender, seat, award)
            if seat == beneficiary:
                got = paid
    else:
        got = state._pay(offender, beneficiary, award)
    state.advantage = beneficiary
    if state.options.lead_after_lock == "last_domino_holder":
        state.domino_holder = beneficiary
    state._end_hand(reason, beneficiary, got)
    champion_at_target(state)
