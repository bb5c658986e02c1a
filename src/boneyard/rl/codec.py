"""Integer action ids: a fixed action space per game, read from the actions' record form.

Every legal action of a game is written as its record event (``action.to_event()``, the form a
process bot answers too), and a codec numbers those forms once and for all, so that a learner
has a fixed ``Discrete(size)`` space and a mask of the ids legal now. An action is a short
sequence of ids (*tokens*), one decision each: in every game but High Fives that is one token;
a High Fives turn that claims pairs is a claim token per pair, then the play token (the way the
engine itself takes an unlimited claim, step by step). docs/bots.md lists each game's ids.

Ids depend only on the game and the tower's size (Highrise), never on the position:

* **Fives games** (High Five, Merry-Go-Round), 28 tiles in ``DOUBLE_SIX`` order: a placement of
  tile ``t`` is ``t * 141 + where``, where ``where`` is 0 for the first tile of a hand (lead or
  set) and ``1 + 5 * anchor + port`` for a tile laid on tile ``anchor`` (``port``: 0 none,
  1 ``SIDE_A``, 2 ``SIDE_B``, 3 ``END_A``, 4 ``END_B``); then ``draw`` 3948, ``pass`` 3949 and
  (High Five) ``return`` 3950.
* **High Fives**, 136 tiles in ``DOUBLE_FIFTEEN`` order: claiming the pair ``a < b`` is
  ``pair(a, b)`` (0 … 9179, pairs in order); playing tile ``t`` capturing ``x`` (``-1``: none)
  is ``9180 + t * 137 + x + 1``.
* **Highrise** on an ``R × C`` tower: a placement is its first cell ``k = row * C + col`` (the
  cell nearer the top left), the direction of the second (0 right, 1 down), the faces on the
  first and second cells (0 … 6, 7 for ``W``) and the spacer (0 none, 1 first cell, 2 second):
  ``(((k * 2 + d) * 8 + f1) * 8 + f2) * 3 + s``; then ``draw`` and ``pass``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import DOUBLE_FIFTEEN, DOUBLE_SIX, WILD, parse_halves

Event = Mapping[str, Any]
PORTS = (None, "SIDE_A", "SIDE_B", "END_A", "END_B")


def _index(tiles: Sequence[object]) -> dict[str, int]:
    return {str(t): i for i, t in enumerate(tiles)}


SIX = _index(DOUBLE_SIX.tiles)
FIFTEEN = _index(DOUBLE_FIFTEEN.tiles)


def _tile(index: dict[str, int], text: object) -> int:
    if isinstance(text, str) and text in index:
        return index[text]
    if isinstance(text, str):
        try:
            lo, hi = sorted(parse_halves(text))
        except BoneyardError:
            pass
        else:
            key = f"{lo}-{hi}"
            if key in index:
                return index[key]
    raise BoneyardError(f"{text!r} is not a tile of this game")


class Codec(Protocol):
    """Numbers one game's actions (see the module docstring)."""

    @property
    def size(self) -> int:
        """How many ids there are (the ``Discrete`` size)."""
        ...

    def tokens(self, event: Event, view: Mapping[str, Any]) -> tuple[int, ...]:
        """The ids of one legal action (its record form) in the position ``view`` (the acting
        seat's observation as JSON)."""
        ...

    def name(self, token: int) -> str:
        """What an id does, in record notation (``5-6 on 5-5 SIDE_B``, ``claim 0-1 1-2``)."""
        ...


@dataclass(frozen=True)
class FivesCodec:
    """High Five and Merry-Go-Round."""

    size: int = 28 * 141 + 3
    DRAW = 28 * 141
    PASS = DRAW + 1
    RETURN = DRAW + 2

    def tokens(self, event: Event, view: Mapping[str, Any]) -> tuple[int, ...]:
        """One id per action."""
        if "play" in event:
            tile = _tile(SIX, event["play"])
            if event.get("on") is None:
                return (tile * 141,)
            port = PORTS.index(event.get("port"))
            return (tile * 141 + 1 + 5 * _tile(SIX, event["on"]) + port,)
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


N15 = len(DOUBLE_FIFTEEN.tiles)
PAIRS = N15 * (N15 - 1) // 2


