"""Shared helpers for the Highrise tests: positions built directly, and a slow reference model.

The reference model follows RULES.md §4.2–4.4 literally (full stacks with spacer entries, every
ordered pair of cells, every orientation) and shares no code with the engine's fast tower, so
comparing the two checks the engine's move generation and scoring.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.core.records import Record, record_from_json
from boneyard.core.tiles import HIGHRISE_36, WILD, Tile, TileSet, parse_halves
from boneyard.games.highrise import (
    GEOMETRIES,
    Draw,
    HandSetup,
    HighriseState,
    Pass,
    Place,
    Tower,
    new_game,
)
from tests.games.golden import Golden, replay_error, replay_lines, replay_partial, replay_state

GAME = "highrise"
GOLDEN = Golden(GAME)
RECORDS = GOLDEN.dir
golden_names = GOLDEN.names
load = GOLDEN.load
expected = GOLDEN.expected
P = HIGHRISE_36.parse
W = WILD

T14_BASEMENT = ["5-1", "2-3", "4-6", "W-0", "3-3", "6-2", "1-4", "5-6"]
T15_DEAL = [["5-2", "W-3", "0-0", "1-2", "4-5"], ["3-6", "W-6", "0-1", "2-2", "6-6"]]

BUNDLES: list[dict[str, Any]] = [
    {},
    {"base_layout": "2x8_one_row"},
    {"wild_on_wild_value": "inherit"},
    {"losers_subtract_on_going_out": True, "allow_negative": False},
    {"tie_at_target": "shared_win", "target": 60},
    {"first_player": 1},
    {"first_player": "random", "spacers_per_hand": "carry_over"},
    {"spacers_per_hand": 0},
    {"spacers_per_hand": 3, "early_block": True},
    {"early_block": True, "base_layout": "2x8_one_row", "wild_on_wild_value": "inherit"},
    {"single_hand": True},
    {"single_hand": True, "tie_at_target": "shared_win"},
    {"target": 100, "allow_negative": False},
    # a double-seven set has no wilds: hands mostly block and totals drift down, so a game to a
    # target may never end; play it as a single hand
    {"tileset": [f"{a}-{b}" for a in range(8) for b in range(a, 8)], "single_hand": True},
]
"""Option bundles for self-play: every §6.4 option in at least one non-default value."""

__all__ = [
    "BUNDLES",
    "RECORDS",
    "T14_BASEMENT",
    "T15_DEAL",
    "RefGame",
    "RefTower",
    "dealt",
    "engine_placements",
    "expected",
    "golden_names",
    "load",
    "load_record",
    "make_setup",
    "perft",
    "place",
    "random_hand",
    "replay_error",
    "replay_lines",
    "replay_partial",
    "replay_state",
    "tower_from_stacks",
]


def load_record(name: str) -> Record:
    """A golden record, parsed."""
    return record_from_json(load(name))


def make_setup(
    deal: Sequence[Sequence[str]],
    starter: int = 0,
    basement: Sequence[str] = tuple(T14_BASEMENT),
    pile: Sequence[str] | None = None,
    tileset: TileSet = HIGHRISE_36,
) -> HandSetup:
    """A hand set-up from tile strings; the pile defaults to the rest in set order."""
    hands = tuple(tuple(tileset.parse(t) for t in h) for h in deal)
    if pile is None:
        used = {Tile.of(*parse_halves(t)) for t in basement} | {t for h in hands for t in h}
        rest = tuple(t for t in tileset if t not in used)
    else:
        rest = tuple(tileset.parse(t) for t in pile)
    return HandSetup(starter, tuple(parse_halves(t) for t in basement), hands, rest)


def dealt(deal: Sequence[Sequence[str]], players: int = 2, **options: Any) -> HighriseState:
    """A game with its first hand dealt on the T-HR-14 basement."""
    state = new_game(players, options)
    state.deal_hand(make_setup(deal))
    return state


def place(text: str, a: tuple[int, int], b: tuple[int, int], spacer: Any = None) -> Place:
    """A placement: the first written face on cell ``a``."""
    return Place(parse_halves(text), (a, b), spacer)


# --------------------------------------------------------------------------------------------
# Positions built directly (RULES §4.5 notation: "B1:5@0", "D1:W@1", "S@1" for a spacer)


def parse_entry(text: str, names: dict[str, int]) -> tuple[str, int, int, int]:
    if text.startswith("S@"):
        return ("S", -1, 0, int(text[2:]))
    name, rest = text.split(":")
    face, level = rest.split("@")
    dom = names.setdefault(name, 1000 + len(names))
    return ("H", dom, W if face == "W" else int(face), int(level))


def tower_from_stacks(
    stacks: dict[tuple[int, int], list[str]],
    spacers_left: int = 12,
    literal: bool = True,
    layout: str = "4x4_two_rows",
) -> Tower:
    """A tower whose listed cells have the given stacks; every other cell holds its own dummy
    basement domino with face 0 at a high level, out of reach of the listed cells."""
    geo = GEOMETRIES[layout]
    tower = Tower(geo, spacers_left, literal)
    names: dict[str, int] = {}
    for k in range(geo.size):
        tower.set_top(k, 2000 + k, 0, 50)
    for cell, entries in stacks.items():
        parsed = [parse_entry(e, names) for e in entries]
        halves = [e for e in parsed if e[0] == "H"]
        top = halves[-1]
        tower.set_top(geo.index(cell), top[1], top[2], parsed[-1][3])
    return tower


# --------------------------------------------------------------------------------------------
# Reference model


@dataclass
class Half:
    dom: int
    face: int
    level: int
    value: int  # what a wild on it counts under "inherit"


@dataclass
class Spacer:
    level: int


class RefTower:
    """Full stacks; legality checked rule by rule from RULES §4.3."""

    def __init__(
        self,
        layout: str,
        basement: Sequence[tuple[int, int]],
        spacers: int,
        literal: bool,
        tileset: TileSet = HIGHRISE_36,
    ) -> None:
        geo = GEOMETRIES[layout]
        self.rows, self.cols = geo.rows, geo.cols
        self.stacks: dict[tuple[int, int], list[Half | Spacer]] = {}
        for k, (u, lo) in enumerate(basement):
            upper, lower = geo.slots[k]
            dom = tileset.index(Tile.of(u, lo))
            for cell, face in ((upper, u), (lower, lo)):
                value = 7 if face == W else face
                self.stacks[divmod(cell, self.cols)] = [Half(dom, face, 0, value)]
        self.spacers_left = spacers
        self.literal = literal
        self.tileset = tileset

    def top_half(self, cell: tuple[int, int]) -> Half:
        for e in reversed(self.stacks[cell]):
            if isinstance(e, Half):
                return e
        raise AssertionError("a stack without a half")

    def surface(self, cell: tuple[int, int]) -> int:
        return self.stacks[cell][-1].level

    def value(self, face: int, cell: tuple[int, int]) -> int:
        if face != W:
            return face
        covered = self.top_half(cell)
        if covered.face != W:
            return covered.face
        return 7 if self.literal else covered.value

    def placements(self, tiles: Iterable[Tile]) -> dict[Any, tuple[int, int]]:
        """``{(tile, frozenset({(cell, face), (cell, face)}), spacer cell): (level, points)}``."""
        out: dict[Any, tuple[int, int]] = {}
        cells = [(r, c) for r in range(self.rows) for c in range(self.cols)]
        for tile in tiles:
            for a in cells:
                for b in cells:
                    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                        continue
                    for fa, fb in ((tile.lo, tile.hi), (tile.hi, tile.lo)):
                        found = self.check(a, b, fa, fb)
                        if found is not None:
                            spacer, level, points = found
                            key = (tile, frozenset({(a, fa), (b, fb)}), spacer)
                            assert out.get(key, (level, points)) == (level, points)
                            out[key] = (level, points)
        return out

    def check(self, a: tuple[int, int], b: tuple[int, int], fa: int, fb: int) -> Any:
        ha, hb = self.top_half(a), self.top_half(b)
        if ha.dom == hb.dom:
            return None
        sa, sb = self.surface(a), self.surface(b)
        if abs(sa - sb) > 1:
            return None
        spacer = None
        if sa != sb:
            if self.spacers_left < 1:
                return None
            spacer = a if sa < sb else b
        for f, h in ((fa, ha), (fb, hb)):
            if not (f == h.face or f == W or h.face == W):
                return None
        level = max(sa, sb) + 1
        return spacer, level, level * (self.value(fa, a) + self.value(fb, b))

    def apply(self, tile: Tile, a: tuple[int, int], b: tuple[int, int], fa: int, fb: int) -> int:
        found = self.check(a, b, fa, fb)
        assert found is not None
        spacer, level, points = found
        if spacer is not None:
            self.stacks[spacer].append(Spacer(level - 1))
            self.spacers_left -= 1
        dom = self.tileset.index(tile)
        values = [self.value(fa, a), self.value(fb, b)]
        for cell, face, v in ((a, fa, values[0]), (b, fb, values[1])):
            self.stacks[cell].append(Half(dom, face, level, v))
        return int(points)


def engine_placements(actions: Iterable[Any]) -> dict[Any, tuple[int, int]]:
    """The engine's placements keyed like :meth:`RefTower.placements`."""
    out: dict[Any, tuple[int, int]] = {}
    for a in actions:
        if isinstance(a, Place):
            key = (a.tile, frozenset(zip(a.cells, a.faces, strict=True)), a.spacer)
            assert key not in out, f"{a} is listed twice"
            out[key] = (a.level, a.points)
    return out


