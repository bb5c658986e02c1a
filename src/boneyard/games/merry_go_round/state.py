"""The Merry-Go-Round rules (RULES §2): one whole game to exactly 61, hand after hand.

A hand starts with the *set*: the setter lays a double (drawing for one if needed); that double
is the spinner, and the *cross* follows: its two sides, then its two ends (or all four in any
order), before play opens on every end. Each placement scores ``count / 5`` points when the
open-end count is a positive multiple of five, unless that would take the side past the target.

The state is driven by deals (:meth:`MerryGoRoundState.deal_hand` from a record, or
:meth:`~boneyard.games.fives.state.FivesState.deal_random` with an injected generator) and by
actions, of which only legal ones are accepted; ``apply`` returns the event.

>>> import random
>>> s = MerryGoRoundState(3)
>>> s.deal_random(random.Random(1))
>>> s.current_seat is not None and len(s.legal_actions()) >= 1
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final, NoReturn, cast

from boneyard.core.chance import randbelow
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.records import JSON
from boneyard.core.state import AWAIT_DEAL, PLAYING
from boneyard.core.tiles import Tile
from boneyard.games.fives.events import Drew, FivesEvent, Passed, Placed
from boneyard.games.fives.layout import (
    DOUBLE_MASK,
    IS_DOUBLE,
    LO,
    PORT_CODE,
    PORT_NAMES,
    R_SPINNER,
    SIDE_A,
    SIDE_B,
    SLOT_BITS,
    SPINNER_PORT_ORDER,
    TILES,
    Availability,
    ids_of,
    pips_of_mask,
)
from boneyard.games.fives.play import deal_ids, default_port, play_ids
from boneyard.games.fives.state import FivesState
from boneyard.games.merry_go_round.actions import (
    DRAW,
    PASS,
    PLAYS,
    Draw,
    MerryGoRoundAction,
    Pass,
    Play,
)
from boneyard.games.merry_go_round.layout import CrossLayout
from boneyard.games.merry_go_round.observation import (
    MerryGoRoundObservation,
    count_with,
    layout_policy,
    observe,
)
from boneyard.games.merry_go_round.options import MerryGoRoundOptions
from boneyard.games.merry_go_round.scoring import (
    block_points,
    credit_order,
    domino_points,
    lowest_member,
    play_points,
)
from boneyard.games.walk import undone

HAND_SIZE: Final = 7
RESERVE: Final = {2: 2, 3: 1, 4: 1}
"""Undrawable boneyard tiles under ``boneyard_reserve = "kelley"`` (S2 variation 1)."""

SETTING: Final = PLAYING + 1
"""Phase: the setter must set a double (the set is the hand's first tile)."""

_CROSS_FULL: Final = 0b1111 << SIDE_A
_EDGE_NAMES: Final[tuple[str | None, ...]] = tuple(
    name if code >= SIDE_A else None for code, name in enumerate(PORT_NAMES)
)
"""A play's ``port`` by port code: only the set's edges are named."""
_SIDES: Final = (1 << SIDE_A) | (1 << SIDE_B)


class MerryGoRoundState(FivesState[MerryGoRoundAction, FivesEvent, MerryGoRoundObservation]):
    """A Merry-Go-Round game in progress (2–4 players). See the module docstring."""

    game: ClassVar[str] = "merry-go-round"
    ACTIONS_NAMED: ClassVar[str] = "a Merry-Go-Round action"
    COPY_SHARED: ClassVar[tuple[str, ...]] = (
        *FivesState.COPY_SHARED,
        "options",
        "teams",
        "side_of",
        "sides",
        "rivals",
        "reserve",
        "target",
        "forced",
        "highest_set",
        "alone_only",
        "exact_awards",
        "domino_rules",
        "next_setter",
        "bend",
        "setter",
        "set_by",
        "score_line",
    )
    COPY_COPIED: ClassVar[tuple[str, ...]] = (*FivesState.COPY_COPIED, "side_scores")

    def __init__(
        self,
        players: int,
        options: MerryGoRoundOptions | Mapping[str, object] | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        if players not in RESERVE:
            raise BoneyardError(f"Merry-Go-Round is for 2, 3 or 4 players, not {players}")
        super().__init__(players, names)
        if not isinstance(options, MerryGoRoundOptions):
            options = MerryGoRoundOptions.build(options, players)
        self.options = options
        self.policy = layout_policy(options)
        self.layout = CrossLayout(self.policy)
        self.teams = players == 4 and options.partnerships
        self.side_of: tuple[int, ...] = (0, 1, 0, 1) if self.teams else tuple(range(players))
        self.sides: tuple[tuple[int, ...], ...] = (
            ((0, 2), (1, 3)) if self.teams else tuple((i,) for i in range(players))
        )
        against_partner = options.block_vs == "all_others"
        self.rivals: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                j
                for j in range(players)
                if j != i and (against_partner or self.side_of[j] != self.side_of[i])
            )
            for i in range(players)
        )
        self.reserve = RESERVE[players] if options.boneyard_reserve == "kelley" else 0
        self.target = options.target
        self.forced = options.forced_play
        self.highest_set = options.set_double_choice == "highest"
        self.alone_only = options.spinner_count == "alone_only"
        self.exact_awards = options.exact_target_scope == "all_scores"
        self.domino_rules = (
            options.domino_bonus_rounding == "per_opponent",
            options.partner_pips == "net",
            options.next_setter == "hand_winner",
        )
        """How a domino scores and who sets next: ``per_opponent``, ``net`` partner pips, the
        winner sets (the options read once, not at each hand's end)."""
        self.side_scores = [0] * len(self.sides)
        """Each side's score (``scores`` shows every seat its side's total)."""
        self.score_line: tuple[int, ...] = tuple(self.scores)
        """``scores`` as the events carry them: one tuple, replaced when a score changes."""
        self.next_setter: int | None = None
        """Who sets the next hand (None before the first hand: RULES §2.3, MG-2)."""
        self.bend = 0
        """Boneyard index past the last drawable tile (the reserve lies beyond it)."""
        self.setter = 0
        """The seat that had to set when the hand began."""
        self.set_by = -1
        """The seat that set the double (-1: not yet)."""

    def _fresh(self) -> MerryGoRoundState:
        return type(self)(self.n, self.options, self.names)

    def _undone(self) -> MerryGoRoundState:
        from boneyard.games.merry_go_round.record import READER  # (the reader builds states)

        return undone(READER, self)

    @property
    def in_hand(self) -> bool:
        """True while a hand is being played (the set included)."""
        return self.phase >= PLAYING

    @property
    def hand_number(self) -> int:
        """Index of the current (or next) hand in the record; the last one once it is over."""
        return self.hands_dealt - (0 if self.phase == AWAIT_DEAL else 1)

    @property
    def drawable(self) -> int:
        """How many boneyard tiles may still be drawn."""
        return self.bend - self.bpos if self.in_hand else 0

    def options_json(self) -> JSON:
        """The record's ``options``: the keys that differ from the defaults."""
        return self.options.to_json()

    # --- dealing ----------------------------------------------------------------------------

    def hand_size(self) -> int:
        """Every player draws 7 (RULES §2.1)."""
        return HAND_SIZE

    def _deal_hook(self, hands: list[list[int]], bone: list[int], rng: random.Random) -> None:
        setter = self.next_setter
        if setter is None:
            first = self.options.first_setter
            setter = randbelow(rng, self.n) if first == "random" else first
        self._begin(hands, bone, setter)

    def deal_hand(
        self,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        setter: int | None = None,
    ) -> None:
        """Deal the next hand as given (a record, a physical table): each seat's tiles, the
        boneyard in draw order, and the seat that sets.

        ``setter`` is needed only for the first hand under ``first_setter = "random"``; given
        anywhere else it must agree with the rules (RULES §2.3).
        """
        self.check_deal()
        if len(hands) != self.n:
            raise BoneyardError(f"the deal must have {self.n} hands, not {len(hands)}")
        ids, bone = deal_ids(hands, boneyard)
        for i, h in enumerate(ids):
            if len(h) != HAND_SIZE:
                raise BoneyardError(f"seat {i} is dealt {len(h)} tiles; every player draws 7")
        expected = self.next_setter
        if expected is None and self.options.first_setter != "random":
            expected = self.options.first_setter
        if setter is None:
            if expected is None:
                raise BoneyardError("say who sets the first hand (first_setter is random)")
            setter = expected
        elif not 0 <= setter < self.n:
            raise BoneyardError(f"seat {setter} is not at this table")
        elif expected is not None and setter != expected:
            raise BoneyardError(f"seat {expected} sets this hand, not seat {setter}")
        self._begin(ids, bone, setter)

    def _begin(self, hands: list[list[int]], bone: list[int], setter: int) -> None:
        self._start(hands, bone)
        self.bend = len(bone) - self.reserve if len(bone) > self.reserve else 0
        self.setter = setter
        self.set_by = -1
        self.turn = setter
        self.phase = SETTING

    # --- legal actions ----------------------------------------------------------------------

    def _set_doubles(self, seat: int) -> list[int]:
        """The doubles ``seat`` may set now (RULES §2.3, MG-3)."""
        doubles = self.hands[seat] & DOUBLE_MASK
        if not doubles:
            return []
        if self.highest_set:
            return [doubles.bit_length() - 1]
        return ids_of(doubles)

    def _placements(self, seat: int) -> list[Play]:
        lay = cast(CrossLayout, self.layout)
        return PLAYS.on_ports(lay.ready, lay.ready_count, self.hands[seat])

    def can_place(self, seat: int) -> bool:
        """Whether ``seat`` holds a legal placement now (after the set)."""
        return cast(CrossLayout, self.layout).can_place(self.hands[seat])

    def legal_actions(self) -> list[MerryGoRoundAction]:
        """Every action the seat to move may take (RULES §2.3, §2.4, §5).

        The setter sets a double if it holds one, else draws, else passes the obligation on.
        After the set: the placements, plus a draw unless ``forced_play`` (a seat that cannot
        place must draw, and passes only when nothing can be drawn).
        """
        phase = self.phase
        seat = self.turn
        if phase == PLAYING:
            lay = cast(CrossLayout, self.layout)
            plays = PLAYS.on_ports(lay.ready, lay.ready_count, self.hands[seat])  # a fresh list
            moves = cast(list[MerryGoRoundAction], plays)
            if moves:
                if not self.forced and self.bpos < self.bend:
                    moves.append(DRAW)
                return moves
            return [DRAW] if self.bpos < self.bend else [PASS]
        if phase == SETTING:
            doubles = self._set_doubles(seat)
            if doubles:
                return [PLAYS.get(t, -1, -1) for t in doubles]
            return [DRAW] if self.bpos < self.bend else [PASS]
        return []

    def points_if(self, play: Play) -> int:
        """Points ``play`` would score at once for the seat to move (0 on a bust): the greedy
        play-out policy's measure."""
        tile, anchor, code = self.resolve(play)
        points = play_points(count_with(self.layout, self.alone_only, tile, anchor, code))
        if points and self.side_scores[self.side_of[self.turn]] + points > self.target:
            return 0
        return points

    # --- applying ---------------------------------------------------------------------------

    def _is_action(self, action: object) -> bool:
        """Whether ``action`` is one of this game's actions (:meth:`GameBase._is_action`)."""
        return isinstance(action, (Play, Draw, Pass))

    def _apply(self, action: MerryGoRoundAction) -> FivesEvent:
        """Apply an action of the current seat and return its event; raises
        IllegalActionError and changes nothing when it is not legal."""
        if not self.in_hand:
            raise IllegalActionError(
                "the next hand is not dealt yet" if self.phase == AWAIT_DEAL else "the game is over"
            )
        if isinstance(action, Play):
            return self._play(action)  # its event, without reading the list back
        if isinstance(action, Draw):
            self._draw()
        else:
            self._pass()
        return self.events[-1]

    def resolve(self, action: Play) -> tuple[int, int, int]:
        """Internal ids ``(tile, anchor, port code)`` of a play, checking the names exist."""
        if action.key[0] >= 0:
            return action.key
        lay = self.layout
        tile, anchor = play_ids(action, lay, "set")
        if anchor < 0:
            return tile, -1, -1
        if action.port is None:
            return tile, anchor, default_port(lay, self.policy, tile, anchor)
        code = PORT_CODE.get(action.port, -1)
        if code < SIDE_A:
            raise IllegalActionError(
                f"{action.port} is not an edge of the set (SIDE_A, SIDE_B, END_A, END_B)"
            )
        if lay.role[anchor] != R_SPINNER:
            raise IllegalActionError(
                f"{action.on} is not the set double: only the set's edges are named"
            )
        return tile, anchor, code

    def _cross_rule(self) -> str:
        """Why only some ends are open now (the cross, RULES §2.2)."""
        lay = self.layout
        s = lay.first_spinner
        assert s is not None
        c = lay.connected[s]
        names = ", ".join(
            f"{PORT_NAMES[code]}" for code in SPINNER_PORT_ORDER if not (c >> code) & 1
        )
        if self.policy == Availability.CROSS_ANY_ORDER:
            return f"all four edges of the set {TILES[s]} come first (open: {names})"
        if c & _SIDES != _SIDES:
            return f"both sides of the set {TILES[s]} come first (open: {names})"
        return f"the ends of the set {TILES[s]} come next (open: {names})"

    def _refuse_port(self, tile: int, anchor: int, code: int) -> NoReturn:
        """Raise the reason a port may not be played on now."""
        lay = self.layout
        if lay.port_value(anchor, code) is None:
            raise IllegalActionError(
                f"{TILES[anchor]} has no open {PORT_NAMES[code]} end (open: {lay.describe_open()})"
            )
        raise IllegalActionError(
            f"{TILES[tile]} cannot go on {TILES[anchor]} yet: {self._cross_rule()}"
        )

    def _refuse_play(self, tile: int, anchor: int, code: int) -> NoReturn:
        """Raise the reason a placement after the set is not legal now."""
        lay = self.layout
        if anchor < 0:
            raise IllegalActionError(f"the double is set: say which tile {TILES[tile]} goes on")
        if not lay.is_available(self.policy, anchor, code):
            self._refuse_port(tile, anchor, code)
        value = lay.slot_value(anchor << SLOT_BITS | code)
        ends = ", ".join(str(p[0]) for p in lay.available(self.policy))
        raise IllegalActionError(
            f"{TILES[tile]} does not match the {value} on {TILES[anchor]} (open: {ends})"
        )

    def _set(self, seat: int, tile: int, anchor: int) -> None:
        """Lay the set: a double, the highest held under ``set_double_choice: "highest"``."""
        if anchor >= 0:
            raise IllegalActionError(f"nothing is on the table yet: seat {seat} must set a double")
        if not IS_DOUBLE[tile]:
            raise IllegalActionError(f"the set must be a double, and {TILES[tile]} is not")
        if self.highest_set:  # any double held may be set otherwise (``tile`` is held)
            highest = (self.hands[seat] & DOUBLE_MASK).bit_length() - 1
            if tile != highest:
                raise IllegalActionError(
                    f"the set must be the highest double held: {TILES[highest]}"
                )
        self.layout.place(tile)
        self.set_by = seat
        self.phase = PLAYING

    def _play(self, action: Play) -> Placed:
        seat = self.turn
        tile, anchor, code = action.key  # a listed play's ids; else the names, checked
        if tile < 0:
            tile, anchor, code = self.resolve(action)
        hand = self.hands[seat]
        if not (hand >> tile) & 1:
            raise IllegalActionError(f"seat {seat} does not hold {TILES[tile]}")
        lay = self.layout
        if self.phase == SETTING:
            self._set(seat, tile, anchor)
        elif anchor < 0 or not lay.join_listed(self.policy, tile, anchor, code):
            self._refuse_play(tile, anchor, code)
        hand &= ~(1 << tile)
        self.hands[seat] = hand
        count = self.count if self.alone_only else lay.count
        points = count // 5 if count > 0 and count % 5 == 0 else 0
        if points:
            points = self._credit(self.side_of[seat], points, exact=True)
        event = Placed(
            seat,
            TILES[tile],
            TILES[anchor] if anchor >= 0 else None,
            _EDGE_NAMES[code] if anchor >= 0 else None,
            count,
            points,
            self.score_line,
            "lead" if anchor < 0 else "play",
        )
        self.events.append(event)
        if points and self.side_scores[self.side_of[seat]] >= self.target:
            self._end_hand("game_over", seat, 0)
            self._end_game(seat)
        elif not hand:
            self._domino(seat)
        else:
            self.turn = (seat + 1) % self.n
        return event

    def _draw(self) -> None:
        seat = self.turn
        if self.bpos >= self.bend:
            if self.bpos < len(self.boneyard):
                left = len(self.boneyard) - self.bpos
                raise IllegalActionError(
                    f"only the reserve is left in the boneyard ({left} tiles that are never drawn)"
                )
            raise IllegalActionError("the boneyard is empty")
        if self.phase == SETTING:
            doubles = self._set_doubles(seat)
            if doubles:
                raise IllegalActionError(
                    f"seat {seat} must set a double: it holds {TILES[doubles[-1]]}"
                )
        elif self.forced:
            moves = self._placements(seat)
            if moves:
                raise IllegalActionError(f"seat {seat} must play: it holds {moves[0].tile}")
        tile = self.boneyard[self.bpos]
        self.bpos += 1
        hands = self.hands
        hands[seat] = hands[seat] | 1 << tile  # compiled, ``|=`` on an item is a generic call
        self.events.append(Drew(seat, TILES[tile], self.score_line))

    def _pass(self) -> None:
        seat = self.turn
        drawable = self.bpos < self.bend
        if self.phase == SETTING:
            doubles = self._set_doubles(seat)
            if doubles:
                raise IllegalActionError(
                    f"seat {seat} must set a double: it holds {TILES[doubles[-1]]}"
                )
            if drawable:
                raise IllegalActionError(
                    f"seat {seat} cannot pass: it has no double and must draw for one"
                )
            self.events.append(Passed(seat, self.score_line))
            if self.options.no_double_fallback == "redeal":
                self.next_setter = self.setter
                self._end_hand("redeal", None, 0)
                return
            self.turn = (seat + 1) % self.n
            return
        if self.can_place(seat):
            held = self._placements(seat)[0].tile
            raise IllegalActionError(f"seat {seat} must play: it holds {held}")
        if drawable:
            raise IllegalActionError(
                f"seat {seat} cannot pass: the boneyard still has tiles to draw"
            )
        self.events.append(Passed(seat, self.score_line))
        self.turn = (seat + 1) % self.n
        lay = cast(CrossLayout, self.layout)
        for hand in self.hands:
            if lay.can_place(hand):
                return
        self._block()

    # --- scoring ----------------------------------------------------------------------------

    @property
    def count(self) -> int:
        """The open-end count, with ``spinner_count = "alone_only"`` applied (MG-6)."""
        lay = self.layout
        c = lay.count
        if self.alone_only:
            s = lay.first_spinner
            if s is not None and lay.connected[s].bit_count() == 1:
                c -= 2 * LO[s]
        return c

    def _credit(self, side: int, points: int, exact: bool) -> int:
        """Add ``points`` to a side; returns what was actually credited (RULES §2.6).

        A positive credit that would pass the target scores nothing when ``exact``; a
        negative one stops at 0 under ``score_floor_zero``.
        """
        if points == 0:
            return 0
        old = self.side_scores[side]
        new = old + points
        if points > 0:
            if exact and new > self.target:
                return 0
        elif new < 0 and self.options.score_floor_zero:
            new = min(old, 0)
        self.side_scores[side] = new
        for seat in self.sides[side]:
            self.scores[seat] = new
        self.score_line = tuple(self.scores)
        return new - old

    def set_side_scores(self, side_scores: list[int]) -> None:
        """Put every side on the given score (a sampled world starts from the observed ones)."""
        self.side_scores = list(side_scores)
        self.scores = [side_scores[s] for s in self.side_of]
        self.score_line = tuple(self.scores)

    def _domino(self, seat: int) -> None:
        pips = [pips_of_mask(h) for h in self.hands]
        per_opponent, net, winner_sets = self.domino_rules
        partner = (seat + 2) % 4 if self.teams else None
        points = domino_points(seat, pips, partner, per_opponent=per_opponent, net=net)
        side = self.side_of[seat]
        got = self._credit(side, points, self.exact_awards)
        self.next_setter = seat if winner_sets else (self.set_by + 1) % self.n
        self._end_hand("domino", seat, got)
        if got > 0 and self.side_scores[side] >= self.target:
            self._end_game(seat)

    def _block(self) -> None:
        pips = [pips_of_mask(h) for h in self.hands]
        opts = self.options
        points = block_points(
            pips, self.rivals, opts.block_scoring, half_up=opts.split_half_rounding == "up"
        )
        awards = [0] * self.n
        champion: int | None = None
        for s in credit_order(pips, self.sides):
            members = self.sides[s]
            credit = sum(points[i] for i in members)
            if credit == 0 or champion is not None:
                continue
            got = self._credit(s, credit, self.exact_awards)
            for i in members:
                awards[i] = got
            if got > 0 and self.side_scores[s] >= self.target:
                champion = s
        low = min(pips)
        lowest = [i for i in range(self.n) if pips[i] == low]
        winner = lowest[0] if len(lowest) == 1 else None
        if winner is not None and opts.next_setter == "hand_winner":
            self.next_setter = winner
        else:
            self.next_setter = (self.set_by + 1) % self.n
        award = awards[winner] if winner is not None else 0
        self._end_hand("block", winner, award, tuple(awards))
        if champion is not None:
            self._end_game(lowest_member(pips, self.sides[champion]))

    # --- observation ------------------------------------------------------------------------

    def stage(self) -> str:
        """Where the hand stands: ``set``, ``cross_sides``, ``cross_ends``, ``cross``
        (any order), ``open``, or ``idle`` between hands and after the game."""
        if self.phase == SETTING:
            return "set"
        if self.phase != PLAYING:
            return "idle"
        lay = self.layout
        s = lay.first_spinner
        assert s is not None
        c = lay.connected[s]
        if c & _CROSS_FULL == _CROSS_FULL:
            return "open"
        if self.policy == Availability.CROSS_ANY_ORDER:
            return "cross"
        return "cross_sides" if c & _SIDES != _SIDES else "cross_ends"

    def _observe(self, seat: int | None) -> MerryGoRoundObservation:
        """Everything ``seat`` may see: its own hand, never another's or the boneyard order."""
        return observe(self, seat)


__all__ = ["SETTING", "MerryGoRoundState"]
