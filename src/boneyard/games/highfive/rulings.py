"""The referee's rulings of High Five (RULES §1.10), beside the rules: what each ruling checks
and what it does to the hand, under ``detect`` or ``tabletop`` enforcement (docs/rules-notes.md
"Bogus play and rulings").

The rules (:mod:`boneyard.games.highfive.state`) hand a :class:`~boneyard.games.highfive.actions
.Ruling` to :func:`rule`; the engine's own ruling on a false domino is :func:`false_domino`. A
ruling is one event (:class:`~boneyard.games.highfive.events.Ruled`), logged when its replay line
is written (after a fine it states the scores with the fine paid).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boneyard.core.errors import IllegalActionError
from boneyard.core.state import PLAYING
from boneyard.core.tiles import Tile
from boneyard.games.fives.events import Placed
from boneyard.games.fives.layout import TILE_ID, TILES, ids_of
from boneyard.games.highfive import settlement
from boneyard.games.highfive.actions import RULING_KINDS, Ruling
from boneyard.games.highfive.events import Ruled

if TYPE_CHECKING:
    from boneyard.games.highfive.state import HighFiveState


class Undo:
    """What a caught wrong bone or misplaced spinner restores (tabletop)."""

    __slots__ = ("chips", "hands", "layout", "scores", "seat", "tile", "turn")

    def __init__(self, state: HighFiveState, seat: int, tile: int) -> None:
        self.layout = state.layout.copy()
        self.hands = state.hands.copy()
        self.scores = state.scores.copy()
        self.chips = state.chips.copy()
        self.turn = state.turn
        self.seat = seat
        self.tile = tile


def rule(state: HighFiveState, r: Ruling) -> None:
    """Apply a referee's ruling; refuse one that does not fit what happened (nothing changes)."""
    if state.strict:
        raise IllegalActionError("rulings are entered only under detect or tabletop enforcement")
    if r.kind not in RULING_KINDS:
        known = ", ".join(RULING_KINDS)
        raise IllegalActionError(f"{r.kind!r} is not a ruling (rulings: {known})")
    if not 0 <= r.seat < state.n:
        raise IllegalActionError(f"seat {r.seat} is not at this table")
    if state.phase != PLAYING:
        raise IllegalActionError("a ruling applies to a hand in play")
    kind = r.kind
    offender = r.seat
    if kind == "DRAW_RETRACTED":
        if offender != state.turn:
            raise IllegalActionError(f"seat {offender} has no drawn tile to return")
        state.return_tile(r.position)
        return
    _check(state, r)
    if kind in ("BOGUS_DRAW", "BOGUS_PASS"):
        _log(state, r)
        state.unruled.pop(offender)
        commissioner = (
            kind == "BOGUS_PASS"
            and state.options.preset == "pda"
            and state.options.pda_bogus_pass == "commissioner"
        )
        if r.caught and not commissioner:
            settlement.bogus(state, offender, kind)
    elif kind in ("WRONG_BONE", "MISPLACED_SPINNER"):
        undo = state.takeback
        assert undo is not None
        _log(state, r, TILES[undo.tile])
        if r.caught:
            take_back(state)
        else:
            state.takeback = None
    elif kind in ("MISDEAL_OVER", "MISDEAL_UNDER"):
        _misdeal(state, r)
    elif kind in ("HIDDEN_TILES", "FALSE_DOMINO"):
        _log(state, r)
        if state.options.bogus_effect == "end_game_150_100":
            settlement.bogus(state, offender, kind, reason="ruling")
        else:
            award = settlement.bogus_award(state, offender)
            ben = state.creditor(offender)
            settlement.award_and_advantage(state, offender, ben, award, "ruling")
    elif kind == "ACCIDENTAL_EXPOSURE":
        _log(state, r)
    elif kind == "COMMISSIONER":
        for i, d in enumerate(r.adjust):
            state.scores[i] += d
        _log(state, r)
        if r.winner is not None:
            state._end_hand("ruling", r.winner, 0)
            state._end_game(r.winner, reason="ruling")
    else:  # FORFEIT
        _log(state, r)
        winner = state.creditor(offender)
        state._end_hand("ruling", winner, 0)
        state._end_game(winner, reason="forfeit")


def _log(state: HighFiveState, r: Ruling, tile: Tile | None = None) -> None:
    state.events.append(Ruled(r, tile, tuple(state.scores)))


