"""What one seat (or a spectator) may see of a High Fives game."""

from __future__ import annotations

from dataclasses import dataclass

from boneyard.core.records import JSON
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.actions import Claim, HighFivesAction, Pair, Turn
from boneyard.games.high_fives.rules import (
    GAME,
    POINTS,
    TILE_ID,
    HighFivesOptions,
    build_high_fives_options,
)


@dataclass(frozen=True, slots=True)
class HighFivesObservation:
    """What one seat (or a spectator, ``seat=None``) sees of a High Fives game.

    Public: the layout row, every seat's score pile of this pass and total score, hand sizes, the
    claimable pairs, and how far the pass has gone. Private: only the seat's own ``hand``.
    ``claimed_this_turn`` holds the pairs already claimed in the turn being taken (claim steps
    under ``max_claims_per_turn`` ``"unlimited"``); they are no longer in ``layout``.

    ``deal_layout`` is the row as the deal in play began and ``deal_turns`` every turn taken in
    it since, with its seat (public: the table saw them): replayed on that row they give the row
    each turn was taken on, so that a bot can read what a seat's plays say of its hand
    (:mod:`boneyard.games.high_fives.worlds`). Both are empty between passes.
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
    deal_layout: tuple[Tile, ...] = ()
    deal_turns: tuple[tuple[int, Turn], ...] = ()

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
            "num_seats": self.num_seats,
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
            "deal_layout": [str(t) for t in self.deal_layout],
            "deal_turns": [{"seat": s, **t.to_event()} for s, t in self.deal_turns],
        }


def _pairs(raw: list[list[str]]) -> tuple[Pair, ...]:
    return tuple((Tile.parse(a), Tile.parse(b)) for a, b in raw)


def _action(ev: JSON, unlimited: bool) -> HighFivesAction:
    """A legal action's record form read back: a claim step, or a whole turn."""
    claim = ev.get("claim")
    if "play" not in ev:
        return Claim(_pairs(ev["claim"])[0])
    pairs = () if claim is None else _pairs([claim] if isinstance(claim[0], str) else claim)
    capture = None if ev.get("capture") is None else Tile.parse(ev["capture"])
    return Turn(Tile.parse(ev["play"]), capture, pairs, unlimited)


def observation_from_json(doc: JSON) -> HighFivesObservation:
    """The observation whose :meth:`~HighFivesObservation.to_json` is ``doc``, equal to it."""
    seats = doc["num_seats"]
    options = build_high_fives_options(doc["options"], seats)
    unlimited = options.max_claims_per_turn == "unlimited"
    return HighFivesObservation(
        seat=doc["seat"],
        num_seats=seats,
        options=options,
        hand=tuple(Tile.parse(t) for t in doc["hand"]),
        hand_sizes=tuple(doc["hand_sizes"]),
        layout=tuple(Tile.parse(t) for t in doc["layout"]),
        claimed_this_turn=_pairs(doc["claimed_this_turn"]),
        claimable=_pairs(doc["claimable"]),
        piles=tuple(tuple(Tile.parse(t) for t in pile) for pile in doc["piles"]),
        scores=tuple(doc["scores"]),
        current_seat=doc["current_seat"],
        leader=doc["leader"],
        pass_number=doc["pass"],
        deal_number=doc["deal"],
        deals_in_pass=doc["deals_in_pass"],
        undealt=doc["undealt"],
        extra_to_come=doc["extra_to_come"],
        is_over=doc["is_over"],
        winner=doc["winner"],
        legal_actions=tuple(_action(ev, unlimited) for ev in doc["legal_actions"]),
        deal_layout=tuple(Tile.parse(t) for t in doc.get("deal_layout", ())),
        deal_turns=tuple(_taken(ev, unlimited) for ev in doc.get("deal_turns", ())),
    )


def _taken(ev: JSON, unlimited: bool) -> tuple[int, Turn]:
    """A turn of ``deal_turns`` read back, with its seat."""
    turn = _action(ev, unlimited)
    assert isinstance(turn, Turn)  # (a taken turn always plays a tile)
    return ev["seat"], turn
