"""High Five as a learner sees it (:mod:`boneyard.games.fives.learning`): the Fives ids and
vector, scores scaled by the target (150), then per seat from the observer its chips left / 150
(the fast path: :mod:`boneyard.games.highfive.fast`)."""

from __future__ import annotations

from boneyard.games.fives.learning import fives_fast, fives_learning
from boneyard.games.highfive.fast import HighFiveReading
from boneyard.games.highfive.settlement import TARGET
from boneyard.games.learning import FastPath, Segment, View


def _target(_view: View) -> float:
    return float(TARGET)


def _chips(view: View, players: int) -> list[float]:
    """Chips left per seat from the observer (a game with chips has 150 of them)."""
    me = view.get("seat") or 0
    chips = view.get("chips_left") or [0] * players
    return [chips[(me + k) % players] / TARGET for k in range(players)]


def _fast(players: int, _state: object) -> FastPath:
    return fives_fast(
        players, float(TARGET), [Segment("num", 1, float(TARGET))] * players, HighFiveReading()
    )


LEARNING = fives_learning(_target, _chips, _fast)
