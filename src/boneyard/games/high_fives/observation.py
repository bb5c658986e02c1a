"""What one seat (or a spectator) may see of a High Fives game."""

from __future__ import annotations

from dataclasses import dataclass

from boneyard.core.records import JSON
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.actions import Claim, HighFivesAction, Pair, Turn
from boneyard.games.high_fives.rules import GAME, POINTS, TILE_ID, HighFivesOptions


@dataclass(frozen=True, slots=True)
class HighFivesObservation:
    """What one seat (or a spectator, ``seat=None``) sees of a High Fives game.

    Public: the layout row, every seat's score pile of this pass and total score, hand sizes, the
    claimable pairs, and how far the pass has gone. Private: only the seat's own ``hand``.
    ``claimed_this_turn`` holds the pairs already claimed in the turn being taken (claim steps
    under ``max_claims_per_turn`` ``"unlimited"``); they are no longer in ``layout``.
    """

    seat: int | None
    num_seats: int
    options: HighFivesOptions
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    layout: tuple[Tile, ...]
    claimed_this_turn: tuple[Pair, ...]
    claimable: tuple[Pair, ...]
    piles: tuple[tuple[Tile, ...], ...]
    scores: tuple[int, ...]
    current_seat: int | None
    leader: int | None
    pass_number: int
    deal_number: int
    deals_in_pass: int
    undealt: int
    extra_to_come: int
    is_over: bool
    winner: int | None
    legal_actions: tuple[HighFivesAction, ...]

    @property
    def game(self) -> str:
        """``high-fives``."""
        return GAME

    def action_points(self, action: object) -> int:
        """Points the action adds at once: a turn's claimed tiles plus its played and captured
        tiles (less the pairs already claimed this turn); a claim step's two tiles."""
        if isinstance(action, Turn):
            already = sum(POINTS[TILE_ID[t]] for pair in self.claimed_this_turn for t in pair)
            return action.points - already
        if isinstance(action, Claim):
            return action.points
        return 0

    def action_weight(self, action: object) -> int:
        """Tie-break: the played tile's pips (-1 for a claim step or anything else)."""
        return action.tile.pips if isinstance(action, Turn) else -1

    def to_json(self) -> JSON:
        """The JSON form a client of this seat receives."""
        return {
            "game": GAME,
            "seat": self.seat,
            "options": self.options.to_json(),
            "hand": [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "layout": [str(t) for t in self.layout],
            "claimed_this_turn": [[str(a), str(b)] for a, b in self.claimed_this_turn],
            "claimable": [[str(a), str(b)] for a, b in self.claimable],
            "piles": [[str(t) for t in pile] for pile in self.piles],
            "scores": list(self.scores),
            "current_seat": self.current_seat,
            "leader": self.leader,
            "pass": self.pass_number,
            "deal": self.deal_number,
            "deals_in_pass": self.deals_in_pass,
            "undealt": self.undealt,
            "extra_to_come": self.extra_to_come,
            "is_over": self.is_over,
            "winner": self.winner,
            "legal_actions": [a.to_event() for a in self.legal_actions],
        }
