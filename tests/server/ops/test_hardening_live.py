"""Hardening (issue 14) against a real ``boneyard serve`` process: what only a real server and
real sockets show — frames never read, slow connections cut off, bodies refused while they
stream, and uploads replayed beside a live game without delaying its moves."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from bench.attacks import big_frame, closed_with, long_record, rss_mb, ws_handshake
from bench.faults import Server
from bench.flood import connection_flood
from bench.hall import hall
from tests.server.browser import ROOMY_ENV, running, serve_argv, signed_in
from tests.server.conftest import metric


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    env = {**ROOMY_ENV, "BONEYARD_UPLOAD_QUEUE": "3"}
    with running(
        serve_argv(tmp_path / "s.db", "--request-timeout", "2"), tmp_path / "log", env=env
    ) as url:
        yield url


def pid_of(url: str) -> int:
    """The process listening on ``url``'s port."""
    port = int(url.rsplit(":", 1)[1])
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        if parts[1].endswith(f":{port:04X}") and parts[3] == "0A":
            inode = parts[9]
    assert inode is not None
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue
            for fd in fds:
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                        return int(pid)
                except OSError:
                    continue
    raise AssertionError("no process listens there")


def open_table(h: httpx.Client) -> str:
    r = h.post("/api/tables", json={"seats": [{"kind": "me"}, {"kind": "open"}], "start": False})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


# -- 5: frames over the limit are never read -----------------------------------------------------


def test_an_oversized_frame_closes_the_socket_unread(site: str) -> None:
    h = signed_in(site, "Una")
    tid = open_table(h)
    pid = pid_of(site)
    before = rss_mb(pid)
    sockets = []
    for _ in range(20):  # the attack: 20 sockets each announcing a 16 MiB frame
        s = ws_handshake(int(site.rsplit(":", 1)[1]), f"/ws/tables/{tid}")
        s.sendall(big_frame())
        sockets.append(s)
    codes = [closed_with(s) for s in sockets]
    assert codes == [1009] * 20  # "message too big", before the payload was read
    assert rss_mb(pid) - before < 40  # (before the fix: 278 → 1,000 MB)
    assert h.get("/api/games").status_code == 200


# -- 10: slow connections are cut off ------------------------------------------------------------


def test_slow_connections_are_cut_off_and_honest_ones_served(site: str) -> None:
    host, port = site.removeprefix("http://").split(":")
    slow = []
    for i in range(200):
        s = socket.create_connection((host, int(port)), timeout=10)
        if i % 2:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # headers that never end
        slow.append(s)
    assert httpx.get(site + "/api/games", timeout=10).status_code == 200
    deadline = time.monotonic() + 15
    for s in slow:  # request timeout 2 s: every one is closed by the server
        s.settimeout(max(0.1, deadline - time.monotonic()))
        assert s.recv(1024) == b""
        s.close()
    assert httpx.get(site + "/api/games", timeout=10).status_code == 200


# -- 1: bodies refused while they stream ---------------------------------------------------------


