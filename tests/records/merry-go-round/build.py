"""Builds the T-MG golden records (RULES §2.7). Run once; the outputs are committed.

Hands that are easy to write (the cross, the set with draws, the set passing left) are written
here by hand. Situations that need a whole hand played out first (a domino against given pips, a
blocked hand with given pips, a side on 59) are found by seeded random play, searched here and
frozen in the record. The expected replay output (``.jsonl``) is produced by the engine and then
checked against the vector's own figures in tests/games/merry_go_round/test_vectors.py (pips recounted
from the record, not from the engine), so neither file confirms itself.

Usage: python -m tests.records.build merry-go-round [NAME...] (tests/records/build.py writes the
files; a NAME builds only that record, which matters: some searches take minutes)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from boneyard.bots import GreedyBot
from boneyard.core.tiles import DOUBLE_SIX, Tile
from boneyard.games.fives.events import Placed
from boneyard.games.fives.layout import pips_of_mask
from boneyard.games.merry_go_round import MerryGoRoundState

T = Tile.parse
SEATS = ["Ann", "Bob", "Cy", "Di"]
Want = Callable[[MerryGoRoundState, dict[str, Any], list[int]], bool]


def envelope(
    hands: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    seats: int = 2,
    source: str = "RULES.md §2.7",
) -> dict[str, Any]:
    return {
        "format": "boneyard-record/1",
        "game": "merry-go-round",
        "options": options or {},
        "seats": SEATS[:seats],
        "hands": hands,
        "meta": {"source": source},
    }


def hand(
    deal: list[list[str]], events: list[dict[str, Any]], boneyard_first: list[str]
) -> dict[str, Any]:
    """Fill every hand to 7 with the lowest unused tiles; the rest is the boneyard."""
    used = {T(t) for h in deal for t in h} | {T(t) for t in boneyard_first}
    spare = [t for t in DOUBLE_SIX if t not in used and not t.is_double]
    doubles = [t for t in DOUBLE_SIX if t not in used and t.is_double]
    out = []
    for h in deal:
        h = list(h)
        while len(h) < 7:
            h.append(str(spare.pop(0)))
        out.append(h)
    return {
        "deal": out,
        "boneyard": boneyard_first + [str(t) for t in spare + doubles],
        "events": events,
    }


def p(seat: int, tile: str, on: str | None = None, port: str | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"seat": seat, "play": tile}
    if on is not None:
        ev["on"] = on
    if port is not None:
        ev["port"] = port
    return ev


def play_hand(state: MerryGoRoundState, rng: random.Random, greedy: bool) -> dict[str, Any]:
    """Deal and play one hand; return its hand_end line."""
    state.deal_random(rng)
    bots = [GreedyBot(rng) for _ in range(state.n)]
    while state.in_hand:
        if greedy:
            state.apply(bots[state.turn].choose(state.observation(state.turn)))
        else:
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
    return state.ends[-1].to_json()


def find(
    players: int,
    want: Want,
    options: dict[str, Any] | None = None,
    *,
    whole_games: bool = False,
    greedy: bool = False,
    tries: int = 300000,
) -> list[dict[str, Any]]:
    """Hands of seeded random play up to the first hand end where ``want`` holds.

    ``want(state, hand_end_line, pips)`` sees the state just after the hand ended. Without
    ``whole_games`` only first hands are tried.
    """
    rng = random.Random(2024)
    for _ in range(tries):
        state = MerryGoRoundState(players, options, SEATS[:players])
        while not state.is_over:
            end = play_hand(state, rng, greedy)
            pips = [pips_of_mask(h) for h in state.hands]
            if want(state, end, pips):
                return state.record()["hands"]
            if not whole_games:
                break
    raise SystemExit("no hand found")


def domino(opp_pips: int) -> Want:
    return lambda s, e, pips: e["reason"] == "domino" and sorted(pips) == [0, opp_pips]


def block(want_pips: list[int]) -> Want:
    return lambda s, e, pips: e["reason"] == "block" and sorted(pips) == want_pips


def hand_written() -> dict[str, dict[str, Any]]:
    """The vectors written out by hand."""
    out: dict[str, dict[str, Any]] = {}
    # T-MG-01: the cross, sides then ends, then free play.
    out["t-mg-01"] = envelope(
        [
            hand(
                [["5-5", "5-6", "3-5"], ["0-5", "4-5", "0-2"]],
                [
                    p(0, "5-5"),
                    p(1, "0-5", "5-5", "SIDE_A"),
                    p(0, "5-6", "5-5", "SIDE_B"),
                    p(1, "4-5", "5-5", "END_A"),
                    p(0, "3-5", "5-5", "END_B"),
                    p(1, "0-2", "0-5"),
                ],
                [],
            )
        ]
    )
    # T-MG-09: the setter draws for a double (3-4 kept, then 1-1) and sets it; the next seat
    # plays on a side.
    out["t-mg-09"] = envelope(
        [
            hand(
                [
                    ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2"],
                    ["1-3", "1-4", "1-5", "1-6", "2-3", "2-4", "2-5"],
                ],
                [
                    {"seat": 0, "draw": "3-4"},
                    {"seat": 0, "draw": "1-1"},
                    p(0, "1-1"),
                    p(1, "1-3", "1-1", "SIDE_A"),
                ],
                ["3-4", "1-1"],
            )
        ]
    )
    # MG-4: with 4 players there is no boneyard; a setter without a double passes the
    # obligation left (pass_left) or the hand is dealt again (redeal).
    no_double = [
        ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2"],
        ["1-3", "1-4", "1-5", "1-6", "2-3", "2-4", "2-5"],
        ["2-6", "3-4", "3-5", "3-6", "4-5", "4-6", "5-6"],
        ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"],
    ]
    out["t-mg-set-pass-left"] = envelope(
        [
            {
                "deal": no_double,
                "boneyard": [],
                "events": [
                    {"seat": 1, "pass": True},
                    {"seat": 2, "pass": True},
                    p(3, "6-6"),
                    p(0, "0-6", "6-6", "SIDE_A"),
                ],
            }
        ],
        seats=4,
        source="RULES.md §2.3, MG-4",
    )
    out["t-mg-set-redeal"] = envelope(
        [{"deal": no_double, "boneyard": [], "events": [{"seat": 1, "pass": True}]}],
        {"no_double_fallback": "redeal"},
        seats=4,
        source="RULES.md §2.3, MG-4",
    )
    return out


def searched() -> dict[str, Callable[[], dict[str, Any]]]:
    """The vectors found by seeded play, each built on demand (some searches take minutes)."""
    kelley = {"boneyard_reserve": "kelley"}
    lta = {"boneyard_reserve": "kelley", "block_scoring": "lowest_takes_all"}
    t08 = "RULES.md §2.7 T-MG-08"
    out: dict[str, Callable[[], dict[str, Any]]] = {}
    # T-MG-02 / T-MG-03: domino bonus against one opponent.
    for pips in (2, 3, 7, 8, 12):
        out[f"t-mg-02-{pips}"] = lambda pips=pips: envelope(find(2, domino(pips)))
    out["t-mg-03"] = lambda: envelope(find(2, domino(23)))
    # T-MG-04: three players, both opponents hold 7; total vs per-opponent rounding.
    out["t-mg-04"] = lambda: envelope(find(3, domino_7_7), seats=3)
    out["t-mg-04-per-opponent"] = lambda: envelope(
        find(3, domino_7_7), {"domino_bonus_rounding": "per_opponent"}, seats=3
    )
    # T-MG-05 / T-MG-06: blocked hands. 4/10/17 needs the Kelley reserve; 4/10/16 is the
    # reachable default case. 5/5/25 is too rare: a tied pair splitting an x.5 share stands in.
    out["t-mg-05"] = lambda: envelope(find(3, block([4, 10, 17]), kelley), kelley, seats=3)
    out["t-mg-05-default"] = lambda: envelope(find(3, block([4, 10, 16])), seats=3)
    out["t-mg-06"] = lambda: envelope(find(3, half_pip_split, lta), lta, seats=3)
    out["t-mg-06-down"] = lambda: envelope(
        find(3, half_pip_split, lta), {**lta, "split_half_rounding": "down"}, seats=3
    )
    # T-MG-07: partnership dominoes.
    out["t-mg-07"] = lambda: envelope(find(4, partnership_domino(9, (11, 14))), seats=4)
    out["t-mg-07-net-negative"] = lambda: envelope(find(4, negative_with_room(20, (4, 6))), seats=4)
    out["t-mg-07-floor"] = lambda: envelope(find(4, negative_at(20, (4, 6), 0)), seats=4)
    # T-MG-08: exactly 61.
    out["t-mg-08-play"] = lambda: envelope(find(2, bust_then_win, whole_games=True), source=t08)
    out["t-mg-08-partners"] = lambda: envelope(
        find(4, bust_then_win, whole_games=True, greedy=True), seats=4, source=t08
    )
    out["t-mg-08-domino"] = lambda: envelope(
        find(2, domino_bust_from(58, 5), whole_games=True), source=t08
    )
    # Blocks: a partnership block, and blocks met at the target (credits in order, RECORDS §6).
    out["t-mg-block-partners"] = lambda: envelope(
        find(4, partnership_block), seats=4, source="RULES.md §2.5"
    )
    out["t-mg-block-wins"] = lambda: envelope(
        find(3, block_win_dropping_later, whole_games=True), seats=3, source="RECORDS.md §6"
    )
    out["t-mg-block-bust"] = lambda: envelope(
        find(2, block_bust, whole_games=True), source="RULES.md §2.6, MG-10"
    )
    # Whole games of seeded self-play under several option bundles.
    for name, players, options in SELFPLAY:
        out[name] = lambda players=players, options=options: selfplay(players, options)
    return out


SELFPLAY: list[tuple[str, int, dict[str, Any]]] = [
    ("selfplay-2p-default", 2, {}),
    (
        "selfplay-3p-kelley-forced",
        3,
        {"boneyard_reserve": "kelley", "forced_play": True, "block_scoring": "lowest_minus_own"},
    ),
    (
        "selfplay-4p-partners-any-order",
        4,
        {"cross_order": "any_order", "set_double_choice": "highest", "block_vs": "all_others"},
    ),
    (
        "selfplay-4p-individual-alone-only",
        4,
        {
            "partnerships": False,
            "spinner_count": "alone_only",
            "no_double_fallback": "redeal",
            "next_setter": "rotate_left",
        },
    ),
]


def selfplay(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """One whole game: greedy bots at even seats, random at odd ones."""
    from boneyard.bots import RandomBot
    from boneyard.games.registry import play_out

    rng = random.Random(players * 100 + len(options))
    state = MerryGoRoundState(players, options, SEATS[:players])
    bots = [(GreedyBot if i % 2 == 0 else RandomBot)(random.Random(i)) for i in range(players)]
    play_out(state, [b.choose for b in bots], rng)
    rec = state.record()
    rec["meta"] = {"source": "seeded self-play"}
    return rec


def partnership_block(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
    """A partnership block where both sides score something."""
    return e["reason"] == "block" and e["awards"][0] > 0 and e["awards"][1] > 0


def block_win_dropping_later(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
    """A block at which one credit reaches the target and a later credit is dropped."""
    if e["reason"] != "block" or not s.is_over:
        return False
    from boneyard.games.merry_go_round.scoring import block_points

    points = block_points(pips, s.rivals, s.options.block_scoring)
    return any(points[i] > 0 and e["awards"][i] == 0 for i in range(s.n))


def block_bust(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
    """A block whose credit would take a seat past 61: it scores nothing."""
    if e["reason"] != "block":
        return False
    from boneyard.games.merry_go_round.scoring import block_points

    points = block_points(pips, s.rivals, s.options.block_scoring)
    return any(points[i] > 0 and e["awards"][i] == 0 for i in range(s.n)) and not s.is_over


def build(write: Any, only: set[str]) -> None:
    """The hand-written records, then the searched ones (only those in ``only``, if given)."""
    for name, record in hand_written().items():
        write(name, record)
    for name, make in searched().items():
        if not only or name in only:
            write(name, make())


def domino_7_7(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
    return e["reason"] == "domino" and sorted(pips) == [0, 7, 7]


def half_pip_split(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
    """A 3-handed block with two tied lowest hands splitting an odd third hand into x.5 pips
    that lie exactly between two multiples of five (5/5/25 is too rare to find)."""
    low, mid, high = sorted(pips)
    return e["reason"] == "block" and low == mid < high and high % 10 == 5


def partnership_domino(partner: int, opps: tuple[int, int]) -> Want:
    """A partnership domino with the partner and the two opponents holding these pips."""

    def want(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
        if e["reason"] != "domino":
            return False
        w = e["winner"]
        theirs = sorted((pips[(w + 1) % 4], pips[(w + 3) % 4]))
        return pips[(w + 2) % 4] == partner and theirs == sorted(opps)

    return want


def negative_with_room(partner: int, opps: tuple[int, int]) -> Want:
    """A partnership domino with a net of -10 while the side has at least 2 points to lose."""

    def want(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
        if e["reason"] != "domino":
            return False
        w = e["winner"]
        ok = pips[(w + 2) % 4] == partner and sorted(
            (pips[(w + 1) % 4], pips[(w + 3) % 4])
        ) == sorted(opps)
        return ok and e["award"] == -2

    return want


def negative_at(partner: int, opps: tuple[int, int], side_total: int) -> Want:
    """A partnership domino with a net of -10 (2 points to lose) while the side has only 1."""

    def want(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
        if e["reason"] != "domino":
            return False
        w = e["winner"]
        net = pips[(w + 1) % 4] + pips[(w + 3) % 4] - pips[(w + 2) % 4]
        return net == -10 and e["award"] == -1 and e["scores"][w] == side_total

    return want


def bust_then_win(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
    """The game ended with a side going from 59 to 61 by a count of 10, after a count of 15
    from 59 scored nothing for that side in the same hand."""
    if e["reason"] != "game_over":
        return False
    plays = [x for x in s.events if isinstance(x, Placed)]
    last = plays[-1]
    side = s.side_of[last.seat]
    if last.count != 10 or last.scores[last.seat] != 61:
        return False
    return any(
        s.side_of[x.seat] == side and x.count == 15 and x.points == 0 and x.scores[x.seat] == 59
        for x in plays[:-1]
    )


def domino_bust_from(total: int, points: int) -> Want:
    """A domino whose bonus of ``points`` would take a side from ``total`` past 61."""

    def want(s: MerryGoRoundState, e: dict[str, Any], pips: list[int]) -> bool:
        if e["reason"] != "domino" or e["award"] != 0:
            return False
        w = e["winner"]
        opp = sum(pips) - pips[w]
        return e["scores"][w] == total and (opp + 2) // 5 == points

    return want
