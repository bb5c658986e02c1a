"""The Highrise game state (RULES.md §4): actions, hand set-ups, observations and the rules engine.

>>> import random
>>> state = new_game(2, {})
>>> state.deal_random(random.Random(7))
>>> state.current_seat in (0, 1), len(state.observation(0).hand)
(True, 5)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.core.errors import BoneyardError, IllegalActionError, OptionError, check_seat
from boneyard.core.protocol import JSON, GameResult
from boneyard.core.records import FORMAT
from boneyard.core.tiles import WILD, Tile, TileSet
from boneyard.games.highrise.options import CARRY_OVER, HighriseOptions, build_highrise_options
from boneyard.games.highrise.tower import GEOMETRIES, Cell, Geometry, Tower, cell_text, face_text

GAME = "highrise"
HAND_SIZE = 5
BASEMENT = 8
GAME_SPACERS = 12
"""The spacers in the box: the whole-game supply under ``spacers_per_hand = "carry_over"``."""


def oriented_text(fa: int, fb: int) -> str:
    """A tile written face ``fa`` first (the orientation of a placement or basement slot).

    >>> oriented_text(3, 16)
    '3-W'
    """
    return f"{face_text(fa)}-{face_text(fb)}"


# --------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True, slots=True)
class Place:
    """Place a domino: ``faces[k]`` goes on ``cells[k]``; ``spacer`` is the cell that gets a clear
    spacer (``None`` if none). ``level`` and ``points`` are filled in on generated actions (they
    take no part in equality: the engine always computes them itself).

    >>> a = Place((16, 3), ((0, 1), (1, 1)))
    >>> a.to_event(), str(a.tile)
    ({'play': 'W-3', 'cells': [[0, 1], [1, 1]]}, 'W-3')
    """

    faces: tuple[int, int]
    cells: tuple[Cell, Cell]
    spacer: Cell | None = None
    level: int = field(default=0, compare=False)
    points: int = field(default=0, compare=False)

    @property
    def tile(self) -> Tile:
        """The domino placed."""
        return Tile.of(self.faces[0], self.faces[1])

    @property
    def text(self) -> str:
        """The tile as written in the record: the face on the first cell first."""
        return oriented_text(self.faces[0], self.faces[1])

    def to_event(self) -> JSON:
        """``{"play": "W-3", "cells": [[r, c], [r, c]], "spacer": [r, c]?}``."""
        ev: JSON = {"play": self.text, "cells": [list(self.cells[0]), list(self.cells[1])]}
        if self.spacer is not None:
            ev["spacer"] = list(self.spacer)
        return ev


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next pile tile (only when the seat cannot place). ``tile`` is known only to the
    state: it is set on the recorded action, ``None`` on the offered one.

    >>> Draw().to_event(), Draw(Tile(2, 3)).to_event()
    ({'draw': None}, {'draw': '2-3'})
    """

    tile: Tile | None = field(default=None, compare=False)

    def to_event(self) -> JSON:
        """``{"draw": "a-b"}`` (the tile drawn)."""
        return {"draw": None if self.tile is None else str(self.tile)}


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: only when the pile is empty and the seat cannot place.

    >>> Pass().to_event()
    {'pass': True}
    """

    def to_event(self) -> JSON:
        """``{"pass": true}``."""
        return {"pass": True}


Action = Place | Draw | Pass
_HIDDEN_DRAW = Draw()
"""Another seat's draw as an observation shows it (the tile is hidden)."""


# --------------------------------------------------------------------------------------------
# Hand set-up


