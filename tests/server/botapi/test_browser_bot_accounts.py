"""In the browser: a person makes a bot account on the profile page, creates a token shown once
(gone after a reload, its prefix listed), revokes it; another person challenges the bot from its
profile page, and the table shows the seat kept for it, then the bot's seat labelled as a bot.
Screenshots at desktop and phone sizes (SCREENS/bot-account-*.png)."""

from __future__ import annotations

import httpx
import pytest

from tests.server.browser import launch, needs_chromium, no_sideways_scroll, screenshot, sign_up

pytestmark = needs_chromium

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", list(SIZES))
def test_bot_account_tokens_and_a_challenge(live_server: str, size: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            owner = browser.new_context(viewport=SIZES[size]).new_page()
            owner.on("dialog", lambda d: d.accept())  # "Make this account a bot account?"
            sign_up(owner, live_server, "robotina")
            if size == "phone":  # (one row of header: the rest is behind the menu button)
                expect(owner.locator("#my-profile")).to_be_hidden()
                owner.click("[aria-controls=site-menu]")
            owner.click("#my-profile")
            owner.wait_for_url("**/profile/*")
            profile_url = owner.url
            owner.click("#make-bot")
            expect(owner.locator("#name")).to_have_text("robotina")
            expect(owner.locator("#token-form")).to_be_visible()
            expect(owner.locator("#make-bot")).to_be_hidden()
            owner.fill("#token-name", "laptop")
            owner.click("#token-new")
            shown = owner.locator("#token-shown code")
            expect(shown).to_contain_text("byt_")
            token = str(shown.text_content())
            assert token.startswith("byt_") and len(token) == 44
            row = owner.locator("#tokens tr.token")
            expect(row).to_have_count(1)
            expect(row).to_contain_text(token[:10] + "…")
            expect(row).to_contain_text("laptop")
            screenshot(owner, f"bot-account-token-{size}")
            assert no_sideways_scroll(owner)
            # Shown once: a reload lists its prefix only.
            owner.reload()
            expect(owner.locator("#tokens tr.token")).to_have_count(1)
            assert token not in owner.content()
            expect(owner.locator("#token-shown")).to_have_text("")
            owner.click("#tokens button.revoke")
            expect(owner.locator("#tokens tr.token")).to_contain_text("revoked")
            r = httpx.get(live_server + "/api/me", headers={"Authorization": f"Bearer {token}"})
            assert r.json()["user"] is None
            owner.fill("#token-name", "server")
            owner.click("#token-new")
            expect(owner.locator("#tokens tr.token")).to_have_count(2)
            live = str(owner.locator("#token-shown code").text_content())
            screenshot(owner, f"bot-account-revoked-{size}")
            # Another person challenges the bot from its profile page.
            person = browser.new_context(viewport=SIZES[size]).new_page()
            sign_up(person, live_server, "carla")
            person.goto(profile_url)
            expect(person.locator("#name")).to_have_text("robotina (bot)")
            expect(person.locator("#challenge")).to_be_visible()
            assert no_sideways_scroll(person)
            screenshot(person, f"bot-account-profile-{size}")
            person.select_option("#challenge-game", "highfive")
            person.click("#challenge-go")
            person.wait_for_url("**/table/*")
            seats = person.locator("#seats")
            expect(seats).to_contain_text("kept for robotina (bot)")
            expect(person.locator("#turn")).to_contain_text("Waiting for robotina (bot account)")
            screenshot(person, f"bot-account-challenged-{size}")
            tid = person.url.rsplit("/", 1)[1]
            r = httpx.post(
                f"{live_server}/api/bot/challenges/{tid}/accept",
                headers={"Authorization": f"Bearer {live}"},
            )
            assert r.status_code == 200, r.text
            expect(seats).to_contain_text("robotina (bot)")
            expect(seats).not_to_contain_text("kept for")
            assert no_sideways_scroll(person)
            screenshot(person, f"bot-account-table-{size}")
        finally:
            browser.close()