def pair_id(a: int, b: int) -> int:
    """The id of the unordered pair of tile ids ``a`` and ``b`` (``a != b``).

    >>> pair_id(0, 1), pair_id(1, 0), pair_id(0, 2), pair_id(1, 2)
    (0, 0, 1, 135)
    """
    a, b = min(a, b), max(a, b)
    return a * N15 - a * (a + 1) // 2 + (b - a - 1)


@dataclass(frozen=True)
class HighFivesCodec:
    """High Fives: claim tokens, then the play."""

    size: int = PAIRS + N15 * (N15 + 1)

    def tokens(self, event: Event, view: Mapping[str, Any]) -> tuple[int, ...]:
        """A claim id per pair not already claimed this turn, then the play id."""
        claim = event.get("claim") or []
        if claim and isinstance(claim[0], str):
            claim = [claim]
        done = {frozenset(p) for p in view.get("claimed_this_turn") or []}
        out = [
            pair_id(_tile(FIFTEEN, a), _tile(FIFTEEN, b))
            for a, b in claim
            if frozenset((a, b)) not in done
        ]
        if "play" in event:
            tile = _tile(FIFTEEN, event["play"])
            capture = _tile(FIFTEEN, event["capture"]) if event.get("capture") else -1
            out.append(PAIRS + tile * (N15 + 1) + capture + 1)
        if not out:
            raise BoneyardError(f"{dict(event)} has no action id")
        return tuple(out)

    def name(self, token: int) -> str:
        """Record notation of an id."""
        tiles = DOUBLE_FIFTEEN.tiles
        if token < PAIRS:
            a = 0
            while pair_id(a, N15 - 1) < token:
                a += 1
            b = a + 1 + token - pair_id(a, a + 1)
            return f"claim {tiles[a]} {tiles[b]}"
        tile, capture = divmod(token - PAIRS, N15 + 1)
        return f"play {tiles[tile]}" + (f" x {tiles[capture - 1]}" if capture else "")


FACES = 8


def _face(value: int) -> int:
    return FACES - 1 if value == WILD else value


@dataclass(frozen=True)
class HighriseCodec:
    """Highrise on a ``rows × cols`` tower."""

    rows: int
    cols: int

    @property
    def size(self) -> int:
        """Placements, then draw and pass."""
        return self.rows * self.cols * 2 * FACES * FACES * 3 + 2

    def tokens(self, event: Event, view: Mapping[str, Any]) -> tuple[int, ...]:
        """One id per action."""
        places = self.size - 2
        if "draw" in event:
            return (places,)
        if event.get("pass"):
            return (places + 1,)
        fa, fb = parse_halves(str(event["play"]))
        (r1, c1), (r2, c2) = (tuple(c) for c in event["cells"])
        if (r2, c2) < (r1, c1):
            (r1, c1), (r2, c2), fa, fb = (r2, c2), (r1, c1), fb, fa
        direction = 0 if (r2, c2) == (r1, c1 + 1) else 1
        spacer = event.get("spacer")
        s = 0 if spacer is None else 1 if tuple(spacer) == (r1, c1) else 2
        k = r1 * self.cols + c1
        return (((((k * 2 + direction) * FACES + _face(fa)) * FACES + _face(fb)) * 3) + s,)

    def name(self, token: int) -> str:
        """Record notation of an id."""
        places = self.size - 2
        if token >= places:
            return ("draw", "pass")[token - places]
        rest, s = divmod(token, 3)
        rest, fb = divmod(rest, FACES)
        rest, fa = divmod(rest, FACES)
        k, direction = divmod(rest, 2)
        r, c = divmod(k, self.cols)
        other = (r, c + 1) if direction == 0 else (r + 1, c)

        def face(f: int) -> str:
            return "W" if f == FACES - 1 else str(f)

        spacer = ("", f" spacer {[r, c]}", f" spacer {list(other)}")[s]
        return f"{face(fa)}-{face(fb)} on {[r, c]} {list(other)}{spacer}"


def codec_for(game: str, view: Mapping[str, Any]) -> Codec:
    """The codec of ``game``, sized by an observation of it (Highrise: its tower)."""
    if game in ("highfive", "merry-go-round"):
        return FivesCodec()
    if game == "high-fives":
        return HighFivesCodec()
    if game == "highrise":
        return HighriseCodec(int(view["rows"]), int(view["cols"]))
    raise BoneyardError(f"the reinforcement-learning adapters do not know {game!r} yet")
