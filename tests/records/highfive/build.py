"""Builds the T-H5 golden records (RULES §1.11). Run once; the outputs are committed.

Each vector's hand is written by hand (deal, boneyard, events). Vectors that need a situation
first (a winner's-advantage lead, a score of 140, a lock with given pips) get it from a prefix
found by seeded random play, searched here and then frozen in the record. The expected replay
output (``.jsonl``) is produced by the engine and then checked against the vector's own figures
in tests/games/highfive/test_vectors.py, so neither file confirms itself.

Usage: python -m tests.records.build highfive [NAME...] (tests/records/build.py writes the files)
"""

from __future__ import annotations

import random
from typing import Any

from boneyard.core.tiles import DOUBLE_SIX, Tile
from boneyard.games.highfive import HighFiveState

T = Tile.parse


def deal_for(
    hands: list[list[str]], boneyard_first: list[str], size: int
) -> tuple[list[list[str]], list[str]]:
    """Fill hands up to ``size`` with the lowest unused non-double tiles; the rest is the
    boneyard, starting with ``boneyard_first``."""
    used = {T(t) for h in hands for t in h} | {T(t) for t in boneyard_first}
    spare = [t for t in DOUBLE_SIX if t not in used and not t.is_double]
    doubles = [t for t in DOUBLE_SIX if t not in used and t.is_double]
    out = []
    for h in hands:
        h = list(h)
        while len(h) < size:
            h.append(str(spare.pop(0)))
        out.append(h)
    rest = boneyard_first + [str(t) for t in spare + doubles]
    return out, rest


def envelope(
    hands: list[dict[str, Any]], options: dict[str, Any] | None = None, seats: int = 2
) -> dict[str, Any]:
    return {
        "format": "boneyard-record/1",
        "game": "highfive",
        "options": options or {"preset": "box"},
        "seats": ["Ann", "Bob", "Cy", "Di"][:seats],
        "hands": hands,
        "meta": {"source": "RULES.md §1.11"},
    }


def hand(
    hands: list[list[str]],
    events: list[dict[str, Any]],
    boneyard_first: list[str] | None = None,
    size: int = 7,
) -> dict[str, Any]:
    deal, bone = deal_for(hands, boneyard_first or [], size)
    return {"deal": deal, "boneyard": bone, "events": events}


def play_random_hand(state: HighFiveState, rng: random.Random) -> None:
    state.deal_random(rng)
    while not (state.awaiting_deal or state.is_over):
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])


def find_prefix(
    players: int, want: Any, options: dict[str, Any] | None = None, tries: int = 200000
) -> list[dict[str, Any]]:
    """Hands of seeded random play, up to the first hand end where ``want(state)`` holds."""
    for seed in range(tries):
        rng = random.Random(seed)
        state = HighFiveState(players, options)
        while not state.is_over:
            play_random_hand(state, rng)
            if state.is_over:
                break
            if want(state):
                return state.record()["hands"]
            if len(state.record()["hands"]) > 40:
                break
    raise SystemExit("no prefix found")


def seat0_advantage(state: HighFiveState) -> bool:
    return state.advantage == 0 and max(state.scores) < 100


