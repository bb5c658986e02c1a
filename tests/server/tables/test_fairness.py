"""The fair-deal scheme and ``boneyard verify``."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boneyard.bots import make_bot
from boneyard.cli.main import app
from boneyard.core.errors import RecordError
from boneyard.core.records import record_from_json
from boneyard.server.tables import fairness
from tests.games.golden import GAMES


def served_record(game: str = "highfive", seed: int = 1) -> dict[str, Any]:
    """A whole bot game dealt the way the server deals, with its fairness meta."""
    rng = random.Random(seed)
    state = fairness.new_state(game, {}, ["Ann", "Bob"])
    bot = make_bot("greedy", random.Random(seed))
    hands: list[dict[str, Any]] = []
    while not state.is_over:
        if state.awaiting_deal:
            s = f"{rng.getrandbits(256):064x}"
            fairness.deal(state, s, len(hands))
            hands.append({"hand": len(hands), "commitment": fairness.commitment(s), "seed": s})
            continue
        seat = state.current_seat
        state.apply(bot.choose(state.observation(seat)))
    rec = state.record()
    rec["meta"] = {"fairness": {"scheme": fairness.SCHEME, "hands": hands}}
    return rec


def test_commitment_is_sha256_of_the_hex_text() -> None:
    import hashlib

    s = "ab" * 32
    assert fairness.commitment(s) == hashlib.sha256(s.encode()).hexdigest()
    assert len(fairness.new_seed()) == 64


@pytest.mark.parametrize("game", GAMES)
def test_a_served_record_verifies(game: str) -> None:
    checks = fairness.verify_record(record_from_json(served_record(game)))
    assert checks and all(c.ok for c in checks)


def test_a_changed_deal_or_seed_is_caught() -> None:
    doc = served_record()
    bad = copy.deepcopy(doc)
    hand = bad["hands"][1]
    hand["deal"][0][0], hand["boneyard"][0] = hand["boneyard"][0], hand["deal"][0][0]
    checks = fairness.verify_record(record_from_json(bad))
    assert [c.ok for c in checks] == [True, False]
    assert checks[-1].why == "dealing from the revealed seed gives another deal"
    bad = copy.deepcopy(doc)
    bad["meta"]["fairness"]["hands"][0]["seed"] = "00" * 32
    checks = fairness.verify_record(record_from_json(bad))
    assert [c.ok for c in checks] == [False]
    assert "commitment" in checks[0].why


def test_an_unrevealed_seed_is_reported_not_failed() -> None:
    doc = served_record()
    del doc["meta"]["fairness"]["hands"][2]["seed"]
    checks = fairness.verify_record(record_from_json(doc))
    assert [c.ok for c in checks] == [True, True, None]


def test_a_record_without_fairness_data_is_refused() -> None:
    doc = served_record()
    doc["meta"] = {}
    with pytest.raises(RecordError, match="fairness"):
        fairness.verify_record(record_from_json(doc))


def test_cli_verify(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(served_record()), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(good)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert lines and all(line["ok"] for line in lines)
    doc = served_record()
    doc["meta"]["fairness"]["hands"][0]["seed"] = "11" * 32
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(bad)])
    assert result.exit_code == 1
    result = CliRunner().invoke(app, ["verify", str(tmp_path / "missing.json")])
    assert result.exit_code == 2
