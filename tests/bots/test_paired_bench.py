"""``bench/paired.py``: two runs of the same ``bench/strength.py`` match compared game by game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import paired, strength


def run(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str], *argv: str) -> Path:
    assert strength.main([*argv, "--jobs", "1", "--json"]) == 0
    out = tmp_path / name
    out.write_text(capsys.readouterr().out)
    return out


def test_a_match_lists_its_games_won_and_pairs_with_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = ("--bot", "greedy", "--against", "random", "--games", "6")
    a = run(tmp_path, "a.json", capsys, *match)
    b = run(tmp_path, "b.json", capsys, *match)
    doc = json.loads(a.read_text().splitlines()[-1])
    assert len(doc["won"]) == 6 and doc["won"].count("1") == doc["wins"]
    assert paired.main([str(a), str(b)]) == 0  # the same deals and seeds: the same games
    same = json.loads(capsys.readouterr().out)
    assert same["mean_diff"] == 0 and same["only_after"] == same["only_before"] == 0
    other = run(tmp_path, "c.json", capsys, *match[:-1], "4")
    with pytest.raises(SystemExit, match="not the same match"):
        paired.main([str(a), str(other)])
    with pytest.raises(SystemExit, match="not the same match"):
        paired.main([str(a), str(b), str(a), str(other)])
    with pytest.raises(SystemExit, match="in pairs"):
        paired.main([str(a), str(b), str(a)])


def test_pairs_of_runs_are_pooled_game_by_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def match(name: str, seed: int, won: str) -> str:
        doc = {"game": "highfive", "players": 4, "bot": "expert", "against": "greedy"}
        (tmp_path / name).write_text(json.dumps({**doc, "seed": seed, "won": won}) + "\n")
        return str(tmp_path / name)

    runs = [
        match("b1", 1, "1010"),
        match("a1", 1, "1110"),
        match("b2", 2, "10"),
        match("a2", 2, "01"),
    ]
    assert paired.main(runs) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 6 and out["only_after"] == 2 and out["only_before"] == 1
    assert out["before"] == pytest.approx(3 / 6) and out["after"] == pytest.approx(4 / 6)
    with pytest.raises(SystemExit, match="not the same match"):
        paired.main([runs[0], runs[3]])  # seed 1 against seed 2


def test_the_difference_counts_the_games_only_one_version_won() -> None:
    out = paired.paired([1, 0, 1, 0, 1, 1], [1, 1, 1, 1, 0, 1])
    assert out["only_after"] == 2 and out["only_before"] == 1
    assert out["mean_diff"] == pytest.approx(1 / 6)
    assert out["ci95"][0] < out["mean_diff"] < out["ci95"][1]
