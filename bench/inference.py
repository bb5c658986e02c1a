"""Reading the table: how much more probable the true hidden hands are under the expert's model
of the other seats' play than under random consistent sampling.

Run ``.venv/bin/python bench/inference.py`` (High Five, 2 players, self-play records of
``greedy`` against ``greedy`` and of ``expert-pimc`` against itself, 40 games each, seed 1;
``--game highrise``, ``--players 3``, ``--games N``, ``--pairs greedy:greedy,expert:expert``,
``--json``). Method and figures: docs/performance.md, "Reading the table".

For every decision with a choice (one position in four, at random) of every seat, after at
least one play of another seat in the hand, the bench builds the game's sampler from that
seat's observation alone and draws ``--pool`` candidate hidden deals from it (the random
consistent sampling of plain PIMC: each hidden hand uniform over what the draws and passes
allow). Under a model (``boneyard.games.inference.PlayModel``) every deal gets the probability
of the other seats' recorded plays, and the **gain** is ``log L(true deal) - log mean L(candidate
deals)``: the log of how many times more probable the true hidden hands are under the model's
posterior than under uniform sampling, in nats (0: the model learns nothing; negative: it
misleads). Also shown: the effective sample size of the candidates' weights (Kish) and the
mean log probability the model gives to the plays actually made, knowing the true hands, per
play (against a uniform choice among the legal placements).

``--by-plays`` adds, at 2 players, how much of the true other hand the candidates hold under
each model's weights (and alike: uniform), by how many of its plays were read, with the
median effective size: run it at two ``--pool`` sizes to see whether the pool or the evidence
limits the reading.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from typing import Any

from rich.console import Console

from boneyard.bots import make_bot
from boneyard.bots.expert import READING, ExpertBot
from boneyard.games.fives.layout import TILE_ID
from boneyard.games.inference import (
    PlayModel,
    Style,
    effective_size,
    log_likelihood,
    log_sum_exp,
)
from boneyard.games.registry import get_spec

MODELS: dict[str, PlayModel] = {
    "expert (mixture)": READING,
    "sharp (beta 2, pips 0.5, eps 0.02)": PlayModel(((1.0, Style(2.0, 0.5, 0.02)),)),
    "soft (beta 0.3, pips 0.3, eps 0.1)": PlayModel(((1.0, Style(0.3, 0.3, 0.1)),)),
    "greedy's key, no noise (beta 20, pips 0.2, eps 0.001)": PlayModel(
        ((1.0, Style(20.0, 0.2, 0.001)),)
    ),
}
"""The models compared: the expert's, its two components alone, and greedy made exact."""


def truth(game: str, state: Any, others: list[int]) -> tuple[dict[int, int], dict[int, list[int]]]:
    """The true hidden hands (bit masks of tile ids) and draws (in order) of ``others``."""
    if game == "highrise":
        index = {t: k for k, t in enumerate(state.tiles)}
        hands = {s: sum(1 << t for t in state.hands[s]) for s in others}

        def tile_id(tile: Any) -> int:
            return index[tile]
    else:
        hands = {s: state.hands[s] for s in others}

        def tile_id(tile: Any) -> int:
            return TILE_ID[tile]

    draws: dict[int, list[int]] = {s: [] for s in others}
    for ev in state.events:
        if type(ev).__name__ == "Drew" and ev.seat in draws:
            draws[ev.seat].append(tile_id(ev.tile))
    return hands, draws


def bot(name: str, rng: random.Random) -> Any:
    """A bot by name; an expert level with fixed worlds (no time budget: load-free)."""
    if name.startswith("expert") or name in ("easy", "medium", "hard"):
        return ExpertBot(rng, name, time_budget=None)
    return make_bot(name, rng)


def positions(game: str, players: int, pair: list[str], games: int, seed: int) -> list[Any]:
    """Copies of the states before one decision in four with a choice (after another seat's
    play in the hand), from self-play games of the bots ``pair`` (seated in turn)."""
    spec = get_spec(game)
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = spec.new_game(players, {})
        bots = [
            bot(pair[i % len(pair)], random.Random(seed * 1000 + g * 10 + i))
            for i in range(players)
        ]
        while not state.is_over:
            if state.awaiting_deal:
                state.deal_random(rng)
                continue
            seat = state.current_seat
            obs = state.observation(seat)
            if len(obs.legal_actions) > 1 and rng.random() < 0.25:
                out.append(state.copy())
            state.apply(bots[seat].choose(obs))
    return out


