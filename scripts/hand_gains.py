"""Measure what a two-player High Five hand gives each seat, for the expert's game standing.

    python scripts/hand_gains.py            # 40,000 greedy games, seed 7 (about 30 s compiled)

Plays greedy against greedy (the play-outs' policy) and counts, for every hand that does not
end the game, the chips each seat received in it. The counts are written, both seats' views
pooled, to ``src/boneyard/games/highfive/hand_gains.json``, with the chance of winning from
every score that :mod:`boneyard.games.highfive.standing` solves from them. Run it again after
a change to the rules' scoring or to the greedy policy.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from boneyard.games.fives.playout import greedy_action
from boneyard.games.highfive.standing import DIGITS, win_table
from boneyard.games.highfive.state import HighFiveState

OUT = Path(__file__).resolve().parent.parent / "src/boneyard/games/highfive/hand_gains.json"


def hand_gains(games: int, seed: int) -> Counter[tuple[int, int]]:
    """Per (chips seat A received, chips seat B received) in one hand: how many hands, every
    hand counted once from each seat's side (so the counts are symmetric)."""
    rng = random.Random(seed)
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(games):
        state = HighFiveState(2)
        before, hand = [0, 0], 0
        while not state.is_over:
            if state.awaiting_deal:
                state.deal_random(rng)
                before, hand = list(state.scores), state.hands_dealt
                continue
            state.apply(greedy_action(state, rng))
            if not state.is_over and (state.awaiting_deal or state.hands_dealt != hand):
                a, b = state.scores[0] - before[0], state.scores[1] - before[1]
                counts[(a, b)] += 1
                counts[(b, a)] += 1
                before, hand = list(state.scores), state.hands_dealt
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    counts = hand_gains(args.games, args.seed)
    rows = sorted([a, b, n] for (a, b), n in counts.items())
    # The chances solved once here: the bot reads them instead of solving 30 × 30 × the gains
    # at its first decision (tests/games/highfive/test_standing.py checks they agree).
    table = [[round(p, DIGITS) for p in row] for row in win_table([(a, b, n) for a, b, n in rows])]
    doc = {"games": args.games, "seed": args.seed, "policy": "greedy", "gains": rows}
    doc["table"] = table
    OUT.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{sum(counts.values()) // 2} hands, {len(rows)} distinct gains: {OUT}")


if __name__ == "__main__":
    main()
