"""In the browser: a private table against a bot shows its invite link, the fairness panel
sends this browser's seed and verifies a finished hand, and the profile page lists the game."""

from __future__ import annotations

import re
from pathlib import Path

from tests.server.browser import (
    autoplay,
    axe_violations,
    game_went_on,
    launch,
    make_move,
    my_turn_or_done,
    needs_chromium,
    new_table,
    next_frames,
    no_sideways_scroll,
    sign_up,
    system_theme,
    wait_until,
)

SHOT = Path("/tmp/boneyard-browser-profile.png")
TABLE_SHOT = Path("/tmp/boneyard-browser-fairness.png")

pytestmark = needs_chromium


def test_private_table_fairness_panel_and_profile(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            sign_up(page, live_server, "privy")
            expect(page.locator("#my-profile")).to_be_visible()
            # A private High Five table against the random bot (chosen for its seat).
            page.select_option("#seat-kind-1", "bot:random")
            page.check("#private")
            page.click("#create")
            page.wait_for_url("**/table/*")
            expect(page.locator("#status")).to_have_text("connected")
            link = page.locator("#invite-link")
            expect(link).to_be_visible()
            url = link.input_value()
            assert "/join/" in url
            expect(page.locator("#seats")).to_contain_text("Random bot 2")
            # The coming hand's commitment and this browser's own seed for it.
            coming = page.locator("#fairness li.next")
            expect(coming).to_contain_text("Hand 2 (next)")
            expect(coming.locator("code.my-seed")).to_be_visible()
            my_seed = str(coming.locator("code.my-seed").get_attribute("title"))
            assert len(my_seed) == 32
            # Someone with the link may watch; the lobby does not list the table.
            other = browser.new_context().new_page()
            other.goto(url)
            expect(other.locator("#status")).to_have_text("connected")
            wait_until(other, "document.body.dataset.version !== undefined")
            assert other.locator("#hand svg").count() == 0
            assert "invite=" in other.url
            listed = other.request.get(live_server + "/api/tables").json()["tables"]
            assert listed == []
            other.close()
            # Play until the first hand is over: its seed is revealed and checked here.
            for _ in range(300):
                my_turn_or_done(page)
                if page.locator(".hand-end").count():
                    break
                make_move(page)
            verified = page.locator("#fairness li.verified").first
            expect(verified).to_contain_text("verified ✓")
            expect(verified).to_contain_text("matches the commitment")
            # Hand 2 is dealt (once this player pressed Continue) with this browser's seed,
            # published with the deal; unless the first hand ended the game (a seat reached 150
            # in it), which the profile then lists with its result.
            went_on = game_went_on(page)
            if went_on:
                page.click("#continue")
                expect(page.locator("#fairness li[data-hand='1']")).to_contain_text(
                    "1 client seed (yours"
                )
            page.screenshot(path=str(TABLE_SHOT), full_page=True)
            # The profile page, from the lobby's "my profile" link.
            page.goto(live_server + "/")
            page.click("#my-profile")
            page.wait_for_url("**/profile/*")
            expect(page.locator("#name")).to_have_text("privy")
            expect(page.locator("#since")).to_contain_text("Member since")
            rows = page.locator("#history tr.game")
            expect(rows).to_have_count(1)
            expect(rows.first).to_contain_text("High Five")
            expect(rows.first).to_contain_text("Random bot 2")
            expect(rows.first).to_contain_text(
                "in play" if went_on else re.compile(r"\b(won|lost)\b")
            )
            page.screenshot(path=str(SHOT), full_page=True)
            # A mistyped address (a name, or a number no player has) says so in words, not
            # in the API's ("Input should be a valid integer, unable to parse string ...").
            for wrong in ("privy", "99999"):
                page.goto(f"{live_server}/profile/{wrong}")
                expect(page.locator("#profile-error")).to_have_text(
                    "No such player: the address may be mistyped. Players are found on the "
                    "leaderboard and at the tables."
                )
                assert page.locator("#profile").is_hidden()
        finally:
            browser.close()
    assert SHOT.stat().st_size > 5_000


def test_a_history_of_finished_games_fits_a_phone(live_server: str) -> None:
    """Finished games (a three-digit Highrise score, a greedy bot's name) in the history: on a
    390 px phone the profile does not scroll sideways (its table's gaps narrow), and in the dark
    a result's colour is still readable."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            sign_up(page, live_server, "prue")
            for game in ("highrise", "highfive"):
                seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
                tid = new_table(page, live_server, game, seats)
                page.goto(f"{live_server}/table/{tid}")
                wait_until(page, "document.body.dataset.version !== undefined")
                assert autoplay(page, tid, "over") == "over"
            page.goto(live_server + "/")
            page.click("#my-profile")
            page.wait_for_url("**/profile/*")
            replays = page.locator("#history tr.game .replay")
            replays.first.wait_for()
            assert replays.count() == 2
            page.set_viewport_size({"width": 390, "height": 844})
            next_frames(page)
            assert no_sideways_scroll(page), page.evaluate("document.documentElement.scrollWidth")
            # where the system is dark the results stay readable (last: skips without axe-core)
            system_theme(page, "dark")
            assert axe_violations(page) == []
        finally:
            browser.close()
