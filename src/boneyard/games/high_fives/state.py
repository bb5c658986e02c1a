"""The High Fives rules (RULES §3): the game state, its observations and records (RECORDS.md §3).

A game is a series of **passes** (one shuffle of the double-fifteen set each; a pass is the
game's "hand"). A pass is a fixed schedule of deals; the leader leads every deal of it, so turn
``i`` of a pass belongs to seat ``(leader + i) mod n``. ``apply`` returns the event
(:mod:`boneyard.games.high_fives.events`).

>>> import random
>>> from boneyard.games.high_fives.rules import HighFivesOptions
>>> g = HighFivesState(2, HighFivesOptions(first_leader=0))
>>> g.awaiting_deal
True
>>> g.deal_random(random.Random(1))
>>> g.current_seat, len(g.observation(0).hand), len(g.observation(0).layout)
(0, 5, 5)
>>> g.apply(g.legal_actions()[0]).seat, g.current_seat
(0, 1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Final

from boneyard.core.chance import randbelow, shuffled
from boneyard.core.errors import BoneyardError, IllegalActionError, RecordError
from boneyard.core.records import JSON, check_whole_set
from boneyard.core.state import PLAYING, GameBase
from boneyard.core.tiles import Tile
from boneyard.games.high_fives.actions import Claim, HighFivesAction, Pair, Turn, decode_turn
from boneyard.games.high_fives.events import ClaimMade, HighFivesEvent, TurnTaken
from boneyard.games.high_fives.observation import HighFivesObservation
from boneyard.games.high_fives.rules import (
    GAME,
    LAYOUT_SIZE,
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
    NUM_TILES,
    NUMBERS,
    ONE,
    POINTS,
    TILE_ID,
    TILES,
    IdPair,
    TurnRules,
    ascending,
    check_claim,
    check_turn,
    claimable_pairs,
    enumerate_turns,
    without,
)
from boneyard.games.walk import undone

Deals = tuple[tuple[bytes, ...], ...]
"""``deals[k][i]``: seat ``i``'s tile ids in deal ``k``, as dealt (ascending, unless a record
lists them otherwise); ``bytes``, as the hands are (:mod:`~boneyard.games.high_fives.turns`)."""
PassDoc = tuple[int, Deals, bytes, bytes, list[HighFivesEvent]]
"""A pass of the record: leader, deals, first layout, extra tiles, its events."""


ALL_IDS: Final = list(range(NUM_TILES))
"""Every tile id, ascending: the set a shuffle starts from."""


def _ids(tiles: Sequence[Tile]) -> bytes:
    return bytes([TILE_ID[t] for t in tiles])


def _tiles(ids: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(TILES[i] for i in ids)


def _strs(ids: Sequence[int]) -> list[str]:
    return [str(TILES[i]) for i in ids]


class HighFivesState(GameBase[HighFivesAction, HighFivesEvent, HighFivesObservation]):
    """One game of High Fives; see the module docstring and :mod:`boneyard.core.protocol`."""

    game: ClassVar[str] = GAME
    ACTIONS_NAMED: ClassVar[str] = "a High Fives action"
    SEAT_NAME: ClassVar[str] = "Player"
    COPY_SHARED: ClassVar[tuple[str, ...]] = (
        *GameBase.COPY_SHARED,
        "options",
        "sched",
        "leader",
        "deals",
        "layout0",
        "extra",
        "row",
        "deal_row",
        "deal_known",
        "deal",
        "deal_end",
        "played",
        "legal",
        "pending",
        "position_only",
        "rules",
        "unlimited",
        "left_only",
        "immediate",
        "target",
    )
    COPY_COPIED: ClassVar[tuple[str, ...]] = (
        *GameBase.COPY_COPIED,
        "passes",
        "hands",
        "pile_of",
        "left",
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
        super().__init__(num_seats, seat_names)
        self.options = opts
        self.sched: Schedule = schedule(num_seats, opts.remainder_timing)
        self.passes: list[PassDoc] = []
        self.leader: int | None = None
        self.deals: Deals = ()
        self.layout0 = b""
        self.extra = b""
        self.deal = 0
        """Index of the deal in play within the pass."""
        self.deal_end = 0
        """The turn count at which the deal in play is played out."""
        self.played = 0
        """Turns taken in the pass."""
        self.hands: list[bytes] = [b""] * num_seats
        """Each seat's tile ids, ascending (a mask of 136 tiles would not fit a machine word;
        ``bytes``, as :mod:`~boneyard.games.high_fives.turns` explains)."""
        self.row = b""
        """The layout row, tile ids in row order (``bytes``, replaced at every turn)."""
        self.deal_row = b""
        """The row as the deal in play began (its turns, replayed on it, give the row each of
        them was taken on: what the observation's ``deal_turns`` are read against)."""
        self.deal_known: tuple[tuple[int, Turn], ...] = ()
        """Turns of the deal in play taken before this state's events begin: a world sampled
        mid-deal (:mod:`~boneyard.games.high_fives.worlds`) knows them from the observation."""
        self.pile_of: list[int] = [-1] * NUM_TILES
        """The seat whose score pile holds each tile (-1: none). A capture sets two entries,
        where a pile kept as a tuple of ids would be copied whole at every capture."""
        self.left: set[IdPair] = set()
        """Pairs a player's play left (``claimable_pairs: "left_by_player"``)."""
        self.legal: tuple[HighFivesAction, ...] | None = None
        self.pending: tuple[IdPair, ...] = ()
        self.position_only = False
        self.rules = TurnRules(opts)
        self.unlimited = self.rules.unlimited
        self.left_only = opts.claimable_pairs == "left_by_player"
        self.immediate = opts.win_check == "immediate"
        self.target = opts.target

    def _fresh(self) -> HighFivesState:
        return type(self)(self.n, self.options, self.names)

    def undo(self) -> None:
        """Take back the last action or deal (:meth:`GameBase.undo`). Under
        ``max_claims_per_turn`` ``"unlimited"`` a claim step is taken back alone, and a turn that
        claimed goes back to just before its tile was played, its claims taken (as a player takes
        them, one by one)."""
        if self.pending:
            self.pending = self.pending[:-1]
            self.legal = None
            return
        last = self.events[-1] if self.events else None
        super().undo()
        if self.unlimited and isinstance(last, TurnTaken):
            for pair in last.turn.claim:
                self.apply(Claim(pair))

    def _undone(self) -> HighFivesState:
        from boneyard.games.high_fives.record import READER  # (the reader builds states)

        return undone(READER, self)

    # ------------------------------------------------------------------ views of the state

    @property
    def schedule(self) -> Schedule:
        """The deal schedule of every pass of this game."""
        return self.sched

    @property
    def pass_index(self) -> int:
        """Index of the current pass (or of the last one, between passes); -1 before any."""
        return self.hands_dealt - 1

    @property
    def deal_index(self) -> int:
        """Index of the current deal within the pass."""
        return self.deal

    @property
    def end_reason(self) -> str | None:
        """How the last pass ended: ``played_out`` or ``game_over`` (None while one is going)."""
        if self.phase == PLAYING or not self.ends:
            return None
        return self.ends[-1].reason

    @property
    def layout(self) -> tuple[Tile, ...]:
        """The layout row (public)."""
        return _tiles(self.row)

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds (hidden from the other seats)."""
        return _tiles(self.hands[seat])

    @property
    def pending_claim(self) -> tuple[Pair, ...]:
        """Pairs claimed so far in the turn being taken (claim steps, ``unlimited`` only)."""
        return tuple((TILES[a], TILES[b]) for a, b in self.pending)

    def options_json(self) -> JSON:
        """The record's ``options``: the keys that differ from the defaults."""
        return self.options.to_json()

    # ------------------------------------------------------------------ starting a pass

    def next_leader(self) -> int | None:
        """The seat that must lead the next pass, or ``None`` when it is free (chosen at random)."""
        if self.leader is None:
            return None if self.options.first_leader == "random" else self.options.first_leader
        if self.options.leader_next_pass == "same":
            return self.leader
        return (self.leader + 1) % self.n

    def deal_random(self, rng: random.Random) -> None:
        """Shuffle the set with ``rng`` and start the next pass."""
        if self.is_over:
            raise BoneyardError("the game is over: no further pass is dealt")
        if not self.awaiting_deal:
            raise BoneyardError("no pass is awaited: the current pass is still being played")
        leader = self.next_leader()
        if leader is None:
            leader = randbelow(rng, self.n)
        ids = shuffled(rng, ALL_IDS)
        n = self.n
        deals: list[tuple[bytes, ...]] = []
        pos = 0
        layout = b""
        for k, size in enumerate(self.sched.sizes):
            deal = []
            for _ in range(n):
                hand = ids[pos : pos + size]
                hand.sort()  # (in place: sorted() would copy the slice again)
                deal.append(bytes(hand))
                pos += size
            deals.append(tuple(deal))
            if k == 0:
                layout = bytes(ids[pos : pos + LAYOUT_SIZE])
                pos += LAYOUT_SIZE
        self._start(leader, tuple(deals), layout, bytes(ids[pos:]))

    def deal_hand(
        self,
        deals: Sequence[Sequence[Sequence[Tile]]],
        layout: Sequence[Tile],
        extra: Sequence[Tile],
        leader: object,
    ) -> None:
        """Deal the next pass as given (replay; tests): the seats' tiles, the tiles left, and
        the seat that leads.

        ``deals[k][i]`` is seat ``i``'s tiles in deal ``k``; ``layout`` the first deal's layout
        and ``extra`` the tiles nobody is dealt; ``leader`` is whatever the record says (checked
        here). Raises :class:`RecordError` (with ``event`` None) when the set-up
        breaks the schedule or the leader rule.
        """
        h = self.hands_dealt
        if self.is_over:
            raise RecordError("the game is already over: no further pass can be dealt", h, None)
        if not self.awaiting_deal:
            raise RecordError("the current pass is not played out yet", h, None)
        leader = self._check_leader(leader, h)
        self._check_setup(deals, layout, extra, h)
        groups: list[Sequence[Tile]] = [tiles for deal in deals for tiles in deal]
        groups += [layout, extra]
        check_whole_set(TILESET, groups, h)
        self._start(
            leader,
            tuple(tuple(_ids(tiles) for tiles in deal) for deal in deals),
            _ids(layout),
            _ids(extra),
        )

    def _check_leader(self, leader: object, h: int) -> int:
        n = self.n
        if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < n:
            raise RecordError(f"leader must be a seat number 0-{n - 1}, not {leader!r}", h, None)
        expected = self.next_leader()
        if expected is not None and leader != expected:
            if self.leader is None:
                why = f"option first_leader is seat {expected}"
            elif self.options.leader_next_pass == "same":
                why = f"leader_next_pass same: seat {self.leader} led the previous pass"
            else:
                why = f"leader_next_pass rotate_left: the seat left of seat {self.leader}"
            raise RecordError(f"pass {h} must be led by seat {expected} ({why})", h, None)
        return leader

    def _check_setup(
        self,
        deals: Sequence[Sequence[Sequence[Tile]]],
        layout: Sequence[Tile],
        extra: Sequence[Tile],
        h: int,
    ) -> None:
        n = self.n
        sizes = self.sched.sizes
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
        k = self.sched.extra
        if len(extra) != k:
            raise RecordError(
                f"extra must list the {k} tile{'' if k == 1 else 's'} left over at the last "
                f"deal ({n} players), not {len(extra)}",
                h,
                None,
            )

    def _start(self, leader: int, deals: Deals, layout: bytes, extra: bytes) -> None:
        self.phase = PLAYING
        self.hands_dealt += 1
        self.leader = leader
        self.deals = deals
        self.layout0 = layout
        self.extra = extra
        self.events = []
        self.pending = ()
        self.played = 0
        self.turn = leader
        self.pile_of = [-1] * NUM_TILES
        self.row = layout
        self.left = set()
        self.deal = -1
        self.deal_end = 0
        self._next_deal()

    def _next_deal(self) -> None:
        self.deal += 1
        k = self.deal
        self.hands = [ascending(tiles) for tiles in self.deals[k]]
        self.deal_end += self.n * len(self.deals[k][0])
        if k == len(self.deals) - 1 and self.extra:
            self.row = self.row + self.extra
        self.deal_row = self.row
        self.deal_known = ()
        self.legal = None

    # ------------------------------------------------------------------ turns

    def legal_actions(self) -> tuple[HighFivesAction, ...]:
        """Every distinct legal action of the seat to play (empty when nobody is to play).

        These are whole :class:`~boneyard.games.high_fives.actions.Turn` values, except under
        ``max_claims_per_turn`` ``"unlimited"``, where each further pair is a :class:`Claim`
        step (see :func:`~boneyard.games.high_fives.turns.enumerate_turns`).
        """
        if self.legal is None:
            if self.phase != PLAYING:
                return ()
            self.legal = enumerate_turns(
                self.hands[self.turn],
                self.row,
                self.left if self.left_only else None,
                self.rules,
                self.pending,
            )
        return self.legal

    def _listed(self, action: object) -> bool:
        """Whether ``action`` is one of the legal actions listed for this position."""
        legal = self.legal
        if legal is not None:
            for a in legal:
                if a is action:
                    return True
        return False

    def _is_action(self, action: object) -> bool:
        """Whether ``action`` is one of this game's actions (:meth:`GameBase._is_action`)."""
        return isinstance(action, (Turn, Claim))

    def _apply(self, action: HighFivesAction) -> HighFivesEvent:
        """Take a whole turn (or a claim step) and return its event; raises
        :class:`IllegalActionError`, changing nothing, if it is illegal."""
        if self.phase != PLAYING:
            if self.is_over:
                raise IllegalActionError("the game is over")
            raise IllegalActionError("no turn to take: the next pass must be dealt first")
        seat = self.turn
        allowed = self.left if self.left_only else None
        if isinstance(action, Turn) and action.code >= 0 and self._listed(action):
            # A turn listed for this position: checked when it was listed.
            t, x, a, b = decode_turn(action.code)
            return self._take(seat, action, t, x, () if a < 0 else (a, b), allowed)
        if isinstance(action, Claim):
            row_mask = mask_of(self.row)
            pair = check_claim(action, self.row, row_mask, self.pending, allowed, self.options)
            self.pending = (*self.pending, pair)
            self.legal = None
            return ClaimMade(seat, action.pair)
        hand_mask = mask_of(self.hands[seat])
        row_mask = mask_of(self.row)
        t, x, cmask, _pairs = check_turn(
            action, seat, hand_mask, self.row, row_mask, allowed, self.options, self.pending
        )
        return self._take(seat, action, t, x, tuple(bits(cmask)), allowed)

    def _take(
        self,
        seat: int,
        action: Turn,
        t: int,
        x: int,
        claimed: tuple[int, ...],
        allowed: set[IdPair] | None,
    ) -> HighFivesEvent:
        """Carry out a legal turn: play ``t``, capture ``x`` (-1: none), claim ``claimed``.

        The pile owners change in place, rather than a new pile being built at every turn."""
        self.pending = ()
        self.hands[seat] = without(self.hands[seat], t)
        row = self.row
        pile_of = self.pile_of
        gained = 0
        for c in claimed:
            row = without(row, c)
            pile_of[c] = seat
            gained += POINTS[c]
        if x >= 0:
            row = without(row, x)
            pile_of[t] = seat
            pile_of[x] = seat
            gained += POINTS[t] + POINTS[x]
        else:
            if allowed is not None:
                numbers = NUMBERS[t]
                for y in row:
                    if numbers & NUMBERS[y]:
                        allowed.add((y, t) if y < t else (t, y))
            row = row + ONE[t]  # not +=, which the compiled build makes a generic call
        self.row = row
        scores = self.scores
        if gained:
            scores[seat] = scores[seat] + gained  # (not +=, as above)
        event = TurnTaken(seat, action, self.unlimited, gained, tuple(scores))
        self.events.append(event)
        self.played += 1
        self.turn = (seat + 1) % self.n
        self.legal = None
        if self.immediate and self.scores[seat] >= self.target:
            self._finish_pass("game_over", seat)
        elif self.played == self.deal_end:
            if self.deal < len(self.deals) - 1:
                self._next_deal()
            else:
                self._end_of_pass()
        return event

    def _end_of_pass(self) -> None:
        winner = None
        if self.options.win_check == "end_of_pass":
            top = max(self.scores)
            if top >= self.options.target and self.scores.count(top) == 1:
                winner = self.scores.index(top)
        self._finish_pass("played_out", winner)

    def _finish_pass(self, reason: str, winner: int | None) -> None:
        assert self.leader is not None
        self.passes.append((self.leader, self.deals, self.layout0, self.extra, self.events))
        self.legal = None
        self._end_hand(reason, winner, 0)
        if winner is not None:
            self._end_game(winner)

    # ------------------------------------------------------------------ views

    def _observe(self, seat: int | None) -> HighFivesObservation:
        """What ``seat`` may see (``None``: a spectator, who sees no hand)."""
        current = self.current_seat
        hand = () if seat is None else self.hand(seat)
        claimable: tuple[Pair, ...] = ()
        undealt = extra_to_come = 0
        layout = self.row
        if self.pending:
            pmask = mask_of([t for pair in self.pending for t in pair])
            layout = bytes([t for t in layout if not pmask >> t & 1])
        if self.phase == PLAYING:
            allowed = self.left if self.options.claimable_pairs == "left_by_player" else None
            claimable = tuple((TILES[a], TILES[b]) for a, b in claimable_pairs(layout, allowed))
            future = self.deals[self.deal + 1 :]
            extra_to_come = len(self.extra) if self.deal < len(self.deals) - 1 else 0
            undealt = sum(len(tiles) for deal in future for tiles in deal) + extra_to_come
        result = self._result
        return HighFivesObservation(
            seat=seat,
            num_seats=self.n,
            options=self.options,
            hand=hand,
            hand_sizes=tuple(len(h) for h in self.hands),
            layout=_tiles(layout),
            claimed_this_turn=self.pending_claim,
            claimable=claimable,
            piles=self._piles(),
            scores=tuple(self.scores),
            current_seat=current,
            leader=self.leader,
            pass_number=self.pass_index,
            deal_number=self.deal,
            deals_in_pass=len(self.deals),
            undealt=undealt,
            extra_to_come=extra_to_come,
            is_over=self.is_over,
            winner=None if result is None else result.winner,
            legal_actions=self.legal_actions() if seat is not None and seat == current else (),
            deal_layout=_tiles(self.deal_row) if self.phase == PLAYING else (),
            deal_turns=self._deal_turns() if self.phase == PLAYING else (),
        )

    def _deal_turns(self) -> tuple[tuple[int, Turn], ...]:
        """The turns taken so far in the deal in play, with their seats, in order (public: the
        table saw each of them)."""
        count = self.played - (self.deal_end - self.n * self.sched.sizes[self.deal])
        out: list[tuple[int, Turn]] = []
        for event in reversed(self.events):
            if len(out) == count:
                break
            if isinstance(event, TurnTaken):
                out.append((event.seat, event.turn))
        known = self.deal_known[: count - len(out)]
        return known + tuple(reversed(out))

    def _piles(self) -> tuple[tuple[Tile, ...], ...]:
        """Every seat's score pile, in the order of the set (as the observation shows it)."""
        piles: list[list[Tile]] = [[] for _ in range(self.n)]
        for i, seat in enumerate(self.pile_of):
            if seat >= 0:
                piles[seat].append(TILES[i])
        return tuple(tuple(p) for p in piles)

    # ------------------------------------------------------------------ records

    def _pass_json(self, data: PassDoc) -> JSON:
        leader, deals, layout, extra, events = data
        return {
            "leader": leader,
            "deals": [[_strs(tiles) for tiles in deal] for deal in deals],
            "layout": _strs(layout),
            "extra": _strs(extra),
            "events": [e.to_json() for e in events],
        }

    def hands_json(self) -> list[JSON]:
        """Every pass dealt (RECORDS.md §3), the one in play included."""
        if self.position_only:
            raise BoneyardError("a position set up with from_position has no record")
        hands = [self._pass_json(data) for data in self.passes]
        if self.phase == PLAYING:
            assert self.leader is not None
            current = (self.leader, self.deals, self.layout0, self.extra, self.events)
            hands.append(self._pass_json(current))
        return hands

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
        state.position_only = True
        state._start(0, (tuple(_ids(h) for h in hands),), _ids(layout), b"")
        state.played = to_move
        state.turn = to_move
        state.deal_end += to_move
        if scores is not None:
            state.scores = list(scores)
        for a, b in left_pairs:
            i, j = TILE_ID[a], TILE_ID[b]
            state.left.add((min(i, j), max(i, j)))
        state.legal = None
        return state


__all__ = ["HighFivesObservation", "HighFivesState"]