def measure(game: str, states: list[Any], pool: int, seed: int) -> dict[str, Any]:
    """The gain, effective sample size and play log-likelihood of every model."""
    search = get_spec(game).search
    assert search is not None
    rng = random.Random(seed)
    gains: dict[str, list[float]] = {m: [] for m in MODELS}
    ess: dict[str, list[float]] = {m: [] for m in MODELS}
    plays: dict[str, list[float]] = {m: [] for m in MODELS}
    uniform_plays: list[float] = []
    for state in states:
        seat = state.current_seat
        sampler: Any = search.sampler(state.observation(seat))
        if not sampler.choices:
            continue
        found = sampler.candidates(rng, pool)
        hands, draws = truth(game, state, sampler.others)
        for name, model in MODELS.items():
            weighed = model.weigh(sampler.choices)
            true = log_likelihood(weighed, hands, draws)
            logs = [log_likelihood(weighed, h, d) for h, d in found]
            gains[name].append(true - (log_sum_exp(logs) - math.log(len(logs))))
            ess[name].append(effective_size(logs))
            plays[name].append(true / len(sampler.choices))
        uniform = PlayModel(((1.0, Style(0.0, 0.0, 1.0)),)).weigh(sampler.choices)
        uniform_plays.append(log_likelihood(uniform, hands, draws) / len(sampler.choices))
    out: dict[str, Any] = {"positions": len(uniform_plays), "models": {}}
    for name in MODELS:
        g = gains[name]
        n = max(1, len(g))
        mean = sum(g) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in g) / max(1, n - 1))
        e = sorted(ess[name]) or [0.0]
        out["models"][name] = {
            "gain_nats": mean,
            "gain_ci95": [mean - 1.96 * sd / math.sqrt(n), mean + 1.96 * sd / math.sqrt(n)],
            "positive_share": sum(1 for x in g if x > 0) / n,
            "ess_median": e[len(e) // 2],
            "ess_p10": e[len(e) // 10],
            "play_log_p": sum(plays[name]) / n,
        }
    out["uniform_play_log_p"] = sum(uniform_plays) / max(1, len(uniform_plays))
    return out


def hits_by_plays(game: str, states: list[Any], pool: int, seed: int) -> dict[str, Any]:
    """How much of the true other hand the weighted candidates hold, by how many plays of it
    were read (2 players): for each model, the mean over positions of the posterior-weighted
    share of the true hidden tiles a candidate holds (uniform: every candidate alike), and the
    median effective size of the weights. Shows whether the pool or the evidence limits the
    reading: a pool too small for a sharp posterior would hit more with more candidates."""
    search = get_spec(game).search
    assert search is not None
    rng = random.Random(seed)
    rows: dict[str, dict[int, list[tuple[float, float]]]] = {m: {} for m in [*MODELS, "uniform"]}
    for state in states:
        sampler: Any = search.sampler(state.observation(state.current_seat))
        if not sampler.choices or len(sampler.others) != 1:
            continue
        other = sampler.others[0]
        true = truth(game, state, sampler.others)[0][other]
        if not true:
            continue
        found = sampler.candidates(rng, pool)
        held = [(hands[other] & true).bit_count() / true.bit_count() for hands, _d in found]
        plays = min(len(sampler.choices), 6)
        for name in rows:
            model = MODELS.get(name)
            logs = [0.0] * len(found)
            if model is not None:
                weighed = model.weigh(sampler.choices)
                logs = [log_likelihood(weighed, h, d) for h, d in found]
            top = max(logs)
            weights = [math.exp(x - top) for x in logs]
            hit = sum(w * x for w, x in zip(weights, held, strict=True)) / sum(weights)
            rows[name].setdefault(plays, []).append((hit, effective_size(logs)))
    return {
        name: {
            str(k): {
                "positions": len(v),
                "hit": sum(h for h, _e in v) / len(v),
                "ess_median": sorted(e for _h, e in v)[len(v) // 2],
            }
            for k, v in sorted(by.items())
        }
        for name, by in rows.items()
    }


def main(argv: list[str] | None = None) -> int:
    """Play the self-play games of each pair and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="highfive")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--pairs", default="greedy:greedy,expert-pimc:expert-pimc")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--pool", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--by-plays", action="store_true", help="hits of the true hand by plays read")
    args = ap.parse_args(argv)
    c = Console(highlight=False)
    for pair_text in args.pairs.split(","):
        pair = pair_text.split(":")
        started = time.perf_counter()
        states = positions(args.game, args.players, pair, args.games, args.seed)
        doc = measure(args.game, states, args.pool, args.seed)
        if args.by_plays:
            doc["by_plays"] = hits_by_plays(args.game, states, args.pool, args.seed)
        doc.update(
            game=args.game,
            players=args.players,
            pair=pair,
            games=args.games,
            pool=args.pool,
            seed=args.seed,
            seconds=time.perf_counter() - started,
            load=os.getloadavg(),
        )
        if args.json:
            sys.stdout.write(json.dumps(doc) + "\n")
            continue
        c.print(
            f"[bold]{args.game}, {args.players} players, records of {' vs '.join(pair)}[/]: "
            f"{doc['positions']} positions from {args.games} games, {args.pool} candidates each "
            f"(uniform choice: {doc['uniform_play_log_p']:.3f} nats a play)"
        )
        for name, m in doc["models"].items():
            c.print(
                f"  {name}: gain {m['gain_nats']:+.3f} nats "
                f"(95% CI {m['gain_ci95'][0]:+.3f} to {m['gain_ci95'][1]:+.3f}; "
                f"positive in {m['positive_share']:.0%}), ESS median {m['ess_median']:.0f} "
                f"(p10 {m['ess_p10']:.0f}), plays {m['play_log_p']:.3f} nats each"
            )
        for name, by in doc.get("by_plays", {}).items():
            cells = ", ".join(
                f"{k}: {r['hit']:.1%} (ESS {r['ess_median']:.0f}, {r['positions']})"
                for k, r in by.items()
            )
            c.print(f"  true tiles held, by plays read (6: 6 or more), {name}: {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
