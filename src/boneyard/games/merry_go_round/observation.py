"""What one seat (or a spectator) may see of a Merry-Go-Round game.

The greedy bot asks an observation what each legal action scores at once
(:meth:`MerryGoRoundObservation.action_points`); that is worked out only when asked, from the
layout as it was when the observation was made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from boneyard.core.records import JSON
from boneyard.core.state import PLAYING
from boneyard.core.tiles import Tile
from boneyard.games.fives.layout import LO, Availability, FivesLayout
from boneyard.games.fives.play import (
    PlacedView,
    PublicEvent,
    ends_from_json,
    ends_json,
    ends_view,
    events_from_json,
    layout_from_json,
    placed_views,
    play_from_json,
)
from boneyard.games.merry_go_round.actions import DRAW, PASS, PLAYS, MerryGoRoundAction, Play
from boneyard.games.merry_go_round.options import MerryGoRoundOptions
from boneyard.games.merry_go_round.scoring import play_points

if TYPE_CHECKING:
    from boneyard.games.merry_go_round.state import MerryGoRoundState


def count_with(layout: FivesLayout, alone_only: bool, tile: int, anchor: int, code: int) -> int:
    """The count after ``tile`` goes on port ``code`` of ``anchor`` (-1: the set), with
    ``spinner_count = "alone_only"`` applied: the set counts twice only while nothing touches
    it (MG-6)."""
    count = layout.count_after(tile, anchor, code)
    if alone_only and anchor >= 0:
        s = layout.first_spinner
        if s is not None and layout.connected[s].bit_count() + (anchor == s) == 1:
            count -= 2 * LO[s]
    return count


def layout_policy(options: MerryGoRoundOptions) -> Availability:
    """Which open ends may be played on under ``options`` (the cross first)."""
    if options.cross_order == "sides_then_ends":
        return Availability.CROSS_SIDES_THEN_ENDS
    return Availability.CROSS_ANY_ORDER


@dataclass(frozen=True, slots=True)
class MerryGoRoundObservation:
    """What one seat (or a spectator, ``seat=None``) may see of a Merry-Go-Round game."""

    seat: int | None
    num_seats: int
    hand_number: int
    current_seat: int | None
    setter: int | None
    """The seat that set this hand's double, or the seat that must set it now."""
    stage: str
    """``set``, ``cross_sides``, ``cross_ends``, ``cross`` (any order), ``open`` or ``idle``."""
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    """Tiles that may still be drawn."""
    reserve: int
    """Tiles left in the boneyard that may never be drawn."""
    layout: tuple[PlacedView, ...]
    open_ends: tuple[tuple[int, Tile, str], ...]
    available_ends: tuple[tuple[int, Tile, str], ...]
    count: int
    scores: tuple[int, ...]
    """Every seat's score (partners show their side's total)."""
    partnerships: bool
    target: int
    legal_actions: tuple[MerryGoRoundAction, ...]
    history: tuple[PublicEvent, ...]
    is_over: bool
    winner: int | None
    options: MerryGoRoundOptions
    table: FivesLayout | None = field(default=None, compare=False, repr=False)
    """The layout when the observation was made, for :meth:`action_points` (the seat to move
    only; it is public anyway)."""

    @property
    def game(self) -> str:
        """``merry-go-round``."""
        return "merry-go-round"

    def action_points(self, action: object) -> int:
        """Points the action scores at once for this seat's side (0 on a bust, and for anything
        but a legal placement)."""
        if self.table is None or not isinstance(action, Play) or action.key[0] < 0:
            return 0
        alone = self.options.spinner_count == "alone_only"
        points = play_points(count_with(self.table, alone, *action.key))
        if points and self.seat is not None and self.scores[self.seat] + points > self.target:
            return 0
        return points

    def action_weight(self, action: object) -> int:
        """The pips of the tile played (heaviest first); -1 for draws and passes."""
        return action.tile.pips if isinstance(action, Play) else -1

    def to_json(self) -> JSON:
        """JSON form sent to that seat's client."""
        return {
            "game": self.game,
            "seat": self.seat,
            "num_seats": self.num_seats,
            "hand_number": self.hand_number,
            "current_seat": self.current_seat,
            "setter": self.setter,
            "stage": self.stage,
            "hand": [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "boneyard_size": self.boneyard_size,
            "reserve": self.reserve,
            "layout": [p.to_json() for p in self.layout],
            "open_ends": ends_json(self.open_ends),
            "available_ends": ends_json(self.available_ends),
            "count": self.count,
            "scores": list(self.scores),
            "partnerships": self.partnerships,
            "target": self.target,
            "legal_actions": [a.to_event() for a in self.legal_actions],
            "history": [{**e.to_json(), "points": e.points} for e in self.history],
            "is_over": self.is_over,
            "winner": self.winner,
            "options": self.options.to_json(),
        }


def observe(state: MerryGoRoundState, seat: int | None) -> MerryGoRoundObservation:
    """Everything ``seat`` may see: its own hand, never another's or the boneyard order."""
    lay = state.layout
    in_hand = state.in_hand
    to_move = seat is not None and in_hand and seat == state.turn
    avail = lay.available(state.policy) if state.phase == PLAYING else []
    result = state._result
    return MerryGoRoundObservation(
        seat=seat,
        num_seats=state.n,
        hand_number=state.hand_number,
        current_seat=state.current_seat,
        setter=(state.set_by if state.set_by >= 0 else state.turn) if in_hand else None,
        stage=state.stage(),
        hand=state.held(seat) if seat is not None and in_hand else (),
        hand_sizes=tuple(h.bit_count() for h in state.hands) if in_hand else (0,) * state.n,
        boneyard_size=state.bend - state.bpos if in_hand else 0,
        reserve=len(state.boneyard) - max(state.bpos, state.bend) if in_hand else 0,
        layout=state.placed(),
        open_ends=state.open_ends(),
        available_ends=ends_view(avail),
        count=state.count if not lay.empty else 0,
        scores=tuple(state.scores),
        partnerships=state.teams,
        target=state.target,
        legal_actions=tuple(state.legal_actions()) if to_move else (),
        history=state.history(seat),
        is_over=state.is_over,
        winner=result.winner if result is not None else None,
        options=state.options,
        table=lay.copy() if to_move else None,
    )


def observation_from_json(doc: JSON) -> MerryGoRoundObservation:
    """The observation whose :meth:`~MerryGoRoundObservation.to_json` is ``doc``, equal to it
    (its layout rebuilt from the tiles shown, for
    :meth:`~MerryGoRoundObservation.action_points`)."""
    options = MerryGoRoundOptions.build(doc["options"], doc["num_seats"])
    policy = layout_policy(options)
    lay = layout_from_json(doc, policy)
    legal = tuple(
        play_from_json(ev, lay, policy, PLAYS) if "play" in ev else DRAW if "draw" in ev else PASS
        for ev in doc["legal_actions"]
    )
    return MerryGoRoundObservation(
        seat=doc["seat"],
        num_seats=doc["num_seats"],
        hand_number=doc["hand_number"],
        current_seat=doc["current_seat"],
        setter=doc["setter"],
        stage=doc["stage"],
        hand=tuple(Tile.parse(t) for t in doc["hand"]),
        hand_sizes=tuple(doc["hand_sizes"]),
        boneyard_size=doc["boneyard_size"],
        reserve=doc["reserve"],
        layout=placed_views(lay),
        open_ends=ends_from_json(doc["open_ends"]),
        available_ends=ends_from_json(doc["available_ends"]),
        count=doc["count"],
        scores=tuple(doc["scores"]),
        partnerships=doc["partnerships"],
        target=doc["target"],
        legal_actions=legal,
        history=events_from_json(doc["history"]),
        is_over=doc["is_over"],
        winner=doc["winner"],
        options=options,
        table=lay if legal else None,
    )
