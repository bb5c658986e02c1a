"""The Merry-Go-Round engine (RULES §2): one whole game to exactly 61, hand after hand.

A hand starts with the *set*: the setter lays a double (drawing for one if needed); that double
is the spinner, and the *cross* follows: its two sides, then its two ends (or all four in any
order), before play opens on every end. Each placement scores ``count / 5`` points when the
open-end count is a positive multiple of five, unless that would take the side past the target.

The state is driven by deals (:meth:`MerryGoRoundState.start_hand` from a record, or
:meth:`MerryGoRoundState.deal_random` with an injected generator) and by actions, of which only
legal ones are accepted.

>>> import random
>>> s = MerryGoRoundState(3)
>>> s.deal_random(random.Random(1))
>>> s.current_seat is not None and len(s.legal_actions()) >= 1
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from boneyard.core.errors import BoneyardError, IllegalActionError, check_seat
from boneyard.core.protocol import GameResult
from boneyard.core.records import FORMAT
from boneyard.core.tiles import Tile
from boneyard.games.fives import (
    DOUBLE_MASK,
    HI,
    IS_DOUBLE,
    LO,
    PORT_CODE,
    PORT_NAMES,
    SIDE_A,
    SIDE_B,
    SPINNER_PORT_ORDER,
    TILES,
    Availability,
    FivesLayout,
    Role,
    ids_of,
    pips_of_mask,
)
from boneyard.games.fives_play import (
    ALL_IDS,
    NAMES,
    PlacedView,
    PlayTable,
    PublicEvent,
    can_place,
    deal_ids,
    default_port,
    draw_view,
    ends_json,
    ends_view,
    event_line,
    hand_end_line,
    hand_masks,
    placed_views,
    play_ids,
    play_json,
    play_view,
    shuffled,
)
from boneyard.games.merry_go_round.actions import DRAW, PASS, Draw, Pass, Play
from boneyard.games.merry_go_round.options import MerryGoRoundOptions
from boneyard.games.merry_go_round.scoring import (
    block_points,
    credit_order,
    domino_points,
    lowest_member,
    play_points,
)

HAND_SIZE = 7
RESERVE = {2: 2, 3: 1, 4: 1}
"""Undrawable boneyard tiles under ``boneyard_reserve = "kelley"`` (S2 variation 1)."""

# Phases.
AWAIT_DEAL, SETTING, PLAYING, OVER = 0, 1, 2, 3

_CROSS_FULL = 0b1111 << SIDE_A
_SIDES = (1 << SIDE_A) | (1 << SIDE_B)

_PLAYS = PlayTable(Play)
"""The interned Merry-Go-Round plays."""


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
    legal_actions: tuple[Any, ...]
    history: tuple[PublicEvent, ...]
    is_over: bool
    winner: int | None
    options: MerryGoRoundOptions
    points_now: Mapping[Any, int] = field(default_factory=dict, compare=False, repr=False)

    def action_points(self, action: Any) -> int:
        """Points the action scores at once for this seat's side (0 on a bust)."""
        return self.points_now.get(action, 0)

    def action_weight(self, action: Any) -> int:
        """The pips of the tile played (heaviest first); -1 for draws and passes."""
        return action.tile.pips if isinstance(action, Play) else -1

    def to_json(self) -> dict[str, Any]:
        """JSON form sent to that seat's client."""
        return {
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
            "history": [e.to_json() for e in self.history],
            "is_over": self.is_over,
            "winner": self.winner,
        }


