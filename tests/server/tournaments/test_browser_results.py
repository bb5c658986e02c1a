"""The results pages of every format in Chromium: a double elimination's winners' and losers'
brackets and grand final, single elimination with a third-place match, pools with their
crosstables and the bracket after them, a round robin's crosstable — each naming its winner,
with labelled standings; played by greedy bots on a live server. Screenshots (desktop and phone)
go to the screenshots folder as events-<format>-*.png; axe-core checks each page."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.server.browser import (
    axe_violations,
    launch,
    needs_axe,
    needs_chromium,
    next_frames,
    screenshot,
    system_theme,
)
from tests.server.tournaments.test_browser_director import DESKTOP, PHONE, WIDE, Player, live_server  # noqa: F401

pytestmark = [needs_chromium, needs_axe]

EVENTS: dict[str, dict[str, Any]] = {
    "double": {"format": "double_elimination", "cap": 8},
    "third-place": {"format": "single_elimination", "third_place": True, "cap": 6},
    "pools": {"format": "pools", "pools": 2, "advance": 2, "bracket_schedule": "bo1", "cap": 8},
    "round-robin": {"format": "round_robin", "cap": 5},
}


MATCH_SCROLL = """() => { const box = document.querySelector('#m-games').parentElement;
  return [document.documentElement.scrollWidth - innerWidth, box.scrollWidth - box.clientWidth]; }"""
"""How far the match page, and the games table in its own box, scroll sideways (0: not)."""


def finished(http: httpx.Client, eid: str, limit: float = 300) -> dict[str, Any]:
    end = time.monotonic() + limit
    while True:
        data: dict[str, Any] = http.get(f"/api/tournaments/{eid}").json()
        if data["status"] == "finished":
            return data
        assert time.monotonic() < end, data["status"]
        time.sleep(0.2)


def test_every_format_shows_its_bracket_crosstables_and_winner(live_server: str) -> None:  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    directors = [Player(live_server, "td-one"), Player(live_server, "td-two")]  # 3 events each
    ids = {}
    for i, (name, settings) in enumerate(EVENTS.items()):
        td = directors[i % 2]
        body = {"name": f"{name} cup", "preset": "pda", "schedule": "bo1", **settings}
        r = td.post("/api/tournaments", body)
        assert r.status_code == 200, r.text
        eid = r.json()["id"]
        assert (
            td.post(f"/api/tournaments/{eid}/bots", {"count": settings["cap"]}).status_code == 200
        )
        assert td.post(f"/api/tournaments/{eid}/start").status_code == 200
        ids[name] = eid
    results = {name: finished(td.http, eid) for name, eid in ids.items()}
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport=DESKTOP)
            for name, eid in ids.items():
                data = results[name]
                page.goto(f"{live_server}/tournaments/{eid}")
                expect(page.locator("#winner")).to_have_text(data["champion"]["name"])
                expect(page.locator("#standings th abbr").first).to_have_attribute("title", "Rank")
                expect(page.locator("#tiebreak-legend dt").first).to_be_visible()
                if name == "double":
                    sections = page.locator("svg.bracket")
                    expect(sections).to_have_count(3)
                    for title in ("Winners' bracket", "Losers' bracket", "Grand final"):
                        expect(page.locator(f'svg.bracket[data-section="{title}"]')).to_have_count(
                            1
                        )
                    expect(page.locator("#champion")).to_have_text(data["champion"]["name"])
                if name == "third-place":
                    expect(
                        page.locator("svg.bracket text.head", has_text="Third place")
                    ).to_have_count(1)
                    expect(page.locator("svg.bracket text.mark", has_text="bye")).to_have_count(0)
                if name == "pools":
                    expect(page.locator("table.cross")).to_have_count(2)
                    expect(page.locator("svg.bracket")).to_have_count(1)
                if name == "round-robin":
                    expect(page.locator("table.cross")).to_have_count(1)
                    expect(page.locator("#bracket-box")).to_be_hidden()
                    expect(page.locator("table.cross td.self")).to_have_count(5)
                screenshot(page, f"tournaments-{name}-desktop")
                found = axe_violations(page)
                assert not found, (name, found)
                # in the dark (the system's setting): the bracket and the tables still readable
                system_theme(page, "dark")
                screenshot(page, f"tournaments-{name}-dark")
                found = axe_violations(page)
                assert not found, (name, "dark", found)
                system_theme(page, "light")
                page.set_viewport_size(PHONE)
                next_frames(page)
                wide = page.evaluate(WIDE)
                assert not wide, (name, wide)
                screenshot(page, f"tournaments-{name}-phone")
                page.set_viewport_size(DESKTOP)
            # a match page on a phone: its games stack, and nothing scrolls sideways (not even
            # the games table inside its box)
            rounds = results["double"]["rounds"]
            match = next(m for rnd in rounds for m in rnd if m["games"])
            page.set_viewport_size(PHONE)
            page.goto(f"{live_server}/tournaments/{ids['double']}/matches/{match['id']}")
            expect(page.locator("#m-games tr[data-game]").first).to_be_visible()
            next_frames(page)
            assert page.evaluate(MATCH_SCROLL) == [0, 0], page.evaluate(MATCH_SCROLL)
            found = axe_violations(page)
            assert not found, ("match", found)
            screenshot(page, "tournaments-match-phone")
        finally:
            browser.close()