class RefGame:
    """One hand under the literal turn rules (RULES §4.4), on the reference tower, brought to
    the state's position by replaying its events."""

    def __init__(self, state: HighriseState) -> None:
        setup = state.setup
        assert setup is not None
        opts = state.options
        spacers = state.tower.spacers_left + sum(
            1 for e in state.events if isinstance(e.action, Place) and e.action.spacer is not None
        )
        self.tower = RefTower(
            opts.base_layout, setup.basement, spacers, opts.wild_on_wild_value == 7, state.tileset
        )
        self.hands = [list(h) for h in setup.deal]
        self.pile = list(setup.pile)
        self.seat = setup.starter
        self.n = len(self.hands)
        self.drawn: Tile | None = None
        self.passes = 0
        self.over = False
        for logged in state.events:
            self.apply(logged.action)

    def legal(self) -> dict[Any, tuple[int, int]] | str:
        """Placements, or ``"draw"``/``"pass"``."""
        tiles = [self.drawn] if self.drawn is not None else self.hands[self.seat]
        places = self.tower.placements(tiles)
        if places:
            return places
        return "draw" if self.pile else "pass"

    def apply(self, action: Any) -> None:
        if isinstance(action, Place):
            tile = action.tile
            (a, b), (fa, fb) = action.cells, action.faces
            self.tower.apply(tile, a, b, fa, fb)
            self.hands[self.seat].remove(tile)
            self.drawn = None
            self.passes = 0
            if not self.hands[self.seat]:
                self.over = True
                return
            self.seat = (self.seat + 1) % self.n
        elif isinstance(action, Draw):
            tile = self.pile.pop(0)
            self.hands[self.seat].append(tile)
            if self.tower.placements([tile]):
                self.drawn = tile
            else:
                self.seat = (self.seat + 1) % self.n
        elif isinstance(action, Pass):
            self.passes += 1
            if self.passes == self.n:
                self.over = True
            else:
                self.seat = (self.seat + 1) % self.n


def perft(state: HighriseState, depth: int) -> int:
    """Leaf count of the game tree ``depth`` actions deep (stopping at the end of the hand)."""
    if depth == 0 or state.hand_over:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def random_hand(state: HighriseState, rng: random.Random) -> list[Any]:
    """Play the current hand to its end with random legal actions; returns the actions."""
    taken = []
    while not state.hand_over:
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        state.apply(action)
        taken.append(action)
    return taken
