"""Helpers for the server tests: apps on a temporary database, signed-in clients, sockets."""

from __future__ import annotations

import itertools
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from boneyard.server.app import create_app
from boneyard.server.ratelimit import DEFAULT_LIMITS
from boneyard.server.settings import SiteSettings
from boneyard.server.tables import fairness

METRICS_TOKEN = "test-metrics-token"
UNLIMITED = dict.fromkeys(DEFAULT_LIMITS, "1000000/second")
"""Rate limits no test reaches unless it means to (it then sets its own)."""
ROOMY = SiteSettings(
    bot_tables="everyone",
    bot_tables_per_person=10_000,
    bot_tables_total=10_000,
    open_tables_per_person=10_000,
    open_tables_per_guest=10_000,
    open_tables_per_address=10_000,
    events_per_person=10_000,
    event_bots=10_000,
    metrics_token=METRICS_TOKEN,
    pairing_per_address=10_000,
)
"""Caps no test reaches unless it means to."""

WS_DEADLINE = 120.0
"""Seconds a test's socket waits for the server's next message: far beyond a loaded machine's
slowness, far below the run's own limit (a message that never comes fails the test that waited
for it, with its name, instead of holding the whole run until CI stops it)."""


def receive_within(self: WebSocketTestSession) -> Any:
    """Starlette's ``receive`` (every ``receive_json`` goes through it), with a deadline."""

    async def within() -> Any:
        with anyio.fail_after(WS_DEADLINE):
            return await self._send_rx.receive()

    try:
        return self.portal.call(within)
    except TimeoutError:
        raise AssertionError(
            f"no message from the server's socket in {WS_DEADLINE:.0f} s"
        ) from None


WebSocketTestSession.receive = receive_within  # type: ignore[method-assign]


def make_app(db: str, **kw: Any) -> Any:
    """An app that lets bots move at once, deals a table created full at once and the next hand
    at once after a hand's end, and has limits
    and caps no test reaches unless it sets its own (``limits={name: rate}``, ``settings``)."""
    kw.setdefault("bot_delay", 0)
    kw.setdefault("bot_pace", 0)  # bots move at once where people play too
    kw.setdefault("hand_pause", 0)  # the next hand is dealt at once (test_between waits)
    kw["limits"] = {**UNLIMITED, **kw.get("limits", {})}
    kw.setdefault("settings", ROOMY)
    kw.setdefault("seed_window", 0)  # tables created full deal at once (test_client_seeds waits)
    return create_app(db, **kw)


def metrics_text(c: TestClient) -> str:
    """``/metrics`` as the operator reads it (with the token of :data:`ROOMY`)."""
    r = c.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    assert r.status_code == 200, r.text
    return r.text


def metric(text: str, name: str) -> float:
    """The value of the sample ``name`` (its first, with or without labels) in ``text``."""
    for line in text.splitlines():
        if line.startswith((name + " ", name + "{")):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} not in /metrics")


def receive_until(ws: Any, test: Callable[[dict[str, Any]], bool], limit: int = 2000) -> Any:
    """Messages until one passes ``test`` (errors fail the test)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "error":
            raise AssertionError(msg)
        if test(msg):
            return msg
    raise AssertionError("never came")


def clock_table(c: TestClient, clock: dict[str, Any], others: str = "bot") -> str:
    """Ann (seat 0) against a greedy bot (or an open seat), with ``clock``."""
    body = {"game": "highfive", "seats": [{"kind": "me"}, {"kind": others}], "clock": clock}
    r = post(c, "/api/tables", body)
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def live(c: TestClient, tid: str) -> Any:
    """The live table ``tid`` in ``c``'s app (its state, seats and sockets)."""
    return c.app.state.tables.live[tid]  # type: ignore[attr-defined]


def wait_for(test: Callable[[], bool], seconds: float = 20.0) -> None:
    """Poll ``test`` until it is true; fail after ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def play_moves(c: TestClient, table: Any, counts: dict[int, int]) -> None:
    """Each seat of ``counts`` makes (at least) that many moves, its first legal one each time,
    through the table's actor; the other seats move too when it is their turn."""
    from boneyard.server.tables.commands import Act

    made = dict.fromkeys(range(len(table.seats)), 0)
    while any(made[s] < n for s, n in counts.items()):
        seat = table.state.current_seat
        assert seat is not None and not table.state.is_over
        event = table.state.observation(seat).legal_actions[0].to_event()
        c.portal.call(table.ask, Act(seat, table.version, event))  # type: ignore[union-attr]
        made[seat] += 1