@dataclass(frozen=True, slots=True)
class HandSetup:
    """A hand's starting position: the starter, the basement (``(upper face, lower face)`` per
    slot), each seat's five tiles and the draw pile in draw order."""

    starter: int
    basement: tuple[tuple[int, int], ...]
    deal: tuple[tuple[Tile, ...], ...]
    pile: tuple[Tile, ...]

    def to_json(self) -> JSON:
        """The record hand without its events."""
        return {
            "starter": self.starter,
            "basement": [oriented_text(u, lo) for u, lo in self.basement],
            "deal": [[str(t) for t in hand] for hand in self.deal],
            "pile": [str(t) for t in self.pile],
        }


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a hand ended (RECORDS §5 ``hand_end``)."""

    reason: str
    winner: int | None
    award: int
    awards: tuple[int, ...] | None
    scores: tuple[int, ...]

    def to_json(self, hand: int) -> JSON:
        """The replay line."""
        line: JSON = {
            "hand": hand,
            "type": "hand_end",
            "reason": self.reason,
            "winner": self.winner,
            "award": self.award,
        }
        if self.awards is not None:
            line["awards"] = list(self.awards)
        line["scores"] = list(self.scores)
        return line


@dataclass(frozen=True, slots=True)
class Logged:
    """One applied event of a hand, with what it did."""

    seat: int
    action: Action
    level: int
    points: int
    scores: tuple[int, ...]

    def to_event(self) -> JSON:
        """The record event."""
        return {"seat": self.seat, **self.action.to_event()}


# --------------------------------------------------------------------------------------------
# Observation


@dataclass(frozen=True, slots=True)
class HighriseObservation:
    """What one seat (``None``: a spectator) sees: the whole tower (public), its own hand, the
    other hands' sizes, the pile size, spacers and scores. Never another hand or the pile order."""

    seat: int | None
    legal_actions: tuple[Action, ...]
    num_seats: int
    hand_number: int
    starter: int | None
    current_seat: int | None
    base_layout: str
    rows: int
    cols: int
    faces: tuple[int, ...]
    """Top face of each cell (``cell = row * cols + col``)."""
    levels: tuple[int, ...]
    tops: tuple[Tile, ...]
    """The domino whose half is on top of each cell (public: it is face up)."""
    on_spacer: tuple[bool, ...]
    wild_values: tuple[int, ...]
    """What a wild placed on each cell would count."""
    spacers_left: int
    hand: tuple[Tile, ...] | None
    drawn: Tile | None
    """The tile this seat has just drawn and must place (only in its own view)."""
    hand_sizes: tuple[int, ...]
    pile_size: int
    scores: tuple[int, ...]
    target: int
    is_over: bool
    winner: int | None
    last_hand_end: HandEnd | None
    basement: tuple[tuple[int, int], ...] = ()
    """The current hand's basement, ``(upper face, lower face)`` per slot (public: face up)."""
    history: tuple[tuple[int, Action], ...] = ()
    """The current hand's events so far as ``(seat, action)``: placements in full, passes, and
    draws — with the tile drawn only for this seat's own draws (``Draw()`` for the others')."""
    options: HighriseOptions | None = None
    """The game's options (public)."""

    def _cell(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]

    def action_points(self, action: Any) -> int:
        """Points the placement scores at once (level × values); 0 for draws and passes."""
        if not isinstance(action, Place):
            return 0
        i, j = self._cell(action.cells[0]), self._cell(action.cells[1])
        level = max(self.levels[i], self.levels[j]) + 1
        fa, fb = action.faces
        va = self.wild_values[i] if fa == WILD else fa
        vb = self.wild_values[j] if fb == WILD else fb
        return level * (va + vb)

    def action_weight(self, action: Any) -> int:
        """The hand value of the placed tile (a wild half 7); -1 for draws and passes."""
        return action.tile.pips if isinstance(action, Place) else -1

    def to_json(self) -> JSON:
        """The JSON form sent to this seat's client."""
        return {
            "game": GAME,
            "seat": self.seat,
            "legal_actions": [a.to_event() for a in self.legal_actions],
            "num_seats": self.num_seats,
            "hand_number": self.hand_number,
            "starter": self.starter,
            "current_seat": self.current_seat,
            "base_layout": self.base_layout,
            "rows": self.rows,
            "cols": self.cols,
            "tower": [
                {
                    "cell": [k // self.cols, k % self.cols],
                    "face": face_text(self.faces[k]),
                    "level": self.levels[k],
                    "tile": str(self.tops[k]),
                    "spacer": self.on_spacer[k],
                }
                for k in range(len(self.faces))
            ],
            "spacers_left": self.spacers_left,
            "hand": None if self.hand is None else [str(t) for t in self.hand],
            "drawn": None if self.drawn is None else str(self.drawn),
            "hand_sizes": list(self.hand_sizes),
            "pile_size": self.pile_size,
            "scores": list(self.scores),
            "target": self.target,
            "is_over": self.is_over,
            "winner": self.winner,
        }


# --------------------------------------------------------------------------------------------
# State


class HighriseState:
    """One game of Highrise (all its hands). See :mod:`boneyard.core.protocol` for the contract."""

    __slots__ = (
        "_awaiting",
        "_by_faces",
        "_done",
        "_drawn",
        "_ends",
        "_events",
        "_faces",
        "_geo",
        "_hand_no",
        "_hands",
        "_legal",
        "_n",
        "_opts",
        "_passes",
        "_pile",
        "_pos",
        "_result",
        "_scores",
        "_seat",
        "_setup",
        "_spacers_used",
        "_tiles",
        "_tower",
        "_values",
        "seat_names",
    )

    def __init__(
        self, players: int, options: HighriseOptions, seat_names: Sequence[str] | None = None
    ) -> None:
        if not 2 <= players <= 4:
            raise OptionError(f"Highrise is for 2 to 4 players, not {players}")
        if isinstance(options.first_player, int) and options.first_player >= players:
            raise OptionError(
                f"option first_player cannot be seat {options.first_player} with {players} players"
            )
        self._opts = options
        self._n = players
        self.seat_names: tuple[str, ...] = (
            tuple(seat_names)
            if seat_names is not None
            else tuple(f"Player {i + 1}" for i in range(players))
        )
        if len(self.seat_names) != players:
            raise OptionError(f"{players} players need {players} seat names")
        self._tiles: TileSet = options.tile_set()
        self._faces: tuple[tuple[int, int], ...] = tuple((t.lo, t.hi) for t in self._tiles)
        self._values: tuple[int, ...] = tuple(t.pips for t in self._tiles)
        self._by_faces: dict[tuple[int, int], int] = {}
        for tid, (lo, hi) in enumerate(self._faces):
            self._by_faces[lo, hi] = self._by_faces[hi, lo] = tid
        self._geo: Geometry = GEOMETRIES[options.base_layout]
        self._scores = [0] * players
        self._done: list[tuple[HandSetup, tuple[Logged, ...]]] = []
        self._ends: list[HandEnd] = []
        self._hand_no = -1
        self._awaiting = True
        self._result: GameResult | None = None
        self._spacers_used = 0
        self._setup: HandSetup | None = None
        self._tower: Tower | None = None
        self._hands: list[list[int]] = []
        self._pile: list[int] = []
        self._pos = 0
        self._seat = -1
        self._drawn = -1
        self._passes = 0
        self._events: list[Logged] = []
        self._legal: tuple[Action, ...] | None = None

    # ---- protocol properties -------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Seat names written in the record (settable, like every game's ``names``)."""
        return list(self.seat_names)

    @names.setter
    def names(self, value: Sequence[str]) -> None:
        if len(value) != self._n:
            raise OptionError(f"{self._n} players need {self._n} seat names")
        self.seat_names = tuple(value)

    @property
    def game(self) -> str:
        """``highrise``."""
        return GAME

    @property
    def num_seats(self) -> int:
        """Player count."""
        return self._n

    @property
    def options(self) -> HighriseOptions:
        """The options of this game."""
        return self._opts

    @property
    def tileset(self) -> TileSet:
        """The 36 tiles in play."""
        return self._tiles

    @property
    def geometry(self) -> Geometry:
        """The base shape."""
        return self._geo

    @property
    def tower(self) -> Tower:
        """The current hand's tower (read it, never change it)."""
        if self._tower is None:
            raise BoneyardError("no hand has been dealt yet")
        return self._tower

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` while a deal is awaited or the game is over."""
        if self._awaiting or self._result is not None:
            return None
        return self._seat

    @property
    def awaiting_deal(self) -> bool:
        """True when the next hand needs its set-up."""
        return self._awaiting and self._result is None

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self._result is not None

    @property
    def hand_number(self) -> int:
        """The current (or last) hand, from 0; -1 before the first deal."""
        return self._hand_no

    @property
    def scores(self) -> tuple[int, ...]:
        """Running totals."""
        return tuple(self._scores)

    @property
    def hand_over(self) -> bool:
        """Whether the current hand has ended (or none has started)."""
        return self._awaiting or self._result is not None

    @property
    def events(self) -> tuple[Logged, ...]:
        """The events of the current hand so far."""
        return tuple(self._events)

    @property
    def last_hand_end(self) -> HandEnd | None:
        """How the last finished hand ended."""
        return self._ends[-1] if self._ends else None

    @property
    def drawn(self) -> Tile | None:
        """The tile the current seat drew and must place, if any."""
        return self._tiles.tiles[self._drawn] if self._drawn >= 0 else None

    @property
    def spacers_left(self) -> int:
        """Spacers left in the current hand."""
        return self.tower.spacers_left

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """A seat's tiles (full information: not for players)."""
        tiles = self._tiles.tiles
        return tuple(tiles[t] for t in self._hands[seat])

    def pile(self) -> tuple[Tile, ...]:
        """The tiles still in the pile, next first (full information)."""
        tiles = self._tiles.tiles
        return tuple(tiles[t] for t in self._pile[self._pos :])

    def hand_value(self, seat: int) -> int:
        """What a seat's tiles count (a wild half 7)."""
        values = self._values
        return sum(values[t] for t in self._hands[seat])

    # ---- dealing -------------------------------------------------------------------------

    def next_starter(self) -> int | None:
        """The starter the next hand must have (``None``: free, the first hand)."""
        if self._setup is None:
            fp = self._opts.first_player
            return fp if isinstance(fp, int) else None
        return (self._setup.starter + 1) % self._n

    def deal_random(self, rng: random.Random) -> None:
        """Deal the next hand: shuffle, fill the basement (random orientations), five each."""
        if not self.awaiting_deal:
            raise BoneyardError("the current hand is not over")
        order = list(self._tiles.tiles)
        rng.shuffle(order)
        basement = []
        for t in order[:BASEMENT]:
            basement.append((t.lo, t.hi) if rng.randrange(2) else (t.hi, t.lo))
        deal = tuple(
            tuple(order[BASEMENT + HAND_SIZE * s : BASEMENT + HAND_SIZE * (s + 1)])
            for s in range(self._n)
        )
        pile = tuple(order[BASEMENT + HAND_SIZE * self._n :])
        starter = self.next_starter()
        if starter is None:
            starter = rng.randrange(self._n)
        self.deal(HandSetup(starter, tuple(basement), deal, pile))

    def deal(self, setup: HandSetup) -> None:
        """Start the next hand from an explicit set-up (replay); raises :class:`BoneyardError`
        with a reason and changes nothing when the set-up is not a valid Highrise deal."""
        if not self.awaiting_deal:
            raise BoneyardError("the current hand is not over")
        self._check_setup(setup)
        tiles = self._tiles
        basement = []
        for upper, lower in setup.basement:
            basement.append((tiles.index(Tile.of(upper, lower)), upper, lower))
        opts = self._opts
        if opts.spacers_per_hand == CARRY_OVER:
            spacers = GAME_SPACERS - self._spacers_used
        else:
            assert isinstance(opts.spacers_per_hand, int)
            spacers = opts.spacers_per_hand
        if self._setup is not None:
            self._done.append((self._setup, tuple(self._events)))
        self._tower = Tower.from_basement(
            self._geo, basement, spacers, opts.wild_on_wild_value == 7
        )
        self._setup = setup
        self._hand_no += 1
        self._hands = [[tiles.index(t) for t in hand] for hand in setup.deal]
        self._pile = [tiles.index(t) for t in setup.pile]
        self._pos = 0
        self._seat = setup.starter
        self._drawn = -1
        self._passes = 0
        self._events = []
        self._legal = None
        self._awaiting = False
        if opts.early_block:
            self._check_early_block()

    def _check_setup(self, setup: HandSetup) -> None:
        n = self._n
        want = self.next_starter()
        if not (type(setup.starter) is int and 0 <= setup.starter < n):
            raise BoneyardError(f"starter must be a seat from 0 to {n - 1}, not {setup.starter!r}")
        if want is not None and setup.starter != want:
            if self._setup is None:
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
        seen: set[Tile] = set()
        everything = [Tile.of(u, lo) for u, lo in setup.basement]
        for hand in setup.deal:
            everything.extend(hand)
        everything.extend(setup.pile)
        for t in everything:
            if t not in self._tiles:
                raise BoneyardError(f"{t} is not a tile of the {self._tiles.name} set")
            if t in seen:
                raise BoneyardError(f"{t} is dealt twice")
            seen.add(t)
        missing = [str(t) for t in self._tiles if t not in seen]
        if missing:
            shown = ", ".join(missing[:6]) + (
                "" if len(missing) <= 6 else f" and {len(missing) - 6} more"
            )
            raise BoneyardError(f"the set-up leaves out {shown}")

    # ---- moves ---------------------------------------------------------------------------

    def _tile_faces(self, tids: Sequence[int]) -> list[tuple[int, int, int]]:
        faces = self._faces
        return [(t, faces[t][0], faces[t][1]) for t in tids]

    def raw_placements(self) -> list[tuple[int, int, int, int, int, int, int, int]]:
        """The current seat's legal placements as raw tuples (fast path for search)."""
        if self.hand_over:
            return []
        tids = [self._drawn] if self._drawn >= 0 else self._hands[self._seat]
        assert self._tower is not None
        return self._tower.placements(self._tile_faces(tids))

    def legal_actions(self) -> tuple[Action, ...]:
        """The current seat's legal actions: placements (of the drawn tile right after a draw),
        else the one draw, else the one pass; empty while a deal is awaited or the game is over."""
        if self._legal is not None:
            return self._legal
        if self.hand_over:
            return ()
        raw = self.raw_placements()
        if raw:
            cells = self._geo.cells
            self._legal = tuple(
                [
                    Place((fa, fb), (cells[i], cells[j]), None if sp < 0 else cells[sp], lvl, pts)
                    for (_, i, j, fa, fb, sp, lvl, pts) in raw
                ]
            )
        elif self._pos < len(self._pile):
            self._legal = (Draw(),)
        else:
            self._legal = (Pass(),)
        return self._legal

    def _can_place(self) -> bool:
        if self._legal is not None:
            return isinstance(self._legal[0], Place)
        tids = [self._drawn] if self._drawn >= 0 else self._hands[self._seat]
        assert self._tower is not None
        return self._tower.any_fits(self._tile_faces(tids))

    def _playable_example(self) -> str:
        raw = self.raw_placements()
        tiles = sorted({self._tiles.tiles[p[0]] for p in raw})
        return ", ".join(str(t) for t in tiles)

    def apply(self, action: Any) -> None:
        """Apply an action of the current seat; raises :class:`IllegalActionError` (nothing
        changed) when the rules forbid it."""
        if self._result is not None:
            raise IllegalActionError("the game is over")
        if self._awaiting:
            raise IllegalActionError("the hand is over: the next hand must be dealt first")
        if isinstance(action, Place):
            self._apply_place(action)
        elif isinstance(action, Draw):
            self._apply_draw()
        elif isinstance(action, Pass):
            self._apply_pass()
        else:
            raise IllegalActionError(f"{action!r} is not a Highrise action")

    def _apply_place(self, action: Place) -> None:
        geo = self._geo
        tower = self._tower
        assert tower is not None
        seat = self._seat
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
        tid = self._by_faces.get((fa, fb), -1)
        if tid < 0:
            try:
                tile = Tile.of(fa, fb)
            except BoneyardError as exc:
                raise IllegalActionError(str(exc)) from None
            raise IllegalActionError(f"{tile} is not a tile of the {self._tiles.name} set")
        tile = self._tiles.tiles[tid]
        if self._drawn >= 0 and tid != self._drawn:
            raise IllegalActionError(
                f"seat {seat} must place the tile it drew, {self._tiles.tiles[self._drawn]}"
            )
        if tid not in self._hands[seat]:
            raise IllegalActionError(f"seat {seat} does not hold {tile}")
        if sp >= 0 and sp not in (i, j):
            raise IllegalActionError(
                f"the spacer must go under the domino, on {cell_text(ca)} or {cell_text(cb)}"
            )
        if i > j:
            i, j, fa, fb = j, i, fb, fa
        reason = tower.explain(i, j, fa, fb, -1 if sp < 0 else sp)
        if reason is not None:
            raise IllegalActionError(f"{action.text} cannot go there: {reason}")
        level, points, used = tower.place(tid, i, j, fa, fb)
        if used >= 0:
            self._spacers_used += 1
        self._hands[seat].remove(tid)
        self._scores[seat] += points
        self._drawn = -1
        self._passes = 0
        self._legal = None
        self._events.append(
            Logged(
                seat,
                Place(action.faces, action.cells, action.spacer, level, points),
                level,
                points,
                tuple(self._scores),
            )
        )
        if not self._hands[seat]:
            self._end_domino(seat)
            return
        self._seat = (seat + 1) % self._n
        if self._opts.early_block:
            self._check_early_block()

    def _apply_draw(self) -> None:
        seat = self._seat
        if self._drawn >= 0:
            raise IllegalActionError(
                f"seat {seat} has drawn already and must place {self._tiles.tiles[self._drawn]}"
            )
        if self._can_place():
            raise IllegalActionError(
                f"seat {seat} must place a tile instead of drawing: it can play"
                f" {self._playable_example()}"
            )
        if self._pos >= len(self._pile):
            raise IllegalActionError("the pile is empty: a seat that cannot place passes")
        tid = self._pile[self._pos]
        self._pos += 1
        self._hands[seat].append(tid)
        self._legal = None
        self._events.append(Logged(seat, Draw(self._tiles.tiles[tid]), 0, 0, tuple(self._scores)))
        f0, f1 = self._faces[tid]
        assert self._tower is not None
        if self._tower.fits(f0, f1):
            self._drawn = tid
            return
        self._seat = (seat + 1) % self._n
        if self._opts.early_block:
            self._check_early_block()

    def _apply_pass(self) -> None:
        seat = self._seat
        if self._drawn >= 0:
            raise IllegalActionError(
                f"seat {seat} must place the tile it drew, {self._tiles.tiles[self._drawn]}"
            )
        if self._can_place():
            raise IllegalActionError(
                f"seat {seat} cannot pass: it can play {self._playable_example()}"
            )
        left = len(self._pile) - self._pos
        if left:
            raise IllegalActionError(
                f"seat {seat} cannot pass: the pile has {left} tile{'s' if left > 1 else ''},"
                " so it must draw"
            )
        self._passes += 1
        self._legal = None
        self._events.append(Logged(seat, Pass(), 0, 0, tuple(self._scores)))
        if self._passes >= self._n:
            self._end_block()
            return
        self._seat = (seat + 1) % self._n

    def _check_early_block(self) -> None:
        """``early_block``: end the hand as soon as no remaining tile fits anywhere."""
        tids = [t for hand in self._hands for t in hand] + self._pile[self._pos :]
        assert self._tower is not None
        if not self._tower.any_fits(self._tile_faces(tids)):
            self._end_block()

    # ---- end of hand and game ------------------------------------------------------------

    def _subtract(self, seat: int, amount: int) -> int:
        old = self._scores[seat]
        new = old - amount
        if not self._opts.allow_negative and new < 0:
            new = 0 if old >= 0 else old
        self._scores[seat] = new
        return new - old

    def _end_domino(self, winner: int) -> None:
        award = sum(self.hand_value(s) for s in range(self._n) if s != winner)
        self._scores[winner] += award
        awards: tuple[int, ...] | None = None
        if self._opts.losers_subtract_on_going_out:
            changes = [
                award if s == winner else self._subtract(s, self.hand_value(s))
                for s in range(self._n)
            ]
            awards = tuple(changes)
        self._finish_hand(HandEnd("domino", winner, award, awards, tuple(self._scores)))

    def _end_block(self) -> None:
        awards = tuple(self._subtract(s, self.hand_value(s)) for s in range(self._n))
        self._finish_hand(HandEnd("block", None, 0, awards, tuple(self._scores)))

    def _finish_hand(self, end: HandEnd) -> None:
        self._ends.append(end)
        self._awaiting = True
        self._legal = None
        self._drawn = -1
        opts = self._opts
        scores = self._scores
        top = max(scores)
        if opts.single_hand or top >= opts.target:
            leaders = [s for s in range(self._n) if scores[s] == top]
            if len(leaders) == 1:
                self._result = GameResult(leaders[0], tuple(scores), "target")
            elif opts.tie_at_target == "shared_win":
                self._result = GameResult(None, tuple(scores), "shared_win")

    def result(self) -> GameResult | None:
        """The result once the game is over, else ``None``."""
        return self._result

    def game_end_line(self) -> JSON | None:
        """The replay ``game_end`` line once the game is over."""
        if self._result is None:
            return None
        line: JSON = {"type": "game_end", "winner": self._result.winner}
        if self._result.winner is None:
            top = max(self._result.scores)
            line["winners"] = [s for s, v in enumerate(self._result.scores) if v == top]
        line["scores"] = list(self._result.scores)
        return line

    # ---- views ---------------------------------------------------------------------------

    def observation(self, seat: int | None) -> HighriseObservation:
        """What ``seat`` may see (``None``: a spectator)."""
        check_seat(seat, self._n)
        tower = self._tower
        tiles = self._tiles.tiles
        current = self.current_seat
        legal = self.legal_actions() if seat is not None and seat == current else ()
        hand = None if seat is None or tower is None else self.hand(seat)
        drawn = self.drawn if seat is not None and seat == current else None
        if tower is None:
            size = self._geo.size
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
        return HighriseObservation(
            seat=seat,
            legal_actions=legal,
            num_seats=self._n,
            hand_number=self._hand_no,
            starter=None if self._setup is None else self._setup.starter,
            current_seat=current,
            base_layout=self._geo.name,
            rows=self._geo.rows,
            cols=self._geo.cols,
            faces=faces,
            levels=levels,
            tops=tops,
            on_spacer=on_spacer,
            wild_values=wild,
            spacers_left=spacers,
            hand=hand,
            drawn=drawn,
            hand_sizes=tuple(len(h) for h in self._hands) if self._hands else (0,) * self._n,
            pile_size=len(self._pile) - self._pos,
            scores=tuple(self._scores),
            target=self._opts.target,
            is_over=self._result is not None,
            winner=None if self._result is None else self._result.winner,
            last_hand_end=self.last_hand_end,
            basement=() if self._setup is None else self._setup.basement,
            history=tuple(
                (e.seat, _HIDDEN_DRAW)
                if type(e.action) is Draw and e.seat != seat
                else (e.seat, e.action)
                for e in self._events
            ),
            options=self._opts,
        )

    def record(self) -> JSON:
        """The game so far as a ``boneyard-record/1`` document."""
        hands: list[JSON] = []
        for setup, events in self._done:
            hands.append({**setup.to_json(), "events": [e.to_event() for e in events]})
        if self._setup is not None:
            hands.append({**self._setup.to_json(), "events": [e.to_event() for e in self._events]})
        return {
            "format": FORMAT,
            "game": GAME,
            "options": self._opts.to_json(),
            "seats": list(self.seat_names),
            "hands": hands,
        }

    def copy(self) -> HighriseState:
        """An independent copy (for search)."""
        c = HighriseState.__new__(HighriseState)
        c._opts = self._opts
        c._n = self._n
        c.seat_names = self.seat_names
        c._tiles = self._tiles
        c._faces = self._faces
        c._values = self._values
        c._by_faces = self._by_faces
        c._geo = self._geo
        c._scores = self._scores[:]
        c._done = self._done[:]
        c._ends = self._ends[:]
        c._hand_no = self._hand_no
        c._awaiting = self._awaiting
        c._result = self._result
        c._spacers_used = self._spacers_used
        c._setup = self._setup
        c._tower = None if self._tower is None else self._tower.copy()
        c._hands = [h[:] for h in self._hands]
        c._pile = self._pile
        c._pos = self._pos
        c._seat = self._seat
        c._drawn = self._drawn
        c._passes = self._passes
        c._events = self._events[:]
        c._legal = self._legal
        return c


def new_game(
    players: int, options: Mapping[str, Any] | None = None, seat_names: Sequence[str] | None = None
) -> HighriseState:
    """A fresh game awaiting its first deal; raises :class:`OptionError` on bad options."""
    return HighriseState(players, build_highrise_options(options), seat_names)
