"""The bots' edges: an arena refuses more bots than seats, a program's answer naming both an
index and an action is refused, and an in-process plugin is held to the same time per move as a
program (a timeout, then a forfeit or the fallback)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from boneyard.bots.process import _answer
from boneyard.bots.referee import BotFailure

SLEEPY = '''
"""A plugin that thinks 4 s from its second decision on."""

import time


class Sleepy:
    name = "sleepy"

    def __init__(self, rng):
        self.rng = rng
        self.calls = 0

    def choose(self, observation):
        self.calls += 1
        if self.calls > 1:
            time.sleep(4)
        return observation.legal_actions[0]
'''


def arena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boneyard", "arena", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def test_the_arena_refuses_more_bots_than_seats() -> None:
    r = arena("--players", "2", "--bots", "greedy,random,easy", "--games", "2")
    assert r.returncode == 2, r.stderr
    assert "3 bots for 2 seats: name at most 2" in " ".join(r.stderr.split())


def test_an_answer_with_both_an_index_and_an_action_is_refused() -> None:
    events = [{"play": "5-5"}, {"draw": None}]
    assert _answer(b'{"index": 1}', events) == 1
    assert _answer(b'{"action": {"play": "5-5"}}', events) == 0
    with pytest.raises(
        BotFailure, match=r'answer \{"action": \.\.\.\} or \{"index": \.\.\.\}, not both'
    ):
        _answer(b'{"index": 1, "action": {"play": "5-5"}}', events)


@pytest.mark.parametrize("on_error", ["forfeit", "greedy"])
def test_a_plugin_that_thinks_too_long_times_out_like_a_program(
    tmp_path: Path, on_error: str
) -> None:
    (tmp_path / "sleepy.py").write_text(SLEEPY)
    bot = "sleepy:Sleepy"
    r = arena(
        "--bots", f"{bot},greedy", "--games", "2", "--move-time", "0.3", "--on-error", on_error,
        "--json", cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    failures = doc["failures"]
    assert [(f["kind"], f["then"], f["bot"]) for f in failures] == [("timeout", on_error, bot)] * 2
    assert failures[0]["detail"] == "no answer within 0.3 s"
    figures = {b["bot"]: b for b in doc["bots"]}
    if on_error == "forfeit":
        assert figures[bot]["forfeits"] == 2 and figures["greedy"]["wins"] == 2
    else:
        assert figures[bot]["fallbacks"] == 2 and figures[bot]["forfeits"] == 0