def _check(state: HighFiveState, r: Ruling) -> None:
    """Refuse a ruling that does not fit what happened, before anything changes."""
    kind, offender = r.kind, r.seat
    if kind in ("BOGUS_DRAW", "BOGUS_PASS"):
        want = "draw" if kind == "BOGUS_DRAW" else "pass"
        if state.unruled.get(offender) != want:
            did = "drawn" if want == "draw" else "passed"
            raise IllegalActionError(
                f"seat {offender} has not {did} while holding a playable tile in this hand"
            )
    elif kind in ("WRONG_BONE", "MISPLACED_SPINNER"):
        last = state.events[-1] if state.events else None
        undo = state.takeback
        if undo is None or undo.seat != offender or not isinstance(last, Placed):
            what = (
                "a tile that does not match"
                if kind == "WRONG_BONE"
                else "a tile on the end of a double that is not the spinner"
            )
            raise IllegalActionError(
                f"seat {offender} has not just placed {what} (rule on it before the next move)"
            )
    elif kind in ("MISDEAL_OVER", "MISDEAL_UNDER"):
        _check_misdeal(state, r)
    elif kind == "COMMISSIONER":
        if r.adjust and len(r.adjust) != state.n:
            raise IllegalActionError(f"adjust needs one figure per seat ({state.n})")
        if r.winner is not None and not 0 <= r.winner < state.n:
            raise IllegalActionError(f"seat {r.winner} is not at this table")


def _check_misdeal(state: HighFiveState, r: Ruling) -> None:
    offender = r.seat
    extra = state.misdealt.get(offender, 0)
    over = r.kind == "MISDEAL_OVER"
    if (over and extra <= 0) or (not over and extra >= 0):
        more = "more" if over else "fewer"
        raise IllegalActionError(
            f"seat {offender} was not dealt {more} than {state.hand_size()} tiles "
            "(or it has been ruled on already)"
        )
    if over and r.tiles:
        if len(r.tiles) != extra:
            raise IllegalActionError(f"seat {offender} must put back exactly {extra} tiles")
        for t in r.tiles:
            if t not in TILE_ID or not (state.hands[offender] >> TILE_ID[t]) & 1:
                raise IllegalActionError(f"seat {offender} does not hold {t}")


def _misdeal(state: HighFiveState, r: Ruling) -> None:
    """Too many or too few tiles dealt: the box's 50-chip fine or the PDA's bogus penalty, then
    the hand is corrected (docs/rules-notes.md 13)."""
    seat = r.seat
    extra = state.misdealt.pop(seat)
    over = r.kind == "MISDEAL_OVER"
    opts = state.options
    ben = state.creditor(seat)
    in_scope = opts.misdeal_scope == "every_hand" or state.hands_dealt == 1
    if in_scope and opts.misdeal_rule == "pda":
        _log(state, r)
        if over or ben in state.placed_by:
            award = settlement.bogus_award(state, seat)
            settlement.award_and_advantage(state, seat, ben, award, "ruling")
            return
    elif in_scope:
        state._pay(seat, ben, 50)
        _log(state, r)
        if opts.box_misdeal_fix == "redeal":
            state.advantage = state.hand_start_advantage
            state._end_hand("redeal", None, 0)
            settlement.champion_at_target(state)
            return
    else:
        _log(state, r)
    if extra > 0:
        chosen = [TILE_ID[t] for t in r.tiles] or ids_of(state.hands[seat])[-extra:]
        for t in chosen:
            state.hands[seat] &= ~(1 << t)
        state.boneyard = state.boneyard + chosen  # a new list: copies share the old one
        return
    for _ in range(-extra):
        if state.bpos >= len(state.boneyard):
            break
        state.hands[seat] |= 1 << state.boneyard[state.bpos]
        state.bpos += 1


def false_domino(state: HighFiveState, seat: int) -> None:
    """A Domino called on a tile that does not match (tabletop; its placement is logged): PDA
    8d ends the game 150–100, the box rules treat it as a caught wrong bone."""
    if state.options.bogus_effect == "end_game_150_100":
        settlement.bogus(state, seat, "FALSE_DOMINO", reason="ruling")
        return
    take_back(state)


def take_back(state: HighFiveState) -> None:
    """Undo a caught wrong bone or misplaced spinner: the tile goes back to its seat, the
    layout, scores and chips are as before it, and that seat's turn goes on."""
    undo = state.takeback
    assert undo is not None
    state.layout = undo.layout.copy()
    state.hands = undo.hands.copy()
    state.scores = undo.scores.copy()
    state.chips = undo.chips.copy()
    state.turn = undo.seat
    state.takeback = None
