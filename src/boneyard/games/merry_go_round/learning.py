"""Merry-Go-Round as a learner sees it (:mod:`boneyard.games.fives.learning`): the Fives ids and
vector, scores scaled by the game's target (61 unless its options say), then its stage (``set``,
``cross_sides``, ``cross_ends``, ``cross``, ``open``, ``idle``: one flag each) and whether seats
play as partners (the fast path: :mod:`boneyard.games.merry_go_round.fast`)."""

from __future__ import annotations

from typing import Any

from boneyard.games.fives.learning import fives_fast, fives_learning
from boneyard.games.learning import FastPath, Segment, View
from boneyard.games.merry_go_round.fast import STAGES, MerryGoRoundReading


def _target(view: View) -> float:
    return float(view.get("target") or 61)


def _stage(view: View, _players: int) -> list[float]:
    x = [1.0 if view.get("stage") == s else 0.0 for s in STAGES]
    return [*x, 1.0 if view.get("partnerships") else 0.0]


def _fast(players: int, state: Any) -> FastPath:
    extra = [Segment("onehot", len(STAGES)), Segment("num")]
    return fives_fast(players, float(state.target or 61), extra, MerryGoRoundReading())


LEARNING = fives_learning(_target, _stage, _fast)
