"""The High Fives game state, its observations and records (RULES §3, RECORDS.md §3).

A game is a series of **passes** (one shuffle of the double-fifteen set each). A pass is a fixed
schedule of deals; the leader leads every deal of it, so turn ``i`` of a pass belongs to seat
``(leader + i) mod n``.

>>> import random
>>> from boneyard.games.high_fives.rules import HighFivesOptions
>>> g = HighFivesState(2, HighFivesOptions(first_leader=0))
>>> g.awaiting_deal
True
>>> g.deal_random(random.Random(1))
>>> g.current_seat, len(g.observation(0).hand), len(g.observation(0).layout)
(0, 5, 5)
>>> g.apply(g.legal_actions()[0])
>>> g.current_seat
1
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from boneyard.core.errors import BoneyardError, IllegalActionError, RecordError, check_seat
from boneyard.core.protocol import JSON, GameResult
from boneyard.core.records import FORMAT, check_whole_set
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.actions import Action, Claim, Pair, Turn
from boneyard.games.high_fives.rules import (
    GAME,
    LAYOUT_SIZE,
    MATCH,
    NUM_TILES,
    POINTS,
    TILE_ID,
    TILES,
    TILESET,
    HighFivesOptions,
    Schedule,
    bits,
    build_high_fives_options,
    check_players,
    mask_of,
    schedule,
)
from boneyard.games.high_fives.turns import (
    IdPair,
    check_claim,
    check_turn,
    claimable_pairs,
    enumerate_turns,
)

Deals = tuple[tuple[tuple[int, ...], ...], ...]
_PassData = tuple[int, Deals, tuple[int, ...], tuple[int, ...], tuple[Turn, ...]]
"""A finished pass: leader, deals, first layout, extra tiles, turns (JSON is built on demand)."""


def _tiles(ids: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(TILES[i] for i in ids)


def _strs(ids: Sequence[int]) -> list[str]:
    return [str(TILES[i]) for i in ids]


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
    legal_actions: tuple[Action, ...]

    def action_points(self, action: Any) -> int:
        """Points the action adds at once: a turn's claimed tiles plus its played and captured
        tiles (less the pairs already claimed this turn); a claim step's two tiles."""
        if isinstance(action, Turn):
            already = sum(POINTS[TILE_ID[t]] for pair in self.claimed_this_turn for t in pair)
            return action.points - already
        if isinstance(action, Claim):
            return action.points
        return 0

    def action_weight(self, action: Any) -> int:
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


