"""``boneyard bot connect`` against a running ``boneyard serve``: the time of each move comes
from the table's clock (a program thinking 8 s plays on under a 30 s clock; one thinking longer
than a 5 s clock allows fails there, at the clock's time less the safety margin, before the clock
takes the seat), a reconnect takes on only the tables the bot still holds (a challenge is played,
not stranded), and the client's errors are one line each."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from boneyard.cli.botclient import Client, Timing, safety
from tests.server.botapi.test_bot_accounts_live import bot_account, wait_status
from tests.server.browser import ROOMY_ENV, running, serve_argv, signed_in

ROOT = Path(__file__).resolve().parents[3]
THINKER = ROOT / "tests" / "bots" / "programs" / "thinker.py"
QUICK = f"cmd:{sys.executable} {ROOT / 'examples' / 'python_bot.py'}"
SHORT = {"game": "highrise", "options": {"single_hand": True}}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    # A loaded 2-core machine can take more than a minute to start a server.
    with running(serve_argv(tmp_path / "s.db"), tmp_path / "log", env=ROOMY_ENV) as url:
        yield url


def thinker(seconds: float, starts: Path) -> str:
    return f"cmd:{sys.executable} {THINKER} {seconds} {starts}"


def client(url: str, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "boneyard", "bot", "connect", "--server", url, *args]
    return subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **(env or {})},
    )


def challenge(person: httpx.Client, bot: str, clock: dict[str, int]) -> str:
    seats = [{"kind": "account", "account": bot}, {"kind": "bot"}]
    r = person.post("/api/tables", json={**SHORT, "seats": seats, "clock": clock})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def test_a_bot_thinking_8_s_plays_on_under_a_30_s_clock(site: str, tmp_path: Path) -> None:
    """The old client stopped every program after 5 s, whatever the table's clock."""
    _owner, token = bot_account(site, "thinkbot")
    person = signed_in(site, "Clocked")
    tid = challenge(person, "thinkbot", {"per_move": 30})
    starts = tmp_path / "starts.jsonl"
    bot = client(site, "--bots", thinker(8, starts), "--games", "1", env={
        "BONEYARD_BOT_TOKEN": token})  # fmt: skip
    try:
        out, _ = bot.communicate(timeout=300)
    finally:
        bot.kill()
    assert bot.returncode == 0, out
    assert "game over" in out and "timeout" not in out, out
    start = json.loads(starts.read_text().splitlines()[0])
    assert start["move_seconds"] == 30 - safety(30)
    record = person.get(f"/api/tables/{tid}/record").json()
    moves = [e for h in record["hands"] for e in h["events"] if e.get("seat") == 0]
    assert len(moves) >= 3, record  # the slow second move, and the game went on after it
    assert wait_status(person, tid, "over")["seats"][0]["kind"] == "person"  # never taken over


def test_a_bot_slower_than_the_clock_fails_in_time_and_a_reconnect_plays_a_new_challenge(
    site: str, tmp_path: Path
) -> None:
    """Under a 5 s clock a program thinking 8 s is stopped at 5 s less the safety margin (not
    the old fixed 5 s, nor a clock-blind limit); once the clock gave its seat to a site bot, a
    new connection with ``--games 1`` takes on only the new challenge and plays it out."""
    _owner, token = bot_account(site, "slowbot")
    token_file = tmp_path / "token"
    token_file.write_text(token + "\n")
    person = signed_in(site, "Host")
    first = challenge(person, "slowbot", {"per_move": 5, "grace": 0})
    slow = client(site, "--token-file", str(token_file), "--bots", thinker(8, tmp_path / "s"),
                  "--games", "1")  # fmt: skip
    try:
        out, _ = slow.communicate(timeout=120)
    finally:
        slow.kill()
    assert slow.returncode == 3, out
    limit = re.search(r"timeout: no answer within ([0-9.]+) s", out)
    assert limit is not None, out
    assert 1.0 < float(limit.group(1)) <= 5 - safety(5), out  # what the clock left, less margin
    end = time.monotonic() + 60
    while person.get(f"/api/tables/{first}").json()["seats"][0]["kind"] != "bot":
        assert time.monotonic() < end, "the clock never gave the seat to a bot"
        time.sleep(0.2)
    second = challenge(person, "slowbot", {"per_move": 30})
    quick = client(site, "--token-file", str(token_file), "--bots", QUICK, "--games", "1")
    try:
        out, _ = quick.communicate(timeout=300)
    finally:
        quick.kill()
    assert quick.returncode == 0, out
    assert first not in out and f"table {second}: game over" in out, out
    wait_status(person, second, "over")


