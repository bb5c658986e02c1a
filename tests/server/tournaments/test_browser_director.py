"""The director's flow in Chromium (docs/tournaments-site.md, "The director's console"): create an
over-the-board event, check the players in, seed by hand, start, rule, undo the ruling, enter a
paper card that the players sign, and print the pairings and the cards — every irreversible
step behind a confirmation. Screenshots at desktop and phone sizes go to the screenshots folder
(tests/server/browser.py SCREENS: /tmp/boneyard-screens/tournaments-*.png), and axe-core checks the
event pages."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.browser import (
    axe_violations,
    csp_violations,
    launch,
    needs_axe,
    needs_chromium,
    next_frames,
    no_sideways_scroll,
    screenshot,
    serve,
    sign_in,
    sign_up,
    system_theme,
    wait_until,
)

pytestmark = [needs_chromium, needs_axe]

PLAYERS = ["ann", "bob", "cyd", "dan"]
SCROLLS = ".bracket-wrap, .table-scroll, .cross-wrap, #standings-wrap"
WIDE = f"""[...document.querySelectorAll('body *')].filter((e) =>
  e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('{SCROLLS}'))
  .slice(0, 5).map((e) => e.tagName + '.' + e.className + '#' + e.id)"""
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    ram = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with (
        tempfile.TemporaryDirectory(dir=ram) as d,
        serve(Path(d) / "site.db", tmp_path / "server.log") as url,
    ):
        yield url


class Player:
    """A person using the API with their own session."""

    def __init__(self, url: str, name: str) -> None:
        self.http = httpx.Client(base_url=url)
        self.http.get("/api/me")
        r = self.post("/api/register", {"username": name, "password": "a good password"})
        assert r.status_code == 200, r.text

    def post(self, path: str, body: Any = None) -> httpx.Response:
        token = self.http.cookies.get("boneyard_csrf") or ""
        return self.http.post(path, json=body or {}, headers={"X-CSRF-Token": token})


SHEETS_FIT = """(() => { const box = document.getElementById('cards');
  const sheet = box.querySelector('.sheet').getBoundingClientRect();
  return box.scrollWidth <= box.clientWidth + 1 && sheet.width > box.clientWidth * 0.9; })()"""
"""The printed pages drawn on screen fill their box's width and no more."""


def shots(page: Any, name: str) -> None:
    """Desktop and phone screenshots of the page as it is, and no sideways scroll on a phone
    (the wide bracket and tables scroll inside their own boxes)."""
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"tournaments-{name}-desktop")
    page.set_viewport_size(PHONE)
    next_frames(page)
    assert no_sideways_scroll(page), (name, page.evaluate(WIDE))
    screenshot(page, f"tournaments-{name}-phone")
    page.set_viewport_size(DESKTOP)


def check_axe(page: Any, name: str) -> None:
    found = axe_violations(page)
    assert not found, (name, found)