def test_oversized_bodies_are_refused_while_they_stream(site: str) -> None:
    h = signed_in(site, "Cy")
    pid = pid_of(site)
    before = rss_mb(pid)

    def chunks() -> Iterator[bytes]:
        yield b'{"record": {"padding": "'
        for _ in range(100):  # 100 MB, in 1 MB chunks, without a Content-Length
            yield b"x" * 1_000_000
        yield b'"}}'

    r = h.post("/api/replays", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["detail"]
    assert rss_mb(pid) - before < 30  # (before the fix: 219 → 843 MB)
    r = h.post("/api/replays", content=b"x" * 3_000_000)  # declared: refused before it is read
    assert r.status_code == 413
    r = h.post("/api/tables", content=b" " * 100_000, headers={"Content-Type": "application/json"})
    assert r.status_code == 413  # every route has a bound (64 KB)


# -- 1: uploads are replayed off the event loop ---------------------------------------------------


def moves_within(site: str, seconds: float) -> tuple[int, int]:
    """How many moves the server applied within ``seconds``, and in all (its /metrics)."""
    text = httpx.get(site + "/metrics", timeout=10).text
    within = metric(text, f'boneyard_action_seconds_bucket{{le="{seconds}"}}')
    return int(within), int(metric(text, "boneyard_action_seconds_count"))


def next_view(ws: Any) -> dict[str, Any]:
    """The next view (or resync) a socket receives."""
    while True:
        msg: dict[str, Any] = json.loads(ws.recv())
        if msg.get("type") in ("view", "resync") and msg.get("view") is not None:
            return msg


def timed_move(ws: Any, view: dict[str, Any], latencies: list[float]) -> dict[str, Any]:
    """Wait for a view with moves, play the first at a person's pace, time its answer (added
    to ``latencies``); returns the answer."""
    while not view["moves"] and not view["view"]["is_over"]:
        view = next_view(ws)
    if view["view"]["is_over"]:
        return view
    time.sleep(0.05)  # a person's pace: the moves spread over the uploads' time
    sent = time.perf_counter()
    ws.send(json.dumps({"seq": view["version"], "action": view["moves"][0]["event"]}))
    answer = next_view(ws)
    latencies.append(time.perf_counter() - sent)
    return answer


def test_uploads_never_delay_a_move_at_another_table(site: str) -> None:
    import threading

    record = long_record()
    huge = dict(record, hands=record["hands"] * 24)  # ~20,000 events, as in the finding
    ann = signed_in(site, "Ann")
    tid = ann.post("/api/quickplay").json()["id"]
    answers: list[int] = []
    refused: list[tuple[int, str]] = []

    def upload(doc: dict[str, Any] = record) -> None:
        with httpx.Client(base_url=site, timeout=60) as u:
            u.get("/api/me")
            u.headers["X-CSRF-Token"] = u.cookies["boneyard_csrf"]
            r = u.post("/api/replays", json={"record": doc})
            if doc is huge:
                refused.append((r.status_code, r.json()["detail"]))
            else:
                answers.append(r.status_code)

    cookie = "; ".join(f"{k}={v}" for k, v in ann.cookies.items())
    ws_url = site.replace("http://", "ws://") + f"/ws/tables/{tid}"
    quiet: list[float] = []
    latencies: list[float] = []
    before = moves_within(site, 0.1)
    with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
        view = next_view(ws)
        while len(quiet) < 5 and not view["view"]["is_over"]:  # the machine's pace, no uploads
            view = timed_move(ws, view, quiet)
        first = threading.Thread(target=upload, args=(huge,))  # (first: before the queue fills)
        first.start()
        first.join()
        uploads = [threading.Thread(target=upload) for _ in range(6)]
        for t in uploads:
            t.start()
        while any(t.is_alive() for t in uploads) and not view["view"]["is_over"]:
            view = timed_move(ws, view, latencies)
        for t in uploads:
            t.join()
    assert latencies, "no move was timed during the uploads"
    # Every move was applied (lock, rules, commit, views sent) as fast during the uploads as
    # before them, as the client saw it: typically a few ms each (before the fix: stalled for
    # a whole replay, hundreds of ms). Measured against the same moves without uploads, so that
    # a loaded machine, which slows both, does not fail the test.
    total = moves_within(site, 0.1)[1] - before[1]
    assert total >= len(quiet) + len(latencies), (total, quiet, latencies)
    usual = max(0.05, 3 * statistics.median(quiet))
    assert statistics.median(latencies) < usual, (latencies, quiet)
    assert answers.count(200) >= 4 and set(answers) <= {200, 503}  # 1 running + 3 queued
    # The 20,000 events are counted, not replayed (bench/attacks.py times it: 58 ms unloaded).
    assert refused == [(400, "the record is too long to view (over 5000 events)")], refused


def test_an_upload_that_takes_too_long_is_stopped(tmp_path: Path) -> None:
    env = {**ROOMY_ENV, "BONEYARD_UPLOAD_SECONDS": "0.05"}
    with running(serve_argv(tmp_path / "t.db"), tmp_path / "log", env=env) as url:
        h = signed_in(url, "Tim")
        r = h.post("/api/replays", json={"record": long_record()})  # (starts the worker pool)
        assert r.status_code == 400 and "took too long" in r.json()["detail"]
        started = time.monotonic()  # the worker is cut off, not waited for to the end
        r = h.post("/api/replays", json={"record": long_record()})
        assert r.status_code == 400 and "took too long" in r.json()["detail"]
        assert time.monotonic() - started < 10
        big = long_record()
        big["hands"] = big["hands"] * 40  # 19,000+ events: refused before any replay
        r = h.post("/api/replays", json={"record": big})
        assert r.status_code in (400, 413), r.text
        assert h.get("/api/games").status_code == 200


# -- issue 28, 1: one address cannot take every connection ----------------------------------------


def test_a_connection_flood_from_one_address_leaves_an_honest_client_served(
    tmp_path: Path,
) -> None:
    """900 idle connections and spectator sockets from 127.0.0.2 against a server that holds 512
    (before: uvicorn let them all in and answered every honest request 503) while a person on
    127.0.0.3 plays a bot and reads the lobby: the attacker holds at most its 32, the person is
    served throughout. bench/flood.py runs the full 8,000 + 8,000 and times it."""
    srv = Server(
        str(tmp_path / "flood.db"),
        bot_delay=0.2,
        # (Timeouts longer than the test: a connection the server cut would free one of the
        # address's 32 for a later one, and how many it cuts depends on the machine's load.)
        args=(
            "--max-connections",
            "512",
            "--max-connections-per-address",
            "32",
            "--header-timeout",
            "600",
            "--request-timeout",
            "600",
        ),
    )
    srv.start()
    try:
        found = asyncio.run(connection_flood(srv, 600, 300, hold_s=2.0, baseline_s=3.0))
    finally:
        srv.stop()
    attacker = found["attacker"]
    assert attacker["idle"]["tried"] == 600 and attacker["sockets"]["tried"] == 300
    assert attacker["sockets"]["upgraded"] <= 32, found
    assert sum(attacker["held_at_end"].values()) <= 32, found
    assert found["server_connections_peak"] <= 32 + 8, found  # (+ the person's and /metrics)
    # All but the address's 32 are refused at once by its count (a gate that did not count by
    # address refuses none): 868 in each of five runs at loads 1-5; the margin is for any of
    # the 32 that ends during the attack and frees its slot for a later one (852 seen once).
    assert found["server_refusals"]["connections_address"] >= 900 - 32 - 64, found
    assert set(found["answers"]) == {"200"} and found["gets"] >= 5, found  # (before: all 503)
    assert found["honest_moves"]["moves"] >= 1, found
    # Read as fast during the flood as before it, on this machine whatever its load (bench/flood.py
    # gives the figures of the full flood).
    quiet = found["before_the_attack"]
    assert set(quiet["answers"]) == {"200"}, found
    assert found["get_ms_p95"] < max(300, 5 * quiet["get_ms_p95"]), found


def test_a_halls_phones_behind_one_address_follow_their_event_once_its_staff_do(
    tmp_path: Path,
) -> None:
    """40 phones behind one address (a hall's Wi-Fi), six connections each as a browser's,
    follow an over-the-board event of 40 walk-ins on a server that lets an address hold 16
    connections. While no one on the event's staff follows it from there, the address is held
    to its 16 and phones are refused; once its director does (the console asks for the event),
    the address may hold 8 connections a person entered, and every phone is answered."""
    srv = Server(str(tmp_path / "hall.db"), args=("--max-connections-per-address", "16"))
    srv.start()
    try:
        unknown = asyncio.run(hall(srv.base, 40, polls=2, director=False, every=0.5))
        known = asyncio.run(hall(srv.base, 40, polls=2, director=True, every=0.5))
    finally:
        srv.stop()
    assert sum(unknown.values()) == 40 * 9 and unknown.get("200", 0) < 40 * 9, unknown
    assert known == {"200": 40 * 9}, known