class MerryGoRoundState:
    """A Merry-Go-Round game in progress (2–4 players). See the module docstring."""

    game = "merry-go-round"

    def __init__(
        self,
        players: int,
        options: MerryGoRoundOptions | Mapping[str, Any] | None = None,
        names: Sequence[str] | None = None,
        *,
        log: bool = False,
    ) -> None:
        if players not in RESERVE:
            raise BoneyardError(f"Merry-Go-Round is for 2, 3 or 4 players, not {players}")
        if not isinstance(options, MerryGoRoundOptions):
            options = MerryGoRoundOptions.build(options, players)
        self.options = options
        self.n = players
        self.names = list(names) if names else [f"Seat {i + 1}" for i in range(players)]
        if len(self.names) != players:
            raise BoneyardError(f"{players} players need {players} names")
        self.policy = (
            Availability.CROSS_SIDES_THEN_ENDS
            if options.cross_order == "sides_then_ends"
            else Availability.CROSS_ANY_ORDER
        )
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
        self.alone_only = options.spinner_count == "alone_only"
        self.exact_awards = options.exact_target_scope == "all_scores"
        self.side_scores = [0] * len(self.sides)
        self.phase = AWAIT_DEAL
        self.next_setter: int | None = None
        """Who sets the next hand (None before the first hand: RULES §2.3, MG-2)."""
        self.hands_doc: list[dict[str, Any]] = []
        self._result: GameResult | None = None
        self.lines: list[dict[str, Any]] | None = [] if log else None
        # Hand state.
        self.hands: list[int] = [0] * players
        self.boneyard: list[int] = []
        self.bpos = 0
        self.bend = 0
        """Boneyard index past the last drawable tile (the reserve lies beyond it)."""
        self.layout = FivesLayout()
        self.turn = 0
        self.setter = 0
        """The seat that had to set when the hand began."""
        self.set_by = -1
        """The seat that set the double (-1: not yet)."""
        self.events: list[tuple[int, ...]] = []

    # --- protocol ---------------------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        """Player count."""
        return self.n

    @property
    def current_seat(self) -> int | None:
        """The seat to act (None while a deal is awaited or the game is over)."""
        return self.turn if self.phase == SETTING or self.phase == PLAYING else None

    @property
    def awaiting_deal(self) -> bool:
        """True when the next hand must be dealt."""
        return self.phase == AWAIT_DEAL

    @property
    def is_over(self) -> bool:
        """True once a side has reached the target."""
        return self.phase == OVER

    @property
    def in_hand(self) -> bool:
        """True while a hand is being played (the set included)."""
        return self.phase == SETTING or self.phase == PLAYING

    @property
    def scores(self) -> list[int]:
        """Every seat's score; partners show their side's total."""
        side = self.side_scores
        return [side[s] for s in self.side_of]

    def result(self) -> GameResult | None:
        """Winner and final scores once the game is over."""
        return self._result

    @property
    def hand_number(self) -> int:
        """Index of the current (or next) hand in the record; the last one once it is over."""
        return len(self.hands_doc) - (0 if self.phase == AWAIT_DEAL else 1)

    def copy(self) -> MerryGoRoundState:
        """An independent copy for search (the boneyard order and the finished hands of the
        record are shared: neither changes in place)."""
        new = MerryGoRoundState(self.n, self.options, self.names, log=False)
        new.side_scores = self.side_scores.copy()
        new.phase = self.phase
        new.next_setter = self.next_setter
        new.hands_doc = self.hands_doc.copy()
        new._result = self._result
        new.lines = None if self.lines is None else self.lines.copy()
        new.hands = self.hands.copy()
        new.boneyard = self.boneyard
        new.bpos = self.bpos
        new.bend = self.bend
        new.layout = self.layout.copy()
        new.turn = self.turn
        new.setter = self.setter
        new.set_by = self.set_by
        new.events = self.events.copy()
        return new

    @property
    def drawable(self) -> int:
        """How many boneyard tiles may still be drawn."""
        return self.bend - self.bpos if self.in_hand else 0

    # --- dealing ----------------------------------------------------------------------------

    def deal_random(self, rng: random.Random) -> None:
        """Deal the next hand with ``rng`` (which also picks a random first setter)."""
        if self.phase != AWAIT_DEAL:
            raise IllegalActionError(
                "the game is over" if self.phase == OVER else "the hand in play is not finished"
            )
        order = shuffled(rng, ALL_IDS)
        setter = self.next_setter
        if setter is None:
            first = self.options.first_setter
            setter = rng.randrange(self.n) if first == "random" else first
        k = HAND_SIZE
        self._start(
            [order[i * k : (i + 1) * k] for i in range(self.n)], order[self.n * k :], setter
        )

    def start_hand(
        self,
        deal: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        setter: int | None = None,
    ) -> None:
        """Start the next hand from an explicit deal (a record, a physical table).

        ``setter`` is needed only for the first hand under ``first_setter = "random"``; given
        anywhere else it must agree with the rules (RULES §2.3).
        """
        if self.phase != AWAIT_DEAL:
            raise IllegalActionError(
                "the game is over" if self.phase == OVER else "the hand in play is not finished"
            )
        if len(deal) != self.n:
            raise BoneyardError(f"the deal must have {self.n} hands, not {len(deal)}")
        hands, bone = deal_ids(deal, boneyard)
        for i, h in enumerate(hands):
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
        self._start(hands, bone, setter)

    def _start(self, hands: list[list[int]], bone: list[int], setter: int) -> None:
        self.hands_doc.append(
            {
                "deal": [[NAMES[t] for t in h] for h in hands],
                "boneyard": [NAMES[t] for t in bone],
                "events": [],
            }
        )
        self.hands = hand_masks(hands)
        self.boneyard = bone
        self.bpos = 0
        self.bend = max(0, len(bone) - self.reserve)
        self.layout = FivesLayout()
        self.events = []
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
        if self.options.set_double_choice == "highest":
            return [doubles.bit_length() - 1]
        return ids_of(doubles)

    def _placements(self, seat: int) -> list[Play]:
        return _PLAYS.placements(self.layout, self.policy, self.hands[seat])

    def can_place(self, seat: int) -> bool:
        """Whether ``seat`` holds a legal placement now (after the set)."""
        return can_place(self.layout, self.policy, self.hands[seat])

    def legal_actions(self) -> list[Any]:
        """Every action the seat to move may take (RULES §2.3, §2.4, §5).

        The setter sets a double if it holds one, else draws, else passes the obligation on.
        After the set: the placements, plus a draw unless ``forced_play`` (a seat that cannot
        place must draw, and passes only when nothing can be drawn).
        """
        phase = self.phase
        seat = self.turn
        if phase == PLAYING:
            moves: list[Any] = self._placements(seat)
            if moves:
                if not self.forced and self.bpos < self.bend:
                    moves.append(DRAW)
                return moves
            return [DRAW] if self.bpos < self.bend else [PASS]
        if phase == SETTING:
            doubles = self._set_doubles(seat)
            if doubles:
                return [_PLAYS.get(t, -1, -1) for t in doubles]
            return [DRAW] if self.bpos < self.bend else [PASS]
        return []

    # --- applying ---------------------------------------------------------------------------

    def apply(self, action: Any) -> None:
        """Apply an action of the current seat; raises IllegalActionError and changes nothing
        when it is not legal."""
        if not self.in_hand:
            raise IllegalActionError(
                "the game is over" if self.phase == OVER else "the next hand is not dealt yet"
            )
        if isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Draw):
            self._draw()
        elif isinstance(action, Pass):
            self._pass()
        else:
            raise IllegalActionError(f"{action!r} is not a Merry-Go-Round action")

    def _resolve(self, action: Play) -> tuple[int, int, int]:
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
        if lay.roles[anchor] is not Role.SPINNER:
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
        if self.policy is Availability.CROSS_ANY_ORDER:
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

    def _play(self, action: Play) -> None:
        seat = self.turn
        tile, anchor, code = self._resolve(action)
        hand = self.hands[seat]
        if not (hand >> tile) & 1:
            raise IllegalActionError(f"seat {seat} does not hold {TILES[tile]}")
        lay = self.layout
        if self.phase == SETTING:
            if anchor >= 0:
                raise IllegalActionError(
                    f"nothing is on the table yet: seat {seat} must set a double"
                )
            if not IS_DOUBLE[tile]:
                raise IllegalActionError(f"the set must be a double, and {TILES[tile]} is not")
            allowed = self._set_doubles(seat)
            if tile not in allowed:
                raise IllegalActionError(
                    f"the set must be the highest double held: {TILES[allowed[0]]}"
                )
            lay.place(tile)
            self.set_by = seat
            self.phase = PLAYING
        else:
            if anchor < 0:
                raise IllegalActionError(f"the double is set: say which tile {TILES[tile]} goes on")
            value = -1
            for v, a, c in lay.available(self.policy):
                if a == anchor and c == code:
                    value = v
                    break
            if value < 0:
                self._refuse_port(tile, anchor, code)
            if value != LO[tile] and value != HI[tile]:
                ends = ", ".join(str(p[0]) for p in lay.available(self.policy))
                raise IllegalActionError(
                    f"{TILES[tile]} does not match the {value} on {TILES[anchor]} (open: {ends})"
                )
            lay.place(tile, anchor, code)
        self.hands[seat] = hand & ~(1 << tile)
        count = self.count
        side = self.side_of[seat]
        points = count // 5 if count > 0 and count % 5 == 0 else 0
        if points:
            points = self._credit(side, points, exact=True)
        self.events.append((0, seat, tile, anchor, code, points))
        if self.lines is not None:
            self._line_event(seat, "lead" if anchor < 0 else "play", tile, count, points)
        if points and self.side_scores[side] >= self.target:
            self._hand_end("game_over", seat, 0)
            self._game_end(seat)
            return
        if not self.hands[seat]:
            self._domino(seat)
            return
        self.turn = (seat + 1) % self.n

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
        self.hands[seat] |= 1 << tile
        self.events.append((1, seat, tile))
        self._line_event(seat, "draw", tile, None, 0)

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
            self.events.append((2, seat))
            self._line_event(seat, "pass", None, None, 0)
            if self.options.no_double_fallback == "redeal":
                self.next_setter = self.setter
                self._hand_end("redeal", None, 0)
                return
            self.turn = (seat + 1) % self.n
            return
        moves = self._placements(seat)
        if moves:
            raise IllegalActionError(f"seat {seat} must play: it holds {moves[0].tile}")
        if drawable:
            raise IllegalActionError(
                f"seat {seat} cannot pass: the boneyard still has tiles to draw"
            )
        self.events.append((2, seat))
        self._line_event(seat, "pass", None, None, 0)
        self.turn = (seat + 1) % self.n
        if not any(self.can_place(i) for i in range(self.n)):
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

    def count_after(self, tile: int, anchor: int, code: int) -> int:
        """The count if ``tile`` were placed on port ``code`` of ``anchor`` (no copy made)."""
        if anchor < 0:
            return 2 * LO[tile] if IS_DOUBLE[tile] else LO[tile] + HI[tile]
        lay = self.layout
        c = self.count
        role = lay.roles[anchor]
        if role is Role.SPINNER:
            value = LO[anchor]
            if lay.connected[anchor].bit_count() == (0 if self.alone_only else 1):
                c -= 2 * value
        else:
            value = lay.out_value[anchor]
            c -= 2 * value if role is Role.PLAIN_DOUBLE else value
        lo, hi = LO[tile], HI[tile]
        if lo == hi:
            return c + 2 * lo
        return c + (hi if lo == value else lo)

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
        return new - old

    def _domino(self, seat: int) -> None:
        pips = [pips_of_mask(h) for h in self.hands]
        opts = self.options
        partner = (seat + 2) % 4 if self.teams else None
        points = domino_points(
            seat,
            pips,
            partner,
            per_opponent=opts.domino_bonus_rounding == "per_opponent",
            net=opts.partner_pips == "net",
        )
        side = self.side_of[seat]
        got = self._credit(side, points, self.exact_awards)
        self.next_setter = seat if opts.next_setter == "hand_winner" else (self.set_by + 1) % self.n
        self._hand_end("domino", seat, got)
        if got > 0 and self.side_scores[side] >= self.target:
            self._game_end(seat)

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
        self._hand_end("block", winner, awards[winner] if winner is not None else 0, awards=awards)
        if champion is not None:
            self._game_end(lowest_member(pips, self.sides[champion]))

    # --- output -----------------------------------------------------------------------------

    def _line_event(
        self, seat: int, kind: str, tile: int | None, count: int | None, points: int
    ) -> None:
        if self.lines is None:
            return
        self.lines.append(
            event_line(
                len(self.hands_doc) - 1,
                len(self.events) - 1,
                seat,
                kind,
                tile,
                count,
                points,
                self.scores,
            )
        )

    def _hand_end(self, reason: str, winner: int | None, award: int, **extra: Any) -> None:
        self.hands_doc[-1] = {**self.hands_doc[-1], "events": self._events_json()}
        self.phase = AWAIT_DEAL
        if self.lines is not None:
            self.lines.append(
                hand_end_line(len(self.hands_doc) - 1, reason, winner, award, extra, self.scores)
            )

    def _game_end(self, winner: int) -> None:
        self.phase = OVER
        self._result = GameResult(winner, tuple(self.scores), "target")
        if self.lines is not None:
            self.lines.append({"type": "game_end", "winner": winner, "scores": self.scores})

    def _events_json(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for ev in self.events:
            kind = ev[0]
            if kind == 0:
                _k, seat, tile, anchor, code, _points = ev
                out.append(play_json(seat, tile, anchor, code))
            elif kind == 1:
                out.append({"seat": ev[1], "draw": NAMES[ev[2]]})
            else:
                out.append({"seat": ev[1], "pass": True})
        return out

    def record(self) -> dict[str, Any]:
        """The game so far as a ``boneyard-record/1`` document."""
        hands = [dict(h) for h in self.hands_doc]
        if self.in_hand:
            hands[-1]["events"] = self._events_json()
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options.to_json(),
            "seats": list(self.names),
            "hands": hands,
            "meta": {},
        }

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
        if self.policy is Availability.CROSS_ANY_ORDER:
            return "cross"
        return "cross_sides" if c & _SIDES != _SIDES else "cross_ends"

    def observation(self, seat: int | None) -> MerryGoRoundObservation:
        """Everything ``seat`` may see: its own hand, never another's or the boneyard order."""
        check_seat(seat, self.n)
        lay = self.layout
        to_move = seat is not None and self.in_hand and seat == self.turn
        legal = tuple(self.legal_actions()) if to_move else ()
        points: dict[Any, int] = {}
        for act in legal:
            if isinstance(act, Play):
                points[act] = self._points_if(act)
        history = []
        for ev in self.events:
            kind = ev[0]
            if kind == 0:
                history.append(play_view(ev[1], ev[2], ev[3], ev[4], ev[5]))
            elif kind == 1:
                history.append(draw_view(ev[1], ev[2], seat))
            else:
                history.append(PublicEvent(ev[1], "pass"))
        in_hand = self.in_hand
        avail = lay.available(self.policy) if self.phase == PLAYING else []
        return MerryGoRoundObservation(
            seat=seat,
            num_seats=self.n,
            hand_number=self.hand_number,
            current_seat=self.current_seat,
            setter=(self.set_by if self.set_by >= 0 else self.turn) if in_hand else None,
            stage=self.stage(),
            hand=tuple(TILES[t] for t in ids_of(self.hands[seat]))
            if seat is not None and in_hand
            else (),
            hand_sizes=tuple(h.bit_count() for h in self.hands) if in_hand else (0,) * self.n,
            boneyard_size=self.bend - self.bpos if in_hand else 0,
            reserve=len(self.boneyard) - max(self.bpos, self.bend) if in_hand else 0,
            layout=placed_views(lay),
            open_ends=ends_view(lay.open),
            available_ends=ends_view(avail),
            count=self.count if not lay.empty else 0,
            scores=tuple(self.scores),
            partnerships=self.teams,
            target=self.target,
            legal_actions=legal,
            history=tuple(history),
            is_over=self.phase == OVER,
            winner=self._result.winner if self._result else None,
            options=self.options,
            points_now=points,
        )

    def _points_if(self, play: Play) -> int:
        """Points ``play`` would score at once for the seat to move (0 on a bust)."""
        tile, anchor, code = self._resolve(play)
        points = play_points(self.count_after(tile, anchor, code))
        side = self.side_of[self.turn]
        if points and self.side_scores[side] + points > self.target:
            return 0
        return points


__all__ = [
    "MerryGoRoundObservation",
    "MerryGoRoundState",
    "PlacedView",
    "PublicEvent",
]
