"""The browser client in Debian's Chromium (Playwright, own fixture: no pytest-playwright).

Registers, plays the bot by clicking until a whole hand is over, and saves a screenshot.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
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
SCREENSHOT = Path("/tmp/boneyard-browser-hand.png")

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "boneyard",
            "serve",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "site.db"),
            "--bot-delay",
            "0.05",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/api/games", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError((tmp_path / "server.log").read_text()) from None
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def test_register_and_play_a_whole_hand_against_the_bot(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.goto(live_server + "/")
            page.fill("#reg-username", "newcomer")
            page.fill("#reg-password", "a good password")
            page.click("#register")
            expect(page.locator("#who")).to_have_text("newcomer")
            page.click("#quickplay")
            page.wait_for_url("**/table/*")
            expect(page.locator("#status")).to_have_text("connected")
            clicks = 0
            for _ in range(300):
                if page.locator(".hand-end").count() or page.locator("#game-over").count():
                    break
                page.wait_for_selector(
                    "button.move, .hand-end, #game-over", state="attached", timeout=10_000
                )
                if page.locator(".hand-end").count():
                    break
                version = page.evaluate("document.body.dataset.version")
                tiles = page.locator("#hand svg.playable")
                if clicks % 2 == 0 and tiles.count():
                    tiles.first.click()  # click a highlighted tile (one way to play it)...
                    if page.evaluate("document.body.dataset.version") == version:
                        page.locator("button.move").first.click()  # ...or pick its placement
                else:
                    page.locator("button.move").first.click()
                clicks += 1
                page.wait_for_function(
                    f"document.body.dataset.version !== '{version}'", timeout=10_000
                )
            expect(page.locator(".hand-end").first).to_contain_text("after hand 1")
            expect(page.locator("#fairness li").first).to_contain_text("matches the commitment")
            assert clicks > 3
            assert page.locator("#error").inner_text() == ""
            page.screenshot(path=str(SCREENSHOT), full_page=True)
            # Reload restores the same view.
            hand = page.locator("#hand svg").evaluate_all("ns => ns.map(n => n.dataset.tile)")
            version = page.evaluate("document.body.dataset.version")
            page.reload()
            expect(page.locator("#status")).to_have_text("connected")
            page.wait_for_function("document.body.dataset.version !== undefined")
            if page.evaluate("document.body.dataset.version") == version:
                again = page.locator("#hand svg").evaluate_all("ns => ns.map(n => n.dataset.tile)")
                assert again == hand
            # A spectator (another browser context, signed out) sees no hand.
            watcher = browser.new_context().new_page()
            watcher.goto(page.url)
            expect(watcher.locator("#status")).to_have_text("connected")
            watcher.wait_for_function("document.body.dataset.version !== undefined")
            assert watcher.locator("#hand svg").count() == 0
            text = watcher.content()
            assert not [t for t in hand if f'data-tile="{t}"' in text]
        finally:
            browser.close()
    assert SCREENSHOT.stat().st_size > 10_000


def sign_up(page: Any, base: str, name: str) -> None:
    from playwright.sync_api import expect

    page.goto(base + "/")
    page.fill("#reg-username", name)
    page.fill("#reg-password", "a good password")
    page.click("#register")
    expect(page.locator("#who")).to_have_text(name)


def test_two_people_play_a_hand_against_each_other(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            ann = browser.new_context().new_page()
            bob = browser.new_context().new_page()
            sign_up(ann, live_server, "ann")
            ann.select_option("#others", "open")
            ann.click("#create")
            ann.wait_for_url("**/table/*")
            expect(ann.locator("#status")).to_have_text("connected")
            sign_up(bob, live_server, "bob")
            bob.goto(ann.url)
            bob.click("text=Take seat 1")
            ann.click("#start")
            pages = [ann, bob]
            expect(ann.locator("#turn")).not_to_have_text("Waiting for the table to start.")
            for _ in range(3000):
                if all(pg.locator(".hand-end").count() for pg in pages):
                    break
                mover = next((pg for pg in pages if pg.locator("button.move").count()), None)
                if mover is None:
                    ann.wait_for_timeout(50)
                    continue
                version = mover.evaluate("document.body.dataset.version")
                mover.locator("button.move").first.click()
                for pg in pages:
                    pg.wait_for_function(
                        f"document.body.dataset.version !== '{version}'", timeout=10_000
                    )
            for pg in pages:
                expect(pg.locator(".hand-end").first).to_contain_text("after hand 1")
                assert pg.locator("#error").inner_text() == ""
        finally:
            browser.close()


@pytest.mark.parametrize("game", ["highrise", "high-fives"])
def test_other_games_render_and_accept_a_move(live_server: str, game: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(live_server + "/")
            page.fill("#guest-name", "Gus")
            page.click("#guest")
            expect(page.locator("#who")).to_contain_text("Gus")
            page.select_option("#game", game)
            page.click("#create")
            page.wait_for_url("**/table/*")
            page.wait_for_selector("button.move", timeout=10_000)
            if game == "highrise":
                assert page.locator(".tower .cell").count() >= 16
            else:
                assert page.locator("#layout svg.tile").count() >= 1
            version = page.evaluate("document.body.dataset.version")
            page.locator("button.move").first.click()
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
            assert page.locator("#error").inner_text() == ""
            page.screenshot(path=f"/tmp/boneyard-browser-{game}.png", full_page=True)
        finally:
            browser.close()
