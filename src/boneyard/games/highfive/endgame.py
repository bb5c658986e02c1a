"""The end of a two-player High Five hand, solved exactly.

When every tile is known — the boneyard is empty, so the other hand is the unseen tiles, or a
search world fixes it — the rest of the hand is a game of perfect information, small once few
tiles are left. :func:`solve` values every legal action of such a state by negamax with
alpha-beta pruning and a transposition table, over a compact copy of the hand: the two hands as
bit masks, the open ends as ``(value, kind)`` pairs, the spinner's joints, the chips and the
boneyard still to draw in its order. The value is the one the expert's play-outs measure
(:func:`~boneyard.games.highfive.worlds.hand_playout`): the seat's chips from here to the end of
the hand minus the other's, settlements included, ±:data:`~boneyard.games.highfive.worlds.
GAME_BONUS` when the hand ends the game.

Only the rules the strict two-player game can meet are modelled (the options that change them:
which spinner ends are open, capped payments, whether a domino's last play scores first, how a
lock compares pips, a count of zero); anything else (three or four players, a second spinner,
a state out of play) is refused with ``None``, and the tests check the values against a brute
force over the real engine.

>>> solve(HighFiveState(2)) is None  # no hand in play
True
"""

from __future__ import annotations

from typing import Final

from boneyard.core.state import PLAYING
from boneyard.core.tiles import round5
from boneyard.games.fives.layout import (
    HI,
    LO,
    PIP_MASK,
    R_DOUBLE,
    R_SPINNER,
    SIDE_A,
    SIDE_B,
    Availability,
    pips_of_mask,
)
from boneyard.games.highfive.actions import Play
from boneyard.games.highfive.settlement import TARGET
from boneyard.games.highfive.state import HighFiveState

GAME_BONUS: Final = 100.0
"""As the play-outs count it (:data:`boneyard.games.highfive.worlds.GAME_BONUS`)."""
LINE: Final = 0
"""An end that counts its value (a single's far half, or the lead's)."""
DOUBLE: Final = 1
"""A plain double's far edge: counts twice its value."""
SIDE: Final = 2
"""A spinner's side (counts nothing itself)."""
END: Final = 3
"""A spinner's end (counts nothing itself; open under ``SIDES_FIRST`` once both sides are)."""


class _TooBig(Exception):
    """The solve has visited more positions than it was allowed."""


class Hand:
    """The compact hand being solved; :meth:`moves`, :meth:`place` and :meth:`undo` change it."""

    def __init__(self, s: HighFiveState) -> None:
        lay = s.layout
        self.hands = list(s.hands)
        self.ends: list[tuple[int, int]] = []
        self.ports: list[tuple[int, int]] = []
        """The layout's ``(anchor, port code)`` of each end at the start (the root's plays)."""
        for value, anchor, code in lay.open:
            role = lay.role[anchor]
            kind = LINE
            if role == R_SPINNER:
                kind = SIDE if code in (SIDE_A, SIDE_B) else END
            elif role == R_DOUBLE:
                kind = DOUBLE
            self.ends.append((value, kind))
            self.ports.append((anchor, code))
        spinner = lay.first_spinner
        self.spinner = -1 if spinner is None else LO[spinner]
        joints = 0 if spinner is None else lay.connected[spinner]
        self.joints = joints.bit_count()
        self.sides = (joints & ((1 << SIDE_A) | (1 << SIDE_B))).bit_count()
        self.any_end = s.policy == Availability.ANY
        self.base = 0
        for value, kind in self.ends:
            self.base += value if kind == LINE else 2 * value if kind == DOUBLE else 0
        self.chips = list(s.chips)
        self.scores = list(s.scores)
        self.capped = s.capped
        self.zero = s.zero_scores
        self.first = s.play_scores_first
        self.raw = s.options.lock_tie_compare == "raw"
        self.boneyard = list(s.boneyard[s.bpos :])
        self.turn = s.turn
        self.table: dict[tuple[object, ...], tuple[float, int]] = {}
        self.nodes = 0
        self.limit = 0

    @property
    def count(self) -> int:
        """The open-end total (RULES §1.3)."""
        spin = self.spinner
        return self.base + (2 * spin if spin >= 0 and self.joints <= 1 else 0)

    def moves(self, seat: int) -> list[tuple[int, int]]:
        """``(end index, tile)`` of every distinct placement of ``seat`` (ends alike give one)."""
        hand = self.hands[seat]
        out: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        closed = not self.any_end and self.sides < 2
        for i, end in enumerate(self.ends):
            if end in seen or (closed and end[1] == END):
                continue
            seen.add(end)
            m = hand & PIP_MASK[end[0]]
            while m:
                low = m & -m
                out.append((i, low.bit_length() - 1))
                m ^= low
        return out

    def place(self, seat: int, i: int, tile: int) -> tuple[object, ...]:
        """Place ``tile`` of ``seat`` on end ``i``; what :meth:`undo` needs."""
        saved = (list(self.ends), self.base, self.spinner, self.joints, self.sides)
        value, kind = self.ends.pop(i)
        self.base -= value if kind == LINE else 2 * value if kind == DOUBLE else 0
        if kind >= SIDE:
            self.joints += 1
            self.sides += kind == SIDE
        lo, hi = LO[tile], HI[tile]
        if lo == hi and self.spinner < 0:
            self.spinner, self.joints, self.sides = lo, 1, 1
            self.ends += [(lo, SIDE), (lo, END), (lo, END)]
        elif lo == hi:
            self.ends.append((lo, DOUBLE))
            self.base += 2 * lo
        else:
            far = hi if value == lo else lo
            self.ends.append((far, LINE))
            self.base += far
        self.hands[seat] &= ~(1 << tile)
        return saved

    def undo(self, seat: int, tile: int, saved: tuple[object, ...]) -> None:
        """Take back :meth:`place`."""
        ends, base, spinner, joints, sides = saved
        self.ends = ends  # type: ignore[assignment]
        self.base, self.spinner, self.joints, self.sides = base, spinner, joints, sides  # type: ignore[assignment]
        self.hands[seat] |= 1 << tile

    def pay(self, payer: int, to: int, amount: int) -> int:
        """Pay as the state does (capped by the payer's chips); the chips moved."""
        if self.capped:
            amount = min(amount, self.chips[payer])
            self.chips[payer] -= amount
        self.scores[to] += amount
        return amount

    def unpay(self, payer: int, to: int, amount: int) -> None:
        """Take back :meth:`pay`."""
        if self.capped:
            self.chips[payer] += amount
        self.scores[to] -= amount


EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2


def solve(s: HighFiveState, nodes: int = 100_000) -> list[float] | None:
    """The exact value of every legal action of ``s`` (in their order) for the seat to move,
    every tile known (the state's own hands and boneyard); ``None`` when the state is not a
    two-player strict hand in play with one spinner at most, or the solve would visit more than
    ``nodes`` positions."""
    if s.n != 2 or s.phase != PLAYING or not s.strict or s.layout.empty:
        return None
    if len(s.layout.spinners) > 1 or s.call_required:
        return None
    h = Hand(s)
    h.limit = nodes
    seat = s.turn
    out: list[float] = []
    try:
        for action in s.legal_actions():
            if not isinstance(action, Play):
                out.append(_turn(h, seat, -1e9, 1e9))
                continue
            tile, anchor, code = action.key
            out.append(_play(h, seat, h.ports.index((anchor, code)), tile, -1e9, 1e9))
    except _TooBig:
        return None
    return out


def _turn(h: Hand, seat: int, alpha: float, beta: float) -> float:
    """The value for ``seat``, to move, of the rest of the hand."""
    h.nodes += 1
    if h.nodes > h.limit:
        raise _TooBig
    key = (
        h.hands[0],
        h.hands[1],
        tuple(sorted(h.ends)),
        h.spinner,
        h.joints,
        h.sides,
        seat,
        *h.chips,
        *h.scores,
        len(h.boneyard),
    )
    got = h.table.get(key)
    if got is not None:
        value, flag = got
        if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
            return value
    start = alpha
    moves = h.moves(seat)
    if not moves:
        value = _stuck(h, seat, alpha, beta)
    else:
        moves.sort(key=lambda m: -(LO[m[1]] + HI[m[1]]))  # heaviest first: greedy's order
        value = -1e9
        for i, tile in moves:
            value = max(value, _play(h, seat, i, tile, alpha, beta))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    flag = UPPER if value <= start else LOWER if value >= beta else EXACT
    h.table[key] = (value, flag)
    return value


def _stuck(h: Hand, seat: int, alpha: float, beta: float) -> float:
    """``seat`` cannot place: it draws the next tile (and plays on), or passes; a pass that
    leaves nobody able to place locks the hand."""
    if h.boneyard:
        tile = h.boneyard.pop(0)
        h.hands[seat] |= 1 << tile
        try:
            return _turn(h, seat, alpha, beta)
        finally:
            h.hands[seat] &= ~(1 << tile)
            h.boneyard.insert(0, tile)
    other = 1 - seat
    if h.moves(other):
        return -_turn(h, other, -beta, -alpha)
    return _lock(h, seat)


def _lock(h: Hand, seat: int) -> float:
    """The value for ``seat`` of a locked hand: the fewest pips take the other's, rounded."""
    pips = [pips_of_mask(h.hands[0]), pips_of_mask(h.hands[1])]
    cmp = pips if h.raw else [round5(p) for p in pips]
    if cmp[0] == cmp[1]:
        return 0.0
    winner = 0 if cmp[0] < cmp[1] else 1
    paid = h.pay(1 - winner, winner, round5(pips[1 - winner]))
    value = float(paid)
    if h.scores[winner] >= TARGET:
        value += GAME_BONUS
    h.unpay(1 - winner, winner, paid)
    return value if winner == seat else -value


def _play(h: Hand, seat: int, i: int, tile: int, alpha: float, beta: float) -> float:
    """The value for ``seat`` of placing ``tile`` on end ``i``, then the rest of the hand."""
    other = 1 - seat
    saved = h.place(seat, i, tile)
    count = h.count
    scores = (count > 0 and count % 5 == 0) or (count == 0 and h.zero)
    domino = h.hands[seat] == 0
    paid: list[int] = []
    value = 0.0
    if domino and not h.first:
        paid.append(h.pay(other, seat, round5(pips_of_mask(h.hands[other]))))
        if scores and h.scores[seat] < TARGET:
            paid.append(h.pay(other, seat, count))
        value = sum(paid) + (GAME_BONUS if h.scores[seat] >= TARGET else 0.0)
    else:
        if scores:
            paid.append(h.pay(other, seat, count))
        if paid and paid[0] and h.scores[seat] >= TARGET:
            value = paid[0] + GAME_BONUS
        elif domino:
            paid.append(h.pay(other, seat, round5(pips_of_mask(h.hands[other]))))
            value = sum(paid) + (GAME_BONUS if h.scores[seat] >= TARGET else 0.0)
        else:
            now = float(sum(paid))
            value = now - _turn(h, other, now - beta, now - alpha)
    for amount in reversed(paid):
        h.unpay(other, seat, amount)
    h.undo(seat, tile, saved)
    return value
