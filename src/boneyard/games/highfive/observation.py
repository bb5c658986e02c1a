"""What one seat (or a spectator) may see of a High Five game.

The greedy bot asks an observation what each legal action scores at once
(:meth:`HighFiveObservation.action_points`); that is worked out only when asked, from the
layout as it was when the observation was made, so building an observation (every broadcast of
the server builds one per seat) costs no trial placements.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from boneyard.core.records import JSON
from boneyard.core.state import PLAYING
from boneyard.core.tiles import Tile
from boneyard.games.fives.layout import Availability, FivesLayout
from boneyard.games.fives.play import (
    DRAW,
    PASS,
    PLAYS,
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
from boneyard.games.highfive.actions import RETURN_TILE, HighFiveAction, Play
from boneyard.games.highfive.options import HighFiveOptions
from boneyard.games.highfive.settlement import payer_of

if TYPE_CHECKING:
    from boneyard.games.highfive.state import HighFiveState


def layout_policy(options: HighFiveOptions) -> Availability:
    """Which open ends may be played on under ``options`` (a spinner's ends after its sides?)."""
    if options.spinner_ends_need_both_sides:
        return Availability.SIDES_FIRST
    return Availability.ANY


@dataclass(frozen=True, slots=True)
class HighFiveObservation:
    """What one seat (or a spectator, ``seat=None``) may see of a High Five game."""

    seat: int | None
    num_seats: int
    hand_number: int
    current_seat: int | None
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    layout: tuple[PlacedView, ...]
    open_ends: tuple[tuple[int, Tile, str], ...]
    available_ends: tuple[tuple[int, Tile, str], ...]
    count: int
    scores: tuple[int, ...]
    chips_left: tuple[int, ...]
    legal_actions: tuple[HighFiveAction, ...]
    history: tuple[PublicEvent, ...]
    big6_lead: bool
    is_over: bool
    winner: int | None
    options: HighFiveOptions
    table: FivesLayout | None = field(default=None, compare=False, repr=False)
    """The layout when the observation was made, for :meth:`action_points` (the seat to move
    only; it is public anyway)."""

    @property
    def game(self) -> str:
        """``highfive``."""
        return "highfive"

    def action_points(self, action: object) -> int:
        """Chips the action scores at once (capped by the payer's chips); 0 for anything but a
        legal placement."""
        if self.table is None or not isinstance(action, Play) or action.key[0] < 0:
            return 0
        count = self.table.count_after(*action.key)
        if count <= 0 or count % 5 or self.seat is None:
            return 0
        if self.options.payment_cap != "chips":
            return count
        n = self.num_seats
        return min(count, self.chips_left[payer_of(self.seat, n)])

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
            "hand": [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "boneyard_size": self.boneyard_size,
            "layout": [p.to_json() for p in self.layout],
            "open_ends": ends_json(self.open_ends),
            "available_ends": ends_json(self.available_ends),
            "count": self.count,
            "scores": list(self.scores),
            "chips_left": list(self.chips_left),
            "legal_actions": [a.to_event() for a in self.legal_actions],
            "history": [{**e.to_json(), "points": e.points} for e in self.history],
            "big6_lead": self.big6_lead,
            "is_over": self.is_over,
            "winner": self.winner,
            "options": self.options.to_json(),
        }


def observe(state: HighFiveState, seat: int | None) -> HighFiveObservation:
    """Everything ``seat`` may see: its own hand, never another's or the boneyard order."""
    lay = state.layout
    in_hand = state.phase == PLAYING
    to_move = seat is not None and in_hand and seat == state.turn
    result = state._result
    return HighFiveObservation(
        seat=seat,
        num_seats=state.n,
        hand_number=state.hand_number,
        current_seat=state.current_seat,
        hand=state.held(seat) if seat is not None and in_hand else (),
        hand_sizes=tuple(h.bit_count() for h in state.hands) if in_hand else (0,) * state.n,
        boneyard_size=len(state.boneyard) - state.bpos if in_hand else 0,
        layout=state.placed(),
        open_ends=state.open_ends(),
        available_ends=ends_view(lay.available(state.policy)),
        count=lay.count,
        scores=tuple(state.scores),
        chips_left=tuple(state.chips),
        legal_actions=tuple(state.legal_actions()) if to_move else (),
        history=state.history(seat),
        big6_lead=state.big6 >= 0 and lay.empty and in_hand,
        is_over=state.is_over,
        winner=result.winner if result is not None else None,
        options=state.options,
        table=lay.copy() if to_move else None,
    )


def observation_from_json(doc: JSON) -> HighFiveObservation:
    """The observation whose :meth:`~HighFiveObservation.to_json` is ``doc``, equal to it (its
    layout rebuilt from the tiles shown, for :meth:`~HighFiveObservation.action_points`)."""
    options = HighFiveOptions.build(doc["options"])
    policy = layout_policy(options)
    lay = layout_from_json(doc, policy)
    fixed: dict[str, HighFiveAction] = {"draw": DRAW, "pass": PASS, "ruling": RETURN_TILE}
    legal = tuple(
        play_from_json(ev, lay, policy, PLAYS) if "play" in ev else fixed[next(iter(ev))]
        for ev in doc["legal_actions"]
    )
    return HighFiveObservation(
        seat=doc["seat"],
        num_seats=doc["num_seats"],
        hand_number=doc["hand_number"],
        current_seat=doc["current_seat"],
        hand=tuple(Tile.parse(t) for t in doc["hand"]),
        hand_sizes=tuple(doc["hand_sizes"]),
        boneyard_size=doc["boneyard_size"],
        layout=placed_views(lay),
        open_ends=ends_from_json(doc["open_ends"]),
        available_ends=ends_from_json(doc["available_ends"]),
        count=doc["count"],
        scores=tuple(doc["scores"]),
        chips_left=tuple(doc["chips_left"]),
        legal_actions=legal,
        history=events_from_json(doc["history"]),
        big6_lead=doc["big6_lead"],
        is_over=doc["is_over"],
        winner=doc["winner"],
        options=options,
        table=lay if legal else None,
    )
