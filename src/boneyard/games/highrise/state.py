"""The Highrise rules (RULES.md §4): hand set-ups, the turn rules and the ends of hands and game.

``apply`` returns the event (:mod:`boneyard.games.highrise.events`); the record and the replay
lines (:mod:`boneyard.games.highrise.lines`) are built from the events.

>>> import random
>>> from boneyard.games.highrise.options import build_highrise_options
>>> state = HighriseState(2, build_highrise_options({}))
>>> state.deal_random(random.Random(7))
>>> state.current_seat in (0, 1), len(state.observation(0).hand)
(True, 5)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Final

from boneyard.core.chance import randbelow, shuffled
from boneyard.core.errors import BoneyardError, IllegalActionError, OptionError
from boneyard.core.protocol import HandEnd
from boneyard.core.records import JSON
from boneyard.core.state import PLAYING, GameBase, Value
from boneyard.core.tiles import Tile, TileSet
from boneyard.games.highrise.actions import (
    HIDDEN_DRAW,
    PASS,
    Draw,
    HighriseAction,
    Pass,
    Place,
    oriented_text,
)
from boneyard.games.highrise.events import Drew, HighriseEvent, Passed, Placed
from boneyard.games.highrise.observation import GAME, HighriseObservation
from boneyard.games.highrise.options import CARRY_OVER, HighriseOptions
from boneyard.games.highrise.tower import (
    FACES,
    GEOMETRIES,
    Geometry,
    Placement,
    Tower,
    cell_text,
    fit_table,
)
from boneyard.games.walk import undone

HAND_SIZE: Final = 5
BASEMENT: Final = 8
GAME_SPACERS: Final = 12
"""The spacers in the box: the whole-game supply under ``spacers_per_hand = "carry_over"``."""


class HandSetup(Value):
    """A hand's starting position: the starter, the basement (``(upper face, lower face)`` per
    slot), each seat's five tiles and the draw pile in draw order.

    A compiled value (:class:`~boneyard.core.state.Value`) rather than a frozen dataclass, whose
    constructor the compiled build still runs in the interpreter: every hand makes one.

    >>> HandSetup(1, ((5, 1),), ((), ()), ())
    HandSetup(starter=1, basement=((5, 1),), deal=((), ()), pile=())
    """

    __slots__ = ("basement", "deal", "pile", "starter")
    FIELDS: ClassVar[tuple[str, ...]] = ("starter", "basement", "deal", "pile")

    def __init__(
        self,
        starter: int,
        basement: tuple[tuple[int, int], ...],
        deal: tuple[tuple[Tile, ...], ...],
        pile: tuple[Tile, ...],
    ) -> None:
        self.starter: Final = starter
        self.basement: Final = basement
        self.deal: Final = deal
        self.pile: Final = pile

    def to_json(self) -> JSON:
        """The record hand without its events."""
        return {
            "starter": self.starter,
            "basement": [oriented_text(u, lo) for u, lo in self.basement],
            "deal": [[str(t) for t in hand] for hand in self.deal],
            "pile": [str(t) for t in self.pile],
        }


class TileData:
    """What the rules read of a tile set, made once per set: the tiles, each one's faces and
    hand value, ids by faces (either order), and its :func:`~.tower.fit_table`."""

    __slots__ = ("by_faces", "faces", "ids", "table", "tile_at", "tiles", "tileset", "values")

    def __init__(self, tileset: TileSet) -> None:
        self.tileset = tileset
        self.tiles: tuple[Tile, ...] = tileset.tiles
        self.ids: list[int] = list(range(len(tileset)))
        """Every tile id, in order (what a deal shuffles; never changed)."""
        self.faces: tuple[tuple[int, int], ...] = tuple((t.lo, t.hi) for t in tileset)
        self.values: tuple[int, ...] = tuple(t.pips for t in tileset)
        self.by_faces: dict[tuple[int, int], int] = {}
        self.tile_at: list[int] = [-1] * (FACES * FACES)
        """``tile_at[a * FACES + b]``: :attr:`by_faces` for faces known to be in range (a
        listed placement's), read without hashing a tuple."""
        for tid, (lo, hi) in enumerate(self.faces):
            self.by_faces[lo, hi] = self.by_faces[hi, lo] = tid
            self.tile_at[lo * FACES + hi] = self.tile_at[hi * FACES + lo] = tid
        self.table: list[int] = fit_table(self.faces)


_TILE_DATA: Final[dict[str | tuple[str, ...], TileData]] = {}


def tile_data(options: HighriseOptions) -> TileData:
    """The :class:`TileData` of the options' tile set."""
    data = _TILE_DATA.get(options.tileset)
    if data is None:
        data = _TILE_DATA[options.tileset] = TileData(options.tile_set())
    return data


class HighriseState(GameBase[HighriseAction, HighriseEvent, HighriseObservation]):
    """One game of Highrise (all its hands). See :mod:`boneyard.core.protocol` for the contract."""

    game: ClassVar[str] = GAME
    ACTIONS_NAMED: ClassVar[str] = "a Highrise action"
    SEAT_NAME: ClassVar[str] = "Player"
    COPY_SHARED: ClassVar[tuple[str, ...]] = (
        *GameBase.COPY_SHARED,
        "options",
        "tileset",
        "faces",
        "values",
        "by_faces",
        "tile_at",
        "tiles",
        "table",
        "early_block",
        "geometry",
        "spacers_used",
        "setup",
        "pile_ids",
        "pos",
        "drawn_id",
        "passes",
        "legal",
        "remaining",
    )
    COPY_COPIED: ClassVar[tuple[str, ...]] = (*GameBase.COPY_COPIED, "done", "hands", "tower")

    def __init__(
        self, players: int, options: HighriseOptions, seat_names: Sequence[str] | None = None
    ) -> None:
        if not 2 <= players <= 4:
            raise OptionError(f"Highrise is for 2 to 4 players, not {players}")
        if isinstance(options.first_player, int) and options.first_player >= players:
            raise OptionError(
                f"option first_player cannot be seat {options.first_player} with {players} players"
            )
        if seat_names is not None and len(seat_names) != players:
            raise OptionError(f"{players} players need {players} seat names")
        super().__init__(players, seat_names)
        self.options = options
        data = tile_data(options)
        self.tileset: TileSet = data.tileset
        self.faces = data.faces
        self.values = data.values
        self.by_faces = data.by_faces
        self.tile_at = data.tile_at
        self.tiles = data.tiles
        self.table = data.table
        self.early_block = options.early_block
        self.geometry: Geometry = GEOMETRIES[options.base_layout]
        self.done: list[tuple[HandSetup, list[HighriseEvent]]] = []
        """Every finished hand: its set-up and events."""
        self.spacers_used = 0
        self.setup: HandSetup | None = None
        self.tower = Tower(self.geometry, 0, True)
        """The tower of the hand in play (an empty base before the first deal)."""
        self.hands: list[tuple[int, ...]] = []
        self.pile_ids: list[int] = []
        """The pile's tile ids in draw order (never changed: ``pos`` is the next to draw)."""
        self.pos = 0
        self.drawn_id = -1
        """The tile the seat to act drew and must place (-1: none)."""
        self.passes = 0
        self.legal: tuple[HighriseAction, ...] | None = None
        self.remaining = 0
        """The tiles in the hands and the pile, as a mask of tile ids (``early_block``)."""

    def _fresh(self) -> HighriseState:
        return type(self)(self.n, self.options, self.names)

    def _undone(self) -> HighriseState:
        from boneyard.games.highrise.record import READER  # (the reader builds states)

        return undone(READER, self)

    # ---- views of the state --------------------------------------------------------------

    @property
    def hand_number(self) -> int:
        """The current (or last) hand, from 0; -1 before the first deal."""
        return self.hands_dealt - 1

    @property
    def hand_over(self) -> bool:
        """Whether the current hand has ended (or none has started)."""
        return self.phase != PLAYING

    @property
    def last_hand_end(self) -> HandEnd | None:
        """How the last finished hand ended."""
        return self.ends[-1] if self.ends else None

    @property
    def drawn(self) -> Tile | None:
        """The tile the current seat drew and must place, if any."""
        return self.tiles[self.drawn_id] if self.drawn_id >= 0 else None

    @property
    def spacers_left(self) -> int:
        """Spacers left in the current hand."""
        if self.setup is None:
            raise BoneyardError("no hand has been dealt yet")
        return self.tower.spacers_left

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """A seat's tiles (full information: not for players)."""
        tiles = self.tiles
        return tuple(tiles[t] for t in self.hands[seat])

    def pile(self) -> tuple[Tile, ...]:
        """The tiles still in the pile, next first (full information)."""
        tiles = self.tiles
        return tuple(tiles[t] for t in self.pile_ids[self.pos :])

    def hand_value(self, seat: int) -> int:
        """What a seat's tiles count (a wild half 7)."""
        values = self.values
        return sum(values[t] for t in self.hands[seat])

    def options_json(self) -> JSON:
        """The record's ``options``: every option, resolved (docs/records.md)."""
        return self.options.to_json()

    # ---- dealing -------------------------------------------------------------------------

    def next_starter(self) -> int | None:
        """The starter the next hand must have (``None``: free, the first hand)."""
        if self.setup is None:
            fp = self.options.first_player
            return fp if isinstance(fp, int) else None
        return (self.setup.starter + 1) % self.n

    def deal_random(self, rng: random.Random) -> None:
        """Deal the next hand: shuffle, fill the basement (random orientations), five each."""
        if not self.awaiting_deal:
            raise BoneyardError("the current hand is not over")
        tiles = self.tiles
        faces = self.faces
        order = shuffled(rng, tile_data(self.options).ids)
        basement: list[tuple[int, int, int]] = []
        for t in order[:BASEMENT]:
            lo, hi = faces[t]
            basement.append((t, lo, hi) if randbelow(rng, 2) else (t, hi, lo))
        hands = [
            tuple(order[BASEMENT + HAND_SIZE * s : BASEMENT + HAND_SIZE * (s + 1)])
            for s in range(self.n)
        ]
        pile = order[BASEMENT + HAND_SIZE * self.n :]
        starter = self.next_starter()
        if starter is None:
            starter = randbelow(rng, self.n)
        setup = HandSetup(
            starter,
            tuple([(u, lo) for _t, u, lo in basement]),
            tuple([tuple([tiles[t] for t in hand]) for hand in hands]),
            tuple([tiles[t] for t in pile]),
        )
        self._begin(setup, basement, hands, pile)

    def deal_hand(self, setup: HandSetup) -> None:
        """Deal the next hand as given (replay, search): the seats' tiles, the pile in draw
        order and the starter, with the basement, in the one :class:`HandSetup` value the state
        keeps; raises :class:`BoneyardError` with a reason and changes nothing when the set-up
        is not a valid Highrise deal."""
        if not self.awaiting_deal:
            raise BoneyardError("the current hand is not over")
        self._check_setup(setup)
        tiles = self.tileset
        basement = []
        for upper, lower in setup.basement:
            basement.append((tiles.index(Tile.of(upper, lower)), upper, lower))
        hands = [tuple(tiles.index(t) for t in hand) for hand in setup.deal]
        self._begin(setup, basement, hands, [tiles.index(t) for t in setup.pile])

    def _begin(
        self,
        setup: HandSetup,
        basement: list[tuple[int, int, int]],
        hands: list[tuple[int, ...]],
        pile: list[int],
    ) -> None:
        """Start a hand whose set-up is valid: ``basement`` as ``(id, upper, lower)``, each
        seat's tile ids and the pile's, in draw order."""
        opts = self.options
        if opts.spacers_per_hand == CARRY_OVER:
            spacers = GAME_SPACERS - self.spacers_used
        else:
            assert isinstance(opts.spacers_per_hand, int)
            spacers = opts.spacers_per_hand
        if self.setup is not None:
            self.done.append((self.setup, self.events))
        self.tower = Tower.from_basement(
            self.geometry, basement, spacers, opts.wild_on_wild_value == 7
        )
        self.setup = setup
        self.hands_dealt += 1
        self.hands = hands
        self.pile_ids = pile
        remaining = (1 << len(self.faces)) - 1  # a valid deal deals the whole set
        for t, _upper, _lower in basement:
            remaining &= ~(1 << t)
        self.remaining = remaining
        self.pos = 0
        self.turn = setup.starter
        self.drawn_id = -1
        self.passes = 0
        self.events = []
        self.legal = None
        self.phase = PLAYING
        if self.early_block:
            self._check_early_block()

    def _check_setup(self, setup: HandSetup) -> None:
        n = self.n
        want = self.next_starter()
        if not (type(setup.starter) is int and 0 <= setup.starter < n):
            raise BoneyardError(f"starter must be a seat from 0 to {n - 1}, not {setup.starter!r}")
        if want is not None and setup.starter != want:
            if self.setup is None:
                raise BoneyardError(
                    f"seat {want} starts the first hand (option first_player), not seat"
                    f" {setup.starter}"
                )
            raise BoneyardError(
                f"seat {want} starts this hand (the seat left of the last starter), not seat"
                f" {setup.starter}"
            )
        if len(setup.basement) != BASEMENT:
            raise BoneyardError(
                f"the basement holds {BASEMENT} dominoes, not {len(setup.basement)}"
            )
        if len(setup.deal) != n:
            raise BoneyardError(f"the deal must give tiles to {n} seats, not {len(setup.deal)}")
        for s, hand in enumerate(setup.deal):
            if len(hand) != HAND_SIZE:
                raise BoneyardError(f"seat {s} must be dealt {HAND_SIZE} tiles, not {len(hand)}")
        self._check_whole_set(setup)

    def _check_whole_set(self, setup: HandSetup) -> None:
        seen: set[Tile] = set()
        everything = [Tile.of(u, lo) for u, lo in setup.basement]
        for hand in setup.deal:
            everything.extend(hand)
        everything.extend(setup.pile)
        for t in everything:
            if t not in self.tileset:
                raise BoneyardError(f"{t} is not a tile of the {self.tileset.name} set")
            if t in seen:
                raise BoneyardError(f"{t} is dealt twice")
            seen.add(t)
        missing = [str(t) for t in self.tileset if t not in seen]
        if missing:
            shown = ", ".join(missing[:6]) + (
                "" if len(missing) <= 6 else f" and {len(missing) - 6} more"
            )
            raise BoneyardError(f"the set-up leaves out {shown}")

    # ---- moves ---------------------------------------------------------------------------

    def _movers(self) -> tuple[int, ...]:
        """The tiles the seat to act may place: the one it drew, else its hand."""
        return (self.drawn_id,) if self.drawn_id >= 0 else self.hands[self.turn]

    def raw_placements(self) -> list[Placement]:
        """The current seat's legal placements as raw tuples (fast path for search)."""
        out: list[Placement] = []
        if self.phase != PLAYING:
            return out
        faces = self.faces
        tower = self.tower
        for t in self._movers():
            f = faces[t]
            tower.add_placements(out, t, f[0], f[1])
        return out

    def legal_actions(self) -> tuple[HighriseAction, ...]:
        """The current seat's legal actions: placements (of the drawn tile right after a draw),
        else the one draw, else the one pass; empty while a deal is awaited or the game is over."""
        if self.legal is not None:
            return self.legal
        if self.phase != PLAYING:
            return ()
        places = self._places()
        legal: tuple[HighriseAction, ...]
        if places:
            legal = tuple(places)
        elif self.pos < len(self.pile_ids):
            legal = (HIDDEN_DRAW,)
        else:
            legal = (PASS,)
        self.legal = legal
        return legal

    def _places(self) -> list[HighriseAction]:
        """The legal placements, in :meth:`raw_placements` order, made straight from the
        tower's masks (no raw tuple in between)."""
        faces = self.faces
        tower = self.tower
        places: list[HighriseAction] = []
        for t in self._movers():
            x, y = faces[t]
            xy, yx = tower.fit_masks(x, y)
            m = xy | yx
            while m:
                low = m & -m
                k = int(low).bit_length() - 1
                m ^= low
                if xy & low:
                    places.append(self._place(k, x, y))
                if yx & low:
                    places.append(self._place(k, y, x))
        return places

    def _place(self, k: int, fa: int, fb: int) -> Place:
        """The placement of face ``fa`` on pair ``k``'s first cell and ``fb`` on its second."""
        i, j, sp, level, points = self.tower.spot(k, fa, fb)
        geo = self.geometry
        cells = geo.cells
        spacer = None if sp < 0 else geo.spacer_cells[sp]
        return Place((fa, fb), (cells[i], cells[j]), spacer, level, points)

    def _can_place(self) -> bool:
        if self.legal is not None:
            return isinstance(self.legal[0], Place)
        faces = self.faces
        for t in self._movers():
            f = faces[t]
            if self.tower.fits(f[0], f[1]):
                return True
        return False

    def _playable_example(self) -> str:
        raw = self.raw_placements()
        tiles = sorted({self.tiles[p[0]] for p in raw})
        return ", ".join(str(t) for t in tiles)

    def _is_action(self, action: object) -> bool:
        """Whether ``action`` is one of this game's actions (:meth:`GameBase._is_action`)."""
        return isinstance(action, (Place, Draw, Pass))

    def _apply(self, action: HighriseAction) -> HighriseEvent:
        """Apply an action of the current seat and return its event; raises
        :class:`IllegalActionError` (nothing changed) when the rules forbid it."""
        if self.is_over:
            raise IllegalActionError("the game is over")
        if self.hand_over:
            raise IllegalActionError("the hand is over: the next hand must be dealt first")
        if isinstance(action, Place):
            self._apply_place(action)
        elif isinstance(action, Draw):
            self._apply_draw()
        else:
            self._apply_pass()
        return self.events[-1]

    def _where(self, action: Place) -> tuple[int, int, int, int, int, int]:
        """The tile id, the cell indices (lower first), their faces and the spacer cell (-1:
        none) of a placement, checked against the base and the seat's tiles."""
        geo = self.geometry
        seat = self.turn
        try:
            (fa, fb), (ca, cb) = action.faces, action.cells
            i, j = geo.index(ca), geo.index(cb)
            sp_cell = action.spacer
            sp = -2 if sp_cell is None else geo.index(sp_cell)
        except (TypeError, ValueError):
            raise IllegalActionError(f"{action!r} is not a placement") from None
        for c in (ca, cb) if sp_cell is None else (ca, cb, sp_cell):
            if geo.index(c) < 0:
                raise IllegalActionError(f"{cell_text(c)} is off the base")
        tid = self.by_faces.get((fa, fb), -1)
        if tid < 0:
            try:
                tile = Tile.of(fa, fb)
            except BoneyardError as exc:
                raise IllegalActionError(str(exc)) from None
            raise IllegalActionError(f"{tile} is not a tile of the {self.tileset.name} set")
        tile = self.tiles[tid]
        if self.drawn_id >= 0 and tid != self.drawn_id:
            raise IllegalActionError(
                f"seat {seat} must place the tile it drew, {self.tiles[self.drawn_id]}"
            )
        if tid not in self.hands[seat]:
            raise IllegalActionError(f"seat {seat} does not hold {tile}")
        if sp >= 0 and sp not in (i, j):
            raise IllegalActionError(
                f"the spacer must go under the domino, on {cell_text(ca)} or {cell_text(cb)}"
            )
        if i > j:
            i, j, fa, fb = j, i, fb, fa
        return tid, i, j, fa, fb, sp

    def _listed(self, action: Place) -> bool:
        """Whether ``action`` is one of the listed legal actions (the very object)."""
        legal = self.legal
        if legal is not None:
            for a in legal:
                if a is action:
                    return True
        return False

    def _apply_place(self, action: Place) -> None:
        seat = self.turn
        listed = self._listed(action)
        place = action
        if listed:  # checked when it was listed
            # (indexed, not unpacked: the compiled build unpacks nested tuples generically)
            faces, cells = action.faces, action.cells
            fa, fb = faces[0], faces[1]
            tid = self.tile_at[fa * FACES + fb]
            cols = self.geometry.cols
            i, j = cells[0][0] * cols + cells[0][1], cells[1][0] * cols + cells[1][1]
            level, points, used = self.tower.place(tid, i, j, fa, fb)
        else:
            tid, i, j, fa, fb, sp = self._where(action)
            reason = self.tower.explain(i, j, fa, fb, -1 if sp < 0 else sp)
            if reason is not None:
                raise IllegalActionError(f"{action.text} cannot go there: {reason}")
            level, points, used = self.tower.place(tid, i, j, fa, fb)
            place = Place(action.faces, action.cells, action.spacer, level, points)
        if used >= 0:
            self.spacers_used += 1
        self.hands[seat] = tuple([t for t in self.hands[seat] if t != tid])
        self.remaining &= ~(1 << tid)
        scores = self.scores
        scores[seat] = scores[seat] + points  # (an augmented item is generic once compiled)
        self.drawn_id = -1
        self.passes = 0
        self.legal = None
        self.events.append(Placed(seat, place, tuple(self.scores)))
        if not self.hands[seat]:
            self._end_domino(seat)
            return
        self.turn = (seat + 1) % self.n
        if self.early_block:
            self._check_early_block()

    def _apply_draw(self) -> None:
        seat = self.turn
        if self.drawn_id >= 0:
            raise IllegalActionError(
                f"seat {seat} has drawn already and must place {self.tiles[self.drawn_id]}"
            )
        if self._can_place():
            raise IllegalActionError(
                f"seat {seat} must place a tile instead of drawing: it can play"
                f" {self._playable_example()}"
            )
        if self.pos >= len(self.pile_ids):
            raise IllegalActionError("the pile is empty: a seat that cannot place passes")
        tid = self.pile_ids[self.pos]
        self.pos += 1
        self.hands[seat] = self.hands[seat] + (tid,)
        self.legal = None
        self.events.append(Drew(seat, self.tiles[tid], tuple(self.scores)))
        f = self.faces[tid]
        if self.tower.fits(f[0], f[1]):
            self.drawn_id = tid
            return
        self.turn = (seat + 1) % self.n
        if self.early_block:
            self._check_early_block()

    def _apply_pass(self) -> None:
        seat = self.turn
        if self.drawn_id >= 0:
            raise IllegalActionError(
                f"seat {seat} must place the tile it drew, {self.tiles[self.drawn_id]}"
            )
        if self._can_place():
            raise IllegalActionError(
                f"seat {seat} cannot pass: it can play {self._playable_example()}"
            )
        left = len(self.pile_ids) - self.pos
        if left:
            raise IllegalActionError(
                f"seat {seat} cannot pass: the pile has {left} tile{'s' if left > 1 else ''},"
                " so it must draw"
            )
        self.passes += 1
        self.legal = None
        self.events.append(Passed(seat, tuple(self.scores)))
        if self.passes >= self.n:
            self._end_block()
            return
        self.turn = (seat + 1) % self.n

    def _check_early_block(self) -> None:
        """``early_block``: end the hand as soon as no tile left in a hand or the pile fits
        anywhere (the tower stops at the first pair that takes one)."""
        if not self.tower.fits_any(self.table, self.remaining):
            self._end_block()

    # ---- end of hand and game ------------------------------------------------------------

    def _subtract(self, seat: int, amount: int) -> int:
        old = self.scores[seat]
        new = old - amount
        if not self.options.allow_negative and new < 0:
            new = 0 if old >= 0 else old
        self.scores[seat] = new
        return new - old

    def _end_domino(self, winner: int) -> None:
        award = sum(self.hand_value(s) for s in range(self.n) if s != winner)
        self.scores[winner] += award
        awards: tuple[int, ...] | None = None
        if self.options.losers_subtract_on_going_out:
            changes = [
                award if s == winner else self._subtract(s, self.hand_value(s))
                for s in range(self.n)
            ]
            awards = tuple(changes)
        self._finish_hand("domino", winner, award, awards)

    def _end_block(self) -> None:
        awards = tuple(self._subtract(s, self.hand_value(s)) for s in range(self.n))
        self._finish_hand("block", None, 0, awards)

    def _finish_hand(
        self, reason: str, winner: int | None, award: int, awards: tuple[int, ...] | None
    ) -> None:
        self.legal = None
        self.drawn_id = -1
        self._end_hand(reason, winner, award, awards)
        opts = self.options
        scores = self.scores
        top = max(scores)
        if opts.single_hand or top >= opts.target:
            leaders = [s for s in range(self.n) if scores[s] == top]
            if len(leaders) == 1:
                self._end_game(leaders[0])
            elif opts.tie_at_target == "shared_win":
                self._end_game(None, "shared_win")

    # ---- views ---------------------------------------------------------------------------

    def _observe(self, seat: int | None) -> HighriseObservation:
        """What ``seat`` may see (``None``: a spectator)."""
        setup = self.setup
        tiles = self.tiles
        current = self.current_seat
        legal = self.legal_actions() if seat is not None and seat == current else ()
        hand = None if seat is None or setup is None else self.hand(seat)
        drawn = self.drawn if seat is not None and seat == current else None
        tower = self.tower
        if setup is None:
            size = self.geometry.size
            faces: tuple[int, ...] = (0,) * size
            levels: tuple[int, ...] = (0,) * size
            tops: tuple[Tile, ...] = ()
            on_spacer: tuple[bool, ...] = (False,) * size
            wild: tuple[int, ...] = (0,) * size
            spacers = 0
        else:
            faces, levels = tuple(tower.face), tuple(tower.level)
            tops = tuple(tiles[d] for d in tower.dom)
            on_spacer, wild, spacers = tuple(tower.on_spacer), tuple(tower.wv), tower.spacers_left
        result = self._result
        return HighriseObservation(
            seat=seat,
            legal_actions=legal,
            num_seats=self.n,
            hand_number=self.hand_number,
            starter=None if setup is None else setup.starter,
            current_seat=current,
            base_layout=self.geometry.name,
            rows=self.geometry.rows,
            cols=self.geometry.cols,
            faces=faces,
            levels=levels,
            tops=tops,
            on_spacer=on_spacer,
            wild_values=wild,
            spacers_left=spacers,
            hand=hand,
            drawn=drawn,
            hand_sizes=tuple(len(h) for h in self.hands) if self.hands else (0,) * self.n,
            pile_size=len(self.pile_ids) - self.pos,
            scores=tuple(self.scores),
            target=self.options.target,
            is_over=result is not None,
            winner=None if result is None else result.winner,
            last_hand_end=self.last_hand_end,
            basement=() if setup is None else setup.basement,
            history=tuple((e.seat, e.seen_by(seat)) for e in self.events),
            options=self.options,
        )

    def hands_json(self) -> list[JSON]:
        """Every hand dealt: its set-up and events (RECORDS.md §4)."""
        hands: list[JSON] = []
        for setup, events in self.done:
            hands.append({**setup.to_json(), "events": [e.to_json() for e in events]})
        if self.setup is not None:
            hands.append({**self.setup.to_json(), "events": [e.to_json() for e in self.events]})
        return hands


__all__ = ["BASEMENT", "GAME_SPACERS", "HAND_SIZE", "HandSetup", "HighriseState"]
