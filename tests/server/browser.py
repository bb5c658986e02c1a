"""Shared pieces of the browser tests: Debian's Chromium, a real server process, free ports,
signing up and making a move in the page.

Every ``test_browser*.py`` uses these (own fixtures: no pytest-playwright beside async tests), and
so do the tests against real ``boneyard serve`` processes.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from bench.faults import ROOMY_ENV
from tests.services import AXE, CHROMIUM, needs, require

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

needs_chromium = needs("chromium")
"""Skips before a test's setup; :func:`launch` skips anyway where the browser starts."""
needs_axe = needs("axe")
"""Skips before a test's setup; :func:`axe_violations` skips anyway where axe-core is loaded."""

SCREENS = Path(os.environ.get("BONEYARD_SCREENS", "/tmp/boneyard-screens"))
"""Where the browser tests write the screenshots a person looks at (docs/server.md)."""

AXE_RUN = """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations.map(
  (v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + " " + n.failureSummary) }))"""


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[Any]:
    """axe-core's violations of ``impacts`` on the page as it is now (injected from tests/js).

    Without axe-core the test skips here, with the reason, whatever else it checked: mark a
    test ``needs_axe`` to skip it before it starts instead."""
    require("axe")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # (evaluated, not added as a <script>: the site's CSP refuses inline scripts)
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    return [v for v in page.evaluate(AXE_RUN) if v["impact"] in impacts]


def screenshot(page: Any, name: str) -> Path:
    """A full-page screenshot ``SCREENS/name.png``, for a person to look at: animations run to
    their end first (a tile still flying in would be drawn halfway)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


def next_frames(page: Any) -> None:
    """Wait until the page has drawn two frames (a resize's handlers and layout have run)."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def no_sideways_scroll(page: Any) -> bool:
    """The page is no wider than the window (nothing to scroll sideways)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def free_port() -> int:
    """A TCP port free on 127.0.0.1 just now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


EXPECT_TIMEOUT = 20_000
"""How long a browser test's ``expect`` waits for its condition (ms). Playwright's 5 s is short
on a loaded machine (a page that needs 6 s of a busy CPU is not broken); a real failure still
fails, later."""


def launch(p: Any) -> Any:
    """Debian's Chromium, headless, through Playwright's ``p`` (or skip the test without it)."""
    from playwright.sync_api import expect

    require("chromium")
    expect.set_options(timeout=EXPECT_TIMEOUT)
    return p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


@contextmanager
def running(
    argv: Callable[[int], list[str]],
    log_path: Path,
    wait: float = 240,
    env: dict[str, str] | None = None,
) -> Iterator[str]:
    """Start the server process ``argv(port)`` (with ``env`` added to this environment), wait
    (up to ``wait`` s: a machine under load may take a minute or more to start one) until ``/api/games`` answers, yield its base
    URL, stop it afterwards. Its output goes to ``log_path``, shown if it dies before answering."""
    port = free_port()
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            argv(port), stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
        )
        url = f"http://127.0.0.1:{port}"
        try:
            end = time.monotonic() + wait
            while True:
                try:
                    urllib.request.urlopen(url + "/api/games", timeout=1).read()
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > end:
                        raise RuntimeError(log_path.read_text()) from None
                    time.sleep(0.05)
            yield url
        finally:
            proc.terminate()
            proc.wait(10)


def serve(
    db: Path,
    log_path: Path,
    bot_delay: str = "0.05",
    env: dict[str, str] | None = None,
    extra: tuple[str, ...] = (),
) -> Any:
    """``boneyard serve`` on the SQLite file ``db`` with :data:`ROOMY_ENV` and ``env`` (see
    :func:`running`). Bots take no pace where people play (unless ``extra`` says otherwise,
    e.g. ``("--bot-pace", "1", "--hand-pause", "600", "--claim-after", "3")``)."""
    return running(
        lambda port: [
            sys.executable,
            "-m",
            "boneyard",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-delay",
            bot_delay,
            "--bot-pace",
            "0",
            *extra,
        ],
        log_path,
        env={**ROOMY_ENV, **(env or {})},
    )


def wait_until(page: Any, expression: str, timeout: float = 30.0) -> Any:
    """Poll ``expression`` (JavaScript) in ``page`` until it is truthy; returns its value.

    The site's Content-Security-Policy forbids ``eval``, which Playwright's
    ``wait_for_function`` needs; ``page.evaluate`` runs outside the page's policy."""
    end = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)


def system_theme(page: Any, scheme: str) -> None:
    """The system's colour scheme set to ``scheme`` (``"dark"`` or ``"light"``), once the page
    has taken it (``theme.js`` follows the system unless the person chose)."""
    page.emulate_media(color_scheme=scheme)
    wait_until(page, f"document.documentElement.dataset.theme === '{scheme}'")


