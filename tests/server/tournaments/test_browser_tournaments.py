"""The tournament pages in Debian's Chromium (Playwright, the fixture pattern of
tables/test_browser.py).

A director creates an 8-entrant PDA event on /tournaments, adds greedy bots and starts it from the
director's console; the bracket SVG then shows every entrant and, once the bots are done, the
champion. Screenshot: /tmp/boneyard-browser-bracket.png.
"""

from __future__ import annotations

import json
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.browser import launch, needs_chromium, serve, sign_up

SCREENSHOT = Path("/tmp/boneyard-browser-bracket.png")

pytestmark = needs_chromium


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    ram = "/dev/shm" if Path("/dev/shm").is_dir() else None  # many bot tables commit at once
    with (
        tempfile.TemporaryDirectory(dir=ram) as d,
        serve(Path(d) / "site.db", tmp_path / "server.log", bot_delay="0") as url,
    ):
        yield url


def test_bracket_page_shows_the_entrants_and_the_champion(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            sign_up(page, live_server, "td-dora")
            page.click("#tournaments")
            page.wait_for_url("**/tournaments")
            page.click("#create summary")
            page.select_option("#f-game", "merry-go-round")  # the suggested name follows
            expect(page.locator("#f-name")).to_have_value("Merry-Go-Round Open")
            expect(page.locator("#ev-preset-row")).to_be_hidden()  # no presets
            page.select_option("#f-game", "highfive")
            page.fill("#f-name", "Friday PDA")
            page.select_option("#ev-preset", "pda")
            page.fill("#f-schedule", "bo1")
            page.fill("#f-cap", "8")
            page.click("#ev-create")
            page.wait_for_url("**/tournaments/*")
            expect(page.locator("#ev-title")).to_have_text("Friday PDA")
            expect(page.locator("#ev-info")).to_contain_text("High Five (Preset: pda) ·")
            page.fill("#bot-count", "8")
            page.click("#add-bots")
            expect(page.locator("#entrants li")).to_have_count(8)
            page.click("#start")
            page.click("#confirm-ok")  # starting asks first
            svg = page.locator("#bracket svg.bracket")
            expect(svg).to_be_visible()
            names = [f"Greedy bot {i}" for i in range(1, 9)]
            text = svg.inner_html()
            for name in names:
                assert f">{name}<" in text, name
            expect(page.locator("#champion")).not_to_have_text("—", timeout=120_000)
            champion = page.locator("#champion").text_content() or ""
            assert champion in names
            eid = page.url.rstrip("/").split("/")[-1]
            with urllib.request.urlopen(f"{live_server}/api/tournaments/{eid}") as r:
                data = json.load(r)
            assert data["status"] == "finished" and data["champion"]["name"] == champion
            # the final's winner is drawn in bold in the last column
            final = page.locator(f'svg.bracket g[data-match="{data["rounds"][-1][0]["id"]}"]')
            expect(final.locator("text.win")).to_have_text(champion)
            assert page.locator("#ev-error").inner_text() == ""
            page.screenshot(path=str(SCREENSHOT), full_page=True)
            # the game-over screen of an event table links back to its match
            first = data["rounds"][0][0]
            page.goto(f"{live_server}/table/{first['games'][0]['table_id']}")
            expect(page.locator("#event-match")).to_have_attribute(
                "href", f"/tournaments/{eid}/matches/{first['id']}"
            )
            page.go_back()
            # a match page links every game's replay
            page.click(f'svg.bracket g[data-match="{data["rounds"][-1][0]["id"]}"] a')
            page.wait_for_url("**/matches/*")
            expect(page.locator("#m-games a.replay").first).to_have_attribute(
                "href", __import__("re").compile(r"^/replay/[0-9a-f]+$")
            )
            # A mistyped address says so, and leads to the events: not the server's "no such
            # event" over a page of empty headings.
            for wrong, what in (("nope", "event"), (f"{eid}/matches/nope", "match")):
                page.goto(f"{live_server}/tournaments/{wrong}")
                said = page.locator("#m-error" if what == "match" else "#ev-error")
                expect(said).to_have_text(
                    f"No such {what}: the address may be mistyped. All tournaments."
                )
                assert page.locator("main h2:visible, main h1:visible").count() == 0
                said.get_by_role("link", name="All tournaments").click()
                page.wait_for_url(f"{live_server}/tournaments")
        finally:
            browser.close()
