"""The ``boneyard`` command, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
H5 = ROOT / "tests" / "records" / "highfive"


def run(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boneyard", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def lines(out: str) -> list[dict[str, object]]:
    return [json.loads(x) for x in out.splitlines() if x.strip()]


def test_replay_one_file_prints_the_golden_lines() -> None:
    proc = run("replay", str(H5 / "t-h5-01.json"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (H5 / "t-h5-01.jsonl").read_text()


def test_replay_reads_standard_input() -> None:
    proc = run("replay", "-", stdin=(H5 / "t-h5-07.json").read_text())
    assert proc.returncode == 0
    assert lines(proc.stdout) == lines((H5 / "t-h5-07.jsonl").read_text())


def test_replay_several_files_tags_each_line_and_exits_2_if_any_is_invalid(tmp_path: Path) -> None:
    bad = json.loads((H5 / "t-h5-01.json").read_text())
    bad["hands"][0]["events"][2]["play"] = "1-4"
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad))
    good = str(H5 / "t-h5-08.json")
    proc = run("replay", good, str(bad_path))
    assert proc.returncode == 2
    out = lines(proc.stdout)
    assert all("file" in x for x in out)
    assert [x for x in out if x["file"] == good] == [
        {"file": good, **y} for y in lines((H5 / "t-h5-08.jsonl").read_text())
    ]
    last = out[-1]
    assert last == {
        "file": str(bad_path),
        "error": "seat 0 does not hold 1-4",
        "hand": 0,
        "event": 2,
    }
    assert [x.get("event") for x in out if x["file"] == str(bad_path)] == [0, 1, 2]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{not json", "the record is not valid JSON"),
        (
            '{"format": "boneyard-record/1", "game": "chess", "seats": ["a"]}',
            "game 'chess' is unknown",
        ),
        ('{"format": "other/9"}', "format must be 'boneyard-record/1'"),
    ],
)
def test_replay_rejects_broken_files(text: str, why: str) -> None:
    proc = run("replay", "-", stdin=text)
    assert proc.returncode == 2
    out = lines(proc.stdout)
    assert len(out) == 1 and why in str(out[0]["error"]) and out[0]["hand"] is None


def test_replay_missing_file() -> None:
    proc = run("replay", "/nonexistent/record.json")
    assert proc.returncode == 2
    assert "cannot read /nonexistent/record.json" in lines(proc.stdout)[0]["error"]  # type: ignore[operator]


def test_selfplay_writes_a_record_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    args = [
        "selfplay",
        "--game",
        "highfive",
        "--players",
        "3",
        "--bots",
        "greedy,random,greedy",
        "--preset",
        "pda",
        "--seed",
        "7",
        "--out",
        str(out),
    ]
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(out.read_text())
    assert record["options"]["preset"] == "pda" and len(record["seats"]) == 3
    again = tmp_path / "again.json"
    run(*args[:-1], str(again))
    assert again.read_text() == out.read_text()  # same seed, same game
    proc = run("replay", str(out))
    assert proc.returncode == 0
    assert lines(proc.stdout)[-1]["type"] == "game_end"


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--players", "5"], "High Five is for 2 to 4 players, not 5"),
        (["--bots", "genius"], "bot 'genius' is unknown"),
        (["--preset", "casino"], "preset 'casino' is unknown"),
        (["--option", "lead_after_lock=coin"], "option lead_after_lock cannot be 'coin'"),
        (["--option", "nonsense"], "write options as key=value"),
    ],
)
def test_selfplay_bad_options_are_explained(args: list[str], why: str) -> None:
    proc = run("selfplay", *args)
    assert proc.returncode == 2
    assert why in " ".join(proc.stderr.split())


def test_terminal_play_a_whole_game_with_bad_input_on_the_way(tmp_path: Path) -> None:
    """A person plays a whole game: bad input is answered, then every move is number 1."""
    save = tmp_path / "mine.json"
    moves = "hello\n0\n99\n?\n9-9\n" + "1\n" * 5000
    proc = run(
        "play", "highfive", "--players", "3", "--seed", "11", "--save", str(save), stdin=moves
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "is not a move" in out and "There is no move 99" in out and "Type a move" in out
    assert "Game over:" in out and "Final scores" in out
    assert "Your hand" in out and "Count:" in out
    record = json.loads(save.read_text())
    assert record["seats"][0] == "You"
    replayed = run("replay", str(save))
    assert replayed.returncode == 0 and lines(replayed.stdout)[-1]["type"] == "game_end"


def test_terminal_play_quit_saves_an_unfinished_game(tmp_path: Path) -> None:
    save = tmp_path / "part.json"
    proc = run("play", "highfive", "--seed", "3", "--save", str(save), stdin="1\nq\n")
    assert proc.returncode == 0
    assert "Game saved unfinished" in proc.stdout
    replayed = run("replay", str(save))
    assert replayed.returncode == 0
    assert all(x.get("type") != "game_end" for x in lines(replayed.stdout))


def test_terminal_never_shows_a_bot_drawn_tile() -> None:
    proc = run("play", "highfive", "--seed", "5", "--save", "/dev/null", stdin="1\n" * 400)
    bot_draws = [x for x in proc.stdout.splitlines() if "bot" in x and "draws" in x]
    assert bot_draws
    for line in bot_draws:
        assert line.strip().endswith("draws a tile"), line


def test_replay_says_when_a_game_is_unfinished(tmp_path: Path) -> None:
    save = tmp_path / "part.json"
    run("play", "highfive", "--seed", "3", "--save", str(save), stdin="1\nq\n")
    proc = run("replay", str(save))
    assert proc.returncode == 0
    assert "the game is unfinished: it has no game_end yet" in proc.stderr
    assert all(x.get("type") != "game_end" for x in lines(proc.stdout))
    whole = tmp_path / "whole.json"
    assert run("selfplay", "--seed", "1", "--out", str(whole)).returncode == 0
    done = run("replay", str(whole))
    assert done.returncode == 0 and "unfinished" not in done.stderr


def test_replay_names_the_game_a_records_events_belong_to(tmp_path: Path) -> None:
    record = json.loads((H5 / "t-h5-06.json").read_text())
    record["game"] = "merry-go-round"
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(record))
    proc = run("replay", str(wrong))
    assert proc.returncode == 2
    assert lines(proc.stdout) == [
        {
            "error": "this record's events are not Merry-Go-Round events: they are High Five's "
            "(its game should be 'highfive')",
            "hand": None,
            "event": None,
        }
    ]


def test_analyse_piped_is_one_line_per_decision_numbered_from_one(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    assert run("selfplay", "--seed", "3", "--out", str(game)).returncode == 0
    proc = run("analyse", str(game), "--seat", "2", "--worlds", "2")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[-1].endswith("(threshold 5 chips)")
    decisions = out[:-1]
    assert decisions and all(x.startswith("hand ") and " move " in x for x in decisions)
    assert decisions[0].startswith("hand 1 move ") and max(len(x) for x in decisions) > 80
    assert "SIDE_" not in proc.stdout
    doc = json.loads(run("analyse", str(game), "--seat", "2", "--worlds", "2", "--json").stdout)
    assert doc["seat"] == 1 and len(doc["decisions"]) == len(decisions)
    assert all(v["text"] for d in doc["decisions"] for v in d["values"])
    bad = run("analyse", str(game), "--seat", "3")
    assert bad.returncode == 2 and "seat 3 is not at this table (seats 1–2)" in bad.stderr


def test_terminal_play_against_a_bot_that_crashes(tmp_path: Path) -> None:
    crash = ROOT / "tests" / "bots" / "programs" / "crash.py"
    save = tmp_path / "vs.json"
    bot = f"cmd:{sys.executable} {crash}"
    proc = run("play", "--bots", bot, "--seed", "4", "--save", str(save), stdin="1\n" * 300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = " ".join(proc.stdout.split())
    assert "A bot failed: seat 2" in text and "ran out of ideas; it forfeits the game" in text
    assert "Game over: You win." in text
    meta = json.loads(save.read_text())["meta"]
    assert meta["failures"][0]["seat"] == 1 and meta["failures"][0]["then"] == "forfeit"
    resumed = run("play", "--resume", str(save))
    assert resumed.returncode == 2 and "ended when a bot forfeited" in resumed.stderr


def test_a_merry_go_round_saved_before_its_first_set_resumes_with_the_same_setter(
    tmp_path: Path,
) -> None:
    """Hand 0's setter is drawn at random, and a record names it only by its first event: a game
    saved before that event is dealt again from its seed on resume, so the same seat sets."""
    from boneyard.cli.main import _resumed
    from boneyard.cli.play import deal_rng, save_record
    from boneyard.games.registry import get_spec

    spec = get_spec("merry-go-round")
    setters = {}
    for seed in range(40):
        state = spec.new_game(2, {})
        state.deal_random(deal_rng(seed, 0))
        setters[seed] = (state.current_seat, state)
    assert {seat for seat, _ in setters.values()} == {0, 1}
    for seed, (seat, state) in setters.items():
        if seat != 1:
            continue
        path = save_record(
            state, tmp_path / f"g{seed}.json", {"seed": seed, "bots": [None, "greedy"]}
        )
        _spec, again, _bots, _seed = _resumed(path)
        assert again.current_seat == 1 and again.record() == state.record()
        # A record whose tiles are not the seed's is read as it is (seat 0 opens then).
        doc = json.loads(path.read_text())
        doc["meta"]["seed"] = seed + 1000
        path.write_text(json.dumps(doc))
        assert _resumed(path)[1].record()["hands"] == doc["hands"]
