"""Reading High Fives records (RECORDS.md §3, §6): the envelope's options and seats, each pass's
set-up, and each event as the turn it names.

:data:`READER` is the game's :class:`~boneyard.games.walk.RecordReader`: the walk drives the
same :class:`~boneyard.games.high_fives.state.HighFivesState` as play, so a record is valid
exactly when every pass's set-up and every turn is accepted by the rules.

>>> from boneyard.games.high_fives import SPEC
>>> list(SPEC.replay(Record("high-fives", {}, ("Ann", "Bob"), ())))
[]
"""

from __future__ import annotations

from boneyard.core.errors import OptionError, RecordError
from boneyard.core.records import JSON, Record, event_list, tile_field, tile_list
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.actions import Claim, HighFivesAction, Pair, Turn
from boneyard.games.high_fives.rules import (
    GAME,
    TILESET,
    HighFivesOptions,
    build_high_fives_options,
    check_players,
)
from boneyard.games.high_fives.state import HighFivesState


def _setup(hand: JSON, h: int) -> tuple[object, list[list[list[Tile]]], list[Tile], list[Tile]]:
    if "leader" not in hand:
        raise RecordError("the pass has no leader", h, None)
    raw_deals = hand.get("deals")
    if not isinstance(raw_deals, list) or not all(isinstance(d, list) for d in raw_deals):
        raise RecordError(
            "deals must be a list of deals, each a list of every seat's tiles", h, None
        )
    deals = [
        [tile_list(TILESET, tiles, f"deal {k} of seat {i}", h) for i, tiles in enumerate(deal)]
        for k, deal in enumerate(raw_deals)
    ]
    layout = tile_list(TILESET, hand.get("layout"), "layout", h)
    extra = tile_list(TILESET, hand.get("extra", []), "extra", h)
    return hand["leader"], deals, layout, extra


def _turn(ev: JSON, opts: HighFivesOptions, h: int, i: int) -> Turn:
    if "ruling" in ev:
        raise RecordError("High Fives has no rulings: every event is a turn", h, i)
    if "play" not in ev:
        if "draw" in ev or "pass" in ev:
            raise RecordError("High Fives has no draws or passes: every turn plays one tile", h, i)
        raise RecordError('a turn must name the tile it plays ("play")', h, i)
    tile = tile_field(TILESET, ev["play"], "play", h, i)
    capture = None
    if ev.get("capture") is not None:
        capture = tile_field(TILESET, ev["capture"], "capture", h, i)
    unlimited = opts.max_claims_per_turn == "unlimited"
    claim: tuple[Pair, ...] = ()
    raw = ev.get("claim")
    if raw is not None:
        if unlimited:
            if not (
                isinstance(raw, list)
                and raw
                and all(isinstance(p, list) and len(p) == 2 for p in raw)
            ):
                raise RecordError(
                    'claim must be a list of pairs, e.g. [["0-1", "1-2"]] '
                    "(max_claims_per_turn unlimited)",
                    h,
                    i,
                )
            pairs = raw
        else:
            if not (
                isinstance(raw, list)
                and len(raw) == 2
                and not any(isinstance(t, list) for t in raw)
            ):
                raise RecordError(
                    'claim must be two matching layout tiles, e.g. ["0-1", "1-2"] '
                    "(max_claims_per_turn 1: one pair per turn)",
                    h,
                    i,
                )
            pairs = [raw]
        claim = tuple(
            (tile_field(TILESET, a, "claim", h, i), tile_field(TILESET, b, "claim", h, i))
            for a, b in pairs
        )
    return Turn(tile, capture, claim, unlimited)


class HighFivesReader:
    """The record reader of High Fives."""

    def new_state(self, record: Record) -> HighFivesState:
        """A game with the record's options and seats."""
        if record.game != GAME:
            raise RecordError(f"this is a {record.game} record, not a {GAME} record")
        n = record.num_seats
        try:
            check_players(n)
            opts = build_high_fives_options(record.options, n)
        except OptionError as exc:
            raise RecordError(str(exc)) from None
        return HighFivesState(n, opts, record.seats)

    def deal(self, state: HighFivesState, record: Record, h: int) -> list[JSON]:
        """Start pass ``h`` after the checks that come before it."""
        if state.is_over:
            raise RecordError(
                f"the game ended in pass {h - 1}; no further pass may follow", h, None
            )
        if not state.awaiting_deal:
            prev = event_list(record.hands[h - 1], h - 1)
            raise RecordError(
                f"pass {h - 1} is unfinished, but another pass follows", h - 1, len(prev)
            )
        hand = record.hands[h]
        leader, deals, layout, extra = _setup(hand, h)
        state.deal_hand(deals, layout, extra, leader)
        return event_list(hand, h)

    def action(self, state: HighFivesState, ev: JSON, h: int, i: int) -> Turn:
        """The turn an event names (a whole turn, claims included)."""
        if state.is_over:
            raise RecordError("the game is over: no turn may follow", h, i)
        seat = state.current_seat
        if seat is None:
            raise RecordError(f"pass {h} is played out after {i} turns: no turn may follow", h, i)
        if ev.get("seat") != seat or type(ev.get("seat")) is not int:
            raise RecordError(
                f"it is seat {seat}'s turn, but the event is for seat {ev.get('seat')!r}", h, i
            )
        return _turn(ev, state.options, h, i)

    def legal_match(self, state: HighFivesState, action: HighFivesAction) -> HighFivesAction:
        """The legal action a record's turn takes: the same turn whatever order its claimed
        tiles are written in; under unlimited claims, the claim step of its first pair."""
        legal = state.legal_actions()
        for a in legal:
            if a == action:
                return a
        if isinstance(action, Turn):
            key = action.key()
            for a in legal:
                if isinstance(a, Turn) and a.key() == key:
                    return a
            if action.claim:
                first = set(action.claim[0])
                for a in legal:
                    if isinstance(a, Claim) and set(a.pair) == first:
                        return a
        return action


READER = HighFivesReader()