def test_the_directors_flow(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    url = live_server
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport=DESKTOP)
            csp = csp_violations(page)
            sign_up(page, url, "td-dora")
            # create: an over-the-board Swiss event, every setting in the form
            page.goto(url + "/tournaments")
            page.click("#create summary")
            page.fill("#f-name", "Friday Club")
            page.select_option("#f-format", "swiss")
            page.select_option("#f-mode", "otb")
            page.select_option("#ev-preset", "pda")
            page.fill("#f-schedule", "bo1")
            page.fill("#f-rounds", "2")
            assert page.locator("#f-per_move").is_hidden()  # no move clock over the board
            shots(page, "create")
            check_axe(page, "create")
            page.click("#ev-create")
            page.wait_for_url("**/tournaments/*")
            expect(page.locator("#ev-title")).to_have_text("Friday Club")
            eid = page.url.rstrip("/").split("/")[-1]
            players = {n: Player(url, n) for n in PLAYERS}
            for pl in players.values():
                assert pl.post(f"/api/tournaments/{eid}/register").status_code == 200
            page.reload()
            expect(page.locator("#console-entrants tr[data-entrant]")).to_have_count(4)
            # check in: the director checks each player in as they arrive
            for left in range(len(PLAYERS) - 1, -1, -1):
                page.locator("#console-entrants button.checkin").first.click()
                expect(page.locator("#console-entrants button.checkin")).to_have_count(left)
            expect(page.locator("#console-entrants button.checkin")).to_have_count(0)
            # seed by hand: dan (registered last) is seed 1
            page.click("#console-seeding summary")
            dan = page.locator("#seed-list li", has_text="dan")
            dan.locator("input.seed-num").fill("1")
            dan.locator("input.seed-num").dispatch_event("change")
            expect(page.locator("#seed-list li").first).to_contain_text("dan")
            # and by drag: cyd (last) dropped on ann (second) takes her place
            page.locator("#seed-list li", has_text="cyd").drag_to(
                page.locator("#seed-list li", has_text="ann"), target_position={"x": 5, "y": 2}
            )
            expect(page.locator("#seed-list li").nth(1)).to_contain_text("cyd")
            expect(page.locator("#seed-list li").nth(1).locator("input")).to_have_value("2")
            page.click("#save-seeds")
            wait_until(page, "document.querySelector('#ev-info').textContent.includes('4/64')")
            expect(page.locator("#entrants li").first).to_contain_text("dan — seed 1")
            expect(page.locator("#entrants li").nth(1)).to_contain_text("cyd — seed 2")
            shots(page, "registration")
            check_axe(page, "registration")
            # start: asks first
            page.click("#start")
            expect(page.locator("#confirm")).to_be_visible()
            shots(page, "confirm")
            page.click("#confirm-cancel")
            expect(page.locator("body")).to_have_attribute("data-status", "registration")
            page.click("#start")
            page.click("#confirm-ok")
            expect(page.locator("body")).to_have_attribute("data-status", "running")
            # the console opens on the round: R1M1's card (table 1) comes first
            expect(page.locator("#card-form")).to_have_attribute("data-match", "R1M1")
            # rule: a score on R1M1, confirmed
            page.click("#tab-rulings")
            page.select_option("#rule-match", "R1M1")
            r1m1 = page.locator("[data-console=R1M1]")
            page.fill("#console-note", "score sheet lost, both agree")
            r1m1.locator("input.score-a").fill("150")
            r1m1.locator("input.score-b").fill("80")
            r1m1.locator("button.rule").click()
            page.click("#confirm-ok")
            expect(page.locator("li[data-match=R1M1]")).to_contain_text("wins")
            expect(page.locator("#rulings li button.undo")).to_have_count(1)
            shots(page, "ruled")
            # undo: the match is open again, and the console says how it goes on
            page.locator("#rulings li button.undo").click()
            page.click("#confirm-ok")
            expect(page.locator("#rulings li button.undo")).to_have_count(0)
            expect(page.locator(".said.good")).to_contain_text("enter its card again")
            # a card typed in by the director for both players to sign on screen; an
            # impossible one is refused next to the button, in the director's words
            page.click("#tab-round")
            form = page.locator("#card-form[data-match=R1M1]")
            form.locator("#card-paper").uncheck()
            form.locator("input.card-score").nth(0).fill("100")
            form.locator("input.card-score").nth(1).fill("90")
            form.locator("#card-enter").click()
            page.click("#confirm-ok")
            refusal = form.locator(".said.bad")
            expect(refusal).to_contain_text("Nobody reached 150")
            expect(refusal).not_to_contain_text("ask the director")
            form.locator("input.card-score").nth(0).fill("150")
            form.locator("input.card-score").nth(1).fill("95")
            form.locator("#card-enter").click()
            page.click("#confirm-ok")
            expect(page.locator("li[data-match=R1M1]")).to_contain_text("entered by the director")
            data = players["ann"].http.get(f"/api/tournaments/{eid}").json()
            m = next(x for x in data["rounds"][0] if x["id"] == "R1M1")
            card = next(g["id"] for g in m["games"] if g["status"] == "reported")
            for name in (m["a_name"], m["b_name"]):
                assert (
                    players[name].post(f"/api/tournaments/{eid}/games/{card}/sign").status_code
                    == 200
                )
            page.reload()
            expect(page.locator("li[data-match=R1M1]")).to_contain_text("signed on screen by both")
            shots(page, "running")
            check_axe(page, "running")
            # the same where the system is dark: the console's colours still readable
            system_theme(page, "dark")
            shots(page, "running-dark")
            check_axe(page, "running in the dark")
            system_theme(page, "light")
            # the match page, as a player signing there would see it
            page.goto(f"{url}/tournaments/{eid}/matches/R1M1")
            expect(page.locator("#m-games")).to_contain_text("150")
            shots(page, "match")
            check_axe(page, "match")
            # print: the pairing list with table numbers, the round's cards
            page.goto(f"{url}/tournaments/{eid}")
            page.click("#tab-print")
            page.click("#console-print a.print-pairings >> nth=0")
            page.wait_for_url("**/pairings?round=1")
            expect(page.locator("#pairings tr[data-match]")).to_have_count(2)
            expect(page.locator("#pairings tr[data-match=R1M1] td").first).to_have_text("1")
            shots(page, "pairings")
            check_axe(page, "pairings")
            page.goto(f"{url}/tournaments/{eid}/scorecard?round=1")
            expect(page.locator(".card")).to_have_count(2)
            rows = page.locator(".card[data-match=R1M1] tr")
            expect(rows.nth(1)).to_have_class("void")  # the undone ruling, struck through
            expect(rows.nth(2)).to_contain_text("signed on screen")
            page.emulate_media(media="print")
            assert page.locator("header").is_hidden() and page.locator("#print").is_hidden()
            page.emulate_media(media="screen")
            shots(page, "cards")
            check_axe(page, "cards")
            # on a phone each page is drawn to its width, as a PDF viewer shows it; printed,
            # each is its paper's size (Letter: 215.9 mm, 816 px)
            page.set_viewport_size(PHONE)
            wait_until(page, SHEETS_FIT)
            # (the download link drawn as a button is as tall as the Print button beside it)
            tall = [page.locator(b).bounding_box()["height"] for b in ("#print", "#sc-pdf")]
            assert abs(tall[0] - tall[1]) <= 1, tall
            page.emulate_media(media="print")
            assert round(page.locator(".sheet").first.bounding_box()["width"]) == 816
            page.emulate_media(media="screen")
            assert not csp, csp
        finally:
            browser.close()


