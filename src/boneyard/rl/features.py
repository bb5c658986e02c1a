"""Observation tensors: one seat's observation (its JSON form) as a fixed-length vector.

Seats are counted from the observer (0 is the observer, 1 the next to play after it...), so a
policy learns once for every seat. Counts are scaled to about 0 … 1 (scores by the target) and
every value is clipped to ``[-LIMIT, LIMIT]``. The layout of each game's vector (docs/bots.md):

* **Fives games**: own hand (28, ``DOUBLE_SIX`` order), tiles on the table (28), open ends by
  pip value (7, count / 4), the count / 70, to move, table empty, boneyard / 28, then per seat
  tiles held / 28 and score / target; High Five adds chips left / 150 per seat; Merry-Go-Round
  the stage (set, cross_sides, cross_ends, cross, open, idle) and partnerships.
* **High Fives**: own hand, the layout and the pairs claimed this turn (136 each,
  ``DOUBLE_FIFTEEN`` order), claimable pairs / 10, to move, undealt / 136, tiles still to join
  the layout / 10, the deal / deals in the pass, then per seat tiles held / 20 and score /
  target.
* **Highrise**: per cell (``row * cols + col``) its top face (8: 0 … 6, W), level / 10 and a
  spacer flag, own hand and the tile drawn (36 each, ``HIGHRISE_36`` order), to move, pile / 36,
  spacers left / 10, then per seat tiles held / 20 and score / target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import DOUBLE_FIFTEEN, DOUBLE_SIX, HIGHRISE_36
from boneyard.rl.codec import FIFTEEN, SIX

LIMIT = 10.0
View = Mapping[str, Any]
Vector = NDArray[np.float32]
HIGHRISE = {str(t): i for i, t in enumerate(HIGHRISE_36.tiles)}
STAGES = ("set", "cross_sides", "cross_ends", "cross", "open", "idle")


def _tiles(index: dict[str, int], tiles: Sequence[str] | None) -> list[float]:
    out = [0.0] * len(index)
    for t in tiles or ():
        out[index[t]] = 1.0
    return out


def _seats(view: View, players: int, held: float, target: float) -> list[float]:
    """Per seat from the observer: tiles held and score."""
    me = view.get("seat") or 0
    out: list[float] = []
    sizes, scores = view.get("hand_sizes") or [0] * players, view["scores"]
    for k in range(players):
        s = (me + k) % players
        out += [sizes[s] / held, scores[s] / target]
    return out


def _to_move(view: View) -> float:
    return (
        1.0
        if view.get("current_seat") is not None and view["current_seat"] == view.get("seat")
        else 0.0
    )


def _fives(view: View, players: int) -> list[float]:
    game = view["game"]
    x = _tiles(SIX, view.get("hand"))
    x += _tiles(SIX, [p["tile"] for p in view.get("layout") or []])
    ends = [0.0] * 7
    for end in view.get("available_ends") or []:
        ends[int(end[0])] += 0.25  # [value, tile, port]
    x += ends
    x += [view.get("count", 0) / 70, _to_move(view), 0.0 if view.get("layout") else 1.0]
    x.append(view.get("boneyard_size", 0) / 28)
    target = 150.0 if game == "highfive" else float(view.get("target") or 61)
    x += _seats(view, players, 28, target)
    if game == "highfive":
        me = view.get("seat") or 0
        chips = view.get("chips_left") or [0] * players
        x += [chips[(me + k) % players] / 150 for k in range(players)]
    else:
        x += [1.0 if view.get("stage") == s else 0.0 for s in STAGES]
        x.append(1.0 if view.get("partnerships") else 0.0)
    return x


def _high_fives(view: View, players: int) -> list[float]:
    x = _tiles(FIFTEEN, view.get("hand"))
    x += _tiles(FIFTEEN, view.get("layout"))
    x += _tiles(FIFTEEN, [t for pair in view.get("claimed_this_turn") or [] for t in pair])
    x += [len(view.get("claimable") or []) / 10, _to_move(view)]
    x += [view.get("undealt", 0) / len(DOUBLE_FIFTEEN.tiles), view.get("extra_to_come", 0) / 10]
    x.append(view.get("deal", 0) / max(1, view.get("deals_in_pass") or 1))
    target = float((view.get("options") or {}).get("target") or 100)
    return x + _seats(view, players, 20, target)


def _highrise(view: View, players: int, cells: int) -> list[float]:
    x: list[float] = []
    tower = {tuple(c["cell"]): c for c in view.get("tower") or []}
    cols = int(view.get("cols") or 1)
    for k in range(cells):
        cell = tower.get(divmod(k, cols))
        face = [0.0] * 8
        if cell is not None and cell["face"] not in ("", None):
            face[7 if cell["face"] == "W" else int(cell["face"])] = 1.0
        level = cell["level"] / 10 if cell is not None else 0.0
        spacer = 1.0 if cell is not None and cell["spacer"] else 0.0
        x += [*face, level, spacer]
    x += _tiles(HIGHRISE, view.get("hand"))
    x += _tiles(HIGHRISE, [view["drawn"]] if view.get("drawn") else [])
    x += [_to_move(view), view.get("pile_size", 0) / 36, view.get("spacers_left", 0) / 10]
    return x + _seats(view, players, 20, float(view.get("target") or 500))


@dataclass(frozen=True)
class Features:
    """The encoder of one game's observations for ``players`` seats (see the module docstring)."""

    game: str
    players: int
    size: int
    encode_list: Callable[[View], list[float]]

    def encode(self, view: View) -> Vector:
        """The vector of one observation (its JSON form)."""
        x = np.asarray(self.encode_list(view), dtype=np.float32)
        return np.clip(x, -LIMIT, LIMIT, out=x)


def features_for(game: str, players: int, view: View) -> Features:
    """The encoder of ``game`` for ``players`` seats, sized by an observation of it."""
    if game in ("highfive", "merry-go-round"):

        def encode(v: View) -> list[float]:
            return _fives(v, players)

    elif game == "high-fives":

        def encode(v: View) -> list[float]:
            return _high_fives(v, players)

    elif game == "highrise":
        cells = int(view["rows"]) * int(view["cols"])

        def encode(v: View) -> list[float]:
            return _highrise(v, players, cells)

    else:
        raise BoneyardError(f"the reinforcement-learning adapters do not know {game!r} yet")
    return Features(game, players, len(encode(view)), encode)


__all__ = ["DOUBLE_SIX", "LIMIT", "Features", "features_for"]
