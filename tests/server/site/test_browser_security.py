"""In Chromium: every page of the site runs under its Content-Security-Policy with no violation,
and a person manages their sessions from their profile (sign out everywhere) — issue 14."""

from __future__ import annotations

from pathlib import Path

from tests.server.browser import (
    csp_violations,
    launch,
    needs_chromium,
    sign_in,
    sign_up,
    wait_until,
)

SHOT = Path("/tmp/boneyard-browser-sessions.png")
SHOWN_COLUMNS = """() => [...document.querySelectorAll('#sessions tr')].map((tr) =>
  [...tr.children].filter((c) => getComputedStyle(c).display !== 'none').length)"""
"""How many cells each row of the sessions table shows (its heading's first)."""

pytestmark = needs_chromium


def test_every_page_passes_the_csp_and_sessions_end_everywhere(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            violations = csp_violations(page)
            sign_up(page, live_server, "carol")
            page.click("#quickplay")
            page.wait_for_url("**/table/*")
            expect(page.locator("#status")).to_have_text("connected")
            wait_until(page, "document.body.dataset.version !== undefined")
            me = page.evaluate("fetch('/api/me').then(r => r.json())")["user"]["id"]
            csrf = page.evaluate("document.cookie.match(/boneyard_csrf=([^;]+)/)[1]")
            made = page.request.post(
                live_server + "/api/tournaments",
                data={"name": "Club night", "mode": "otb"},
                headers={"X-CSRF-Token": csrf},
            )
            assert made.ok, made.text()
            eid = made.json()["id"]
            pages = ("/replay", "/tournaments", f"/tournaments/{eid}", f"/tournaments/{eid}/scorecard",
                     "/leaderboard", "/rules", "/rules/highrise", f"/profile/{me}")  # fmt: skip
            for path in pages:
                page.goto(live_server + path)
                page.wait_for_load_state("networkidle")
            # A second browser signed in as carol too: her own profile lists both sessions.
            other = browser.new_context().new_page()
            sign_in(other, live_server, "carol")
            page.reload()
            expect(page.locator("#sessions tr.session")).to_have_count(2)
            expect(page.locator("#sessions")).to_contain_text("this browser")
            page.screenshot(path=str(SHOT), full_page=True)
            # on a phone the "Last used" column goes, its heading and its dates together
            page.set_viewport_size({"width": 390, "height": 844})
            shown = page.evaluate(SHOWN_COLUMNS)
            assert len(set(shown)) == 1 and shown[0] == 3, shown
            page.set_viewport_size({"width": 1280, "height": 900})
            assert set(page.evaluate(SHOWN_COLUMNS)) == {4}
            page.once("dialog", lambda d: d.accept())
            page.click("#end-all")
            page.wait_for_url(live_server + "/")
            expect(page.locator("#who")).to_have_text("")
            other.reload()
            expect(other.locator("#who")).to_have_text("")
            assert violations == []
        finally:
            browser.close()