def build(write: Any, only: set[str]) -> None:
    """Every T-H5 record (``only`` is applied by the writer)."""

    def p(seat: int, tile: str, on: str | None = None, port: str | None = None) -> dict[str, Any]:
        event: dict[str, Any] = {"seat": seat, "play": tile}
        if on is not None:
            event["on"] = on
        if port is not None:
            event["port"] = port
        return event

    write(
        "t-h5-01",
        envelope(
            [
                hand(
                    [
                        ["5-5", "5-6", "2-3", "1-1", "1-2", "0-2", "2-6"],
                        ["0-5", "0-4", "1-4", "3-6", "0-0", "3-3", "0-6"],
                    ],
                    [
                        p(0, "5-5"),
                        p(1, "0-5", "5-5", "SIDE_A"),
                        p(0, "5-6", "5-5", "SIDE_B"),
                        p(1, "0-4", "0-5"),
                    ],
                    ["2-2", "1-3", "4-5"],
                )
            ]
        ),
    )
    write(
        "t-h5-02",
        envelope(
            [
                hand(
                    [["6-6", "6-4", "6-2"], ["6-3", "6-1"]],
                    [
                        p(0, "6-6"),
                        p(1, "6-3", "6-6", "SIDE_A"),
                        p(0, "6-4", "6-6", "SIDE_B"),
                        p(1, "6-1", "6-6", "END_A"),
                        p(0, "6-2", "6-6", "END_B"),
                    ],
                )
            ]
        ),
    )
    write(
        "t-h5-04",
        envelope(
            [
                hand(
                    [["6-6", "6-4", "3-5"], ["6-3", "3-3"]],
                    [
                        p(0, "6-6"),
                        p(1, "6-3", "6-6", "SIDE_A"),
                        p(0, "6-4", "6-6", "SIDE_B"),
                        p(1, "3-3", "6-3"),
                        p(0, "3-5", "3-3"),
                    ],
                )
            ]
        ),
    )
    write(
        "t-h5-05",
        envelope(
            [
                hand(
                    [["6-6", "3-3", "6-1"], ["6-3", "6-2", "1-3"]],
                    [
                        p(0, "6-6"),
                        p(1, "6-3", "6-6", "SIDE_A"),
                        p(0, "3-3", "6-3"),
                        p(1, "6-2", "6-6", "SIDE_B"),
                        p(0, "6-1", "6-6", "END_A"),
                        p(1, "1-3", "3-3"),
                    ],
                )
            ]
        ),
    )
    prefix = find_prefix(2, seat0_advantage)
    write(
        "t-h5-06",
        envelope(
            [
                *prefix,
                hand(
                    [["6-4", "4-1", "6-6"], ["4-4", "4-0", "4-2"]],
                    [
                        p(0, "6-4"),
                        p(1, "4-4", "6-4"),
                        p(0, "4-1", "4-4", "SIDE_B"),
                        p(1, "4-0", "4-4", "END_A"),
                        p(0, "6-6", "6-4"),
                        p(1, "4-2", "4-4", "END_B"),
                    ],
                ),
            ]
        ),
    )
    write(
        "t-h5-07",
        envelope(
            [
                *prefix,
                hand(
                    [["2-2", "2-5", "5-5", "4-4", "3-5"], ["2-6", "6-6", "2-4", "2-3"]],
                    [
                        p(0, "2-2"),
                        p(1, "2-6", "2-2", "SIDE_A"),
                        p(0, "2-5", "2-2", "SIDE_B"),
                        p(1, "6-6", "2-6"),
                        p(0, "5-5", "2-5"),
                        p(1, "2-4", "2-2", "END_A"),
                        p(0, "4-4", "2-4"),
                        p(1, "2-3", "2-2", "END_B"),
                        p(0, "3-5", "2-3"),
                    ],
                ),
            ]
        ),
    )
    write(
        "t-h5-08",
        envelope(
            [
                hand(
                    [["0-0", "1-2"], ["0-5", "3-4"]],
                    [p(0, "0-0"), p(1, "0-5", "0-0", "SIDE_A")],
                    ["1-1", "2-2", "3-3", "4-4", "5-5", "6-6"],
                )
            ]
        ),
    )
    write(
        "t-h5-13",
        envelope(
            [
                *prefix,
                hand(
                    [["6-4"], ["0-0", "0-1", "0-2", "0-3", "0-5", "1-1", "1-2"]],
                    [
                        p(0, "6-4"),
                        {"seat": 1, "draw": "2-2"},
                        {"seat": 1, "draw": "1-3"},
                        {"seat": 1, "draw": "5-6"},
                        p(1, "5-6", "6-4"),
                    ],
                    ["2-2", "1-3", "5-6"],
                ),
            ]
        ),
    )
    write(
        "t-h5-15",
        envelope(
            [
                hand(
                    [["6-3"], ["1-2"], ["0-1"], ["6-6"]],
                    [p(3, "6-6"), p(0, "6-3", "6-6", "SIDE_A")],
                    [],
                    5,
                )
            ],
            seats=4,
        ),
    )
    # T-H5-16: seat 0 at 140 with the lead next hand.
    at140 = find_prefix(
        2, lambda s: s.scores[0] == 140 and s.scores[1] < 140 and s.advantage in (0, None)
    )
    write(
        "t-h5-16",
        envelope(
            [
                *at140,
                hand(
                    [["6-6", "4-4"], ["6-4"]],
                    [p(0, "6-6"), p(1, "6-4", "6-6", "SIDE_A"), p(0, "4-4", "6-4")],
                ),
            ]
        ),
    )
    # T-H5-17: bogus draws under detect.
    bogus23 = [["6-6", "2-3", "2-4"], ["0-0", "0-1", "0-2", "1-1", "0-3", "1-2", "0-6"]]
    write(
        "t-h5-17a",
        envelope(
            [hand(bogus23, [p(0, "6-6"), {"seat": 1, "draw": "1-5"}], ["1-5"])],
            {"preset": "box", "enforcement": "detect", "bogus_grace": False},
        ),
    )
    bogus58 = [["6-6", "2-3", "2-4"], ["5-5", "5-6", "4-6", "4-5", "3-6", "3-5", "0-0"]]
    write(
        "t-h5-17b",
        envelope(
            [hand(bogus58, [p(0, "6-6"), {"seat": 1, "draw": "0-1"}], ["0-1"])],
            {"preset": "box", "enforcement": "detect", "bogus_grace": False},
        ),
    )
    write(
        "t-h5-17c",
        envelope(
            [hand(bogus23, [p(0, "6-6"), {"seat": 1, "draw": "1-5"}], ["1-5"])],
            {"preset": "pda", "enforcement": "detect"},
        ),
    )
    write(
        "t-h5-17d-grace",
        envelope(
            [
                hand(
                    bogus23,
                    [
                        p(0, "6-6"),
                        {"seat": 1, "draw": "1-5"},
                        {"seat": 1, "ruling": "DRAW_RETRACTED"},
                        p(1, "0-6", "6-6", "SIDE_A"),
                    ],
                    ["1-5"],
                )
            ],
            {"preset": "box", "enforcement": "detect"},
        ),
    )
    # T-H5-18: misdeals at a physical table.
    over = [["6-6", "5-6", "0-4", "5-5", "0-1", "0-2", "1-2", "2-2"], ["3-6"]]
    deal8, bone8 = deal_for(over[:1], [], 8)
    rest = list(bone8)
    deal_over = [deal8[0], rest[:7]]
    write(
        "t-h5-18a",
        envelope(
            [
                {
                    "deal": deal_over,
                    "boneyard": rest[7:],
                    "events": [{"seat": 0, "ruling": "MISDEAL_OVER"}],
                }
            ],
            {"preset": "pda", "enforcement": "tabletop"},
        ),
    )
    deal6 = [deal_over[0][:6], deal_over[1]]
    bone6 = deal_over[0][6:] + rest[7:]
    write(
        "t-h5-18b",
        envelope(
            [
                {
                    "deal": deal6,
                    "boneyard": bone6,
                    "events": [{"seat": 0, "ruling": "MISDEAL_UNDER"}, p(0, "6-6")],
                }
            ],
            {"preset": "pda", "enforcement": "tabletop"},
        ),
    )
    write(
        "t-h5-18c",
        envelope(
            [
                {
                    "deal": deal_over,
                    "boneyard": rest[7:],
                    "events": [
                        {"seat": 0, "ruling": "MISDEAL_OVER", "tiles": ["2-2"]},
                        p(0, "6-6"),
                    ],
                }
            ],
            {"preset": "box", "enforcement": "tabletop"},
        ),
    )
    write(
        "t-h5-18d",
        envelope(
            [
                {
                    "deal": deal6,
                    "boneyard": bone6,
                    "events": [{"seat": 0, "ruling": "MISDEAL_UNDER"}, p(0, "6-6")],
                }
            ],
            {"preset": "box", "enforcement": "tabletop"},
        ),
    )
    # Locks and domino bonuses: situations found by seeded random play, frozen as records.
    write("t-h5-09a", envelope(find_hand(3, lock_with(11, 13)), seats=3))
    write("t-h5-09b", envelope(find_hand(3, lock_with(11, 12)), seats=3))
    write("t-h5-10", envelope(find_hand(3, lock_with(12, 13)), seats=3))
    write("t-h5-12", envelope(find_hand(3, tied_lock(12)), seats=3))
    write("t-h5-11a", envelope(find_hand(2, domino_with(42))))
    write("t-h5-11b", envelope(find_hand(2, domino_with(32))))
    write("t-h5-14", envelope(find_hand(3, three_player_domino), seats=3))


