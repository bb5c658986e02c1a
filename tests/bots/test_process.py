"""Bots in another process (the boneyard-bot/1 protocol), run as real programs by the real
``boneyard`` command: the Python and Node examples play every game; a bot that answers
illegally, one that times out and one that crashes are refereed (forfeit, or a fallback bot)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from boneyard.bots import GreedyBot, make_bot
from boneyard.bots.process import stop_idle
from boneyard.bots.referee import Rules, Seat, play
from boneyard.games.registry import get_spec
from tests.games.golden import GAMES
from tests.services import needs

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = Path(__file__).parent / "programs"
PYTHON_BOT = f"cmd:{sys.executable} {ROOT / 'examples' / 'python_bot.py'}"
NODE_BOT = f"cmd:node {ROOT / 'examples' / 'node_bot.js'}"
SHORT = {"high-fives": ["-o", "target=20"], "highrise": ["-o", "single_hand=true"]}


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boneyard", "arena", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def bad(name: str) -> str:
    return f"cmd:{sys.executable} {PROGRAMS / name}"


needs_node = needs("node")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bot", [PYTHON_BOT, pytest.param(NODE_BOT, marks=needs_node)])
def test_the_example_bots_play_every_game(bot: str, game: str) -> None:
    r = arena(
        "--game", game, "--bots", f"{bot},greedy", "--games", "2", "--json", *SHORT.get(game, [])
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["games"] == 2 and doc["failures"] == []
    figures = {b["bot"]: b for b in doc["bots"]}
    assert figures[bot]["games"] == 2 and figures[bot]["decisions"] > 0
    assert figures[bot]["forfeits"] == 0


@needs_node
def test_the_node_bot_plays_the_same_game_from_the_same_seed() -> None:
    runs = [
        arena("--bots", f"{NODE_BOT},greedy", "--games", "2", "--json", "--seed", "7")
        for _ in range(2)
    ]
    docs = [json.loads(r.stdout)["bots"] for r in runs]
    assert docs[0][0]["avg_points"] == docs[1][0]["avg_points"]


@pytest.mark.parametrize(
    ("program", "kind", "says"),
    [
        (
            "illegal.py",
            "illegal",
            'it answered {"action": {"play": "9-9"}}, which is not one of its legal actions',
        ),
        ("garbage.py", "illegal", "it answered 'thinking...', which is not JSON"),
        ("slow.py", "timeout", "no answer within 0.5 s"),
        ("crash.py", "crash", "the program exited (code 3): Traceback: my bot ran out of ideas"),
    ],
)
def test_a_failing_bot_forfeits_and_the_arena_says_why(program: str, kind: str, says: str) -> None:
    r = arena("--bots", f"{bad(program)},greedy", "--games", "2", "--move-time", "0.5", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    failures = doc["failures"]
    assert [f["kind"] for f in failures] == [kind, kind]
    assert all(f["then"] == "forfeit" and f["bot"] == bad(program) for f in failures)
    assert says in failures[0]["detail"]
    figures = {b["bot"]: b for b in doc["bots"]}
    assert figures[bad(program)]["wins"] == 0 and figures[bad(program)]["forfeits"] == 2
    assert figures["greedy"]["wins"] == 2
    text = arena("--bots", f"{bad(program)},greedy", "--games", "2", "--move-time", "0.5")
    assert "forfeited 2 games" in text.stderr and says in " ".join(text.stderr.split())


@needs_node
def test_a_node_bot_answering_a_wrong_index_forfeits() -> None:
    node = f"cmd:node {PROGRAMS / 'illegal.js'}"
    doc = json.loads(arena("--bots", f"{node},greedy", "--games", "2", "--json").stdout)
    assert [f["kind"] for f in doc["failures"]] == ["illegal", "illegal"]
    assert "legal actions (0-based)" in doc["failures"][0]["detail"]


def test_a_fallback_bot_plays_on_and_the_game_ends(tmp_path: Path) -> None:
    r = arena(
        "--bots", f"{bad('crash.py')},random", "--games", "2", "--on-error", "greedy",
        "--json", "--out", str(tmp_path),
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [(f["kind"], f["then"]) for f in doc["failures"]] == [("crash", "greedy")] * 2
    figures = {b["bot"]: b for b in doc["bots"]}
    assert figures[bad("crash.py")]["fallbacks"] == 2 and figures[bad("crash.py")]["forfeits"] == 0
    for path in sorted(tmp_path.glob("*.json")):
        record = json.loads(path.read_text())
        assert record["meta"]["failures"][0]["then"] == "greedy"
        replayed = subprocess.run(
            [sys.executable, "-m", "boneyard", "replay", str(path)], capture_output=True, text=True
        )
        assert replayed.returncode == 0 and '"game_end"' in replayed.stdout


def test_a_bot_program_that_cannot_start_is_refused_before_any_game() -> None:
    r = arena("--bots", "cmd:no-such-program --x,greedy", "--games", "2")
    assert r.returncode == 2
    assert "there is no program 'no-such-program' to run" in r.stderr


def test_the_protocol_messages_a_bot_receives(tmp_path: Path) -> None:
    """A recording bot: start (game, options, seat, names, seed), act (observation without its
    legal actions, which come beside it), end (winner, scores); several games, one program."""
    log = tmp_path / "log.jsonl"
    recorder = tmp_path / "recorder.py"
    recorder.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    if json.loads(line)['type'] == 'act':\n"
        "        print(json.dumps({'index': 0}), flush=True)\n"
    )
    spec = get_spec("highfive")
    rules = Rules(move_seconds=5)
    for game in range(2):
        state = spec.new_game(2, {"preset": "pda"})
        state.names = ["Rec", "Greedy"]
        bot = make_bot(f"cmd:{sys.executable} {recorder}", random.Random(1), rules)
        seats = [
            Seat("rec", bot, rules, seed=41 + game),
            Seat("greedy", GreedyBot(random.Random(2)), rules),
        ]
        run = play(state, seats, random.Random(game), title=spec.title)
        assert run.failures == []
    stop_idle()
    messages = [json.loads(x) for x in log.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds[0] == "start" and kinds.count("start") == 2 and kinds.count("end") == 2
    assert kinds.index("end") < len(kinds) - 1  # the second game went to the same program
    start = messages[0]
    assert start == {
        "type": "start",
        "protocol": "boneyard-bot/1",
        "game": "highfive",
        "title": "High Five",
        "players": 2,
        "seat": 0,
        "names": ["Rec", "Greedy"],
        "options": state.record()["options"],
        "seed": 41,
        "move_seconds": 5,
    }
    act = next(m for m in messages if m["type"] == "act")
    assert act["legal_actions"] and "legal_actions" not in act["observation"]
    assert act["observation"]["game"] == "highfive" and act["observation"]["seat"] == 0
    end = next(m for m in messages if m["type"] == "end")
    assert set(end) == {"type", "winner", "scores", "reason", "forfeit"} and end["forfeit"] is None
