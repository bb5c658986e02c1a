"""The High Five engine (RULES §1): one whole game to 150, hand after hand.

The state is driven by deals (:meth:`HighFiveState.start_hand` from a record, or
:meth:`HighFiveState.deal_random` with an injected generator) and by actions. Under
``enforcement = "strict"`` only legal actions are accepted; ``detect`` also accepts draws and
passes while holding a playable tile and penalises them; ``tabletop`` records a physical game
and applies the referee's rulings (§1.10).

>>> import random
>>> s = HighFiveState(2)
>>> s.deal_random(random.Random(1))
>>> s.current_seat is not None and len(s.legal_actions()) >= 1
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.core.errors import BoneyardError, IllegalActionError, check_seat
from boneyard.core.protocol import GameResult
from boneyard.core.records import FORMAT
from boneyard.core.tiles import Tile, round5
from boneyard.games.fives import (
    DOUBLE_MASK,
    END_A,
    HI,
    LO,
    PORT_CODE,
    PORT_NAMES,
    TILE_ID,
    TILES,
    Availability,
    FivesLayout,
    Role,
    ids_of,
    pips_of_mask,
)
from boneyard.games.fives_play import (
    ALL_IDS,
    PLAYS,
    PlacedView,
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
from boneyard.games.highfive.actions import (
    DRAW,
    PASS,
    RETURN_TILE,
    RULING_KINDS,
    Draw,
    Pass,
    Play,
    ReturnTile,
    Ruling,
)
from boneyard.games.highfive.options import HighFiveOptions

TARGET = 150
HAND_SIZE = {2: 7, 3: 6, 4: 5}
START_CHIPS = 150

# Phases.
AWAIT_DEAL, PLAYING, OVER = 0, 1, 2


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
    legal_actions: tuple[Any, ...]
    history: tuple[PublicEvent, ...]
    big6_lead: bool
    is_over: bool
    winner: int | None
    options: HighFiveOptions
    points_now: Mapping[Any, int] = field(default_factory=dict, compare=False, repr=False)

    def action_points(self, action: Any) -> int:
        """Chips the action scores at once (capped by the payer's chips)."""
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
        }


class _Undo:
    """What a caught wrong bone / misplaced spinner restores (tabletop)."""

    __slots__ = ("chips", "hands", "layout", "scores", "seat", "tile", "turn")

    def __init__(self, state: HighFiveState, seat: int, tile: int) -> None:
        self.layout = state.layout.copy()
        self.hands = state.hands.copy()
        self.scores = state.scores.copy()
        self.chips = state.chips.copy()
        self.turn = state.turn
        self.seat = seat
        self.tile = tile


_SCALARS = (
    "options",
    "n",
    "hand_size",
    "policy",
    "capped",
    "strict",
    "tabletop",
    "zero_scores",
    "call_required",
    "play_scores_first",
    "phase",
    "advantage",
    "domino_holder",
    "_result",
    "bpos",
    "turn",
    "big6",
    "pending_grace",
    "grace_used",
    "undo",
    "hand_start_advantage",
)