def test_one_line_errors_unreachable_server_bad_token_refused_challenge(site: str) -> None:
    down = client("http://127.0.0.1:9", "--token", "byt_x", "--bots", "greedy")
    out, _ = down.communicate(timeout=60)
    assert down.returncode == 2
    assert out.strip() == "error: cannot reach the server at http://127.0.0.1:9: Connection refused"
    bad = client(site, "--bots", "greedy", env={"BONEYARD_BOT_TOKEN": "byt_" + "x" * 40})
    out, _ = bad.communicate(timeout=60)
    assert bad.returncode == 1
    assert out.strip() == "error: the server refused the token (unknown or revoked)"
    _owner, token = bot_account(site, "lonely")
    lines: list[str] = []
    accepting = Client(site, token, "greedy", 1, True, lines.append)
    asyncio.run(accepting.challenge("no-such-table", "highfive"))
    assert lines[-1].startswith("challenge at table no-such-table: the server refused to accept")
    assert "\n" not in lines[-1] and not accepting.taken


def view(seat: int, clock: dict[str, Any] | None) -> dict[str, Any]:
    return {"type": "view", "seat": seat, "clock": clock}


def test_the_time_of_a_move_is_the_clocks_less_the_margin_within_move_time() -> None:
    timing = Timing(None)
    timing.saw(view(0, {"per_move": 30, "seat": 0, "phase": "move", "remaining": 12.0}))
    assert 12 - safety(12) - 0.1 < timing.seconds(program=False) <= 12 - safety(12)
    timing.saw(view(0, {"per_move": 30, "seat": 1, "phase": "move", "remaining": 12.0}))
    assert timing.seconds(program=False) == 60  # the clock runs for another seat: no clock
    capped = Timing(4.0)
    capped.saw(view(0, {"per_move": 30, "seat": 0, "phase": "move", "remaining": 30.0}))
    assert capped.seconds(program=True) == 14.0  # a program's first answer: 10 s more
    assert capped.seconds(program=True) == 4.0
    assert capped.per_move(view(0, {"per_move": 30})) == 4.0
    assert Timing(None).per_move(view(0, {"per_move": 60})) == 60 - safety(60)
    late = Timing(None)
    late.saw(view(0, {"per_move": 30, "seat": 0, "phase": "grace", "remaining": 0.2}))
    assert late.seconds(program=False) == 0.5  # the least a move is given


def test_a_game_over_before_the_client_joined_it_or_a_fault_of_its_own_ends_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A taken table whose game the stream says is over (it began and ended between two looks)
    is done with, once; any other table's ``game_finish`` is not the client's to count. A fault
    of the client's own at a table is said and the table left: the run ends (exit code 3), where
    the table's task used to die in silence and the client wait for ever."""
    lines: list[str] = []

    async def finishes() -> Client:
        c = Client("http://127.0.0.1:9", "byt_x", "greedy", 2, True, lines.append)
        c.taken |= {"t1", "t2"}
        c.playing.add("t2")
        for table in ("t1", "t1", "t2", "t3"):
            await c.on_event({"type": "game_finish", "table": table, "status": "over"}, set())
        return c

    c = asyncio.run(finishes())
    assert lines == ["table t1: the game ended (over) before the client joined it"]
    assert c.finished == 1 and c.over == {"t1"} and not c.done.is_set()  # t2 is being played

    async def broken(self: Client, table_id: str, decider: object) -> None:
        raise KeyError("version")

    monkeypatch.setattr(Client, "_play", broken)
    lines.clear()
    faulty = Client("http://127.0.0.1:9", "byt_x", "greedy", 1, True, lines.append)
    faulty.taken.add("t4")
    asyncio.run(faulty.play("t4"))
    assert lines == ["table t4: the client failed (KeyError('version')); it leaves this table"]
    assert faulty.done.is_set() and faulty.left == 1
