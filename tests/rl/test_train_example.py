"""examples/train_selfplay.py, in a short form: a policy trained against random with numpy alone
wins clearly more often than the untrained one (the same seeded games each run)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("numpy")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_selfplay.py"


def test_the_example_learns_to_beat_random() -> None:
    spec = importlib.util.spec_from_file_location("train_selfplay", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    args = example.arguments(
        ["--games", "700", "--minutes", "60", "--batch", "64", "--eval-games", "600"]
    )
    figures = example.train(args)
    assert figures["games"] >= 700
    assert 0.4 < figures["untrained"] < 0.6  # an even match before training
    assert figures["trained"] >= figures["untrained"] + 0.08, figures
