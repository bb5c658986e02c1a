"""Chat and the turn clock in Debian's Chromium (Playwright; the fixture pattern of
test_browser.py, with a server whose clock runs fast)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import launch, needs_chromium, running, sign_up

# A 30-second clock runs 7.5 s, its 30-second grace 7.5 s: the move phase must outlast loading
# a second page on a busy machine (at 3 s, CI once saw the watcher load only in the grace).
# Bots a second a move: the bot that takes a seat must not finish the game before its person
# (a loaded machine's Playwright) presses Take back my seat.
CLOCK_SCALE = 0.25
SERVER = (
    "import sys, uvicorn\n"
    "from boneyard.server.app import create_app\n"
    "app = create_app(sys.argv[1], bot_delay=1.0, clock_scale=float(sys.argv[3]))\n"
    "uvicorn.run(app, host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')\n"
)

pytestmark = needs_chromium


@pytest.fixture
def fast_clock_server(tmp_path: Path) -> Iterator[str]:
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


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_two_people_chat_and_one_mutes_the_other(fast_clock_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    base = fast_clock_server
    with sync_playwright() as p:
        browser = launch(p)
        try:
            ann = browser.new_context().new_page()
            bob = browser.new_context().new_page()
            sign_up(ann, base, "ann")
            ann.wait_for_selector("select.seat-kind")  # the lobby's form is ready
            ann.select_option("#others", "open")
            ann.click("#create")
            ann.wait_for_url("**/table/*")
            expect(ann.locator("#status")).to_have_text("connected")
            sign_up(bob, base, "bob")
            bob.goto(ann.url)
            expect(bob.locator("#status")).to_have_text("connected")
            bob.click("text=Take seat 2")  # the table starts once it is full
            say(ann, "hello bob")
            expect(bob.locator("#chat-log")).to_contain_text("ann: hello bob")
            # Text, never HTML.
            say(bob, "<b>bold</b> & <img src=x onerror=alert(1)>")
            expect(ann.locator("#chat-log .text").last).to_have_text(
                "<b>bold</b> & <img src=x onerror=alert(1)>"
            )
            assert ann.locator("#chat-log .text b, #chat-log img").count() == 0
            # Ann mutes Bob: his lines go, and new ones never reach her.
            ann.locator("#chat-log li.chat-line:not(.mine) button.mute").first.click()
            expect(ann.locator("#muted-list")).to_contain_text("bob")
            expect(ann.locator("#chat-log")).not_to_contain_text("bold")
            say(bob, "can you hear me")
            expect(bob.locator("#chat-log")).to_contain_text("can you hear me")
            say(ann, "still here")
            expect(bob.locator("#chat-log")).to_contain_text("still here")
            expect(ann.locator("#chat-log")).to_contain_text("still here")
            assert "can you hear me" not in ann.locator("#chat-log").inner_text()
            # The mute is kept: a reload shows the history without Bob.
            ann.reload()
            expect(ann.locator("#chat-log")).to_contain_text("still here")
            assert ann.locator("#chat-log .who").all_inner_texts() == ["ann", "ann"]
            expect(ann.locator("#muted-list")).to_contain_text("bob")
            # Unmute: Bob is heard again.
            ann.locator("#muted-list button.unmute").click()
            expect(ann.locator("#muted-list")).to_have_text("")
            say(bob, "welcome back")
            expect(ann.locator("#chat-log")).to_contain_text("bob: welcome back")
            # Too fast: the server's refusal shows in the chat panel.
            for i in range(6):
                say(bob, f"spam {i}")
            expect(bob.locator("#chat-error")).to_contain_text("too many chat messages")
            # A signed-out watcher reads but cannot write.
            watcher = browser.new_context().new_page()
            watcher.goto(ann.url)
            expect(watcher.locator("#chat-log")).to_contain_text("welcome back")
            expect(watcher.locator("#chat-input")).to_be_disabled()
            assert ann.locator("#error").inner_text() == ""
            ann.screenshot(path="/tmp/boneyard-browser-chat.png", full_page=True)
        finally:
            browser.close()


def test_the_clock_runs_out_and_a_bot_takes_the_seat_until_taken_back(
    fast_clock_server: str,
) -> None:
    from playwright.sync_api import expect, sync_playwright

    base = fast_clock_server
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            sign_up(page, base, "ann")
            page.wait_for_selector("select.seat-kind")  # the lobby's form is ready
            page.select_option("#clock", "30")
            page.click("#create")
            page.wait_for_url("**/table/*")
            expect(page.locator("#status")).to_have_text("connected")
            watcher = browser.new_context().new_page()
            watcher.goto(page.url)
            clock = page.locator("#clock")
            expect(clock).to_contain_text("You:")  # her countdown (the bot may lead first)
            expect(clock).to_have_class("clock move mine")
            expect(watcher.locator("#clock")).to_contain_text("ann:")
            # Ann does nothing: the warning, then a bot in her seat, on both pages.
            expect(clock).to_contain_text("Your time is up", timeout=10_000)
            expect(clock).to_have_class("clock grace mine")
            for pg in (page, watcher):
                expect(pg.locator("#seats")).to_contain_text("bot (replacing ann)", timeout=10_000)
            expect(page.locator("#reclaim")).to_be_visible()
            expect(page.locator("#hand svg")).to_have_count(0)
            page.screenshot(path="/tmp/boneyard-browser-clock.png", full_page=True)
            # She takes her seat back.
            page.click("#reclaim")
            expect(page.locator("#seats")).to_contain_text("ann (you)")
            expect(watcher.locator("#seats")).not_to_contain_text("replacing")
            expect(page.locator("#reclaim")).to_have_count(0)
            assert page.locator("#error").inner_text() == ""
        finally:
            browser.close()
