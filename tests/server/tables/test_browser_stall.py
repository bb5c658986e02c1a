"""A player who stalls at a table without a clock, in Chromium (issue 28, 5): both pages count
down, the one who stalls is told, and the other claims the win once the time is up.

Screenshots: ``SCREENS/stall-countdown`` (the other player, 1366×768, while the countdown runs),
``stall-warning-phone`` (the player who stalls, 390×844) and ``stall-claimed``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import needs_chromium, play_as_guest, screenshot, serve

pytestmark = needs_chromium

STALL = 8  # seconds (the site's --stall-after: three minutes by default)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("stall")
    with serve(tmp / "site.db", tmp / "server.log", extra=("--stall-after", str(STALL))) as url:
        yield url


def person(browser: Any, base: str, name: str, width: int, height: int) -> Any:
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    play_as_guest(page, base, name)
    return page


def test_a_player_who_stalls_is_counted_down_and_claimed_against(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    ann = person(browser, site, "Sal", 1366, 768)
    bob = person(browser, site, "Ted", 390, 844)
    csrf = next(c["value"] for c in ann.context.cookies() if c["name"] == "boneyard_csrf")
    body = {"game": "highfive", "seats": [{"kind": "me"}, {"kind": "open"}], "clock": None}
    r = ann.request.post(f"{site}/api/tables", data=body, headers={"X-CSRF-Token": csrf})
    tid = r.json()["id"]
    bob.goto(f"{site}/table/{tid}")
    bob.click("text=Take seat 2")
    ann.goto(f"{site}/table/{tid}")
    ann.locator("#board #start").click()
    # Nobody moves: once half the time has gone, each page says where things stand.
    for page in (ann, bob):
        expect(page.locator("#claim-area .claim")).to_be_visible(timeout=30_000)
    stalls, other = (ann, bob) if "your turn" in ann.locator("#claim-area").inner_text() else (
        bob, ann)  # fmt: skip
    expect(stalls.locator("#claim-area")).to_contain_text("It has been your turn for")
    expect(other.locator("#claim-area")).to_contain_text("has not moved for")
    expect(other.locator("#claim-area")).to_contain_text("You may claim in")
    screenshot(other, "stall-countdown" if other is ann else "stall-countdown-phone")
    screenshot(stalls, "stall-warning" if stalls is ann else "stall-warning-phone")
    # The time is up: the other may claim (the one who stalls is still connected).
    expect(other.locator("#claim-win")).to_be_visible(timeout=30_000)
    expect(stalls.locator("#claim-area")).to_contain_text("The others may claim the game now")
    assert stalls.locator("#claim-win").count() == 0
    other.click("#claim-win")
    name = {ann: "Sal", bob: "Ted"}
    said = f"{name[other]} claimed the win: {name[stalls]} did not move."
    for page in (ann, bob):
        expect(page.locator("#game-end-title")).to_have_text(said)
    screenshot(other, "stall-claimed")
    assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]
    for page in (ann, bob):
        page.context.close()
