"""Toy Line's rules: a small line game that shows what adding a game takes (not shipped).

Two players, the ten tiles of a double-four set without its doubles. Each seat is dealt three
(the other four stay out). The seat after the last hand's leader leads any tile; then each in
turn plays a tile with a value that matches an open end of the line, or passes when none
does. A hand ends when a seat plays its last tile (it scores 1 and the pips the other holds)
or both pass in a row (the fewer pips score 1 and the difference; equal pips score nothing).
The first to ``target`` points wins.

The state implements the game protocol (:class:`boneyard.core.protocol.State`) on its own,
without the compiled base state, so that it runs under the pure and the compiled build.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from boneyard.core.errors import BoneyardError, IllegalActionError, check_seat
from boneyard.core.options import Bounds, build_options
from boneyard.core.protocol import JSON, GameResult, HandEnd
from boneyard.core.records import FORMAT
from boneyard.core.tiles import Tile

GAME = "toy-line"
TILES = tuple(Tile(a, b) for a in range(5) for b in range(a + 1, 5))
"""The ten tiles of a double-four set without its doubles."""
HAND = 3


@dataclass(frozen=True)
class ToyOptions:
    """Toy Line's options."""

    target: Annotated[int, Bounds(1, 100)] = 5

    @classmethod
    def build(cls, raw: Any) -> ToyOptions:
        """The options ``raw`` names (OptionError on an unknown key or value)."""
        return build_options(cls, raw)


@dataclass(frozen=True)
class Play:
    """Play ``tile`` on the open end of tile ``on`` (``None``: lead it)."""

    tile: Tile
    on: Tile | None = None

    def to_event(self) -> JSON:
        """The record event's fields (without the seat)."""
        return {"play": str(self.tile)} | ({} if self.on is None else {"on": str(self.on)})


@dataclass(frozen=True)
class Pass:
    """No tile fits: pass."""

    def to_event(self) -> JSON:
        """The record event's fields (without the seat)."""
        return {"pass": True}


ToyAction = Play | Pass


@dataclass(frozen=True)
class Moved:
    """What a seat did, and the points it scored (a hand's last play or pass)."""

    seat: int
    action: ToyAction
    points: int = 0

    def to_json(self) -> JSON:
        """The record event."""
        return {"seat": self.seat, **self.action.to_event()}