class HighFivesState:
    """One game of High Fives; see the module docstring and :mod:`boneyard.core.protocol`."""

    __slots__ = (
        "_deal",
        "_deal_end",
        "_deals",
        "_end_reason",
        "_events",
        "_extra",
        "_hands",
        "_in_pass",
        "_layout",
        "_layout0",
        "_leader",
        "_left",
        "_legal",
        "_lmask",
        "_n",
        "_names",
        "_opts",
        "_passes",
        "_pending",
        "_piles",
        "_position_only",
        "_sched",
        "_scores",
        "_turn",
        "_winner",
    )

    def __init__(
        self,
        num_seats: int,
        options: HighFivesOptions | None = None,
        seat_names: Sequence[str] | None = None,
    ) -> None:
        check_players(num_seats)
        opts = options or HighFivesOptions()
        if opts.first_leader != "random" and opts.first_leader >= num_seats:
            build_high_fives_options(opts.to_json(), num_seats)  # raises the option error
        names = tuple(seat_names) if seat_names is not None else None
        if names is not None and len(names) != num_seats:
            raise BoneyardError(f"{num_seats} seats need {num_seats} names, not {len(names)}")
        self._n = num_seats
        self._opts = opts
        self._names = names or tuple(f"Player {i + 1}" for i in range(num_seats))
        self._sched: Schedule = schedule(num_seats, opts.remainder_timing)
        self._scores = [0] * num_seats
        self._passes: list[_PassData] = []
        self._in_pass = False
        self._leader: int | None = None
        self._deals: Deals = ()
        self._layout0: tuple[int, ...] = ()
        self._extra: tuple[int, ...] = ()
        self._deal = 0
        self._deal_end = 0
        self._turn = 0
        self._hands = [0] * num_seats
        self._layout: list[int] = []
        self._lmask = 0
        self._piles = [0] * num_seats
        self._left: set[IdPair] | None = None
        self._events: list[Turn] = []
        self._winner: int | None = None
        self._end_reason: str | None = None
        self._legal: tuple[Action, ...] | None = None
        self._pending: tuple[IdPair, ...] = ()
        self._position_only = False

    # ------------------------------------------------------------------ protocol properties

    @property
    def game(self) -> str:
        """``high-fives``."""
        return GAME

    @property
    def num_seats(self) -> int:
        """Player count."""
        return self._n

    @property
    def options(self) -> HighFivesOptions:
        """The rules this game is played under."""
        return self._opts

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Names of the seats, in turn order."""
        return self._names

    @property
    def names(self) -> list[str]:
        """Seat names written in the record (settable, like every game's ``names``)."""
        return list(self._names)

    @names.setter
    def names(self, value: Sequence[str]) -> None:
        if len(value) != self.num_seats:
            raise BoneyardError(f"{self.num_seats} seats need {self.num_seats} names")
        self._names = tuple(value)

    @property
    def schedule(self) -> Schedule:
        """The deal schedule of every pass of this game."""
        return self._sched

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's total points so far."""
        return tuple(self._scores)

    @property
    def current_seat(self) -> int | None:
        """The seat to play, or ``None`` while a pass is awaited or the game is over."""
        if not self._in_pass or self._winner is not None:
            return None
        assert self._leader is not None
        return (self._leader + self._turn) % self._n

    @property
    def awaiting_deal(self) -> bool:
        """True when the next pass must be dealt."""
        return not self._in_pass and self._winner is None

    @property
    def is_over(self) -> bool:
        """True once somebody has won."""
        return self._winner is not None

    @property
    def pass_index(self) -> int:
        """Index of the current pass (or of the last one, between passes); -1 before any."""
        return len(self._passes) - (0 if self._in_pass else 1)

    @property
    def deal_index(self) -> int:
        """Index of the current deal within the pass."""
        return self._deal

    @property
    def end_reason(self) -> str | None:
        """How the last pass ended: ``played_out`` or ``game_over`` (None while one is going)."""
        return self._end_reason

    @property
    def layout(self) -> tuple[Tile, ...]:
        """The layout row (public)."""
        return _tiles(self._layout)

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds (hidden from the other seats)."""
        return _tiles(list(bits(self._hands[seat])))

    # ------------------------------------------------------------------ starting a pass

    def next_leader(self) -> int | None:
        """The seat that must lead the next pass, or ``None`` when it is free (chosen at random)."""
        if self._leader is None:
            return None if self._opts.first_leader == "random" else self._opts.first_leader
        if self._opts.leader_next_pass == "same":
            return self._leader
        return (self._leader + 1) % self._n

    def deal_random(self, rng: random.Random) -> None:
        """Shuffle the set with ``rng`` and start the next pass."""
        if self.is_over:
            raise BoneyardError("the game is over: no further pass is dealt")
        if not self.awaiting_deal:
            raise BoneyardError("no pass is awaited: the current pass is still being played")
        leader = self.next_leader()
        if leader is None:
            leader = rng.randrange(self._n)
        ids = list(range(NUM_TILES))
        rng.shuffle(ids)
        n = self._n
        deals: list[tuple[tuple[int, ...], ...]] = []
        pos = 0
        layout: tuple[int, ...] = ()
        for k, size in enumerate(self._sched.sizes):
            deal = []
            for _ in range(n):
                deal.append(tuple(sorted(ids[pos : pos + size])))
                pos += size
            deals.append(tuple(deal))
            if k == 0:
                layout = tuple(ids[pos : pos + LAYOUT_SIZE])
                pos += LAYOUT_SIZE
        extra = tuple(ids[pos:])
        self._start(leader, tuple(deals), layout, extra)

    def start_pass(
        self,
        leader: int,
        deals: Sequence[Sequence[Sequence[Tile]]],
        layout: Sequence[Tile],
        extra: Sequence[Tile],
    ) -> None:
        """Start the next pass from an explicit set-up (replay; tests).

        ``deals[k][i]`` is seat ``i``'s tiles in deal ``k``. Raises :class:`RecordError` (with
        ``event`` None) when the set-up breaks the schedule or the leader rule.
        """
        h = len(self._passes)
        if self.is_over:
            raise RecordError("the game is already over: no further pass can be dealt", h, None)
        if self._in_pass:
            raise RecordError("the current pass is not played out yet", h, None)
        n = self._n
        if type(leader) is not int or not 0 <= leader < n:
            raise RecordError(f"leader must be a seat number 0-{n - 1}, not {leader!r}", h, None)
        expected = self.next_leader()
        if expected is not None and leader != expected:
            if self._leader is None:
                why = f"option first_leader is seat {expected}"
            elif self._opts.leader_next_pass == "same":
                why = f"leader_next_pass same: seat {self._leader} led the previous pass"
            else:
                why = f"leader_next_pass rotate_left: the seat left of seat {self._leader}"
            raise RecordError(f"pass {h} must be led by seat {expected} ({why})", h, None)
        sizes = self._sched.sizes
        if len(deals) != len(sizes):
            raise RecordError(
                f"a pass with {n} players has {len(sizes)} deals, but {len(deals)} are listed",
                h,
                None,
            )
        for k, deal in enumerate(deals):
            if len(deal) != n:
                raise RecordError(
                    f"deal {k} must give tiles to {n} seats, not {len(deal)}", h, None
                )
            for i, tiles in enumerate(deal):
                if len(tiles) != sizes[k]:
                    raise RecordError(
                        f"deal {k} gives seat {i} {len(tiles)} tiles; it must give {sizes[k]}",
                        h,
                        None,
                    )
        if len(layout) != LAYOUT_SIZE:
            raise RecordError(
                f"the layout must start with {LAYOUT_SIZE} tiles, not {len(layout)}", h, None
            )
        k = self._sched.extra
        if len(extra) != k:
            raise RecordError(
                f"extra must list the {k} tile{'' if k == 1 else 's'} left over at the last "
                f"deal ({n} players), not {len(extra)}",
                h,
                None,
            )
        groups: list[Sequence[Tile]] = [tiles for deal in deals for tiles in deal]
        groups += [layout, extra]
        check_whole_set(TILESET, groups, h)
        self._start(
            leader,
            tuple(tuple(tuple(TILE_ID[t] for t in tiles) for tiles in deal) for deal in deals),
            tuple(TILE_ID[t] for t in layout),
            tuple(TILE_ID[t] for t in extra),
        )

    def _start(
        self, leader: int, deals: Deals, layout: tuple[int, ...], extra: tuple[int, ...]
    ) -> None:
        self._in_pass = True
        self._end_reason = None
        self._leader = leader
        self._deals = deals
        self._layout0 = layout
        self._extra = extra
        self._events = []
        self._pending = ()
        self._turn = 0
        self._piles = [0] * self._n
        self._layout = list(layout)
        self._lmask = mask_of(layout)
        self._left = set() if self._opts.claimable_pairs == "left_by_player" else None
        self._deal = -1
        self._deal_end = 0
        self._next_deal()

    def _next_deal(self) -> None:
        self._deal += 1
        k = self._deal
        self._hands = [mask_of(tiles) for tiles in self._deals[k]]
        self._deal_end += self._n * len(self._deals[k][0])
        if k == len(self._deals) - 1 and self._extra:
            self._layout.extend(self._extra)
            self._lmask |= mask_of(self._extra)
        self._legal = None

    # ------------------------------------------------------------------ turns

    def legal_actions(self) -> tuple[Action, ...]:
        """Every distinct legal action of the seat to play (empty when nobody is to play).

        These are whole :class:`Turn` values, except under ``max_claims_per_turn``
        ``"unlimited"``, where each further pair is a :class:`Claim` step (see
        :func:`~boneyard.games.high_fives.turns.enumerate_turns`).
        """
        if self._legal is None:
            seat = self.current_seat
            if seat is None:
                return ()
            self._legal = enumerate_turns(
                self._hands[seat], self._layout, self._lmask, self._left, self._opts, self._pending
            )
        return self._legal

    @property
    def pending_claim(self) -> tuple[Pair, ...]:
        """Pairs claimed so far in the turn being taken (claim steps, ``unlimited`` only)."""
        return tuple((TILES[a], TILES[b]) for a, b in self._pending)

    def apply(self, action: Any) -> None:
        """Take a whole turn (or a claim step); raises :class:`IllegalActionError`, changing
        nothing, if it is illegal."""
        seat = self.current_seat
        if seat is None:
            if self.is_over:
                raise IllegalActionError("the game is over")
            raise IllegalActionError("no turn to take: the next pass must be dealt first")
        if isinstance(action, Claim):
            pair = check_claim(
                action, self._layout, self._lmask, self._pending, self._left, self._opts
            )
            self._pending = (*self._pending, pair)
            self._legal = None
            return
        t, x, cmask, _pairs = check_turn(
            action,
            seat,
            self._hands[seat],
            self._layout,
            self._lmask,
            self._left,
            self._opts,
            self._pending,
        )
        self._pending = ()
        self._hands[seat] &= ~(1 << t)
        gained = 0
        won = cmask
        for c in bits(cmask):
            gained += POINTS[c]
        if x >= 0:
            gained += POINTS[t] + POINTS[x]
            won |= (1 << t) | (1 << x)
        if won:
            self._lmask &= ~won
            self._layout = [i for i in self._layout if not won >> i & 1]
            self._piles[seat] |= won
        if x < 0:
            if self._left is not None:
                m = self._lmask & MATCH[t]
                for y in bits(m):
                    self._left.add((y, t) if y < t else (t, y))
            self._layout.append(t)
            self._lmask |= 1 << t
        self._scores[seat] += gained
        self._events.append(action)
        self._turn += 1
        self._legal = None
        if self._opts.win_check == "immediate" and self._scores[seat] >= self._opts.target:
            self._finish_pass("game_over", seat)
            return
        if self._turn == self._deal_end:
            if self._deal < len(self._deals) - 1:
                self._next_deal()
            else:
                self._end_of_pass()

    def _end_of_pass(self) -> None:
        winner = None
        if self._opts.win_check == "end_of_pass":
            top = max(self._scores)
            if top >= self._opts.target and self._scores.count(top) == 1:
                winner = self._scores.index(top)
        self._finish_pass("played_out", winner)

    def _finish_pass(self, reason: str, winner: int | None) -> None:
        assert self._leader is not None
        self._passes.append(
            (self._leader, self._deals, self._layout0, self._extra, tuple(self._events))
        )
        self._in_pass = False
        self._end_reason = reason
        self._winner = winner
        self._legal = None

    # ------------------------------------------------------------------ views

    def observation(self, seat: int | None) -> HighFivesObservation:
        """What ``seat`` may see (``None``: a spectator, who sees no hand)."""
        check_seat(seat, self._n)
        current = self.current_seat
        hand = () if seat is None else self.hand(seat)
        claimable: tuple[Pair, ...] = ()
        undealt = extra_to_come = 0
        layout = self._layout
        if self._pending:
            pmask = mask_of([t for pair in self._pending for t in pair])
            layout = [t for t in layout if not pmask >> t & 1]
        if self._in_pass:
            claimable = tuple((TILES[a], TILES[b]) for a, b in claimable_pairs(layout, self._left))
            future = self._deals[self._deal + 1 :]
            extra_to_come = len(self._extra) if self._deal < len(self._deals) - 1 else 0
            undealt = sum(len(tiles) for deal in future for tiles in deal) + extra_to_come
        return HighFivesObservation(
            seat=seat,
            num_seats=self._n,
            options=self._opts,
            hand=hand,
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            layout=_tiles(layout),
            claimed_this_turn=self.pending_claim,
            claimable=claimable,
            piles=tuple(_tiles(list(bits(p))) for p in self._piles),
            scores=tuple(self._scores),
            current_seat=current,
            leader=self._leader,
            pass_number=self.pass_index,
            deal_number=self._deal,
            deals_in_pass=len(self._deals),
            undealt=undealt,
            extra_to_come=extra_to_come,
            is_over=self.is_over,
            winner=self._winner,
            legal_actions=self.legal_actions() if seat is not None and seat == current else (),
        )

    def result(self) -> GameResult | None:
        """The winner and final scores once the game is over."""
        if self._winner is None:
            return None
        return GameResult(self._winner, tuple(self._scores), "target")

    # ------------------------------------------------------------------ records

    def _event_json(self, seat: int, turn: Turn) -> JSON:
        ev: JSON = {"seat": seat, "play": str(turn.tile)}
        if turn.capture is not None:
            ev["capture"] = str(turn.capture)
        if turn.claim:
            if self._opts.max_claims_per_turn == "unlimited":
                ev["claim"] = [[str(a), str(b)] for a, b in turn.claim]
            else:
                a, b = turn.claim[0]
                ev["claim"] = [str(a), str(b)]
        return ev

    def _pass_json(self, data: _PassData) -> JSON:
        leader, deals, layout, extra, events = data
        n = self._n
        return {
            "leader": leader,
            "deals": [[_strs(tiles) for tiles in deal] for deal in deals],
            "layout": _strs(layout),
            "extra": _strs(extra),
            "events": [self._event_json((leader + i) % n, e) for i, e in enumerate(events)],
        }

    def record(self) -> JSON:
        """The game so far as a ``boneyard-record/1`` document (RECORDS.md §3)."""
        if self._position_only:
            raise BoneyardError("a position set up with from_position has no record")
        hands = [self._pass_json(data) for data in self._passes]
        if self._in_pass:
            assert self._leader is not None
            current = (self._leader, self._deals, self._layout0, self._extra, tuple(self._events))
            hands.append(self._pass_json(current))
        return {
            "format": FORMAT,
            "game": GAME,
            "options": self._opts.to_json(),
            "seats": list(self._names),
            "hands": hands,
            "meta": {},
        }

    def copy(self) -> Self:
        """An independent copy (for search); shares only immutable parts."""
        new = object.__new__(type(self))
        new._n = self._n
        new._opts = self._opts
        new._names = self._names
        new._sched = self._sched
        new._scores = self._scores.copy()
        new._passes = self._passes.copy()
        new._in_pass = self._in_pass
        new._leader = self._leader
        new._deals = self._deals
        new._layout0 = self._layout0
        new._extra = self._extra
        new._deal = self._deal
        new._deal_end = self._deal_end
        new._turn = self._turn
        new._hands = self._hands.copy()
        new._layout = self._layout.copy()
        new._lmask = self._lmask
        new._piles = self._piles.copy()
        new._left = None if self._left is None else self._left.copy()
        new._events = self._events.copy()
        new._winner = self._winner
        new._end_reason = self._end_reason
        new._legal = self._legal
        new._pending = self._pending
        new._position_only = self._position_only
        return new

    # ------------------------------------------------------------------ analysis positions

    @classmethod
    def from_position(
        cls,
        layout: Sequence[Tile],
        hands: Sequence[Sequence[Tile]],
        *,
        to_move: int = 0,
        options: HighFivesOptions | None = None,
        scores: Sequence[int] | None = None,
        left_pairs: Sequence[Pair] = (),
    ) -> HighFivesState:
        """A state in the middle of a deal, for analysis and tests (it has no record).

        ``hands`` must be equally long (every seat holds a tile at every turn); the deal is the
        last of its pass. ``left_pairs`` are the pairs a player left, for ``left_by_player``.

        >>> s = HighFivesState.from_position(
        ...     [Tile(5, 10), Tile(10, 10), Tile(3, 12)], [[Tile(10, 15)], [Tile(0, 0)]])
        >>> sorted(a.points for a in s.legal_actions())
        [8, 8, 10]
        """
        n = len(hands)
        state = cls(n, options)
        sizes = {len(h) for h in hands}
        if len(sizes) != 1 or 0 in sizes:
            raise BoneyardError("every seat must hold the same number of tiles (at least one)")
        ids = [TILE_ID[t] for t in layout] + [TILE_ID[t] for h in hands for t in h]
        if len(set(ids)) != len(ids):
            raise BoneyardError("a tile appears twice in the position")
        deal = tuple(tuple(TILE_ID[t] for t in h) for h in hands)
        state._position_only = True
        state._start(0, (deal,), tuple(TILE_ID[t] for t in layout), ())
        state._turn = to_move
        state._deal_end += to_move
        if scores is not None:
            state._scores = list(scores)
        if state._left is not None:
            for a, b in left_pairs:
                i, j = TILE_ID[a], TILE_ID[b]
                state._left.add((min(i, j), max(i, j)))
        state._legal = None
        return state


def new_game(players: int, options: Mapping[str, Any] | None = None) -> HighFivesState:
    """A fresh game awaiting its first pass; raises OptionError on bad options.

    >>> new_game(3, {"target": 50}).options.target
    50
    """
    check_players(players)
    return HighFivesState(players, build_high_fives_options(options, players))
