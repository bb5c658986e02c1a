"""An online event's time-out in Chromium: the table's warning says what the event's rule does
(here the seat loses the game, not "a bot takes the seat"), and the match page records it as the
time-out it was (docs/tournaments-site.md, "Time at event tables"). The server's clock runs fast."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.browser import launch, needs_chromium, running, screenshot
from tests.server.tournaments.test_browser_director import sign_in

CLOCK_SCALE = 0.25  # a 60-second move takes 15 s: it outlasts loading the table on a busy machine
SERVER = (
    "import sys, uvicorn\n"
    "from boneyard.server.app import create_app\n"
    "app = create_app(sys.argv[1], bot_delay=0.05, clock_scale=float(sys.argv[3]))\n"
    "uvicorn.run(app, host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')\n"
)

pytestmark = needs_chromium


@pytest.fixture
def fast_clock_site(tmp_path: Path) -> Iterator[str]:
    def argv(port: int) -> list[str]:
        return [
            sys.executable,
            "-c",
            SERVER,
            str(tmp_path / "site.db"),
            str(port),
            str(CLOCK_SCALE),
        ]

    with running(argv, tmp_path / "server.log") as url:
        yield url


def account(url: str, name: str) -> httpx.Client:
    h = httpx.Client(base_url=url, timeout=30)
    h.get("/api/me")
    r = h.post("/api/register", json={"username": name, "password": "a good password"},
               headers={"X-CSRF-Token": h.cookies["boneyard_csrf"]})  # fmt: skip
    assert r.status_code == 200, r.text
    h.headers["X-CSRF-Token"] = h.cookies["boneyard_csrf"]
    return h


def test_the_tables_warning_says_the_events_rule_and_the_match_says_time_out(
    fast_clock_site: str,
) -> None:
    from playwright.sync_api import expect, sync_playwright

    url = fast_clock_site
    dora = account(url, "dora")
    body = {"name": "Blitz", "preset": "pda", "schedule": "bo1", "per_move": 60, "move_grace": 60,
            "timeout": "lose"}  # fmt: skip
    eid = dora.post("/api/tournaments", json=body).json()["id"]
    for n in ("ann", "bob"):
        h = account(url, n)
        assert h.post(f"/api/tournaments/{eid}/register").status_code == 200
        assert h.post(f"/api/tournaments/{eid}/checkin").status_code == 200
    data = dora.post(f"/api/tournaments/{eid}/start").json()
    g = data["rounds"][0][0]["games"][0]
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            sign_in(page, url, "ann")
            page.goto(f"{url}/table/{g['table_id']}")
            clock = page.locator("#clock")
            expect(clock).to_contain_text(
                re.compile(r"time is up: (you lose|bob loses) the game in"), timeout=60_000
            )
            assert "bot" not in (clock.text_content() or "")
            screenshot(page, "tournaments-timeout-warning")
            page.goto(f"{url}/tournaments/{eid}/matches/R1M1")
            expect(page.locator("#m-games")).to_contain_text(
                "lost on time (the event's rule: lose)", timeout=60_000
            )
            expect(page.locator("#m-games")).not_to_contain_text("ruled by the director")
        finally:
            browser.close()
