"""High Fives' learner fast path (:mod:`boneyard.games.high_fives.learning`): the ids of legal
actions and the raw values of a seat's vector, read straight from a state. Compiled with the
engine (setup.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from librt.vecs import vec
from mypy_extensions import i64

from boneyard.core.state import PLAYING
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.actions import Claim, Turn, decode_turn
from boneyard.games.high_fives.state import HighFivesState
from boneyard.games.high_fives.turns import NUM_TILES, TILE_ID, TILES, claimable_pairs
from boneyard.games.reading import Path, Reading

N15: Final = NUM_TILES
BY_ADDRESS: Final[dict[int, int]] = {id(t): i for i, t in enumerate(TILES)}
"""Each of the set's tiles by its object's address -> its id: the engine's actions hold these
very objects, and an int is hashed in a few instructions where a tile's hash is a Python call."""


def tile_number(tile: Tile) -> int:
    """The id of ``tile`` (by its address when it is one of the set's objects, else by value).

    >>> from boneyard.core.tiles import Tile
    >>> tile_number(TILES[7]) == tile_number(Tile(TILES[7].lo, TILES[7].hi)) == 7
    True
    """
    i = BY_ADDRESS.get(id(tile), -1)
    return i if i >= 0 else TILE_ID[tile]


PAIRS: Final = N15 * (N15 - 1) // 2


def pair_id(a: int, b: int) -> int:
    """The id of the unordered pair of tile ids ``a`` and ``b`` (``a != b``).

    >>> pair_id(0, 1), pair_id(1, 0), pair_id(0, 2), pair_id(1, 2)
    (0, 0, 1, 135)
    """
    if b < a:
        a, b = b, a
    return a * N15 - a * (a + 1) // 2 + (b - a - 1)


def ids(state: HighFivesState, actions: Sequence[object]) -> list[int | tuple[int, ...]]:
    """The codec's tokens of each legal action: a claim id per pair not claimed yet this turn,
    then the play id (from the engine's ids of a listed turn)."""
    out: list[int | tuple[int, ...]] = []
    done: set[tuple[int, int]] | None = None
    for action in actions:
        if isinstance(action, Claim):
            a, b = action.pair
            out.append(pair_id(tile_number(a), tile_number(b)))
            continue
        assert isinstance(action, Turn)
        if action.code >= 0:
            t, x, _a, _b = decode_turn(action.code)
        else:
            t = tile_number(action.tile)
            x = -1 if action.capture is None else tile_number(action.capture)
        play = PAIRS + t * (N15 + 1) + x + 1
        if not action.claim:
            out.append(play)
            continue
        if done is None:
            done = {(min(a, b), max(a, b)) for a, b in state.pending}
        tokens: list[int] = []
        for pa, pb in action.claim:
            i, j = tile_number(pa), tile_number(pb)
            if (min(i, j), max(i, j)) not in done:
                tokens.append(pair_id(i, j))
        tokens.append(play)
        out.append(tuple(tokens) if len(tokens) > 1 else play)
    return out


def read(state: HighFivesState, seat: int, out: vec[float], at: int) -> list[bytes]:
    """Write the number columns of ``seat``'s vector into ``out`` from ``at`` and return its
    bytes columns (its hand, the layout and this turn's claimed tiles, as ids): what the
    encoder reads of its observation."""
    row = state.row
    claimed = b""
    if state.pending:
        claimed = bytes([t for pair in state.pending for t in pair])
        row = bytes([t for t in row if t not in claimed])
    claimable = undealt = extra = 0
    if state.phase == PLAYING:
        claimable = len(claimable_pairs(row, state.left if state.left_only else None))
        deals = state.deals
        extra = len(state.extra) if state.deal < len(deals) - 1 else 0
        undealt = extra
        for k in range(state.deal + 1, len(deals)):
            for hand in deals[k]:
                undealt += len(hand)
    out[at] = float(claimable)
    out[at + 1] = 1.0 if state.phase >= PLAYING and state.turn == seat else 0.0
    out[at + 2] = float(undealt)
    out[at + 3] = float(extra)
    out[at + 4] = state.deal / max(1, len(state.deals))
    at += 5
    hands, scores = state.hands, state.scores
    n = len(hands)
    for k in range(n):
        s = (seat + k) % n
        out[at] = float(len(hands[s]))
        out[at + 1] = float(scores[s])
        at += 2
    return [hands[seat], row, claimed]


class HighFivesReading(Reading):
    """High Fives' fast path (:func:`ids`, :func:`read`)."""

    def read(self, state: Any, seat: int, out: vec[float], at: int) -> Sequence[bytes]:
        return read(state, seat, out, at)

    def ids(self, state: Any, actions: Sequence[object]) -> list[Path]:
        return ids(state, actions)

    def ids_into(self, state: Any, actions: Sequence[object], out: vec[i64], at: i64) -> i64:
        for i in range(len(actions)):
            action = actions[i]
            if isinstance(action, Claim):
                a, b = action.pair
                out[at + i] = pair_id(tile_number(a), tile_number(b))
                continue
            assert isinstance(action, Turn)
            if action.claim:  # (its ids may be several: ids() says)
                return -1
            if action.code >= 0:
                t, x, _a, _b = decode_turn(action.code)
            else:
                t = tile_number(action.tile)
                x = -1 if action.capture is None else tile_number(action.capture)
            out[at + i] = PAIRS + t * (N15 + 1) + x + 1
        return len(actions)
