"""The High Five rules (RULES §1): one whole game to 150, hand after hand.

The state is driven by deals (:meth:`HighFiveState.deal_hand` from a record, or
:meth:`~boneyard.games.fives.state.FivesState.deal_random` with an injected generator) and by
actions. Under ``enforcement = "strict"`` only legal actions are accepted; ``detect`` also accepts
draws and passes while holding a playable tile and penalises them; ``tabletop`` records a physical
game and applies the referee's rulings (§1.10, :mod:`boneyard.games.highfive.rulings`). ``apply``
returns the event (:mod:`boneyard.games.highfive.events`); the record is built from the events,
the replay lines too (:mod:`boneyard.games.highfive.lines`).

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
from typing import ClassVar, Final, cast

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.records import JSON
from boneyard.core.state import AWAIT_DEAL, PLAYING
from boneyard.core.tiles import Tile
from boneyard.games.fives.events import Drew, Passed, Placed
from boneyard.games.fives.layout import (
    DOUBLE_MASK,
    END_A,
    HI,
    LO,
    PORT_CODE,
    PORT_NAMES,
    R_DOUBLE,
    R_SPINNER,
    SIDE_A,
    TILE_ID,
    TILES,
    ids_of,
)
from boneyard.games.fives.play import (
    PLAYS,
    can_place,
    deal_ids,
    default_port,
    play_ids,
)
from boneyard.games.fives.state import FivesState
from boneyard.games.highfive import rulings, settlement
from boneyard.games.highfive.actions import (
    DRAW,
    PASS,
    RETURN_TILE,
    Draw,
    HighFiveAction,
    Pass,
    Play,
    ReturnTile,
    Ruling,
)
from boneyard.games.highfive.events import HighFiveEvent, Returned
from boneyard.games.highfive.observation import HighFiveObservation, layout_policy, observe
from boneyard.games.highfive.options import HighFiveOptions
from boneyard.games.highfive.rulings import Undo
from boneyard.games.highfive.settlement import TARGET, creditor_of, payer_of
from boneyard.games.walk import undone

HAND_SIZE: Final = {2: 7, 3: 6, 4: 5}
START_CHIPS: Final = 150


class HighFiveState(FivesState[HighFiveAction, HighFiveEvent, HighFiveObservation]):
    """A High Five game in progress (2–4 players). See the module docstring."""

    game: ClassVar[str] = "highfive"
    ACTIONS_NAMED: ClassVar[str] = "a High Five action"
    COPY_SHARED: ClassVar[tuple[str, ...]] = (
        *FivesState.COPY_SHARED,
        "options",
        "capped",
        "strict",
        "tabletop",
        "zero_scores",
        "call_required",
        "play_scores_first",
        "advantage",
        "domino_holder",
        "big6",
        "pending_grace",
        "grace_used",
        "takeback",
        "hand_start_advantage",
    )
    COPY_COPIED: ClassVar[tuple[str, ...]] = (
        *FivesState.COPY_COPIED,
        "chips",
        "placed_by",
        "unruled",
        "misdealt",
    )

    def __init__(
        self,
        players: int,
        options: HighFiveOptions | Mapping[str, object] | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        if players not in HAND_SIZE:
            raise BoneyardError(f"High Five is for 2, 3 or 4 players, not {players}")
        super().__init__(players, names)
        if not isinstance(options, HighFiveOptions):
            options = HighFiveOptions.build(options)
        self.options = options
        self.policy = layout_policy(options)
        self.capped = options.payment_cap == "chips"
        self.strict = options.enforcement == "strict"
        self.tabletop = options.enforcement == "tabletop"
        self.zero_scores = options.zero_count_scores
        self.call_required = options.require_score_call and not self.strict
        self.play_scores_first = options.domino_play_scores_first
        self.chips = [START_CHIPS] * players
        """Each seat's own chips left to pay with (RULES §1.1)."""
        self.advantage: int | None = None
        """Seat that leads any tile next hand; None: the Big 6 call."""
        self.domino_holder: int | None = None
        self.big6: int = -1
        """The double that must be led under the Big 6 call (-1: free lead)."""
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
        self.takeback: Undo | None = None
        """Tabletop: what a wrong-bone or misplaced-spinner ruling on the last placement restores
        (not :meth:`undo`, which takes back any action)."""
        self.hand_start_advantage: int | None = None

    def _fresh(self) -> HighFiveState:
        return type(self)(self.n, self.options, self.names)

    def _undone(self) -> HighFiveState:
        from boneyard.games.highfive.record import READER  # (the reader builds states)

        return undone(READER, self)

    @property
    def hand_number(self) -> int:
        """Index of the current (or next) hand in the record."""
        return self.hands_dealt - (1 if self.phase >= PLAYING else 0)

    def payer(self, seat: int) -> int:
        """The seat that pays ``seat``'s scores (RULES §1.2, :func:`settlement.payer_of`)."""
        return payer_of(seat, self.n)

    def creditor(self, seat: int) -> int:
        """The seat that ``seat`` pays."""
        return creditor_of(seat, self.n)

    def options_json(self) -> JSON:
        """The record's ``options``: the preset and every key that differs from it."""
        return self.options.to_json()

    # --- dealing ----------------------------------------------------------------------------

    def hand_size(self) -> int:
        """7 tiles each with 2 players, 6 with 3, 5 with 4 (RULES §1.2)."""
        return HAND_SIZE[self.n]

    def _deal_hook(self, hands: list[list[int]], bone: list[int], rng: random.Random) -> None:
        self._begin(hands, bone)

    def deal_hand(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> None:
        """Deal the next hand as given (a record, a physical table): each seat's tiles, then
        the boneyard in draw order. The rules name the first player."""
        self.check_deal()
        if len(hands) != self.n:
            raise BoneyardError(f"the deal must have {self.n} hands, not {len(hands)}")
        ids, bone = deal_ids(hands, boneyard)
        size = self.hand_size()
        for i, h in enumerate(ids):
            if len(h) != size and not self.tabletop:
                raise BoneyardError(f"seat {i} is dealt {len(h)} tiles; each player gets {size}")
        self._begin(ids, bone)

    def _begin(self, hands: list[list[int]], bone: list[int]) -> None:
        self._start(hands, bone)
        size = self.hand_size()
        self.placed_by = set()
        self.pending_grace = -1
        self.grace_used = -1
        self.unruled = {}
        self.misdealt = {i: len(h) - size for i, h in enumerate(hands) if len(h) != size}
        self.takeback = None
        self.hand_start_advantage = self.advantage
        self.phase = PLAYING
        if self.advantage is not None:
            self.big6 = -1
            self.turn = self.advantage
            return
        best = -1
        holder = -1
        for i, m in enumerate(self.hands):
            d = m & DOUBLE_MASK
            if d and d.bit_length() - 1 > best:
                best = d.bit_length() - 1
                holder = i
        if holder < 0:
            self._end_hand("redeal", None, 0)
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

    def legal_actions(self) -> list[HighFiveAction]:
        """Every action the seat to move may take.

        Under ``strict`` that is the forced sequence: play if able, else draw, else pass.
        Under ``detect``/``tabletop`` a draw (or pass) is also offered while holding a playable
        tile: it is bogus play and is penalised (§1.10).
        """
        if self.phase != PLAYING:
            return []
        seat = self.turn
        moves = cast(list[HighFiveAction], self._placements(seat))  # a fresh list
        drawable = self.bpos < len(self.boneyard)
        if self.strict or self.layout.empty:
            if moves:
                return moves
            return [DRAW] if drawable else [PASS]
        if moves:
            extra: list[HighFiveAction] = [DRAW] if drawable else []
            extra.append(PASS)
            if self.pending_grace == seat:
                extra.insert(0, RETURN_TILE)
            return moves + extra
        return [DRAW] if drawable else [PASS]

    def points_if(self, play: Play) -> int:
        """Chips ``play`` would score at once for the seat to move (capped by its payer's
        chips): the greedy play-out policy's measure."""
        tile, anchor, code = self.resolve(play)
        count = self.layout.count_after(tile, anchor, code)
        if count <= 0 or count % 5:
            return 0
        if self.capped:
            return min(count, self.chips[self.payer(self.turn)])
        return count

    # --- applying ---------------------------------------------------------------------------

    def _is_action(self, action: object) -> bool:
        """Whether ``action`` is one of this game's actions (:meth:`GameBase._is_action`)."""
        return isinstance(action, (Play, Draw, Pass, ReturnTile, Ruling))

    def _apply(self, action: HighFiveAction) -> HighFiveEvent:
        """Apply an action of the current seat (or a referee's ruling); return its event."""
        if type(action) is Play and self.phase == PLAYING:
            self._play(action)
            return self.events[-1]
        if isinstance(action, Ruling):
            rulings.rule(self, action)
            return self.events[-1]
        if self.phase != PLAYING:
            raise IllegalActionError(
                "the game is over" if self.phase != AWAIT_DEAL else "the next hand is not dealt yet"
            )
        if isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Draw):
            self._draw()
        elif isinstance(action, Pass):
            self._pass()
        else:
            self.return_tile(action.position)
        return self.events[-1]

    def resolve(self, action: Play) -> tuple[int, int, int]:
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
        role = lay.role[anchor]
        if role != R_SPINNER:
            if self.tabletop and role == R_DOUBLE and code >= END_A:
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
                        lay.lead(tile)
                        self._after_place(seat, tile, anchor, code, action, False)
                        return
                elif lay.join_listed(self.policy, tile, anchor, code):
                    self.hands[seat] = hand & ~(1 << tile)
                    self._after_place(seat, tile, anchor, code, action, False)
                    return
        tile, anchor, code = self.resolve(action)
        hand = self.hands[seat]
        if not (hand >> tile) & 1:
            raise IllegalActionError(f"seat {seat} does not hold {TILES[tile]}")
        if self.pending_grace == seat:
            self._placed(seat, tile, anchor, code, action, self.layout.count, 0)
            settlement.bogus(self, seat, "BOGUS_DRAW")
            return
        mismatch, misplaced = self._check_place(tile, anchor, code)
        if self.tabletop:
            self.takeback = Undo(self, seat, tile) if (mismatch or misplaced) else None
        lay = self.layout
        self.hands[seat] = hand & ~(1 << tile)
        if misplaced:
            lay.make_spinner(anchor, self.options.misplaced_spinner == "transfer")
        if anchor < 0:
            lay.lead(tile)
        else:
            lay.join(tile, anchor, code, -1 if action.touch is None else action.touch)
        self._after_place(seat, tile, anchor, code, action, mismatch)

    def _check_place(self, tile: int, anchor: int, code: int) -> tuple[bool, bool]:
        """Refuse a placement the rules (or the table, under tabletop) do not allow; return
        whether it does not match (a wrong bone) and whether it goes on the end of a plain
        double (a misplaced spinner), both tabletop only."""
        lay = self.layout
        if anchor < 0:
            if not lay.empty:
                raise IllegalActionError(
                    f"the lead has been played: say which tile {TILES[tile]} goes on"
                )
            if self.big6 >= 0 and tile != self.big6:
                raise IllegalActionError(
                    f"the Big 6 call: {TILES[self.big6]}, the highest double dealt, must lead"
                )
            return False, False
        if lay.empty:
            raise IllegalActionError(f"nothing is on the table yet: lead {TILES[tile]}")
        value = lay.port_value(anchor, code)
        if value is None and not (self.tabletop and code >= END_A):
            raise IllegalActionError(
                f"{TILES[anchor]} has no open {PORT_NAMES[code]} end (open: {lay.describe_open()})"
            )
        misplaced = value is None
        if value is not None:
            if not lay.is_available(self.policy, anchor, code):
                raise IllegalActionError(
                    "the spinner's ends open only after both its sides are covered"
                )
            mismatch = value != LO[tile] and value != HI[tile]
        else:
            mismatch = LO[anchor] != LO[tile] and LO[anchor] != HI[tile]
        if mismatch and not self.tabletop:
            raise IllegalActionError(
                f"{TILES[tile]} does not match an open end (open: {lay.describe_open(self.policy)})"
            )
        return mismatch, misplaced

    def _placed(
        self,
        seat: int,
        tile: int,
        anchor: int,
        code: int,
        action: Play,
        count: int,
        points: int,
        ruling: str | None = None,
    ) -> None:
        """Log a placement (or a play written as it happened but not carried out)."""
        self.events.append(
            Placed(
                seat,
                TILES[tile],
                TILES[anchor] if anchor >= 0 else None,
                PORT_NAMES[code] if anchor >= 0 and code >= SIDE_A else None,
                count,
                points,
                tuple(self.scores),
                "lead" if len(self.layout.order) == 1 else "play",
                action.touch,
                action.call,
                ruling,
            )
        )

    def _after_place(
        self, seat: int, tile: int, anchor: int, code: int, action: Play, mismatch: bool
    ) -> None:
        """Score a placement just made, then settle a domino or pass the turn."""
        if self.tabletop:
            self.placed_by.add(seat)
        count = self.layout.count
        domino = self.hands[seat] == 0
        if mismatch and domino:
            self._placed(seat, tile, anchor, code, action, count, 0, "FALSE_DOMINO")
            rulings.false_domino(self, seat)
            return
        scores = count > 0 and count % 5 == 0
        if count == 0 and self.zero_scores:
            scores = True
        if self.call_required and action.call != count:
            scores = False
        payer = payer_of(seat, self.n)
        if domino and not self.play_scores_first:
            award = self._pay(payer, seat, settlement.domino_bonus(self, seat))
            points = 0
            if scores and self.scores[seat] < TARGET:
                points = self._pay(payer, seat, count)
            self._placed(seat, tile, anchor, code, action, count, points)
            settlement.domino(self, seat, award)
            return
        points = self._pay(payer, seat, count) if scores else 0
        self._placed(seat, tile, anchor, code, action, count, points)
        if points and self.scores[seat] >= TARGET:
            self._end_hand("game_over", seat, 0)
            self._end_game(seat)
            return
        if domino:
            settlement.domino(
                self, seat, self._pay(payer, seat, settlement.domino_bonus(self, seat))
            )
            return
        self.turn = (seat + 1) % self.n
        self.grace_used = -1

    def _draw(self) -> None:
        seat = self.turn
        if self.bpos >= len(self.boneyard):
            raise IllegalActionError("the boneyard is empty: pass instead")
        if self.layout.empty:
            raise IllegalActionError(f"seat {seat} must lead")
        playable = self.can_place(seat)
        if playable and self.strict:
            held = self._placements(seat)[0].tile
            raise IllegalActionError(f"seat {seat} must play: it holds {held}")
        tile = self.boneyard[self.bpos]
        self.bpos += 1
        hands = self.hands
        hands[seat] = hands[seat] | 1 << tile  # compiled, ``|=`` on an item is a generic call
        self.events.append(Drew(seat, TILES[tile], tuple(self.scores)))
        if self.pending_grace == seat:
            settlement.bogus(self, seat, "BOGUS_DRAW")
            return
        if not playable:
            return
        if self.tabletop:
            self.unruled[seat] = "draw"
        elif self.options.bogus_grace and self.grace_used != seat:
            self.pending_grace = seat
        else:  # no grace, or it was used in this turn already (RULES §1.10)
            settlement.bogus(self, seat, "BOGUS_DRAW")

    def return_tile(self, position: int | None) -> None:
        """The box grace rule: put back the tile just drawn, once per turn (RULES §1.10).

        ``position`` is its place in the boneyard's draw order (0 = next); None, as offered in
        play, puts it back at a random place (:meth:`_random_place`). A second return in the
        same turn (tabletop) is a bogus draw.
        """
        seat = self.turn
        last = self.events[-1] if self.events else None
        drawn = isinstance(last, Drew) and last.seat == seat
        graced = self.pending_grace == seat or (
            self.tabletop
            and self.options.bogus_grace
            and self.unruled.get(seat) == "draw"
            and drawn
        )
        if not graced or not isinstance(last, Drew):
            raise IllegalActionError(
                "there is no wrongly drawn tile to return (only right after drawing it, "
                "under the box grace rule)"
            )
        tile = TILE_ID[last.tile]
        rest = self.boneyard[self.bpos :]
        pos = self._random_place(tile, rest) if position is None else position
        if not 0 <= pos <= len(rest):
            raise IllegalActionError(f"position {pos} is outside the boneyard (0–{len(rest)})")
        self.hands[seat] &= ~(1 << tile)
        rest.insert(pos, tile)
        self.boneyard = self.boneyard[: self.bpos] + rest
        self.pending_grace = -1
        self.unruled.pop(seat, None)
        self.events.append(Returned(seat, last.tile, pos, tuple(self.scores)))
        if self.grace_used == seat:
            settlement.bogus(self, seat, "BOGUS_DRAW")
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
            raise IllegalActionError(f"seat {seat} must lead")
        playable = self.can_place(seat)
        if self.bpos < len(self.boneyard) and not playable:
            raise IllegalActionError(
                f"seat {seat} cannot pass: the boneyard still has tiles to draw"
            )
        if playable and self.strict:
            held = self._placements(seat)[0].tile
            raise IllegalActionError(f"seat {seat} must play: it holds {held}")
        self.events.append(Passed(seat, tuple(self.scores)))
        if self.pending_grace == seat:
            settlement.bogus(self, seat, "BOGUS_DRAW")
            return
        if playable:
            if self.tabletop:
                self.unruled[seat] = "pass"
            elif self.options.pda_bogus_pass == "as_bogus_draw" or self.options.preset != "pda":
                settlement.bogus(self, seat, "BOGUS_PASS")
                return
        self.turn = (seat + 1) % self.n
        self.grace_used = -1
        if self.bpos < len(self.boneyard):
            return
        for i in range(self.n):
            if self.can_place(i):
                return
        settlement.lock(self)

    # --- payments (the hands' ends: boneyard.games.highfive.settlement) --------------------

    def _pay(self, payer: int, to: int, amount: int) -> int:
        if self.capped:
            amount = min(amount, self.chips[payer])
            self.chips[payer] -= amount
        self.scores[to] += amount
        return amount

    # --- observation ------------------------------------------------------------------------

    def _observe(self, seat: int | None) -> HighFiveObservation:
        """Everything ``seat`` may see: its own hand, never another's or the boneyard order."""
        return observe(self, seat)


__all__ = ["HighFiveState"]
