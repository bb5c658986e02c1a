"""A bot account end to end against a real ``boneyard serve`` process: ``boneyard bot connect``
relaying a ``cmd:`` program (examples/python_bot.py) plays whole games — challenged to a table
against a built-in bot, and against a person — and is refused with a revoked token."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.browser import ROOMY_ENV, running, serve_argv, signed_in

ROOT = Path(__file__).resolve().parents[3]
PROGRAM = f"cmd:{sys.executable} {ROOT / 'examples' / 'python_bot.py'}"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    with running(serve_argv(tmp_path / "s.db"), tmp_path / "log", env=ROOMY_ENV) as url:
        yield url


def bot_account(url: str, name: str) -> tuple[httpx.Client, str]:
    """A registered account made a bot, signed in, and a new token of it."""
    h = httpx.Client(base_url=url, timeout=30)
    h.get("/api/me")
    h.headers["X-CSRF-Token"] = h.cookies["boneyard_csrf"]
    r = h.post("/api/register", json={"username": name, "password": "correct horse staple 9"})
    assert r.status_code == 200, r.text
    h.headers["X-CSRF-Token"] = h.cookies["boneyard_csrf"]
    assert h.post("/api/me/bot").status_code == 200
    r = h.post("/api/me/tokens", json={"name": "test"})
    assert r.status_code == 200, r.text
    return h, str(r.json()["token"])


def connect_bot(url: str, token: str, *extra: str) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "boneyard", "bot", "connect", "--server", url, "--token", token]
    return subprocess.Popen(
        [*argv, *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def wait_status(h: httpx.Client, tid: str, status: str, seconds: float = 240) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        info = h.get(f"/api/tables/{tid}").json()
        if info["status"] == status:
            return dict(info)
        time.sleep(0.2)
    raise AssertionError(f"table {tid} never became {status}: {info}")


def test_a_challenged_bot_account_plays_a_whole_game_against_a_builtin_bot(site: str) -> None:
    _owner, token = bot_account(site, "relaybot")
    person = signed_in(site, "Challenger")
    r = person.post(
        "/api/tables",
        json={"seats": [{"kind": "account", "account": "relaybot"}, {"kind": "bot"}]},
    )
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    bot = connect_bot(site, token, "--bots", PROGRAM, "--games", "1")
    try:
        out, _ = bot.communicate(timeout=300)
    finally:
        bot.kill()
    assert bot.returncode == 0, out
    assert "accept" in out and "game over" in out
    info = wait_status(person, tid, "over")
    assert info["seats"][0]["bot_account"] is True and info["seats"][0]["name"] == "relaybot"
    record = person.get(f"/api/tables/{tid}/record").json()
    # (in any hand: a first deal thrown in has no moves)
    assert any(e.get("seat") == 0 for hand in record["hands"] for e in hand["events"])
    # The client seeded the hands it played (the table did not wait out its seed window).
    hands = record["meta"]["fairness"]["hands"]
    assert any(h["client_seeds"][0] is not None for h in hands), hands


def test_a_failing_program_leaves_its_seat_to_the_clock_and_says_so(site: str) -> None:
    _owner, token = bot_account(site, "crashbot")
    person = signed_in(site, "Host")
    r = person.post(
        "/api/tables",
        json={"seats": [{"kind": "account", "account": "crashbot"}, {"kind": "bot"}]},
    )
    assert r.status_code == 200, r.text
    crash = f"cmd:{sys.executable} {ROOT / 'tests' / 'bots' / 'programs' / 'crash.py'}"
    client = connect_bot(site, token, "--bots", crash, "--games", "1")
    try:
        out, _ = client.communicate(timeout=120)
    finally:
        client.kill()
    assert client.returncode == 3, out
    assert "the bot failed (crash" in out and "turn clock" in out, out
    assert "ran out of ideas" in out, out  # its standard error, quoted


LIBRARY_GAMES = [
    ("highfive", {}, "greedy"),
    ("merry-go-round", {"target": 21}, "expert"),
    # (30: more than one turn can take, 22 at most, so that the client's seat plays)
    ("high-fives", {"target": 30}, "greedy"),
    ("highrise", {"single_hand": True}, "expert"),
]


@pytest.mark.parametrize(
    ("game", "options", "bot"), LIBRARY_GAMES, ids=[g for g, *_ in LIBRARY_GAMES]
)
def test_a_library_bot_plays_a_whole_game_through_the_client(
    site: str, game: str, options: dict[str, Any], bot: str
) -> None:
    """``--bots expert`` (or greedy) runs in the client on the observation the site's JSON
    decodes to, in every game; its moves are the game's legal moves, to the end."""
    _owner, token = bot_account(site, "librarybot")
    person = signed_in(site, "Host")
    r = person.post(
        "/api/tables",
        json={"game": game, "options": options,
              "seats": [{"kind": "account", "account": "librarybot"}, {"kind": "bot"}]},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    client = connect_bot(site, token, "--bots", bot, "--games", "1")
    try:
        out, _ = client.communicate(timeout=300)
    finally:
        client.kill()
    assert client.returncode == 0, out
    assert "game over" in out and "error" not in out, out
    wait_status(person, tid, "over")
    record = person.get(f"/api/tables/{tid}/record").json()
    played = [e for h in record["hands"] for e in h["events"] if e.get("seat") == 0]
    assert played, record


def play_person(url: str, h: httpx.Client, tid: str) -> dict[str, Any]:
    """Play the person's seat of ``tid`` (its first legal move each turn) to the game's end."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/tables/{tid}"
    cookie = "; ".join(f"{k}={v}" for k, v in h.cookies.items())
    with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
        while True:
            msg = json.loads(ws.recv(timeout=120))
            if msg.get("type") not in ("view", "resync") or msg.get("view") is None:
                continue
            if msg.get("result") is not None:
                return dict(msg)
            if msg["moves"]:
                move = {"seq": msg["version"], "action": msg["moves"][0]["event"]}
                ws.send(json.dumps(move))


def test_a_bot_account_plays_a_person_and_is_refused_once_revoked(site: str) -> None:
    owner, token = bot_account(site, "persontest")
    person = signed_in(site, "Pat")
    r = person.post(
        "/api/tables",
        json={"game": "highrise", "options": {"single_hand": True},
              "seats": [{"kind": "me"}, {"kind": "account", "account": "persontest"}]},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    bot = connect_bot(site, token, "--bots", PROGRAM, "--games", "1")
    try:
        wait_status(person, tid, "playing", 60)
        end = play_person(site, person, tid)
        out, _ = bot.communicate(timeout=120)
    finally:
        bot.kill()
    assert end["result"] is not None and bot.returncode == 0, out
    # Revoked: the client is refused at once (exit 1), and so is the stream.
    tokens = owner.get("/api/me/tokens").json()["tokens"]
    assert owner.delete(f"/api/me/tokens/{tokens[0]['id']}").status_code == 200
    refused = connect_bot(site, token, "--bots", PROGRAM)
    out, _ = refused.communicate(timeout=60)
    assert refused.returncode == 1 and "revoked" in out
    r = httpx.get(site + "/api/bot/stream", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 401