def find_hand(players: int, want: Any, tries: int = 400000) -> list[dict[str, Any]]:
    """The first hand of a seeded random game that ends as ``want(state)`` asks."""
    rng = random.Random(12345)
    for _ in range(tries):
        state = HighFiveState(players)
        play_random_hand(state, rng)
        if len(state.hands_doc) == 1 and want(state):
            return state.record()["hands"]
    raise SystemExit("no hand found")


def hand_pips(state: HighFiveState) -> list[int]:
    from boneyard.games.fives.layout import pips_of_mask

    return [pips_of_mask(h) for h in state.hands]


def is_locked(state: HighFiveState) -> bool:
    return state.bpos == len(state.boneyard) and all(h for h in state.hands)


def lock_with(low: int, payer_pips: int) -> Any:
    def want(state: HighFiveState) -> bool:
        if not is_locked(state):
            return False
        pips = hand_pips(state)
        w = pips.index(min(pips))
        return pips.count(low) == 1 and pips[w] == low and pips[state.payer(w)] == payer_pips

    return want


def tied_lock(low: int) -> Any:
    def want(state: HighFiveState) -> bool:
        return is_locked(state) and sorted(hand_pips(state))[:2] == [low, low]

    return want


def domino_with(opp: int) -> Any:
    def want(state: HighFiveState) -> bool:
        pips = hand_pips(state)
        return sorted(pips) == [0, opp]

    return want


def three_player_domino(state: HighFiveState) -> bool:
    pips = hand_pips(state)
    return pips == [9, 0, 14]
