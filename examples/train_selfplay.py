"""Train a policy against a random player with numpy only (no deep-learning library), on the CPU.

    python examples/train_selfplay.py                   # three minutes; prints its progress
    python examples/train_selfplay.py --minutes 10 --option target=61 --batch 256

The policy is a linear softmax over the legal action ids: the score of id ``a`` for an
observation vector ``x`` (:mod:`boneyard.rl.features`) is ``W[a] @ x + b[a]``. It learns by
REINFORCE: after each game, every decision of the learning seat moves its log-probability up if
the game was won and down if it was lost (less a running baseline). Many games are played at once
(:class:`boneyard.rl.vector.SelfPlay`): in each one the learner holds one seat (the first seat
alternates from game to game) and a uniformly random player the other. The game is
Merry-Go-Round to 31 unless ``--game`` and ``--option`` say otherwise (a game where skill shows:
the greedy bot wins nearly all its games against random).

It prints the learner's win rate against random over the games of each stretch, then measures
the trained policy against random on fresh games, beside the untrained one: with two players an
even match wins half its games.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from boneyard.rl.vector import SelfPlay


@dataclass
class Policy:
    """A linear softmax over the legal ids (see the module docstring)."""

    weights: np.ndarray[Any, Any]
    bias: np.ndarray[Any, Any]

    @classmethod
    def new(cls, actions: int, features: int) -> Policy:
        """A policy that picks uniformly at random (all scores 0)."""
        return cls(np.zeros((actions, features)), np.zeros(actions))

    def scores(
        self, x: np.ndarray[Any, Any], rows: np.ndarray[Any, Any], ids: np.ndarray[Any, Any]
    ) -> np.ndarray[Any, Any]:
        """The score of each legal entry: id ``ids[i]`` for the vector ``x[rows[i]]``."""
        return np.einsum("ij,ij->i", self.weights[ids], x[rows]) + self.bias[ids]


def choose(
    play: SelfPlay, policy: Policy, learner: np.ndarray[Any, Any], rng: np.random.Generator
) -> np.ndarray[Any, Any]:
    """Every game's id: the policy's (sampled from its softmax) where the learner is to move,
    else a uniformly random one."""
    obs, _mask, seats = play.observe()
    actions = play.random_actions(rng)
    mine = seats[play.legal_rows] == learner[play.legal_rows]
    rows, ids = play.legal_rows[mine], play.legal_ids[mine]
    if not len(rows):
        return actions
    noisy = policy.scores(obs, rows, ids) + rng.gumbel(size=len(rows))  # softmax sampling
    games, starts = np.unique(rows, return_index=True)
    best = np.maximum.reduceat(noisy, starts)
    segment = np.repeat(np.arange(len(games)), np.diff(np.append(starts, len(rows))))
    winners = np.flatnonzero(noisy == best[segment])
    _seen, first = np.unique(segment[winners], return_index=True)
    actions[games] = ids[winners[first]]
    return actions


def train(args: argparse.Namespace) -> dict[str, float]:
    rng = np.random.default_rng(args.seed)
    play = SelfPlay(args.game, games=args.batch, players=2, options=args.options, seed=args.seed)
    obs, _mask, _seats = play.observe()
    policy = Policy.new(play.actions, obs.shape[1])
    learner = np.arange(args.batch) % 2
    decisions: list[list[tuple[Any, ...]]] = [[] for _ in range(args.batch)]
    baseline, wins, games, stretch_wins, stretch_games = 0.0, 0, 0, 0, 0
    start, last_report = time.monotonic(), time.monotonic()
    untrained = evaluate(Policy.new(play.actions, obs.shape[1]), args, rng)
    print(f"untrained: wins {untrained:.1%} of its games against random")
    while games < args.games and time.monotonic() - start < args.minutes * 60:
        obs, _mask, seats = play.observe()
        actions = choose(play, policy, learner, rng)
        for k in np.flatnonzero(seats == learner):
            legal = play.legal_ids[play.legal_rows == k]
            decisions[k].append((obs[k].copy(), legal, actions[k]))
        rewards, done = play.step(actions)
        for k in np.flatnonzero(done):
            reward = float(rewards[k, learner[k]])
            update(policy, decisions[k], reward - baseline, args.lr)
            baseline += 0.01 * (reward - baseline)
            decisions[k] = []
            won = reward > 0
            wins, games = wins + won, games + 1
            stretch_wins, stretch_games = stretch_wins + won, stretch_games + 1
            learner[k] = 1 - learner[k]
        if time.monotonic() - last_report > args.report and stretch_games:
            elapsed = time.monotonic() - start
            rate = stretch_wins / stretch_games
            print(f"{elapsed:5.0f} s, {games} games: wins {rate:.1%} of the last {stretch_games}")
            stretch_wins, stretch_games, last_report = 0, 0, time.monotonic()
    trained = evaluate(policy, args, rng)
    print(f"trained on {games} games: wins {trained:.1%} of its games against random")
    return {"untrained": untrained, "trained": trained, "games": float(games)}


def update(policy: Policy, decisions: list[tuple[Any, ...]], advantage: float, lr: float) -> None:
    """REINFORCE: each decision's log-probability moved by ``advantage``."""
    for x, legal, chosen in decisions:
        logits = policy.weights[legal] @ x + policy.bias[legal]
        p = np.exp(logits - logits.max())
        p /= p.sum()
        grad = -p
        grad[np.flatnonzero(legal == chosen)[0]] += 1.0
        policy.weights[legal] += lr * advantage * np.outer(grad, x)
        policy.bias[legal] += lr * advantage * grad


def evaluate(policy: Policy, args: argparse.Namespace, rng: np.random.Generator) -> float:
    """The share of ``args.eval_games`` fresh games ``policy`` wins against random."""
    games_at_once = min(args.batch, args.eval_games)
    play = SelfPlay(args.game, games=games_at_once, players=2, options=args.options, seed=10**6)
    learner = np.arange(len(play.seats)) % 2
    wins = games = 0
    while games < args.eval_games:
        rewards, done = play.step(choose(play, policy, learner, rng))
        for k in np.flatnonzero(done):
            wins += rewards[k, learner[k]] > 0
            games += 1
            learner[k] = 1 - learner[k]
    return wins / games


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="merry-go-round")
    parser.add_argument("--minutes", type=float, default=3.0, help="training time at most")
    parser.add_argument("--games", type=int, default=10**9, help="training games at most")
    parser.add_argument("--batch", type=int, default=128, help="games played at once")
    parser.add_argument("--lr", type=float, default=0.01, help="learning rate")
    parser.add_argument("--eval-games", type=int, default=2000, help="games of each evaluation")
    parser.add_argument("--report", type=float, default=10.0, help="seconds between reports")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--option",
        action="append",
        help="a rule option as key=value (JSON value); default: target=31, a short game",
    )
    args = parser.parse_args(argv)
    pairs = args.option or ["target=31"]
    args.options = {k: json.loads(v) for k, _, v in (o.partition("=") for o in pairs)}
    return args


if __name__ == "__main__":
    train(arguments())
