"""High Five's and Merry-Go-Round's action ids and observation vectors (games.learning).

**Ids**, 28 tiles in ``DOUBLE_SIX`` order: a placement of tile ``t`` is ``t * 141 + where``,
where ``where`` is 0 for the first tile of a hand (lead or set) and ``1 + 5 * anchor + port``
for a tile laid on tile ``anchor`` (``port``: 0 none, 1 ``SIDE_A``, 2 ``SIDE_B``, 3 ``END_A``,
4 ``END_B``); then ``draw`` 3948, ``pass`` 3949 and (High Five) ``return`` 3950.

**Vector**: own hand (28, ``DOUBLE_SIX`` order), tiles on the table (28), open ends by pip
value (7, count / 4), the count / 70, to move, table empty, boneyard / 28, then per seat tiles
held / 28 and score / target, then what the game adds (:func:`fives_learning`'s hooks: High
Five its chips left, Merry-Go-Round its stage and partnerships).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import DOUBLE_SIX
from boneyard.games.fives.fast import FivesReading
from boneyard.games.learning import (
    Encoder,
    EventForm,
    FastPath,
    Learning,
    Segment,
    View,
    seat_columns,
    seats_vector,
    tile_id,
    tile_index,
    tiles_vector,
    to_move,
)

SIX = tile_index(DOUBLE_SIX.tiles)
PORTS = (None, "SIDE_A", "SIDE_B", "END_A", "END_B")


@dataclass(frozen=True)
class FivesCodec:
    """High Five and Merry-Go-Round: one id per action (see the module docstring)."""

    size: int = 28 * 141 + 3
    DRAW = 28 * 141
    PASS = DRAW + 1
    RETURN = DRAW + 2

    def tokens(self, event: EventForm, view: View) -> tuple[int, ...]:
        """One id per action."""
        if "play" in event:
            tile = tile_id(SIX, event["play"])
            if event.get("on") is None:
                return (tile * 141,)
            port = PORTS.index(event.get("port"))
            return (tile * 141 + 1 + 5 * tile_id(SIX, event["on"]) + port,)
        if "draw" in event:
            return (self.DRAW,)
        if event.get("pass"):
            return (self.PASS,)
        if event.get("ruling") == "DRAW_RETRACTED":
            return (self.RETURN,)
        raise BoneyardError(f"{dict(event)} has no action id")

    def name(self, token: int) -> str:
        """Record notation of an id."""
        if token >= self.DRAW:
            return ("draw", "pass", "return")[token - self.DRAW]
        tile, where = divmod(token, 141)
        text = str(DOUBLE_SIX.tiles[tile])
        if where == 0:
            return f"{text} first"
        anchor, port = divmod(where - 1, 5)
        suffix = f" {PORTS[port]}" if port else ""
        return f"{text} on {DOUBLE_SIX.tiles[anchor]}{suffix}"


FIVES_LAYOUT = (
    Segment("bits", 28),
    Segment("bits", 28),
    *[Segment("num", 1, 4.0)] * 7,
    Segment("num", 1, 70.0),
    Segment("num"),
    Segment("num"),
    Segment("num", 1, 28.0),
)
"""The segments of :func:`fives_vector` but the seats'."""


def fives_fast(
    players: int,
    target: float,
    extra: Sequence[Segment],
    reading: FivesReading,
) -> FastPath:
    """A Fives game's fast path: ``reading.read(state, seat)`` gives the number columns of
    :data:`FIVES_LAYOUT`, then the seats' (tiles held / 28, score / ``target``), then
    ``extra``'s (:mod:`boneyard.games.fives.fast`)."""

    return FastPath(
        layout=(*FIVES_LAYOUT, *seat_columns(players, 28.0, target), *extra),
        reading=reading,
    )


def fives_vector(view: View, players: int, target: float) -> list[float]:
    """The part of the vector both games share, scores scaled by ``target``."""
    x = tiles_vector(SIX, view.get("hand"))
    x += tiles_vector(SIX, [p["tile"] for p in view.get("layout") or []])
    ends = [0.0] * 7
    for end in view.get("available_ends") or []:
        ends[int(end[0])] += 0.25  # [value, tile, port]
    x += ends
    x += [view.get("count", 0) / 70, to_move(view), 0.0 if view.get("layout") else 1.0]
    x.append(view.get("boneyard_size", 0) / 28)
    return x + seats_vector(view, players, 28, target)


def fives_learning(
    target: Callable[[View], float],
    extra: Callable[[View, int], list[float]],
    fast: Callable[[int, object], FastPath],
) -> Learning:
    """A Fives game's learning: the shared codec and vector, where the game says how scores are
    scaled (``target(view)``), what it adds at the end (``extra(view, players)``) and its fast
    path (``fast(players, state)``, :func:`fives_fast`)."""

    def features(players: int, _view: View) -> Encoder:
        def encode(view: View) -> list[float]:
            return fives_vector(view, players, target(view)) + extra(view, players)

        return encode

    return Learning(codec=lambda _view: FivesCodec(), features=features, fast=fast)