def hooks_settled(c: TestClient, seconds: float = 20.0) -> None:
    """Wait until no game-over hook (results, events, ratings) of ``c``'s app is running: what
    they would do is done, so that a test may assert what they did not do."""
    tables = c.app.state.tables  # type: ignore[attr-defined]
    wait_for(lambda: not tables._hooks, seconds)


def fast_dir() -> str | None:
    """A RAM disk for the database when there is one (SQLite commits are the slow part)."""
    return "/dev/shm" if Path("/dev/shm").is_dir() else None


@pytest.fixture
def tournament_client() -> Iterator[TestClient]:
    """A signed-out client of an app whose database is on the RAM disk (tournaments tests)."""
    with (
        tempfile.TemporaryDirectory(dir=fast_dir()) as d,
        TestClient(make_app(str(Path(d) / "tournaments.db"))) as c,
    ):
        c.get("/api/me")
        yield c


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """A real ``boneyard serve`` process on a fresh SQLite site (the browser tests; a module that
    needs other settings defines its own)."""
    from tests.server.browser import serve

    with serve(tmp_path / "site.db", tmp_path / "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a test module (each test opens contexts of its own in it);
    skips without Chromium. Module-scoped: Playwright's sync API holds an event loop that the
    async tests of other modules must not meet."""
    from playwright.sync_api import sync_playwright

    from tests.server.browser import launch

    with sync_playwright() as p:
        b = launch(p)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real ``boneyard serve`` process for a test module (its tests share the site: each
    signs in people of its own)."""
    from tests.server.browser import serve

    tmp = tmp_path_factory.mktemp("site")
    with serve(tmp / "site.db", tmp / "server.log") as url:
        yield url


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "boneyard.db")


@pytest.fixture
def client(db_path: str) -> Iterator[TestClient]:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")  # the CSRF cookie
        yield c


def csrf(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": c.cookies.get("boneyard_csrf") or ""}


def post(c: TestClient, path: str, body: Any = None) -> Any:
    return c.post(path, json=body, headers=csrf(c))


def register(c: TestClient, name: str, password: str = "correct horse") -> dict[str, Any]:
    """Sign ``c`` up as ``name``; returns the cookie jar of that session."""
    c.cookies.clear()
    c.get("/api/me")
    r = post(c, "/api/register", {"username": name, "password": password})
    assert r.status_code == 200, r.text
    return dict(c.cookies)


def use(c: TestClient, jar: dict[str, Any] | None) -> None:
    """Act as the person whose cookies are ``jar`` (``None``: nobody)."""
    c.cookies.clear()
    for k, v in (jar or {}).items():
        c.cookies.set(k, v)
    if jar is None:
        c.get("/api/me")


def until_turn(ws: Any, limit: int = 500) -> dict[str, Any]:
    """Receive views until this seat has moves or the game is over."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "error":
            raise AssertionError(msg)
        if msg["moves"] or (msg["view"] and msg["view"]["is_over"]):
            return msg
    raise AssertionError("no turn came")


def resync(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "resync"})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def thrown_in(seed: str, hand: int) -> bool:
    """Whether hand ``hand`` of a two-player High Five table (no client seeds) dealt from
    ``seed`` is thrown in (nobody holds a double: dealt again at once)."""
    state = fairness.new_state("highfive", {}, ["a", "b"])
    fairness.deal(state, seed, hand, [None, None])
    return bool(state.awaiting_deal)


def thrown_in_seed() -> str:
    """A server seed whose hand-0 deal (two players, no client seeds) is thrown in."""
    return next(s for s in (f"{i:064x}" for i in itertools.count()) if thrown_in(s, 0))


@pytest.fixture
def no_throw_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Server seeds none of whose first hands is thrown in, so a test that counts hands of a
    quickplay table (hand 0 ends first) does not fail on the one deal in ~350 that is."""
    good = (f"{i:064x}" for i in itertools.count())
    steady = (s for s in good if not any(thrown_in(s, h) for h in range(6)))
    monkeypatch.setattr(fairness, "new_seed", lambda: next(steady))