class HighFiveState:
    """A High Five game in progress (2–4 players). See the module docstring."""

    game = "highfive"

    def __init__(
        self,
        players: int,
        options: HighFiveOptions | Mapping[str, Any] | None = None,
        names: Sequence[str] | None = None,
        *,
        log: bool = False,
    ) -> None:
        if players not in HAND_SIZE:
            raise BoneyardError(f"High Five is for 2, 3 or 4 players, not {players}")
        if not isinstance(options, HighFiveOptions):
            options = HighFiveOptions.build(options)
        self.options = options
        self.n = players
        self.names = list(names) if names else [f"Seat {i + 1}" for i in range(players)]
        if len(self.names) != players:
            raise BoneyardError(f"{players} players need {players} names")
        self.hand_size = HAND_SIZE[players]
        self.policy = (
            Availability.SIDES_FIRST if options.spinner_ends_need_both_sides else Availability.ANY
        )
        self.capped = options.payment_cap == "chips"
        self.strict = options.enforcement == "strict"
        self.tabletop = options.enforcement == "tabletop"
        self.zero_scores = options.zero_count_scores
        self.call_required = options.require_score_call and not self.strict
        self.play_scores_first = options.domino_play_scores_first
        self.scores = [0] * players
        self.chips = [START_CHIPS] * players
        self.phase = AWAIT_DEAL
        self.advantage: int | None = None
        """Seat that leads any tile next hand; None: the Big 6 call."""
        self.domino_holder: int | None = None
        self.hands_doc: list[tuple[list[list[int]], list[int], list[tuple[Any, ...]] | None]] = []
        """Per hand: the deal, the boneyard (draw order) and, once it ended, its events."""
        self._result: GameResult | None = None
        self.lines: list[dict[str, Any]] | None = [] if log else None
        # Hand state.
        self.hands: list[int] = [0] * players
        self.dealt: list[int] = [0] * players
        self.boneyard: list[int] = []
        self.bpos = 0
        self.layout = FivesLayout()
        self.turn = 0
        self.big6: int = -1
        """The double that must be led under the Big 6 call (-1: free lead)."""
        self.events: list[tuple[Any, ...]] = []
        self.placed_by: set[int] = set()
        self.pending_grace: int = -1
        """Seat that just drew while holding a playable tile (box grace window)."""
        self.grace_used: int = -1
        """Seat that has put back a tile in its current turn: the grace is used up until its turn
        ends (a second unnecessary draw or return is bogus)."""
        self.unruled: dict[int, str] = {}
        """Tabletop: unnecessary draws/passes not yet ruled on, by seat."""
        self.misdealt: dict[int, int] = {}
        """Tabletop: seat -> dealt tiles minus hand size, not yet ruled on."""
        self.undo: _Undo | None = None
        self.hand_start_advantage: int | None = None

    # --- protocol ---------------------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        """Player count."""
        return self.n

    @property
    def current_seat(self) -> int | None:
        """The seat to act (None while a deal is awaited or the game is over)."""
        return self.turn if self.phase == PLAYING else None

    @property
    def awaiting_deal(self) -> bool:
        """True when the next hand must be dealt."""
        return self.phase == AWAIT_DEAL

    @property
    def is_over(self) -> bool:
        """True once someone has 150 (or a ruling ended the game)."""
        return self.phase == OVER

    def result(self) -> GameResult | None:
        """Winner and final scores once the game is over."""
        return self._result

    @property
    def hand_number(self) -> int:
        """Index of the current (or next) hand in the record."""
        return len(self.hands_doc) - (1 if self.phase == PLAYING else 0)

    def copy(self) -> HighFiveState:
        """An independent copy for search (finished hands of the record are shared)."""
        new = HighFiveState(self.n, self.options, self.names)
        for name in _SCALARS:
            setattr(new, name, getattr(self, name))
        new.scores = self.scores.copy()
        new.chips = self.chips.copy()
        new.hands = self.hands.copy()
        new.dealt = self.dealt.copy()
        new.boneyard = self.boneyard.copy()
        new.layout = self.layout.copy()
        new.events = self.events.copy()
        new.placed_by = self.placed_by.copy()
        new.unruled = self.unruled.copy()
        new.misdealt = self.misdealt.copy()
        new.hands_doc = self.hands_doc.copy()
        new.lines = None if self.lines is None else self.lines.copy()
        new.names = self.names.copy()
        return new

    def payer(self, seat: int) -> int:
        """The seat that pays ``seat``'s scores (RULES §1.2)."""
        if self.n == 4:
            return (seat + 2) % 4
        return (seat - 1) % self.n

    def creditor(self, seat: int) -> int:
        """The seat that ``seat`` pays."""
        if self.n == 4:
            return (seat + 2) % 4
        return (seat + 1) % self.n

    # --- dealing ----------------------------------------------------------------------------

    def deal_random(self, rng: random.Random) -> None:
        """Deal the next hand with ``rng``."""
        if self.phase != AWAIT_DEAL:
            raise IllegalActionError("the hand in play is not finished")
        order = shuffled(rng, ALL_IDS)
        k = self.hand_size
        self._start([order[i * k : (i + 1) * k] for i in range(self.n)], order[self.n * k :])

    def start_hand(self, deal: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> None:
        """Start the next hand from an explicit deal (a record, a physical table)."""
        if self.phase != AWAIT_DEAL:
            raise IllegalActionError("the hand in play is not finished")
        if len(deal) != self.n:
            raise BoneyardError(f"the deal must have {self.n} hands, not {len(deal)}")
        hands, bone = deal_ids(deal, boneyard)
        for i, h in enumerate(hands):
            if len(h) != self.hand_size and not self.tabletop:
                raise BoneyardError(
                    f"seat {i} is dealt {len(h)} tiles; each player gets {self.hand_size}"
                )
        self._start(hands, bone)

    def _start(self, hands: list[list[int]], bone: list[int]) -> None:
        self.hands_doc.append((hands, bone.copy(), None))
        masks = hand_masks(hands)
        self.hands = masks
        self.dealt = masks.copy()
        self.boneyard = bone
        self.bpos = 0
        self.layout = FivesLayout()
        self.events = []
        self.placed_by = set()
        self.pending_grace = -1
        self.grace_used = -1
        self.unruled = {}
        self.misdealt = {
            i: len(h) - self.hand_size for i, h in enumerate(hands) if len(h) != self.hand_size
        }
        self.undo = None
        self.hand_start_advantage = self.advantage
        self.phase = PLAYING
        if self.advantage is not None:
            self.big6 = -1
            self.turn = self.advantage
            return
        best = -1
        holder = -1
        for i, m in enumerate(masks):
            d = m & DOUBLE_MASK
            if d and d.bit_length() - 1 > best:
                best = d.bit_length() - 1
                holder = i
        if holder < 0:
            self._hand_end("redeal", None, 0)
            self.phase = AWAIT_DEAL
            return
        self.big6 = best
        self.turn = holder

    # --- legal actions ----------------------------------------------------------------------

    def _placements(self, seat: int) -> list[Play]:
        hand = self.hands[seat]
        if self.layout.empty:
            if self.big6 >= 0:
                return [PLAYS.get(self.big6, -1, -1)] if (hand >> self.big6) & 1 else []
            return [PLAYS.get(t, -1, -1) for t in ids_of(hand)]
        return PLAYS.placements(self.layout, self.policy, hand)

    def can_place(self, seat: int) -> bool:
        """Whether ``seat`` holds a legal placement now."""
        hand = self.hands[seat]
        if self.layout.empty:
            return bool(hand >> self.big6 & 1) if self.big6 >= 0 else bool(hand)
        return can_place(self.layout, self.policy, hand)

    def legal_actions(self) -> list[Any]:
        """Every action the seat to move may take.

        Under ``strict`` that is the forced sequence: play if able, else draw, else pass.
        Under ``detect``/``tabletop`` a draw (or pass) is also offered while holding a playable
        tile: it is bogus play and is penalised (§1.10).
        """
        if self.phase != PLAYING:
            return []
        seat = self.turn
        moves: list[Any] = self._placements(seat)
        drawable = self.bpos < len(self.boneyard)
        if self.strict or self.layout.empty:
            if moves:
                return moves
            return [DRAW] if drawable else [PASS]
        if moves:
            extra: list[Any] = [DRAW] if drawable else []
            extra.append(PASS)
            if self.pending_grace == seat:
                extra.insert(0, RETURN_TILE)
            return moves + extra
        return [DRAW] if drawable else [PASS]

    # --- applying ---------------------------------------------------------------------------

    def apply(self, action: Any) -> None:
        """Apply an action of the current seat (or a referee's ruling)."""
        if type(action) is Play and self.phase == PLAYING:
            self._play(action)
            return
        if isinstance(action, Ruling):
            self._ruling(action)
            return
        if self.phase != PLAYING:
            raise IllegalActionError(
                "the game is over" if self.phase == OVER else "the next hand is not dealt yet"
            )
        if isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Draw):
            self._draw()
        elif isinstance(action, Pass):
            self._pass()
        elif isinstance(action, ReturnTile):
            self._return_tile(action.position)
        else:
            raise IllegalActionError(f"{action!r} is not a High Five action")

    def _resolve(self, action: Play) -> tuple[int, int, int]:
        """Internal ids ``(tile, anchor, port code)`` of a play, checking the ends exist."""
        if action.key[0] >= 0:
            return action.key
        lay = self.layout
        tile, anchor = play_ids(action, lay, "lead")
        if anchor < 0:
            return tile, -1, -1
        if action.port is None:
            return tile, anchor, default_port(lay, self.policy, tile, anchor)
        code = PORT_CODE.get(action.port, -1)
        if code < 0:
            raise IllegalActionError(f"{action.port} is not a port name")
        role = lay.roles[anchor]
        if role is not Role.SPINNER:
            if (
                self.tabletop
                and role is Role.PLAIN_DOUBLE
                and code >= END_A
                and anchor not in lay.connected
            ):
                return tile, anchor, code
            raise IllegalActionError(
                f"{action.on} is not the spinner: only a spinner's edges are named"
            )
        if lay.port_value(anchor, code) is None:
            raise IllegalActionError(f"the spinner's {action.port} is already covered")
        return tile, anchor, code

    def _play(self, action: Play) -> None:
        seat = self.turn
        tile, anchor, code = action.key
        if tile >= 0 and not self.tabletop and self.pending_grace != seat:
            # Fast path for an interned legal play; anything doubtful takes the checked path,
            # which raises the right error.
            hand = self.hands[seat]
            lay = self.layout
            if (hand >> tile) & 1:
                if anchor < 0:
                    if not lay.order and (self.big6 < 0 or tile == self.big6):
                        self.hands[seat] = hand & ~(1 << tile)
                        lay.place(tile)
                        self._after_place(seat, tile, anchor, code, action, False)
                        return
                else:
                    for port in lay.available(self.policy):
                        if port[1] == anchor and port[2] == code:
                            if port[0] == LO[tile] or port[0] == HI[tile]:
                                self.hands[seat] = hand & ~(1 << tile)
                                lay.place(tile, anchor, code)
                                self._after_place(seat, tile, anchor, code, action, False)
                                return
                            break
        tile, anchor, code = self._resolve(action)
        hand = self.hands[seat]
        if not (hand >> tile) & 1:
            raise IllegalActionError(f"{self._who(seat)} does not hold {TILES[tile]}")
        if self.pending_grace == seat:
            self._bogus(seat, "BOGUS_DRAW", ("play", tile, anchor, code, action))
            return
        lay = self.layout
        mismatch = False
        misplaced = False
        if anchor < 0:
            if not lay.empty:
                raise IllegalActionError(
                    f"the lead has been played: say which tile {TILES[tile]} goes on"
                )
            if self.big6 >= 0 and tile != self.big6:
                raise IllegalActionError(
                    f"the Big 6 call: {TILES[self.big6]}, the highest double dealt, must lead"
                )
        else:
            if lay.empty:
                raise IllegalActionError(f"nothing is on the table yet: lead {TILES[tile]}")
            value = lay.port_value(anchor, code)
            if value is None and not (self.tabletop and code >= END_A):
                raise IllegalActionError(
                    f"{TILES[anchor]} has no open {PORT_NAMES[code]} end "
                    f"(open: {lay.describe_open()})"
                )
            if value is not None:
                available = any(p[1] == anchor and p[2] == code for p in lay.available(self.policy))
                if not available:
                    raise IllegalActionError(
                        "the spinner's ends open only after both its sides are covered"
                    )
                mismatch = value != LO[tile] and value != HI[tile]
            else:
                misplaced = True
                mismatch = LO[anchor] != LO[tile] and LO[anchor] != HI[tile]
            if mismatch and not self.tabletop:
                raise IllegalActionError(
                    f"{TILES[tile]} does not match an open end "
                    f"(open: {lay.describe_open(self.policy)})"
                )
        if self.tabletop:
            self.undo = _Undo(self, seat, tile) if (mismatch or misplaced) else None
        self.hands[seat] = hand & ~(1 << tile)
        if misplaced:
            lay.make_spinner(anchor, self.options.misplaced_spinner == "transfer")
        if anchor < 0:
            lay.place(tile)
        else:
            lay.place(tile, anchor, code, action.touch)
        self._after_place(seat, tile, anchor, code, action, mismatch)

    def _after_place(
        self, seat: int, tile: int, anchor: int, code: int, action: Play, mismatch: bool
    ) -> None:
        """Score a placement just made, then settle a domino or pass the turn."""
        if self.tabletop:
            self.placed_by.add(seat)
        count = self.layout._count
        self.events.append(("play", seat, tile, anchor, code, action.touch, action.call))
        domino = self.hands[seat] == 0
        if mismatch and domino:
            self._false_domino(seat)
            return
        scores = count > 0 and count % 5 == 0
        if count == 0 and self.zero_scores:
            scores = True
        if self.call_required and action.call != count:
            scores = False
        payer = (seat + 2) % 4 if self.n == 4 else (seat - 1) % self.n
        if domino and not self.play_scores_first:
            award = self._pay(payer, seat, self._domino_bonus(seat))
            points = 0
            if scores and self.scores[seat] < TARGET:
                points = self._pay(payer, seat, count)
            self._line_event(seat, "play", tile, count, points)
            self._finish_domino(seat, award)
            return
        points = self._pay(payer, seat, count) if scores else 0
        if self.lines is not None:
            self._line_event(seat, "play", tile, count, points)
        if points and self.scores[seat] >= TARGET:
            self._hand_end("game_over", seat, 0)
            self._game_end(seat)
            return
        if domino:
            self._finish_domino(seat, self._pay(payer, seat, self._domino_bonus(seat)))
            return
        self.turn = (seat + 1) % self.n
        self.grace_used = -1

    def _domino_bonus(self, winner: int) -> int:
        if self.n == 4 and self.options.fourp_bonus_from == "all_opponents":
            return round5(sum(pips_of_mask(self.hands[i]) for i in range(4) if i != winner))
        return round5(pips_of_mask(self.hands[self.payer(winner)]))

    def _finish_domino(self, winner: int, award: int) -> None:
        self.domino_holder = winner
        self._next_start(winner)
        self._hand_end("domino", winner, award)
        if self.scores[winner] >= TARGET:
            self._game_end(winner)

    def _draw(self) -> None:
        seat = self.turn
        if self.bpos >= len(self.boneyard):
            raise IllegalActionError("the boneyard is empty: pass instead")
        if self.layout.empty:
            raise IllegalActionError(f"{self._who(seat)} must lead")
        playable = self.can_place(seat)
        if playable and self.strict:
            held = self._placements(seat)[0].tile
            raise IllegalActionError(f"seat {seat} must play: it holds {held}")
        tile = self.boneyard[self.bpos]
        self.bpos += 1
        self.hands[seat] |= 1 << tile
        self.events.append(("draw", seat, tile))
        if self.pending_grace == seat:
            self._line_event(seat, "draw", tile, None, 0)
            self._bogus(seat, "BOGUS_DRAW", None, logged=True)
            return
        self._line_event(seat, "draw", tile, None, 0)
        if not playable:
            return
        if self.tabletop:
            self.unruled[seat] = "draw"
        elif self.options.bogus_grace and self.grace_used != seat:
            self.pending_grace = seat
        else:  # no grace, or it was used in this turn already (RULES §1.10)
            self._bogus(seat, "BOGUS_DRAW", None, logged=True)

    def _return_tile(self, position: int | None) -> None:
        """The box grace rule: put back the tile just drawn, once per turn (RULES §1.10).

        ``position`` is its place in the boneyard's draw order (0 = next); None, as offered in
        play, puts it back at a random place (:meth:`_random_place`). A second return in the
        same turn (tabletop) is a bogus draw.
        """
        seat = self.turn
        last = self.events[-1] if self.events else None
        graced = self.pending_grace == seat or (
            self.tabletop
            and self.options.bogus_grace
            and self.unruled.get(seat) == "draw"
            and last is not None
            and last[0] == "draw"
            and last[1] == seat
        )
        if not graced or last is None:
            raise IllegalActionError(
                "there is no wrongly drawn tile to return (only right after drawing it, "
                "under the box grace rule)"
            )
        tile = last[2]
        rest = self.boneyard[self.bpos :]
        pos = self._random_place(tile, rest) if position is None else position
        if not 0 <= pos <= len(rest):
            raise IllegalActionError(f"position {pos} is outside the boneyard (0–{len(rest)})")
        self.hands[seat] &= ~(1 << tile)
        rest.insert(pos, tile)
        self.boneyard = self.boneyard[: self.bpos] + rest
        self.pending_grace = -1
        self.unruled.pop(seat, None)
        self.events.append(("return", seat, tile, pos))
        self._line_ruling(seat, "DRAW_RETRACTED", tile)
        if self.grace_used == seat:
            self._bogus(seat, "BOGUS_DRAW", None, logged=True)
            return
        self.grace_used = seat

    @staticmethod
    def _random_place(tile: int, rest: list[int]) -> int:
        """A place for a returned tile among the ``rest`` of the boneyard ("shuffled back",
        RULES §1.10). The rules never draw random numbers (a record must replay), so the place
        is a hash of the hidden boneyard order: nobody who may not see that order can foresee
        it, and the record writes it down."""
        digest = hashlib.sha256(bytes([tile, *rest])).digest()
        return int.from_bytes(digest[:8], "big") % (len(rest) + 1)

    def _pass(self) -> None:
        seat = self.turn
        if self.layout.empty:
            raise IllegalActionError(f"{self._who(seat)} must lead")
        playable = self.can_place(seat)
        if self.bpos < len(self.boneyard) and not playable:
            raise IllegalActionError(
                f"{self._who(seat)} cannot pass: the boneyard still has tiles to draw"
            )
        if playable and self.strict:
            held = self._placements(seat)[0].tile
            raise IllegalActionError(f"seat {seat} must play: it holds {held}")
        if self.pending_grace == seat:
            self._bogus(seat, "BOGUS_DRAW", ("pass",))
            return
        self.events.append(("pass", seat))
        self._line_event(seat, "pass", None, None, 0)
        if playable:
            if self.tabletop:
                self.unruled[seat] = "pass"
            elif self.options.pda_bogus_pass == "as_bogus_draw" or self.options.preset != "pda":
                self._bogus(seat, "BOGUS_PASS", None, logged=True)
                return
        self.turn = (seat + 1) % self.n
        self.grace_used = -1
        if self.bpos >= len(self.boneyard) and not any(self.can_place(i) for i in range(self.n)):
            self._lock()

    # --- settlement -------------------------------------------------------------------------

    def _pay(self, payer: int, to: int, amount: int) -> int:
        if self.capped:
            amount = min(amount, self.chips[payer])
            self.chips[payer] -= amount
        self.scores[to] += amount
        return amount

    def _lock(self) -> None:
        opts = self.options
        pips = [pips_of_mask(h) for h in self.hands]
        cmp = pips if opts.lock_tie_compare == "raw" else [round5(p) for p in pips]
        low = min(cmp)
        lowest = [i for i in range(self.n) if cmp[i] == low]
        winner = lowest[0] if len(lowest) == 1 else None
        awards = [0] * self.n
        if opts.multiplayer_lock == "per_pair" and self.n > 2:
            for i in range(self.n):
                p = self.payer(i)
                if cmp[i] < cmp[p]:
                    awards[i] = self._pay(p, i, self._lock_bonus(i, pips))
        elif winner is not None:
            awards[winner] = self._pay(self.payer(winner), winner, self._lock_bonus(winner, pips))
        if winner is None and opts.lead_after_lock == "last_domino_holder":
            self.domino_holder = None
        self._next_start(None, lock_winner=winner)
        award = awards[winner] if winner is not None else 0
        extra = {"awards": awards} if opts.multiplayer_lock == "per_pair" and self.n > 2 else {}
        self._hand_end("block", winner, award, **extra)
        champion = self._leader_at_target()
        if champion is not None:
            self._game_end(champion)
        else:
            self.phase = AWAIT_DEAL

    def _lock_bonus(self, winner: int, pips: list[int]) -> int:
        if self.n == 4 and self.options.fourp_bonus_from == "all_opponents":
            return round5(sum(p for i, p in enumerate(pips) if i != winner))
        return round5(pips[self.payer(winner)])

    def _leader_at_target(self) -> int | None:
        best = max(self.scores)
        if best < TARGET:
            return None
        return self.scores.index(best)

    def _next_start(self, domino_winner: int | None, lock_winner: int | None = None) -> None:
        if domino_winner is not None:
            self.advantage = domino_winner
            return
        rule = self.options.lead_after_lock
        if lock_winner is None or rule == "big6":
            self.advantage = None
        elif rule == "lock_winner":
            self.advantage = lock_winner
        else:
            self.advantage = self.domino_holder

    def _bogus(
        self,
        offender: int,
        kind: str,
        trigger: tuple[Any, ...] | None,
        *,
        logged: bool = False,
        reason: str = "bogus",
    ) -> None:
        """Apply a bogus-play penalty (box: end the hand; PDA: end the game 150–100)."""
        if trigger is not None and not logged:
            self._record_trigger(offender, trigger)
        self.pending_grace = -1
        self.unruled.pop(offender, None)
        opts = self.options
        beneficiary = self.creditor(offender)
        end_game = opts.bogus_effect == "end_game_150_100" and not (
            kind == "BOGUS_PASS" and opts.pda_bogus_pass == "commissioner"
        )
        if end_game:
            self.scores[beneficiary] = TARGET
            self.scores[offender] = 100
            self._hand_end(reason, beneficiary, 0)
            self._game_end(beneficiary, reason="bogus")
            return
        award = self._bogus_award(offender)
        self._award_and_advantage(offender, beneficiary, award, reason)

    def _bogus_award(self, offender: int) -> int:
        hand = self.hands[offender]
        if not self.options.bogus_count_drawn_tile and self.events and self.events[-1][0] == "draw":
            last = self.events[-1]
            if last[1] == offender:
                hand &= ~(1 << last[2])
        pips = pips_of_mask(hand)
        if self.options.bogus_award_rounding == "round5":
            pips = round5(pips)
        return max(50, pips)

    def _award_and_advantage(
        self, offender: int, beneficiary: int, award: int, reason: str
    ) -> None:
        if self.options.bogus_beneficiary == "all_opponents":
            got = 0
            for k in range(1, self.n):
                seat = (offender + k) % self.n
                paid = self._pay(offender, seat, award)
                if seat == beneficiary:
                    got = paid
        else:
            got = self._pay(offender, beneficiary, award)
        self.advantage = beneficiary
        if self.options.lead_after_lock == "last_domino_holder":
            self.domino_holder = beneficiary
        self._hand_end(reason, beneficiary, got)
        champion = self._leader_at_target()
        if champion is not None:
            self._game_end(champion)
        else:
            self.phase = AWAIT_DEAL

    def _record_trigger(self, seat: int, trigger: tuple[Any, ...]) -> None:
        """The action that turned a graced draw into a bogus draw is written as it happened."""
        if trigger[0] == "play":
            _k, tile, anchor, code, action = trigger
            self.events.append(("play", seat, tile, anchor, code, action.touch, action.call))
            self._line_event(seat, "play", tile, self.layout.count, 0)
        else:
            self.events.append(("pass", seat))
            self._line_event(seat, "pass", None, None, 0)

    def _false_domino(self, seat: int) -> None:
        """A Domino called on a tile that does not match (tabletop): PDA 8d or the box's
        wrong-bone treatment."""
        if self.options.bogus_effect == "end_game_150_100":
            self._line_event(seat, "play", self.events[-1][2], self.layout.count, 0, "FALSE_DOMINO")
            self._bogus(seat, "FALSE_DOMINO", None, logged=True, reason="ruling")
            return
        self._line_event(seat, "play", self.events[-1][2], self.layout.count, 0, "FALSE_DOMINO")
        self._take_back()

    def _take_back(self) -> None:
        undo = self.undo
        assert undo is not None
        self.layout = undo.layout
        self.hands = undo.hands
        self.scores = undo.scores
        self.chips = undo.chips
        self.turn = undo.seat
        self.undo = None

    # --- rulings ----------------------------------------------------------------------------

    def _ruling(self, r: Ruling) -> None:
        if self.strict:
            raise IllegalActionError(
                "rulings are entered only under detect or tabletop enforcement"
            )
        if r.kind not in RULING_KINDS:
            known = ", ".join(RULING_KINDS)
            raise IllegalActionError(f"{r.kind!r} is not a ruling (rulings: {known})")
        if not 0 <= r.seat < self.n:
            raise IllegalActionError(f"seat {r.seat} is not at this table")
        if self.phase != PLAYING:
            raise IllegalActionError("a ruling applies to a hand in play")
        kind = r.kind
        offender = r.seat
        if kind == "DRAW_RETRACTED":
            if offender != self.turn:
                raise IllegalActionError(f"seat {offender} has no drawn tile to return")
            self._return_tile(r.position)
            return
        self._check_ruling(r)
        last = self.events[-1] if self.events else None
        self.events.append(("ruling", r))
        if kind in ("BOGUS_DRAW", "BOGUS_PASS"):
            self._line_ruling(offender, kind, None)
            self.unruled.pop(offender)
            commissioner = (
                kind == "BOGUS_PASS"
                and self.options.preset == "pda"
                and self.options.pda_bogus_pass == "commissioner"
            )
            if r.caught and not commissioner:
                self._bogus(offender, kind, None, logged=True)
        elif kind in ("WRONG_BONE", "MISPLACED_SPINNER"):
            assert self.undo is not None and last is not None
            self._line_ruling(offender, kind, self.undo.tile)
            if r.caught:
                self._take_back()
            else:
                self.undo = None
        elif kind in ("MISDEAL_OVER", "MISDEAL_UNDER"):
            self._misdeal(r)
        elif kind in ("HIDDEN_TILES", "FALSE_DOMINO"):
            self._line_ruling(offender, kind, None)
            if self.options.bogus_effect == "end_game_150_100":
                self._bogus(offender, kind, None, logged=True, reason="ruling")
            else:
                award = self._bogus_award(offender)
                self._award_and_advantage(offender, self.creditor(offender), award, "ruling")
        elif kind == "ACCIDENTAL_EXPOSURE":
            self._line_ruling(offender, kind, None)
        elif kind == "COMMISSIONER":
            for i, d in enumerate(r.adjust):
                self.scores[i] += d
            self._line_ruling(offender, kind, None)
            if r.winner is not None:
                self._hand_end("ruling", r.winner, 0)
                self._game_end(r.winner, reason="ruling")
        else:  # FORFEIT
            self._line_ruling(offender, kind, None)
            winner = self.creditor(offender)
            self._hand_end("ruling", winner, 0)
            self._game_end(winner, reason="forfeit")

    def _check_ruling(self, r: Ruling) -> None:
        """Refuse a ruling that does not fit what happened, before anything changes."""
        kind, offender = r.kind, r.seat
        if kind in ("BOGUS_DRAW", "BOGUS_PASS"):
            want = "draw" if kind == "BOGUS_DRAW" else "pass"
            if self.unruled.get(offender) != want:
                did = "drawn" if want == "draw" else "passed"
                raise IllegalActionError(
                    f"seat {offender} has not {did} while holding a playable tile in this hand"
                )
        elif kind in ("WRONG_BONE", "MISPLACED_SPINNER"):
            last = self.events[-1] if self.events else None
            undo = self.undo
            if undo is None or undo.seat != offender or last is None or last[0] != "play":
                what = (
                    "a tile that does not match"
                    if kind == "WRONG_BONE"
                    else "a tile on the end of a double that is not the spinner"
                )
                raise IllegalActionError(
                    f"seat {offender} has not just placed {what} (rule on it before the next move)"
                )
        elif kind in ("MISDEAL_OVER", "MISDEAL_UNDER"):
            extra = self.misdealt.get(offender, 0)
            over = kind == "MISDEAL_OVER"
            if (over and extra <= 0) or (not over and extra >= 0):
                more = "more" if over else "fewer"
                raise IllegalActionError(
                    f"seat {offender} was not dealt {more} than {self.hand_size} tiles "
                    "(or it has been ruled on already)"
                )
            if over and r.tiles:
                if len(r.tiles) != extra:
                    raise IllegalActionError(f"seat {offender} must put back exactly {extra} tiles")
                for t in r.tiles:
                    if t not in TILE_ID or not (self.hands[offender] >> TILE_ID[t]) & 1:
                        raise IllegalActionError(f"seat {offender} does not hold {t}")
        elif kind == "COMMISSIONER":
            if r.adjust and len(r.adjust) != self.n:
                raise IllegalActionError(f"adjust needs one figure per seat ({self.n})")
            if r.winner is not None and not 0 <= r.winner < self.n:
                raise IllegalActionError(f"seat {r.winner} is not at this table")

    def _misdeal(self, r: Ruling) -> None:
        seat = r.seat
        extra = self.misdealt.pop(seat)
        over = r.kind == "MISDEAL_OVER"
        opts = self.options
        ben = self.creditor(seat)
        in_scope = opts.misdeal_scope == "every_hand" or len(self.hands_doc) == 1
        if in_scope and opts.misdeal_rule == "pda":
            self._line_ruling(seat, r.kind, None)
            if over or ben in self.placed_by:
                self._award_and_advantage(seat, ben, self._bogus_award(seat), "ruling")
                return
        elif in_scope:
            self._pay(seat, ben, 50)
            self._line_ruling(seat, r.kind, None)
            if opts.box_misdeal_fix == "redeal":
                self.advantage = self.hand_start_advantage
                self._hand_end("redeal", None, 0)
                champion = self._leader_at_target()
                if champion is not None:
                    self._game_end(champion)
                return
        else:
            self._line_ruling(seat, r.kind, None)
        if extra > 0:
            chosen = [TILE_ID[t] for t in r.tiles] or ids_of(self.hands[seat])[-extra:]
            for t in chosen:
                self.hands[seat] &= ~(1 << t)
                self.boneyard.append(t)
            return
        for _ in range(-extra):
            if self.bpos >= len(self.boneyard):
                break
            self.hands[seat] |= 1 << self.boneyard[self.bpos]
            self.bpos += 1

    # --- output -----------------------------------------------------------------------------

    def _who(self, seat: int) -> str:
        return f"seat {seat}"

    def _line_event(
        self,
        seat: int,
        kind: str,
        tile: int | None,
        count: int | None,
        points: int,
        ruling: str | None = None,
    ) -> None:
        if self.lines is None:
            return
        if kind == "play" and len(self.layout.order) == 1 and count is not None:
            kind = "lead"
        line = event_line(
            len(self.hands_doc) - 1,
            len(self.events) - 1,
            seat,
            kind,
            tile,
            count,
            points,
            self.scores.copy(),
        )
        if ruling is not None:
            line["ruling"] = ruling
        self.lines.append(line)

    def _line_ruling(self, seat: int, kind: str, tile: int | None) -> None:
        if self.lines is None:
            return
        line: dict[str, Any] = {
            "hand": len(self.hands_doc) - 1,
            "event": len(self.events) - 1,
            "seat": seat,
            "type": "ruling",
            "ruling": kind,
        }
        if tile is not None:
            line["tile"] = str(TILES[tile])
        line["points"] = 0
        line["scores"] = self.scores.copy()
        self.lines.append(line)

    def _hand_end(self, reason: str, winner: int | None, award: int, **extra: Any) -> None:
        deal, bone, _ = self.hands_doc[-1]
        self.hands_doc[-1] = (deal, bone, self.events)
        self.phase = AWAIT_DEAL
        if self.lines is not None:
            self.lines.append(
                hand_end_line(
                    len(self.hands_doc) - 1, reason, winner, award, extra, self.scores.copy()
                )
            )

    def _game_end(self, winner: int, reason: str = "target") -> None:
        self.phase = OVER
        self._result = GameResult(winner, tuple(self.scores), reason)
        if self.lines is not None:
            self.lines.append({"type": "game_end", "winner": winner, "scores": self.scores.copy()})

    @staticmethod
    def _events_json(events: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for ev in events:
            kind = ev[0]
            if kind == "play":
                _k, seat, tile, anchor, code, touch, call = ev
                d = play_json(seat, tile, anchor, code)
                if touch is not None:
                    d["touch"] = touch
                if call is not None:
                    d["call"] = call
                out.append(d)
            elif kind == "draw":
                out.append({"seat": ev[1], "draw": str(TILES[ev[2]])})
            elif kind == "pass":
                out.append({"seat": ev[1], "pass": True})
            elif kind == "return":
                d = {"seat": ev[1], "ruling": "DRAW_RETRACTED"}
                if ev[3] is not None:
                    d["position"] = ev[3]
                out.append(d)
            else:
                out.append(ev[1].to_event())
        return out

    def record(self) -> dict[str, Any]:
        """The game so far as a ``boneyard-record/1`` document."""
        hands = []
        for deal, bone, events in self.hands_doc:
            hands.append(
                {
                    "deal": [[str(TILES[t]) for t in h] for h in deal],
                    "boneyard": [str(TILES[t]) for t in bone],
                    "events": self._events_json(self.events if events is None else events),
                }
            )
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options.to_json(),
            "seats": list(self.names),
            "hands": hands,
            "meta": {},
        }

    # --- observation ------------------------------------------------------------------------

    def observation(self, seat: int | None) -> HighFiveObservation:
        """Everything ``seat`` may see: its own hand, never another's or the boneyard order."""
        check_seat(seat, self.n)
        lay = self.layout
        to_move = seat is not None and self.phase == PLAYING and seat == self.turn
        legal = tuple(self.legal_actions()) if to_move else ()
        points: dict[Any, int] = {}
        for act in legal:
            if isinstance(act, Play):
                points[act] = self._points_if(act)
        history = []
        for ev in self.events:
            kind = ev[0]
            if kind == "play":
                history.append(play_view(ev[1], ev[2], ev[3], ev[4]))
            elif kind == "draw":
                history.append(draw_view(ev[1], ev[2], seat))
            elif kind == "pass":
                history.append(PublicEvent(ev[1], "pass"))
            elif kind == "return":
                history.append(PublicEvent(ev[1], "return", TILES[ev[2]]))
            else:
                history.append(PublicEvent(ev[1].seat, "ruling:" + ev[1].kind))
        in_hand = self.phase == PLAYING
        return HighFiveObservation(
            seat=seat,
            num_seats=self.n,
            hand_number=self.hand_number,
            current_seat=self.current_seat,
            hand=tuple(TILES[t] for t in ids_of(self.hands[seat]))
            if seat is not None and in_hand
            else (),
            hand_sizes=tuple(h.bit_count() for h in self.hands) if in_hand else (0,) * self.n,
            boneyard_size=len(self.boneyard) - self.bpos if in_hand else 0,
            layout=placed_views(lay),
            open_ends=ends_view(lay.open),
            available_ends=ends_view(lay.available(self.policy)),
            count=lay.count,
            scores=tuple(self.scores),
            chips_left=tuple(self.chips),
            legal_actions=legal,
            history=tuple(history),
            big6_lead=self.big6 >= 0 and lay.empty and in_hand,
            is_over=self.phase == OVER,
            winner=self._result.winner if self._result else None,
            options=self.options,
            points_now=points,
        )

    def _points_if(self, play: Play) -> int:
        """Chips ``play`` would score for the seat to move (capped by its payer's chips)."""
        tile, anchor, code = self._resolve(play)
        lay = self.layout.copy()
        if anchor < 0:
            lay.place(tile)
        else:
            lay.place(tile, anchor, code)
        count = lay.count
        if count <= 0 or count % 5:
            return 0
        if self.capped:
            return min(count, self.chips[self.payer(self.turn)])
        return count


__all__ = [
    "HighFiveObservation",
    "HighFiveState",
    "PlacedView",
    "PublicEvent",
    "shuffled",
]