def serve_argv(db: Path, *extra: str) -> Any:
    """The argv (given a port, for :func:`running`) of ``boneyard serve`` on ``db`` with bots
    moving at once and no seed window, and ``extra``."""
    return lambda port: [
        sys.executable, "-m", "boneyard", "serve", "--port", str(port), "--db", str(db),
        "--bot-delay", "0", "--seed-window", "0", *extra,
    ]  # fmt: skip


def signed_in(url: str, name: str) -> httpx.Client:
    """An HTTP client signed in as a new guest ``name`` (CSRF header set)."""
    h = httpx.Client(base_url=url, timeout=30)
    h.get("/api/me")
    h.headers["X-CSRF-Token"] = h.cookies["boneyard_csrf"]
    r = h.post("/api/guest", json={"display_name": name})
    assert r.status_code == 200, r.text
    h.headers["X-CSRF-Token"] = h.cookies["boneyard_csrf"]
    return h


TARGETS = ".end.target, .tower .cell.target, #layout svg.tile.target, button.option"
"""What a player clicks after a hand tile to place it: an open end, a tower's cell, a tile to
capture or an option."""


MOVE_WAIT = 30_000
"""How long (ms) a test waits for a move to show (its own or a bot's answer) before it fails:
far above the tenth of a second it takes, so that a run on a loaded machine does not fail for
want of CPU (a full run beside a bench and a second test run, load 9-12, once waited more than
10 s for a bot's answer to show in Highrise)."""


def moved_on(page: Any, before: str) -> None:
    """Wait (up to :data:`MOVE_WAIT`) until the page shows a version of the table other than
    ``before``: a move was made."""
    wait_until(page, f"document.body.dataset.version !== '{before}'", MOVE_WAIT / 1000)


def version(page: Any) -> str:
    """The table's version the page shows (it changes with every move)."""
    return str(page.evaluate("document.body.dataset.version"))


def make_move(page: Any, counts: dict[str, int] | None = None) -> None:
    """One move by the table UI: a highlighted hand tile, then the highlighted end / cell /
    capture or an option as long as the choice is open; draw or pass buttons otherwise."""
    counts = counts if counts is not None else {}
    before = version(page)
    tiles = page.locator("#hand svg.playable")
    if tiles.count():
        tiles.first.click()
        counts["tile"] = counts.get("tile", 0) + 1
        for _ in range(4):
            if page.evaluate("document.body.dataset.pending === '1'") or version(page) != before:
                break
            target = page.locator(TARGETS).first
            kind = target.evaluate("n => n.getAttribute('class').split(' ')[0]")
            target.click()
            counts[kind] = counts.get(kind, 0) + 1
    else:
        # The view may be re-rendering (the bot's move arriving): wait for this turn's controls.
        page.wait_for_selector("#hand svg.playable, button.move", timeout=MOVE_WAIT)
        if page.locator("#hand svg.playable").count():
            make_move(page, counts)
            return
        page.locator("button.move").first.click()
        counts["button"] = counts.get("button", 0) + 1
    moved_on(page, before)


AUTOPLAY = """({ tid, until, moves }) => new Promise((resolve) => {
  const ws = new WebSocket(`ws://${location.host}/ws/tables/${tid}`);
  let made = 0;
  const done = (why) => { ws.close(); resolve(why); };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "error") { setTimeout(() => ws.send(JSON.stringify({ type: "resync" })), 200); return; }
    if (m.type !== "view" && m.type !== "resync") return;
    if (m.result || m.ending) { done("over"); return; }
    const end = m.hand_end;
    if (end && end.waiting) {
      if (until === "hand_end") { done("hand_end"); return; }
      if (!end.continued.includes(m.seat)) ws.send(JSON.stringify({ type: "continue", hand: end.hand }));
      return;
    }
    if (!m.moves || !m.moves.length) return;
    if (until === "moves" && made >= moves) { done("turn"); return; }
    made += 1;
    ws.send(JSON.stringify({ seq: m.version, action: m.moves[0].event }));
  };
})"""


def autoplay(page: Any, tid: str, until: str, moves: int = 0) -> str:
    """Play the seat of ``page``'s person at table ``tid`` through a socket of its own (as fast
    as the server goes), pressing Continue at each hand's end, until ``until``: ``"hand_end"``
    (a hand has ended), ``"over"`` (the game), or ``"moves"`` (it is this seat's turn again
    after ``moves`` moves; a hand's end on the way is continued). Returns what stopped it
    (``"turn"`` for moves). A refused message (too fast, a stale view) is met by a resync."""
    return str(page.evaluate(AUTOPLAY, {"tid": tid, "until": until, "moves": moves}))