@dataclass(frozen=True)
class ToyObservation:
    """What one seat (``None``: a spectator) sees: the line, its own tiles, the counts."""

    game: str
    seat: int | None
    legal_actions: tuple[ToyAction, ...]
    line: tuple[Tile, ...]
    hand: tuple[Tile, ...] | None
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    current_seat: int | None
    is_over: bool
    target: int

    def to_json(self) -> JSON:
        """The view the site sends: the line as a layout with its two open ends."""
        layout: list[JSON] = []
        for i, tile in enumerate(self.line):
            joined = None if i == 0 else self.line[i - 1]
            layout.append({"tile": str(tile), "on": None if joined is None else str(joined)})
        return {
            "game": self.game,
            "seat": self.seat,
            "legal_actions": [a.to_event() for a in self.legal_actions],
            "line": [str(t) for t in self.line],
            "layout": layout,
            "open_ends": [[v, str(t), None] for v, t in ends(self.line)],
            "hand": None if self.hand is None else [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "scores": list(self.scores),
            "current_seat": self.current_seat,
            "is_over": self.is_over,
            "target": self.target,
        }

    def action_points(self, action: object) -> int:
        """Points are scored only at a hand's end: none for a move alone."""
        return 0

    def action_weight(self, action: object) -> int:
        """Every move weighs the same."""
        return 1


def ends(line: Sequence[Tile]) -> list[tuple[int, Tile]]:
    """The line's open ends: ``(value, tile)``, left then right. The line is kept in order, the
    lead's low end on the left (a tile played on the left end goes first)."""
    if not line:
        return []
    if len(line) == 1:
        return [(line[0].lo, line[0]), (line[0].hi, line[0])]
    first, last = line[0], line[-1]
    left = first.hi if line[1].has(first.lo) else first.lo
    right = last.hi if line[-2].has(last.lo) else last.lo
    return [(left, first), (right, last)]


@dataclass
class ToyState:
    """A game of Toy Line (the protocol's state; see the module docstring)."""

    n: int
    options: ToyOptions
    names: list[str] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    hands: list[list[Tile]] = field(default_factory=list)
    line: list[Tile] = field(default_factory=list)
    """The line of play, the lead's left end first."""
    turn: int = 0
    passes: int = 0
    hands_dealt: int = 0
    deals: list[JSON] = field(default_factory=list)
    events: list[Moved] = field(default_factory=list)
    ends: list[HandEnd] = field(default_factory=list)
    _result: GameResult | None = None
    game: str = GAME

    def __post_init__(self) -> None:
        if self.n != 2:
            raise BoneyardError("Toy Line is for 2 players")
        self.names = self.names or [f"Seat {i + 1}" for i in range(self.n)]
        self.scores = self.scores or [0] * self.n

    # -- the protocol ---------------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        """Player count."""
        return self.n

    @property
    def awaiting_deal(self) -> bool:
        """True when the next hand needs its deal."""
        return self._result is None and (not self.hands or bool(self.ends_here()))

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self._result is not None

    @property
    def current_seat(self) -> int | None:
        """The seat to act (``None`` between hands and once over)."""
        return None if self.awaiting_deal or self.is_over else self.turn

    def ends_here(self) -> list[HandEnd]:
        """The end of the hand in play, once it has one."""
        return [e for e in self.ends if e.hand == self.hands_dealt - 1]

    def result(self) -> GameResult | None:
        """The result once the game is over."""
        return self._result

    def deal_random(self, rng: random.Random) -> None:
        """Deal the next hand from ``rng``."""
        tiles = list(TILES)
        rng.shuffle(tiles)
        self.deal_hand([tiles[:HAND], tiles[HAND : 2 * HAND]])

    def deal_hand(self, hands: Sequence[Sequence[Tile]]) -> None:
        """Deal the next hand as given: each seat's tiles."""
        if not self.awaiting_deal:
            raise BoneyardError("the hand in play is not over")
        self.hands = [list(h) for h in hands]
        self.line, self.events, self.passes = [], [], 0
        self.turn = self.hands_dealt % self.n
        self.deals.append({"deal": [[str(t) for t in h] for h in hands], "events": []})
        self.hands_dealt += 1

    def legal_actions(self) -> list[ToyAction]:
        """The current seat's plays, or a pass when none fits."""
        if self.current_seat is None:
            return []
        hand = self.hands[self.turn]
        if not self.line:
            return [Play(t) for t in hand]
        plays: list[ToyAction] = []
        for tile in hand:
            for value, end in dict.fromkeys(ends(self.line)):
                if tile.has(value):
                    plays.append(Play(tile, end))
        return plays or [Pass()]

    def apply(self, action: ToyAction) -> Moved:
        """Apply a legal action of the current seat; IllegalActionError otherwise."""
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not a legal move now")
        seat = self.turn
        if isinstance(action, Play):
            self.hands[seat].remove(action.tile)
            left = bool(self.line) and action.on == self.line[0] and len(self.line) > 1
            if self.line and action.on == self.line[0] and len(self.line) == 1:
                left = action.tile.has(self.line[0].lo)
            self.line.insert(0 if left else len(self.line), action.tile)
            self.passes = 0
        else:
            self.passes += 1
        points = self._score(seat)
        event = Moved(seat, action, points)
        self.events.append(event)
        self.deals[-1]["events"].append(event.to_json())
        self.turn = (seat + 1) % self.n
        return event

    def _score(self, seat: int) -> int:
        """End the hand if it is over; the points it scored."""
        pips = [sum(t.pips for t in h) for h in self.hands]
        if not self.hands[seat]:
            winner, reason = seat, "domino"
        elif self.passes == self.n:
            low = min(pips)
            winner = pips.index(low) if pips.count(low) == 1 else None
            reason = "block"
        else:
            return 0
        award = 0 if winner is None else 1 + sum(pips) - 2 * pips[winner]
        if winner is not None:
            self.scores[winner] += award
        h = self.hands_dealt - 1
        self.ends.append(HandEnd(h, reason, winner, award, None, tuple(self.scores)))
        if winner is not None and self.scores[winner] >= self.options.target:
            self._result = GameResult(winner, tuple(self.scores))
        return award

    def observation(self, seat: int | None) -> ToyObservation:
        """What ``seat`` may see (``None``: a spectator)."""
        check_seat(seat, self.n)
        mine = seat is not None and bool(self.hands)
        return ToyObservation(
            GAME,
            seat,
            tuple(self.legal_actions()) if seat == self.current_seat else (),
            tuple(self.line),
            tuple(self.hands[seat]) if mine and seat is not None else None,
            tuple(len(h) for h in self.hands) if self.hands else (0,) * self.n,
            tuple(self.scores),
            self.current_seat,
            self.is_over,
            self.options.target,
        )

    def record(self) -> JSON:
        """The game so far as a record document."""
        return {
            "format": FORMAT,
            "game": GAME,
            "options": {"target": self.options.target},
            "seats": list(self.names),
            "hands": copy.deepcopy(self.deals),
            "meta": {},
        }

    def copy(self) -> ToyState:
        """An independent copy."""
        return ToyState(
            self.n,
            self.options,
            list(self.names),
            list(self.scores),
            [list(h) for h in self.hands],
            list(self.line),
            self.turn,
            self.passes,
            self.hands_dealt,
            copy.deepcopy(self.deals),
            list(self.events),
            list(self.ends),
            self._result,
        )