def test_the_bell_a_dispute_and_a_replacement_in_dialogs(live_server: str) -> None:
    """A player's bell lists their ready match and takes a director's ruling live; the player
    disputes a card in the site's own dialog (an empty reason is not sent); the director offers
    an entrant's place to another account from the console's dialog."""
    from playwright.sync_api import expect, sync_playwright

    url = live_server
    dora = Player(url, "dora")
    eid = dora.post(
        "/api/tournaments",
        {"name": "Hall", "mode": "otb", "preset": "pda", "format": "swiss", "schedule": "bo1"},
    ).json()["id"]
    people = {n: Player(url, n) for n in [*PLAYERS, "eve"]}
    for n in PLAYERS:
        assert people[n].post(f"/api/tournaments/{eid}/register").status_code == 200
    for e in dora.http.get(f"/api/tournaments/{eid}").json()["entrants"]:
        dora.post(f"/api/tournaments/{eid}/entrants/{e['id']}/checkin", {"present": True})
    r1 = dora.post(f"/api/tournaments/{eid}/start").json()["rounds"][0]
    m = next(x for x in r1 if "ann" in (x["a_name"], x["b_name"]))
    with sync_playwright() as p:
        browser = launch(p)
        try:
            ann = browser.new_context(viewport=DESKTOP).new_page()
            csp = csp_violations(ann)
            sign_in(ann, url, "ann")
            ann.goto(f"{url}/tournaments/{eid}/matches/{m['id']}")
            expect(ann.locator("#bell .bell-count")).to_have_text("1")
            ann.click("#bell")
            expect(ann.locator("#bell-panel li[data-kind=ready]")).to_have_count(1)
            ann.click("#bell")  # closed: what was listed is read
            expect(ann.locator("#bell .bell-count")).to_have_count(0)
            # the director enters the paper card: the bell takes it while the page is open
            card = f"/api/tournaments/{eid}/matches/{m['id']}/card"
            assert dora.post(card, {"score_a": 150, "score_b": 95}).status_code == 200
            wait_until(ann, "document.querySelector('#bell .bell-count')?.textContent === '1'")
            ann.click("#bell")
            expect(ann.locator("#bell-panel li[data-kind=sign]")).to_contain_text("Sign the card")
            ann.reload()
            # ann disputes it: the reason is asked in a dialog, and cannot be empty
            ann.click("#dispute")
            expect(ann.locator("#confirm #confirm-text")).to_be_focused()
            screenshot(ann, "tournaments-dispute-dialog")
            ann.click("#confirm-ok")
            expect(ann.locator("#confirm")).to_be_visible()
            ann.fill("#confirm-text", "we wrote 95, it was 105")
            ann.click("#confirm-ok")
            expect(ann.locator("#confirm")).to_be_hidden()
            wait_until(ann, "document.body.textContent.includes('disputed')")
            games = next(
                x
                for x in dora.http.get(f"/api/tournaments/{eid}").json()["rounds"][0]
                if x["id"] == m["id"]
            )["games"]
            assert [g["status"] for g in games] == ["disputed"], games
            check_axe(ann, "dispute")
            # the director offers bob's place to eve from the console
            td = browser.new_context(viewport=DESKTOP).new_page()
            sign_in(td, url, "dora")
            td.goto(f"{url}/tournaments/{eid}")
            td.click("#tab-entrants")  # (in play, the console opens on the round)
            row = td.locator("#console-entrants tr", has_text="bob")
            row.locator("details.more summary").click()
            row.locator("button.replace").click()
            expect(td.locator("#confirm-text")).to_be_focused()
            td.fill("#confirm-text", "eve")
            td.click("#confirm-ok")
            expect(td.locator("#confirm-title")).to_have_text("Replace bob with eve?")
            td.click("#confirm-ok")
            expect(td.locator("#confirm")).to_be_hidden()
            # (the dialog closes as the offer is sent: wait for the answer, which the page shows
            # as it redraws; "to be empty" held at once, while the request was still under way)
            expect(td.locator(".said.good")).to_contain_text("offered: if eve has an account")
            deadline = time.monotonic() + 30
            while not (offers := people["eve"].http.get("/api/me/offers").json())["offers"]:
                assert time.monotonic() < deadline, "the offer never reached eve"
                td.wait_for_timeout(100)
            assert [o["event_name"] for o in offers["offers"]] == ["Hall"], offers
            assert not csp, csp
        finally:
            browser.close()