def my_turn_or_done(page: Any) -> None:
    """Wait until the page can move, or shows the hand's end."""
    page.wait_for_selector(
        "#hand svg.playable, button.move, .hand-end", state="attached", timeout=MOVE_WAIT
    )


HAND_OVER = "#hand-summary #continue, #game-end-title"
"""What a hand's end shows: Continue, or the game's end. A first hand may end the game (a seat
reaches the target in it: High Five, 23 of 20,000 first hands between greedy players)."""


def game_went_on(page: Any) -> bool:
    """Wait for the page's panel of a hand's end; True when it offers Continue (the game goes
    on), False when that hand ended the game (:data:`HAND_OVER`)."""
    page.locator(HAND_OVER).first.wait_for()
    return bool(page.locator("#hand-summary #continue").count())


SIGN_IN_WAIT = 30_000
"""How long (ms) a sign-in may take before a test fails: far above the tens of milliseconds it
takes, so that a run on a loaded machine (two test workers, a bench) does not fail for want of
CPU."""


def submit(page: Any, field: str, path: str) -> None:
    """Submit the form of ``field`` with Enter and wait for the server's answer to ``path``.

    Not a click on the form's button: the front page's live lobby (above the sign-in forms)
    draws its tables as they come, and a click aimed at a button just before the list grows
    lands on whatever moved under it (CI once pressed nothing and waited 30 s)."""
    sent = page.expect_response(
        lambda r: r.request.method == "POST" and r.url.endswith(path), timeout=SIGN_IN_WAIT
    )
    with sent:
        page.press(field, "Enter")


def sign_up(page: Any, base: str, name: str) -> None:
    """Register ``name`` on the site at ``base`` from its front page."""
    from playwright.sync_api import expect

    page.goto(base + "/")
    page.fill("#reg-username", name)
    page.fill("#reg-password", "a good password")
    submit(page, "#reg-password", "/api/register")
    # A new account's password is hashed (argon2) by a server that may share a loaded machine.
    expect(page.locator("#who")).to_have_text(name, timeout=SIGN_IN_WAIT)


def sign_in(page: Any, base: str, name: str) -> None:
    """Sign ``name`` (made by :func:`sign_up`) in on the front page's form at ``base``."""
    from playwright.sync_api import expect

    page.goto(base + "/")
    page.fill("#login-username", name)
    page.fill("#login-password", "a good password")
    submit(page, "#login-password", "/api/login")
    expect(page.locator("#who")).to_have_text(name)


def play_as_guest(page: Any, base: str, name: str) -> None:
    """Sign in as the guest ``name`` on the site at ``base`` from its front page."""
    from playwright.sync_api import expect

    page.goto(base + "/")
    page.fill("#guest-name", name)
    submit(page, "#guest-name", "/api/guest")
    expect(page.locator("#who")).to_contain_text(name, timeout=SIGN_IN_WAIT)


DESKTOP = {"width": 1280, "height": 900}
"""The desktop window of the table tests."""


def person(browser: Any, base: str, name: str, **context: Any) -> Any:
    """A page of a new ``browser`` context (``context``: Playwright's options, a desktop window
    unless it says otherwise) signed in as the guest ``name``; ``page.errors`` and ``page.csp``
    collect its script errors and Content-Security-Policy violations."""
    page = browser.new_context(**{"viewport": DESKTOP, **context}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.csp = csp_violations(page)
    play_as_guest(page, base, name)
    return page


SETTLED = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity)
  .map((a) => a.finished.catch(() => null)))"""  # (a redraw cancels an animation: over too)


def shot(page: Any, name: str) -> None:
    """A screenshot once the tiles have landed (finite animations over)."""
    page.evaluate(SETTLED)
    screenshot(page, name)


def page_post(page: Any, base: str, path: str, data: Any = None) -> Any:
    """POST ``data`` as ``page``'s person (its session and CSRF token); the answer's JSON."""
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "boneyard_csrf")
    r = page.request.post(base + path, data=data, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def new_table(page: Any, base: str, game: str, seats: list[Any], **extra: Any) -> str:
    """A table of ``game`` made by ``page``'s person (``extra``: the request's other fields)."""
    return str(page_post(page, base, "/api/tables", {"game": game, "seats": seats, **extra})["id"])


def csp_violations(page: Any) -> list[str]:
    """A list that fills with every Content-Security-Policy violation ``page`` reports."""
    found: list[str] = []
    page.on(
        "console",
        lambda msg: found.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    return found
