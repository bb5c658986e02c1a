"""The terminal game as a person plays it, in a pseudo-terminal: a game saved mid-hand with q
and resumed (every game), layouts cut to the terminal's width, the per-game ? help; and the
hand ends of every game in words, as the record says."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from boneyard.bots import GreedyBot
from boneyard.cli.play import TerminalGame
from boneyard.core.records import record_from_json
from boneyard.games.fives.text import strip_markup
from boneyard.games.registry import get_spec, play_out
from tests.cli.terminal import Terminal
from tests.games.golden import GAMES

ROOT = Path(__file__).resolve().parents[2]
SHORT = {"high-fives": ["-o", "target=15"], "highrise": ["-o", "single_hand=true"]}
SYNTAX = {
    "highfive": "5-6 on 5-5 side_b",
    "merry-go-round": "the set",
    "high-fives": "claim 0-1 1-2 7-8 x 8-9",
    "highrise": "W-3 0,1 1,1",
}


def replay(path: Path) -> list[dict[str, object]]:
    r = subprocess.run(
        [sys.executable, "-m", "boneyard", "replay", str(path)], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return [json.loads(x) for x in r.stdout.splitlines()]


@pytest.mark.parametrize("game", GAMES)
def test_a_game_saved_mid_hand_resumes_where_it_was(game: str, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    term = Terminal("play", game, "--seed", "5", "--save", str(save), *SHORT.get(game, []))
    term.expect("Type ? for help")
    term.expect("your move: ")
    term.send("?")
    assert term.expect(SYNTAX[game]) and term.expect("play --resume FILE")
    term.send("1")
    term.expect("your move: ")
    term.send("q")
    term.expect("Game saved unfinished")
    assert term.close() == 0
    saved = json.loads(save.read_text())
    assert saved["meta"]["seed"] == 5 and saved["meta"]["bots"] == [None, "greedy"]
    events = saved["hands"][-1]["events"]
    assert events and not any(x.get("type") == "game_end" for x in replay(save))

    term = Terminal("play", "--resume", str(save))
    term.expect("(resumed) (seed 5)")
    moves = 0
    while term.expect("your move: ", "Game saved") == "your move: ":
        term.send("1")
        moves += 1
    assert term.close() == 0 and moves >= 1
    done = json.loads(save.read_text())
    assert done["hands"][len(saved["hands"]) - 1]["events"][: len(events)] == events
    setup = [
        {k: v for k, v in h.items() if k != "events"} for h in (done["hands"][0], saved["hands"][0])
    ]
    assert setup[0] == setup[1]  # the same deal
    assert replay(save)[-1]["type"] == "game_end"
    assert all(len(line) <= 80 for line in term.text.splitlines())


def test_resume_refuses_what_it_cannot_go_on_with(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "boneyard", *args], capture_output=True, text=True, timeout=120
        )

    finished = tmp_path / "bots.json"
    assert run("selfplay", "--seed", "2", "--out", str(finished)).returncode == 0
    r = run("play", "--resume", str(finished))
    assert r.returncode == 2 and "is over: there is nothing to resume" in r.stderr
    r = run("play", "--resume", str(finished), "--players", "3")
    assert r.returncode == 2 and "leave out --players" in " ".join(r.stderr.split())
    r = run("play", "--resume", str(tmp_path / "none.json"))
    assert r.returncode == 2 and "cannot read" in r.stderr


def double_pieces_hold_together(text: str) -> bool:
    """Every upright piece (a double across the line, a tile of a spinner's arm) is whole:
    ``┌a┐`` above ``│─│`` above ``└b┘``, in the same columns."""
    lines = text.splitlines()
    for r, line in enumerate(lines):
        for c in (k for k in range(len(line)) if line.startswith("│─│", k)):
            above = lines[r - 1] if r > 0 else ""
            below = lines[r + 1] if r + 1 < len(lines) else ""
            if above[c : c + 1] != "┌" or below[c : c + 1] != "└":
                return False
    return True


@pytest.mark.parametrize("game", ["highfive", "merry-go-round"])
def test_wide_layouts_are_cut_between_tiles(game: str) -> None:
    """Every position of a few whole games, drawn at 40 and 80 columns: no line is wider
    (bar a tile wider than the band), and every double stays whole with its row."""
    spec = get_spec(game)
    widest = 0
    for seed in range(6):
        state = spec.new_game(2, {})
        rng = random.Random(seed)
        bots = [GreedyBot(random.Random(seed + k)) for k in (1, 2)]
        while not state.is_over:
            if state.awaiting_deal:
                state.deal_random(rng)
                continue
            seat = state.current_seat
            assert seat is not None
            state.apply(bots[seat].choose(state.observation(seat)))
            obs = state.observation(0)
            full = strip_markup(spec.render(obs, ["Ann", "Bob"], None))
            widest = max(widest, *(len(x) for x in full.splitlines()))
            for width in (40, 80):
                text = strip_markup(spec.render(obs, ["Ann", "Bob"], width))
                drawn = [
                    x for x in text.splitlines() if "[" in x or "│" in x or "┌" in x or "└" in x
                ]
                assert all(len(x) <= width for x in drawn if "pips" not in x), text
                assert double_pieces_hold_together(text), text
    assert widest > 80  # some layouts were wider than the terminal


def terminal(game: str, players: int, human: int | None = 0, you: str = "You") -> TerminalGame:
    spec = get_spec(game)
    state = spec.new_game(players, {})
    state.names = [
        you if s == human else n for s, n in enumerate(["Ann", "Bob", "Cy", "Dee"][:players])
    ]
    humans = set() if human is None else {human}
    console = Console(file=open("/dev/null", "w"))  # noqa: SIM115
    return TerminalGame(spec, state, humans, {}, 1, console, input)


def hand_ends(game: str) -> list[dict[str, object]]:
    """Every hand_end line of the game's golden records."""
    out = []
    for path in sorted((ROOT / "tests" / "records" / game).glob("*.jsonl")):
        out += [json.loads(x) for x in path.read_text().splitlines() if '"hand_end"' in x]
    return out


@pytest.mark.parametrize(
    ("game", "line", "words"),
    [
        ("highfive", {"hand": 0, "type": "hand_end", "reason": "block", "winner": 1, "award": 15, "scores": [15, 15, 0]},
         "Hand 1 over: the hand is blocked; Bob has the fewest pips and collects 15. Scores: You 15, Bob 15, Cy 0"),
        ("highfive", {"hand": 2, "type": "hand_end", "reason": "block", "winner": None, "award": 0, "scores": [5, 5, 10]},
         "Hand 3 over: the hand is blocked with a tie: nobody scores. Scores: You 5, Bob 5, Cy 10"),
        ("highfive", {"hand": 0, "type": "hand_end", "reason": "block", "winner": 0, "award": 10, "scores": [10, 0, 0]},
         "the hand is blocked; You have the fewest pips and collect 10."),
        ("merry-go-round", {"hand": 0, "type": "hand_end", "reason": "block", "winner": None, "award": 0, "awards": [6, 0, 6], "scores": [6, 0, 6]},
         "the hand is blocked: You score 6, Bob scores nothing, Cy scores 6."),
        ("merry-go-round", {"hand": 0, "type": "hand_end", "reason": "block", "winner": 0, "award": 4, "awards": [4, 2, 0], "scores": [4, 2, 0]},
         "the hand is blocked: You score 4, Bob scores 2, Cy scores nothing."),
        ("highrise", {"hand": 0, "type": "hand_end", "reason": "block", "winner": None, "award": 0, "awards": [-60, -38], "scores": [100, 38]},
         "Hand 1 over: the hand is blocked: You lose 60, Bob loses 38. Scores: You 100, Bob 38"),
        ("highrise", {"hand": 0, "type": "hand_end", "reason": "domino", "winner": 2, "award": 37, "awards": [-22, -15, 37], "scores": [0, 17, 137]},
         "Cy goes out (domino): You lose 22, Bob loses 15, Cy scores 37."),
        ("high-fives", {"hand": 0, "type": "hand_end", "reason": "played_out", "winner": None, "award": 0, "scores": [49, 50]},
         "Hand 1 over: all tiles of the pass are played. Scores: You 49, Bob 50"),
    ],
)  # fmt: skip
def test_hand_ends_in_words(game: str, line: dict[str, object], words: str) -> None:
    scores = line["scores"]
    assert isinstance(scores, list)
    tg = terminal(game, len(scores))
    assert words in strip_markup(tg.describe_line(line) or "")


@pytest.mark.parametrize("game", GAMES)
def test_every_golden_hand_end_names_what_each_seat_got(game: str) -> None:
    """Each golden record's hand ends: a block's (or a domino's) awards, seat by seat, as the
    record says: nobody is left out and no "tie" where the record has awards."""
    lines = hand_ends(game)
    assert lines
    for line in lines:
        scores = line["scores"]
        assert isinstance(scores, list)
        if len(scores) > 4:
            continue
        text = strip_markup(terminal(game, len(scores), human=None).describe_line(line) or "")
        awards = line.get("awards")
        if isinstance(awards, list):
            names = ["Ann", "Bob", "Cy", "Dee"]
            for s, a in enumerate(awards):
                said = (
                    f"{names[s]} scores {a}"
                    if a > 0
                    else f"{names[s]} loses {-a}"
                    if a < 0
                    else f"{names[s]} scores nothing"
                )
                assert said in text, (line, text)
            assert "tie" not in text
        elif line["reason"] == "block" and line["winner"] is not None:
            assert f"collects {line['award']}" in text or not line["award"], (line, text)


def test_game_over_with_you_and_a_shared_win() -> None:
    tg = terminal("highfive", 3)
    won = {"type": "game_end", "winner": 0, "scores": [150, 20, 30]}
    assert "Game over: You win." in strip_markup(tg.describe_line(won) or "")
    shared = {"type": "game_end", "winner": None, "winners": [1, 2], "scores": [20, 150, 150]}
    assert "Game over: Bob and Cy share the win." in strip_markup(tg.describe_line(shared) or "")
    scored = {
        "hand": 0,
        "event": 1,
        "seat": 0,
        "type": "play",
        "tile": "5-5",
        "count": 10,
        "points": 10,
        "scores": [10, 0, 0],
    }
    assert "You score 10 (count 10)" in strip_markup(tg.describe_line(scored) or "")


def test_a_whole_bot_game_in_words_never_says_a_tie_with_awards() -> None:
    spec = get_spec("merry-go-round")
    state = spec.new_game(3, {})
    rng = random.Random(4)
    play_out(state, [GreedyBot(random.Random(k)).choose for k in range(3)], rng)
    tg = terminal("merry-go-round", 3, human=None)
    for line in spec.replay(record_from_json(state.record())):
        text = tg.describe_line(line)
        if line.get("awards"):
            assert text is not None and "tie" not in text
