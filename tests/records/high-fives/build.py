"""Builds the High Fives golden records: ``python -m tests.records.build high-fives [NAME...]``
(tests/records/build.py writes NAME.json and its replay output NAME.jsonl).

The T-GF vector records are built by hand (a layout and the tiles the vector needs, the rest of
the set dealt in a fixed order); the others are seeded self-play. The tests replay every record
and compare with the ``.jsonl``; they also check the vector figures on their own, so these files
are not the only witness.
"""

from __future__ import annotations

import random
from typing import Any


def vector_record(
    layout: list[str],
    first_deal: list[list[str]],
    events: list[dict[str, Any]],
    *,
    seats: tuple[str, ...] = ("Ann", "Bob"),
    options: dict[str, Any] | None = None,
    leader: int = 0,
) -> dict[str, Any]:
    """A record whose first deal starts with ``first_deal[i]`` for seat ``i`` and whose layout is
    ``layout``; every other tile is dealt in a fixed shuffled order."""
    from boneyard.core.tiles import DOUBLE_FIFTEEN, Tile
    from boneyard.games.high_fives.rules import schedule

    n = len(seats)
    sched = schedule(n, (options or {}).get("remainder_timing", "with_last_deal"))
    named = {Tile.parse(t) for t in layout} | {Tile.parse(t) for h in first_deal for t in h}
    rest = [str(t) for t in DOUBLE_FIFTEEN if t not in named]
    random.Random(2024).shuffle(rest)
    deals = []
    for k, size in enumerate(sched.sizes):
        deal = []
        for i in range(n):
            hand = list(first_deal[i]) if k == 0 else []
            while len(hand) < size:
                hand.append(rest.pop())
            deal.append(hand)
        deals.append(deal)
    extra = [rest.pop() for _ in range(sched.extra)]
    assert not rest
    return {
        "format": "boneyard-record/1",
        "game": "high-fives",
        "options": dict(options or {}),
        "seats": list(seats),
        "hands": [
            {"leader": leader, "deals": deals, "layout": layout, "extra": extra, "events": events}
        ],
        "meta": {},
    }


def selfplay_record(
    players: int, options: dict[str, Any], seed: int, bots: tuple[str, ...] = ("greedy",)
) -> dict[str, Any]:
    """A whole seeded game between bots."""
    from boneyard.bots import make_bot
    from boneyard.games.high_fives import new_game
    from boneyard.games.registry import play_out

    rng = random.Random(seed)
    state = new_game(players, options)
    chosen = [make_bot(bots[i % len(bots)], random.Random(seed * 31 + i)) for i in range(players)]
    play_out(state, [b.choose for b in chosen], rng)
    rec = state.record()
    rec["seats"] = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:players]
    return rec


def one_pass_record(players: int, seed: int) -> dict[str, Any]:
    """One whole pass (target out of reach), greedy against random."""
    from boneyard.bots import make_bot
    from boneyard.games.high_fives import new_game

    rng = random.Random(seed)
    state = new_game(players, {"target": 1000, "first_leader": 0})
    bots = [make_bot("greedy" if i == 0 else "random", random.Random(seed + i)) for i in range(2)]
    state.deal_random(rng)
    while state.current_seat is not None:
        seat = state.current_seat
        state.apply(bots[seat % 2].choose(state.observation(seat)))
    rec = state.record()
    rec["seats"] = ["Ann", "Bob", "Cy", "Di"][:players]
    return rec


W5_LAYOUT = ["0-1", "1-2", "7-7", "8-9", "10-15"]


def records() -> dict[str, dict[str, Any]]:
    """Every golden record by file name (without extension)."""
    out: dict[str, dict[str, Any]] = {}
    out["t-gf-03-w5-line"] = vector_record(
        W5_LAYOUT,
        [["7-8"], []],
        [{"seat": 0, "play": "7-8", "capture": "8-9", "claim": ["0-1", "1-2"]}],
    )
    out["t-gf-03-capture-double"] = vector_record(
        W5_LAYOUT,
        [["7-8"], []],
        [{"seat": 0, "play": "7-8", "capture": "7-7", "claim": ["0-1", "1-2"]}],
    )
    out["t-gf-03-claim-only"] = vector_record(
        W5_LAYOUT,
        [["3-4"], []],
        [{"seat": 0, "play": "3-4", "claim": ["0-1", "1-2"]}],
    )
    out["t-gf-04-capture"] = vector_record(
        W5_LAYOUT, [["2-5"], []], [{"seat": 0, "play": "2-5", "capture": "1-2"}]
    )
    out["t-gf-04-claim"] = vector_record(
        W5_LAYOUT, [["2-5"], []], [{"seat": 0, "play": "2-5", "claim": ["0-1", "1-2"]}]
    )
    out["t-gf-05-no-match"] = vector_record(
        ["3-4", "6-9", "10-12", "0-13", "2-2"], [["5-8"], []], [{"seat": 0, "play": "5-8"}]
    )
    out["t-gf-06-best"] = vector_record(
        ["1-4", "4-4", "6-9", "11-12", "13-13"],
        [["12-15", "4-6"], ["13-14"]],
        [
            {"seat": 0, "play": "12-15", "capture": "11-12"},
            {"seat": 1, "play": "13-14", "capture": "13-13"},
            {"seat": 0, "play": "4-6", "capture": "6-9", "claim": ["1-4", "4-4"]},
        ],
    )
    t07_layout = ["5-10", "10-10", "3-12", "1-13", "14-14"]
    t07_start = [
        {"seat": 0, "play": "11-13", "capture": "1-13"},
        {"seat": 1, "play": "6-14", "capture": "14-14"},
    ]
    out["t-gf-07-capture-double"] = vector_record(
        t07_layout,
        [["11-13", "10-15"], ["6-14"]],
        [*t07_start, {"seat": 0, "play": "10-15", "capture": "10-10"}],
    )
    out["t-gf-07-claim"] = vector_record(
        t07_layout,
        [["11-13", "10-15"], ["6-14"]],
        [*t07_start, {"seat": 0, "play": "10-15", "claim": ["5-10", "10-10"]}],
    )
    out["t-gf-08-two-player-pass"] = one_pass_record(2, 8)
    out["game-3p-immediate"] = selfplay_record(3, {"target": 60}, 3)
    out["game-2p-end-of-pass"] = selfplay_record(
        2, {"target": 60, "win_check": "end_of_pass"}, 5, ("greedy", "random")
    )
    out["game-5p-variants"] = selfplay_record(
        5,
        {
            "target": 70,
            "capture_mandatory": False,
            "max_claims_per_turn": "unlimited",
            "claimable_pairs": "left_by_player",
            "capture_choice": "first_in_row",
            "remainder_timing": "short_final_deal",
            "leader_next_pass": "same",
            "first_leader": 2,
        },
        11,
        ("random", "greedy"),
    )
    out["game-7p-unlimited-claims"] = selfplay_record(
        7, {"target": 25, "max_claims_per_turn": "unlimited"}, 13
    )
    return out


def build(write: Any, only: set[str]) -> None:
    """Every record (``only`` is applied by the writer)."""
    for name, rec in records().items():
        write(name, rec)
