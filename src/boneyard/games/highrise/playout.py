"""Highrise's play-out policies, compiled: the expert's search plays every legal action out to
the end of the hand with them in every world, so most of a decision's time is spent here. The
other seats play greedy; the searching seat's own later moves look a reply ahead.

>>> import random
>>> from boneyard.games.highrise import new_game
>>> s = new_game(2)
>>> s.deal_random(random.Random(1))
>>> greedy_action(s, random.Random(0)) in s.legal_actions()
True
>>> reply_ahead_action(s, random.Random(0)) in s.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Any

from boneyard.games.highrise.actions import Place
from boneyard.games.highrise.state import HighriseState
from boneyard.games.highrise.tower import Placement


def greedy_action(state: HighriseState, rng: random.Random) -> Any:
    """The placement scoring most now, then the heaviest tile (the hand value it saves), then
    generation order; a draw or pass only when nothing can be placed (deterministic: ``rng``
    is reserved for randomised policies)."""
    raw = state.raw_placements()
    if not raw:
        return state.legal_actions()[0]
    values = state.values
    best = raw[0]
    best_points = -1
    best_value = -1
    for p in raw:
        points = p[7]
        value = values[p[0]]
        if points > best_points or (points == best_points and value > best_value):
            best, best_points, best_value = p, points, value
    return as_place(state, best)


def reply_ahead_action(state: HighriseState, rng: random.Random) -> Any:
    """The placement scoring most now less the most the next seat could score in reply with
    its hand (in view in a world), then the most points now, then the heaviest tile; a draw or
    pass only when nothing can be placed.

    A placement raises the tower where the next seat builds, at a level that multiplies its
    points, so the tile that scores most now often hands the next seat more: as a policy of
    its own this beats :func:`greedy_action` by some twenty chips a hand (docs/performance.md,
    "Highrise's play-outs a reply ahead"). Placing the seat's last tile ends the hand: no
    reply. Deterministic: ``rng`` is reserved for randomised policies."""
    raw = state.raw_placements()
    if not raw:
        return state.legal_actions()[0]
    seat = state.turn
    replier = state.hands[(seat + 1) % state.n]
    going_out = len(state.hands[seat]) == 1
    faces = state.faces
    values = state.values
    best = raw[0]
    best_net = best_points = best_value = -(1 << 30)
    for p in raw:
        points = p[7]
        reply = 0
        if not going_out:
            tower = state.tower.copy()
            tower.place(p[0], p[1], p[2], p[3], p[4])
            replies: list[Placement] = []
            for t in replier:
                f = faces[t]
                tower.add_placements(replies, t, f[0], f[1])
            for q in replies:
                if q[7] > reply:
                    reply = q[7]
        net = points - reply
        value = values[p[0]]
        if (net, points, value) > (best_net, best_points, best_value):
            best, best_net, best_points, best_value = p, net, points, value
    return as_place(state, best)


def as_place(state: HighriseState, p: Placement) -> Place:
    """The action of a raw placement tuple."""
    _tid, i, j, fa, fb, sp, _lvl, _pts = p
    cells = state.geometry.cells
    return Place((fa, fb), (cells[i], cells[j]), None if sp < 0 else cells[sp])


def finish_hand(state: HighriseState, rng: random.Random, seat: int = -1) -> None:
    """Play the hand out with :func:`greedy_action` for every seat but ``seat``, whose moves
    look a reply ahead (:func:`reply_ahead_action`).

    Only the searching seat's own later moves look ahead: its opponents are modelled as the
    greedy players they are, and a world where they too looked ahead valued the expert's
    actions worse (docs/performance.md)."""
    while not state.hand_over:
        if state.turn == seat:
            state.apply(reply_ahead_action(state, rng))
        else:
            state.apply(greedy_action(state, rng))
