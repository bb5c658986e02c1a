"""``boneyard arena`` and ``boneyard analyse`` from the command line (tiny game counts)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boneyard", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_arena_writes_records_and_figures(tmp_path: Path) -> None:
    out = tmp_path / "games"
    args = ["arena", "--game", "highfive", "--players", "2", "--bots", "easy,greedy"]
    r = run(*args, "--games", "2", "--jobs", "2", "--seed", "1", "--out", str(out), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["games"] == 2
    bots = {b["bot"]: b for b in doc["bots"]}
    assert set(bots) == {"easy", "greedy"}
    assert bots["easy"]["wins"] + bots["greedy"]["wins"] == 2
    lo, hi = bots["easy"]["ci95"]
    assert 0 <= lo <= bots["easy"]["win_rate"] <= hi <= 1
    records = sorted(out.glob("*.json"))
    assert len(records) == 2
    # Mirrored deals: the two games seat the bots the other way round.
    seats = [json.loads(p.read_text())["meta"]["bots"] for p in records]
    assert seats == [["easy", "greedy"], ["greedy", "easy"]]
    replayed = run("replay", str(records[0]))
    assert replayed.returncode == 0, replayed.stderr
    r = run("analyse", str(records[0]), "--seat", "1", "--worlds", "2", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["seat"] == 0 and doc["decisions"]
    text = run("analyse", str(records[0]), "--seat", "2", "--worlds", "2")
    assert text.returncode == 0 and "decisions with a choice" in text.stdout


def test_arena_plays_an_expert_in_every_game() -> None:
    for game in ("high-fives", "highrise"):
        r = run(
            "arena",
            "--game",
            game,
            "--bots",
            "easy,greedy",
            "--games",
            "2",
            "--json",
            "--option",
            "target=12" if game == "high-fives" else "single_hand=true",
        )
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["games"] == 2


def test_arena_merry_go_round() -> None:
    r = run("arena", "--game", "merry-go-round", "--bots", "easy,greedy", "--games", "2", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 2


def test_selfplay_with_the_expert() -> None:
    r = run("selfplay", "--bots", "easy,greedy", "--seed", "4")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["game"] == "highfive"
