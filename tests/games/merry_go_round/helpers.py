"""Helpers for the Merry-Go-Round tests: records on disk, replay, and figures recounted from a
record without the engine (so golden files cannot confirm themselves)."""

from __future__ import annotations

import random
from typing import Any

from boneyard.core.tiles import DOUBLE_SIX, Tile
from boneyard.games.merry_go_round import MerryGoRoundState
from tests.games.golden import Golden, replay_error, replay_lines, replay_partial, replay_state

GAME = "merry-go-round"
GOLDEN = Golden(GAME)
RECORDS = GOLDEN.dir
golden_names = GOLDEN.names
load = GOLDEN.load
expected = GOLDEN.expected
T = Tile.parse

__all__ = [
    "RECORDS",
    "T",
    "all_tiles",
    "expected",
    "final_pips",
    "fixed_hand",
    "golden_names",
    "hand_ends",
    "load",
    "random_game",
    "replay_error",
    "replay_lines",
    "replay_partial",
    "replay_state",
    "state_with",
]


def hand_ends(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``hand_end`` lines."""
    return [x for x in lines if x.get("type") == "hand_end"]


def final_pips(record: dict[str, Any], hand: int) -> list[int]:
    """Each seat's pips at the end of a hand, recounted from the record alone:
    the deal, plus the tiles drawn, minus the tiles played."""
    h = record["hands"][hand]
    held = [{T(t) for t in d} for d in h["deal"]]
    for ev in h["events"]:
        if "play" in ev:
            held[ev["seat"]].remove(T(ev["play"]))
        elif "draw" in ev:
            held[ev["seat"]].add(T(ev["draw"]))
    return [sum(t.pips for t in tiles) for tiles in held]


def all_tiles() -> list[Tile]:
    """The double-six set."""
    return list(DOUBLE_SIX)


def fixed_hand(
    deal: list[list[str]], boneyard_first: list[str] | None = None, players: int | None = None
) -> tuple[list[list[Tile]], list[Tile]]:
    """A deal from some named tiles: hands filled to 7 with the lowest unused non-doubles, the
    boneyard starting with ``boneyard_first`` and holding the rest."""
    first = boneyard_first or []
    used = {T(t) for h in deal for t in h} | {T(t) for t in first}
    spare = [t for t in DOUBLE_SIX if t not in used and not t.is_double]
    doubles = [t for t in DOUBLE_SIX if t not in used and t.is_double]
    hands = []
    for h in deal:
        tiles = [T(t) for t in h]
        while len(tiles) < 7:
            tiles.append(spare.pop(0))
        hands.append(tiles)
    return hands, [T(t) for t in first] + spare + doubles


def state_with(
    deal: list[list[str]],
    boneyard_first: list[str] | None = None,
    options: dict[str, Any] | None = None,
    setter: int = 0,
) -> MerryGoRoundState:
    """A state whose first hand is dealt from named tiles, ``setter`` to set."""
    s = MerryGoRoundState(len(deal), {"first_setter": setter, **(options or {})})
    hands, bone = fixed_hand(deal, boneyard_first)
    s.deal_hand(hands, bone)
    return s


def random_game(
    players: int, options: dict[str, Any] | None, seed: int, max_hands: int | None = None
) -> MerryGoRoundState:
    """A game of random play (deals and moves from one seeded generator)."""
    rng = random.Random(seed)
    s = MerryGoRoundState(players, options)
    while not s.is_over:
        if s.awaiting_deal:
            if max_hands is not None and s.hands_dealt >= max_hands:
                break
            s.deal_random(rng)
            continue
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
    return s
