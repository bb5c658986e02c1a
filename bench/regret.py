"""Where the expert loses to its seer: High Five's first hands, 2 players, ``expert`` against
``greedy``, every expert decision with a choice valued again by the seer (the same search with
the other hand known, the boneyard's order not).

Run ``.venv/bin/python bench/regret.py`` (300 first hands, mirrored deals, seed 1; ``--games``,
``--seed``, ``--orders`` the seer's boneyard orders a decision, ``--jobs``, ``--json``).
Method and figures: docs/performance.md, "the expert's choices valued by its seer".

The **regret** of a decision is the seer's value of its best action less its value of the
expert's choice, in the play-outs' chips (the seat's chips in the hand less the other's): what
knowing the other hand would have changed there. It is shown by how many tiles the other seat
had played in the hand, by how the expert's choice scores now against the seer's, and by the
legal actions' count, with the decisions where sequential halving had dropped the seer's best
action before the expert's last round of worlds; then re-ranked: the expert's values with
``lam`` times each action's points now added (``lam`` < 0 holds back, > 0 takes), each choice
valued by the seer, to see whether a bias of the expert's toward scoring now (or holding back)
explains the regret.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.strength import Seer, Task, plan, seated
from boneyard.bots.expert import ExpertBot, best_of
from boneyard.games.registry import get_spec

LAMBDAS = (-0.5, -0.2, -0.1, 0.1, 0.2, 0.5)
"""The re-rankings tried: points now times each, added to the expert's values."""


def decisions(orders: int, task: Task) -> list[dict[str, Any]]:
    """The expert's decisions with a choice in the first hand of ``task``'s game."""
    state: Any = get_spec("highfive").new_game(2, {})
    bots = seated(task, state)
    deal = random.Random(task.deal_seed)
    while state.awaiting_deal:
        state.deal_random(deal)
    seer = Seer(state, random.Random(task.bot_seed))
    seer.orders = orders
    me, plays, out = task.lineup.index("expert"), [0, 0], []
    while not state.is_over and not state.awaiting_deal and state.hands_dealt == 1:
        seat = state.current_seat
        obs = state.observation(seat)
        if seat == me and len(obs.legal_actions) > 1:
            assert isinstance(bots[seat], ExpertBot)
            values = bots[seat].evaluate(obs)
            action = best_of(values, obs)
            out.append(
                {
                    "theirs": plays[1 - me],
                    "expert": [v.value for v in values],
                    "worlds": [v.worlds for v in values],
                    "seer": [v.value for v in seer.evaluate(obs)],
                    "points": [obs.action_points(a) for a in obs.legal_actions],
                    "weight": [obs.action_weight(a) for a in obs.legal_actions],
                    "chose": list(obs.legal_actions).index(action),
                }
            )
        else:
            action = bots[seat].choose(obs)
        plays[seat] += obs.action_weight(action) >= 0
        state.apply(action)
    return out


def regret(d: dict[str, Any], k: int) -> float:
    """The seer's best value less its value of action ``k``."""
    return float(max(d["seer"]) - d["seer"][k])


def reranked(d: dict[str, Any], lam: float) -> int:
    """The action the expert would choose with ``lam`` times the points now added (at 0, its
    own choice: ties broken as ``best_of`` breaks them)."""
    kept = [i for i, w in enumerate(d["worlds"]) if w == max(d["worlds"])]
    return max(
        kept,
        key=lambda i: (d["expert"][i] + lam * d["points"][i], d["points"][i], d["weight"][i]),
    )


def groups(rows: list[dict[str, Any]], key: Callable[[dict[str, Any]], object]) -> list[Any]:
    """Decisions, mean regret and the share where the seer chose otherwise, by ``key``."""
    by: dict[object, list[float]] = defaultdict(list)
    for d in rows:
        by[key(d)].append(regret(d, d["chose"]))
    return [
        [str(k), len(v), statistics.fmean(v), sum(x > 1e-9 for x in v) / len(v)]
        for k, v in sorted(by.items(), key=lambda kv: str(kv[0]).zfill(4))
    ]


def best(d: dict[str, Any]) -> int:
    """The seer's best action."""
    return max(range(len(d["seer"])), key=lambda i: d["seer"][i])


def now(d: dict[str, Any]) -> str:
    """How the expert's choice scores now against the seer's best."""
    mine, its = d["points"][d["chose"]], d["points"][best(d)]
    return "expert scores more" if mine > its else "seer's scores more" if mine < its else "same"


def dropped(rows: list[dict[str, Any]], total: float) -> list[float]:
    """Decisions where sequential halving dropped the seer's best action before the last
    round, and their share of the regret (``total``: the regret of every decision)."""
    out = [d for d in rows if d["worlds"][best(d)] < max(d["worlds"])]
    return [len(out), sum(regret(d, d["chose"]) for d in out) / total if total else 0.0]


def report(rows: list[dict[str, Any]], hands: int) -> dict[str, Any]:
    """The figures: regret a hand, by groups, and under each re-ranking."""
    total = sum(regret(d, d["chose"]) for d in rows)
    return {
        "hands": hands,
        "decisions": len(rows),
        "regret_a_hand": total / hands,
        "by_other_plays": groups(rows, lambda d: d["theirs"] if d["theirs"] < 7 else "7+"),
        "by_points_now": groups(rows, now),
        "by_legal_actions": groups(rows, lambda d: len(d["seer"]) if len(d["seer"]) < 6 else "6+"),
        "seer_best_dropped": dropped(rows, total),
        "reranked": {
            str(lam): [
                sum(regret(d, reranked(d, lam)) for d in rows) / hands,
                sum(reranked(d, lam) != d["chose"] for d in rows),
            ]
            for lam in LAMBDAS
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--orders", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    tasks = plan("highfive", 2, "expert", "greedy", args.games, args.seed, False)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rows = [d for out in pool.map(partial(decisions, args.orders), tasks) for d in out]
    doc = report(rows, len(tasks))
    if args.json:
        print(json.dumps(doc))
        return
    print(f"{doc['hands']} first hands, {doc['decisions']} expert decisions with a choice")
    print(f"regret a hand: {doc['regret_a_hand']:.2f} chips")
    for name in ("by_other_plays", "by_points_now", "by_legal_actions"):
        print(name.replace("_", " "))
        for k, n, mean, differ in doc[name]:
            print(f"  {k:>20}  {n:5}  mean {mean:6.2f}  seer chose otherwise {differ:6.1%}")
    n, share = doc["seer_best_dropped"]
    print(f"the seer's best dropped by halving: {n:.0f} decisions, {share:.1%} of the regret")
    for lam, (r, changed) in doc["reranked"].items():
        print(f"points now x {lam:>5}: regret a hand {r:.2f} ({changed} choices changed)")


if __name__ == "__main__":
    main()
