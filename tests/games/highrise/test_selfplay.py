"""Seeded self-play for 2–4 players under every option bundle: no errors, records that replay to
the same results, and record -> replay -> the same record."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from boneyard.bots import make_bot
from boneyard.core.protocol import game_end_line
from boneyard.core.records import record_from_json
from boneyard.games.highrise import SPEC, HighriseState, new_game
from boneyard.games.registry import play_out
from tests.games.highrise.helpers import BUNDLES

SEEDS = range(8)


def self_play(players: int, options: dict[str, Any], seed: int) -> HighriseState:
    rng = random.Random(seed)
    state = new_game(players, options)
    kinds = ["greedy", "random", "random", "greedy"]
    bots = [make_bot(kinds[(i + seed) % 4], rng).choose for i in range(players)]
    play_out(state, bots, rng)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", BUNDLES, ids=[json.dumps(b)[:60] for b in BUNDLES])
def test_self_play(players: int, options: dict[str, Any]) -> None:
    for seed in SEEDS:
        state = self_play(players, options, 100 * players + seed)
        result = state.result()
        assert state.is_over and result is not None
        assert state.current_seat is None and state.legal_actions() == ()
        record = state.record()
        json.dumps(record)
        lines = list(SPEC.replay(record_from_json(record)))
        assert lines[-1] == game_end_line(result)
        assert lines[-1]["scores"] == list(result.scores)
        ends = [x for x in lines if x.get("type") == "hand_end"]
        assert len(ends) == len(record["hands"])
        # the running totals are the sum of every play's points and every settlement
        total = [0] * players
        for x in lines:
            if x.get("type") == "play":
                total[x["seat"]] += x["points"]
            elif x.get("type") == "hand_end":
                changes = x.get("awards") or [
                    x["award"] if s == x["winner"] else 0 for s in range(players)
                ]
                total = [a + b for a, b in zip(total, changes, strict=True)]
                assert x["scores"] == total
        assert total == list(result.scores)
        if options.get("allow_negative") is False:
            assert min(result.scores) >= 0
        # record -> replay -> the same record
        again = SPEC.from_record(record_from_json(record))
        assert again.record() == record
        assert again.result() == result
        # starters: any for hand 0 (or the chosen seat), then one to the left each hand
        starters = [h["starter"] for h in record["hands"]]
        if isinstance(options.get("first_player"), int):
            assert starters[0] == options["first_player"]
        assert starters == [(starters[0] + k) % players for k in range(len(starters))]
        top = max(result.scores)
        if result.winner is None:
            assert options.get("tie_at_target") == "shared_win"
            assert lines[-1]["winners"] == [s for s in range(players) if result.scores[s] == top]
        else:
            assert result.scores[result.winner] == top
            assert list(result.scores).count(top) == 1
        if options.get("single_hand") and options.get("tie_at_target") == "shared_win":
            assert len(record["hands"]) == 1
        elif not options.get("single_hand"):
            assert top >= options.get("target", 300)


def test_spacers_carry_over_across_hands() -> None:
    state = self_play(2, {"spacers_per_hand": "carry_over"}, 3)
    record = state.record()
    used = sum(1 for h in record["hands"] for e in h["events"] if "spacer" in e)
    assert 0 < used <= 12
    assert state.tower.spacers_left == 12 - used


def test_spacers_refill_every_hand() -> None:
    state = self_play(2, {}, 3)
    per_hand = [sum(1 for e in h["events"] if "spacer" in e) for h in state.record()["hands"]]
    assert len(per_hand) > 1 and all(n <= 12 for n in per_hand)
    assert state.tower.spacers_left == 12 - per_hand[-1]


def test_first_player_random_and_youngest_vary() -> None:
    for option in ("random", "youngest"):
        starters = set()
        for seed in range(20):
            state = new_game(3, {"first_player": option})
            state.deal_random(random.Random(seed))
            starters.add(state.current_seat)
        assert starters == {0, 1, 2}


def tie_game(options: dict[str, Any]) -> HighriseState:
    """Seed 69: two random bots end the first hand level at 63 each."""
    rng = random.Random(69)
    state = new_game(2, options)
    bot = make_bot("random", rng).choose
    return play_out(state, [bot, bot], rng)


def test_tie_shared_win() -> None:
    state = tie_game({"single_hand": True, "tie_at_target": "shared_win"})
    result = state.result()
    assert result is not None and result.winner is None and result.reason == "shared_win"
    assert result.scores == (63, 63)
    lines = list(SPEC.replay(record_from_json(state.record())))
    assert lines[-1] == {"type": "game_end", "winner": None, "winners": [0, 1], "scores": [63, 63]}


def test_tie_plays_another_hand() -> None:
    state = tie_game({"single_hand": True})
    lines = list(SPEC.replay(record_from_json(state.record())))
    ends = [x for x in lines if x.get("type") == "hand_end"]
    assert ends[0]["scores"] == [63, 63]
    assert not any(x.get("type") == "game_end" for x in lines[: lines.index(ends[0]) + 1])
    assert len(ends) == 2 and lines[-1]["type"] == "game_end"


def test_single_hand_ends_after_one_hand_without_a_tie() -> None:
    for seed in range(10):
        state = self_play(3, {"single_hand": True}, seed)
        hands = state.record()["hands"]
        if len(hands) == 1:
            assert state.result() is not None
            return
    raise AssertionError("no single-hand game ended after one hand")
