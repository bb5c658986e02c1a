"""Play in one tap, in Debian's Chromium: Play from the home page without signing up; quick
pairing seats two (and four) people who press Play for the same game at the same table within
10 s, while the waiting counts update on the others' pages; the bot offered after the site's
time; an invite link seats the friend in the free seat and the table starts, every label naming
the same seat; the app's manifest and service worker, its shell opening offline; the 404 page.
Screenshots at 1366×768 and 390×844 (docs/server.md, "Tests")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import (
    axe_violations,
    csp_violations,
    needs_chromium,
    no_sideways_scroll,
    play_as_guest,
    screenshot,
    serve,
    submit,
    system_theme,
    wait_until,
)

pytestmark = needs_chromium

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
BOT_AFTER = 3  # seconds (the site's setting for this module)
PAIRED_WITHIN = 10_000  # ms: from pressing Play to being sent to the table


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ``boneyard serve`` for the module, offering a bot after ``BOT_AFTER`` seconds."""
    tmp = tmp_path_factory.mktemp("play")
    env = {"BONEYARD_PAIRING_BOT_AFTER": str(BOT_AFTER)}
    with serve(tmp / "site.db", tmp / "server.log", env=env) as url:
        yield url


OFFER_WATCH = """() => {
  const offer = document.getElementById("bot-offer");
  document.getElementById("play-now").addEventListener("click", () => { window.pressedAt = performance.now(); }, { capture: true });
  new MutationObserver(() => { if (!offer.hidden && !window.offeredAt) window.offeredAt = performance.now(); })
    .observe(offer, { attributes: true });
}"""


def visitor(browser: Any, site: str, viewport: dict[str, int] = LAPTOP) -> Any:
    """A new visitor's home page (signed out), its CSP violations and script errors noted."""
    page = browser.new_context(viewport=viewport).new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.csp = csp_violations(page)  # type: ignore[attr-defined]
    page.goto(site + "/")
    page.wait_for_selector("#pair-game option", state="attached")
    return page


def choose(page: Any, game: str, players: int, clock: int) -> None:
    page.select_option("#pair-game", game)
    page.select_option("#pair-players", str(players))
    page.select_option("#pair-clock", str(clock))


def clean(*pages: Any) -> None:
    for page in pages:
        assert page.errors == [] and page.csp == [], (page.errors, page.csp)


def test_play_without_signing_up_pairs_two_people_at_one_table(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    ann = visitor(browser, site)
    bob = visitor(browser, site, PHONE)
    expect(ann.locator("#who")).to_have_text("")  # nobody signed in
    ann.click("#play-now")  # High Five, 2 players, 60 s: the form's defaults
    expect(ann.locator("#waiting")).to_be_visible()
    expect(ann.locator("#waiting-text")).to_contain_text("Looking for 1 more player: High Five")
    expect(ann.locator("#who")).to_contain_text("(guest)")  # a guest made on the way
    expect(ann.locator("#pools li.mine")).to_contain_text("1 waiting(you)")  # (her own pool)
    # Bob's page (not reloaded) comes to show the one waiting.
    pool = bob.locator('#pools li[data-pool="highfive/2/60"]')
    expect(pool).to_contain_text("1 waiting", timeout=10_000)
    expect(bob.locator("#pool-count")).to_have_text("1 waiting for this game")
    screenshot(bob, "play-someone-waiting-phone")
    ann.set_viewport_size(LAPTOP)
    screenshot(ann, "play-waiting-laptop")
    assert no_sideways_scroll(bob)
    bob.click("#play-now")
    bob.wait_for_url("**/table/*", timeout=PAIRED_WITHIN, wait_until="commit")
    ann.wait_for_url(bob.url, timeout=PAIRED_WITHIN, wait_until="commit")
    for page in (ann, bob):
        expect(page.locator("#status")).to_have_text("connected")
        wait_until(page, "document.querySelector('#hand button.hand-tile') !== null", 30)
    expect(ann.locator("#seats")).to_contain_text("Guest")
    clean(ann, bob)
    # Home again, Ann stays there (not sent back to her table); a tab reloaded at the moment of
    # its pairing (it was waiting) goes on to the table.
    for page, waited in ((ann, False), (bob, True)):
        table = page.url
        if waited:
            page.evaluate("sessionStorage.setItem('boneyard-waiting', '1')")
        with page.expect_response(lambda r: r.url.endswith("/api/pairing")) as asked:
            page.goto(site + "/")
        if waited:
            page.wait_for_url(table, wait_until="commit")
        else:
            assert asked.value.json()["table"] == table.rsplit("/", 1)[1]  # (still paired)
            wait_until(page, "document.body.dataset.resumed === 'yes'")  # (the answer heard)
            assert page.evaluate("document.body.dataset.pairing") != "paired"
            assert page.url == site + "/"
    for page in (ann, bob):
        page.context.close()


def test_four_people_fill_a_four_player_pool(site: str, browser: Any) -> None:
    pages = [visitor(browser, site) for _ in range(4)]
    for page in pages[:3]:
        choose(page, "highfive", 4, 30)
        page.click("#play-now")
        page.wait_for_selector("#waiting:not([hidden])")
    from playwright.sync_api import expect

    expect(pages[2].locator("#waiting-text")).to_contain_text("Looking for 1 more player")
    choose(pages[3], "highfive", 4, 30)
    pages[3].click("#play-now")
    pages[3].wait_for_url("**/table/*", timeout=PAIRED_WITHIN, wait_until="commit")
    for page in pages[:3]:
        page.wait_for_url(pages[3].url, timeout=PAIRED_WITHIN, wait_until="commit")
    expect(pages[0].locator("#seats tr[data-seat]")).to_have_count(4)
    clean(*pages)
    for page in pages:
        page.context.close()


def test_a_bot_is_offered_after_the_sites_time(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = visitor(browser, site, PHONE)
    choose(page, "merry-go-round", 3, 120)  # (a pool nobody else joins here)
    page.evaluate(OFFER_WATCH)  # notes when the offer shows, measured from the press of Play
    page.click("#play-now")
    expect(page.locator("#waiting")).to_be_visible()
    expect(page.locator("#bot-offer")).to_be_visible(timeout=(BOT_AFTER + 15) * 1000)
    offered_after = page.evaluate("window.offeredAt - window.pressedAt")
    assert offered_after >= BOT_AFTER * 1000, offered_after  # not before the site's time
    expect(page.locator("#bot-offer")).to_contain_text("Play a bot instead?")
    screenshot(page, "play-bot-offered-phone")
    page.click("#bot-instead")
    page.wait_for_url("**/table/*")
    seats = page.locator("#seats tr[data-seat]")
    expect(seats).to_have_count(3)
    expect(seats.nth(1)).to_contain_text("(bot)")
    page.goto(site + "/")
    expect(page.locator("#waiting")).to_be_hidden()  # the wait is over
    clean(page)
    page.context.close()


def test_the_invite_link_seats_the_friend_and_the_table_starts(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    ann = visitor(browser, site)
    play_as_guest(ann, site, "Hosta")
    ann.select_option("#others", "open")
    ann.check("#private")
    ann.click("#create")
    ann.wait_for_url("**/table/*")
    link = ann.locator("#invite-link").input_value()
    friend = visitor(browser, site, PHONE)  # signed out: a guest is made on the way
    friend.goto(link)
    # Seated in the free seat, seat 2 on every label; the table deals by itself.
    # (the friend's page opens again as the new guest: expect waits across that)
    expect(friend.locator("#hand button.hand-tile").first).to_be_visible(timeout=30_000)
    expect(ann.locator("#hand button.hand-tile").first).to_be_visible(timeout=30_000)
    name = friend.evaluate("fetch('/api/me').then(r => r.json())")["user"]["display_name"]
    assert name.startswith("Guest ")
    expect(friend.locator("#my-plate .plate")).to_have_attribute("data-seat", "1")
    expect(friend.locator("#my-plate .dot.num")).to_have_text("2")
    expect(friend.locator('#seats tr[data-seat="1"]')).to_contain_text(f"{name} (you)")
    expect(ann.locator('.plate[data-seat="1"] .dot.num')).to_have_text("2")
    expect(ann.locator('.plate[data-seat="1"]')).to_contain_text(name)
    expect(ann.locator('#seats tr[data-seat="1"]')).to_contain_text(name)
    expect(ann.locator("#start")).to_have_count(0)
    expect(friend.locator("#join-area button")).to_have_count(0)
    screenshot(friend, "invite-seated-phone")
    clean(ann, friend)
    for page in (ann, friend):
        page.context.close()


def test_the_app_installs_and_its_shell_opens_offline(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = visitor(browser, site)
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert manifest["display"] == "standalone" and len(manifest["icons"]) == 3
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == site + "/"
    wait_until(page, "navigator.serviceWorker.controller !== null")  # (it took the page over)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("You are offline.")
    expect(page.locator("#play-title")).to_have_text("Play dominoes")  # the shell, styled
    assert page.evaluate("getComputedStyle(document.querySelector('header')).display") == "flex"
    screenshot(page, "offline-home-laptop")
    page.goto(site + "/table/somewhere")
    expect(page.locator("#offline-page h1")).to_have_text("You are offline")
    system_theme(page, "dark")  # (dark where the system is, as every page)
    page.set_viewport_size(PHONE)
    screenshot(page, "offline-page-phone")
    page.context.set_offline(False)  # back online: the page asked for opens by itself
    expect(page.locator("#gone")).to_contain_text("This table is not available")
    page.context.close()


LOADED = """() => performance.getEntriesByType("resource")
  .map((e) => new URL(e.name)).filter((u) => u.pathname.startsWith("/static/"))
  .map((u) => u.pathname + u.search)"""
FROM_THE_SERVER = """() => performance.getEntriesByType("resource")
  .filter((e) => new URL(e.name).pathname.startsWith("/static/") && e.transferSize > 0)
  .map((e) => new URL(e.name).pathname)"""
"""The static files a page loaded, and those of them that came from the server (a 304 included:
only a file from the browser's cache transfers nothing)."""


def test_a_page_opened_again_takes_its_files_from_the_browsers_cache(
    site: str, browser: Any
) -> None:
    """Where no service worker runs (a hall's plain http): every script, style and icon a page
    loads, imported modules included, is named by this release's version of it, and a page
    opened again loads none of them from the server; each was a round trip and a 304."""
    context = browser.new_context(service_workers="block", viewport=PHONE)
    page = context.new_page()
    for path in ("/", "/rules", "/"):
        page.goto(site + path)
        page.wait_for_load_state("networkidle")
        loaded = page.evaluate(LOADED)
        assert len(loaded) > 5 and all(re.search(r"\?v=[0-9a-f]{12}$", u) for u in loaded), loaded
        fetched = page.evaluate(FROM_THE_SERVER)
        if path == "/rules":  # what the home page had loaded comes from the cache already
            assert "/static/style.css" not in fetched and "/static/rules.js" in fetched, fetched
    assert fetched == [], fetched  # the home page again: nothing
    page.goto(site + "/table/somewhere")  # a table loads the modules it alone imports
    page.wait_for_load_state("networkidle")
    assert page.evaluate(FROM_THE_SERVER) != []
    page.reload()
    page.wait_for_load_state("networkidle")
    assert page.evaluate(FROM_THE_SERVER) == []
    context.close()


def test_a_missing_page_says_so_and_leads_back(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = visitor(browser, site, PHONE)
    answer = page.goto(site + "/nonexistent")
    assert answer is not None and answer.status == 404
    expect(page.locator("h1")).to_have_text("Page not found")
    screenshot(page, "not-found-phone")
    assert axe_violations(page) == []
    page.click("#back-home")
    page.wait_for_url(site + "/")
    expect(page.locator("#play-now")).to_be_visible()
    assert axe_violations(page) == []  # the home page, signed out
    clean(page)
    page.context.close()


PAGES_WITH_MENU = ("/", "/rules", "/leaderboard", "/tournaments", "/replay", "/nonexistent")


def test_the_header_is_one_row_on_a_phone_with_the_rest_behind_its_menu(
    site: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    page = visitor(browser, site, PHONE)
    play_as_guest(page, site, "Nia Longname")
    for path in PAGES_WITH_MENU:
        page.goto(site + path)
        toggle = page.locator("[aria-controls=site-menu]")
        expect(toggle).to_be_visible()
        assert page.locator("header").bounding_box()["height"] <= 60, path
        link = page.locator("#site-menu a[href='/leaderboard']")
        expect(link).to_be_hidden()
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box["height"] >= 43.5, (path, box)
        page.keyboard.press("Escape")  # (closed again, the focus back on its button)
        expect(link).to_be_hidden()
        assert page.evaluate("document.activeElement.getAttribute('aria-controls')") == "site-menu"
    # Who you are is in the menu; a choice there is followed and closes it.
    page.goto(site + "/")
    page.click("[aria-controls=site-menu]")
    expect(page.locator("#who")).to_have_text("Nia Longname (guest)")
    screenshot(page, "header-menu-phone")
    page.click("#site-menu a[href='/leaderboard']")
    # (the leaderboard writes its choice into its address once its script runs: with or
    # without the query, whichever a busy machine shows first; as long a wait as before)
    expect(page).to_have_url(re.compile(re.escape(site) + r"/leaderboard(\?.*)?$"), timeout=30_000)
    expect(page.locator("#site-menu")).to_be_hidden()
    # A laptop sees the whole header in its one row, and no menu button.
    page.set_viewport_size(LAPTOP)
    expect(page.locator("[aria-controls=site-menu]")).to_be_hidden()
    expect(page.locator("#site-menu a[href='/tournaments']")).to_be_visible()
    assert page.locator("header").bounding_box()["height"] <= 60
    # A phone on its side collapses it too, as the table's header does (one size for both).
    page.set_viewport_size({"width": 844, "height": 390})
    expect(page.locator("[aria-controls=site-menu]")).to_be_visible()
    assert page.locator("header").bounding_box()["height"] <= 60
    assert page.errors == [] and page.csp == []  # type: ignore[attr-defined]
    page.context.close()


FIELDS = """() => [...document.querySelectorAll('#auth input, #pair-form select')].map((e) =>
  ({ id: e.id, height: e.getBoundingClientRect().height, size: parseFloat(getComputedStyle(e).fontSize) }))"""


def test_a_phones_fields_are_a_finger_tall_and_do_not_zoom_the_page(
    site: str, browser: Any
) -> None:
    """Signing in on a phone: every field to type in is 44 px tall and its letters at least
    16 px (a phone's browser zooms the page into smaller ones when they take the focus)."""
    page = visitor(browser, site, PHONE)
    page.locator("#auth").scroll_into_view_if_needed()
    fields = page.evaluate(FIELDS)
    assert len(fields) >= 8, fields
    assert [f for f in fields if f["height"] < 43.5 or f["size"] < 16] == [], fields
    clean(page)
    page.context.close()


def test_every_page_says_who_you_are_and_signs_you_out(site: str, browser: Any) -> None:
    """The tournaments, the leaderboard and a profile name who is signed in, link to their
    profile and sign them out (a browser shared at a venue need not go back to the front page);
    signed out, they offer neither. On a phone the three are in the header's menu."""
    from playwright.sync_api import expect

    page = visitor(browser, site)
    play_as_guest(page, site, "Shared Laptop")
    me = page.request.get(site + "/api/me").json()["user"]
    for path in ("/tournaments", "/leaderboard", f"/profile/{me['id']}"):
        page.goto(site + path)
        expect(page.locator("#who")).to_have_text("Shared Laptop (guest)")
        expect(page.locator("#my-profile")).to_have_attribute("href", f"/profile/{me['id']}")
        expect(page.locator("#my-profile")).to_be_visible()
        expect(page.locator("#logout")).to_be_visible()
        assert page.locator("header").bounding_box()["height"] <= 60, path
        # (as compact in the row as on the front page: a page's own 44 px buttons are its own)
        assert page.locator("#logout").bounding_box()["height"] < 40, path
    page.set_viewport_size(PHONE)
    expect(page.locator("#site-menu #logout")).to_be_hidden()  # (behind the menu's button)
    page.click("[aria-controls=site-menu]")
    page.click("#site-menu #logout")
    expect(page).to_have_url(site + "/")
    expect(page.locator("#who")).to_have_text("")
    assert page.request.get(site + "/api/me").json()["user"] is None
    page.set_viewport_size(LAPTOP)
    for path in ("/tournaments", "/leaderboard"):
        page.goto(site + path)
        page.wait_for_load_state("networkidle")
        expect(page.locator("#who")).to_have_text("")
        expect(page.locator("#logout")).to_have_count(1)  # (placed, and hidden)
        expect(page.locator("#logout")).to_be_hidden()
        expect(page.locator("#my-profile")).to_be_hidden()
    clean(page)
    page.context.close()


def test_a_sign_in_is_not_undone_by_an_older_question_answering_late(
    site: str, browser: Any
) -> None:
    """The home page asks the server who is signed in as it opens and when the connection comes
    back; a guest made meanwhile (Play as guest pressed) stays signed in when that older answer
    ("nobody") comes last."""
    from playwright.sync_api import expect

    page = visitor(browser, site)
    held: list[Any] = []
    page.route("**/api/me", lambda route: held.append(route))  # (answered below, late)
    page.context.set_offline(True)
    page.context.set_offline(False)  # back online: the page asks again
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)  # (lets the route handler hear it)
    assert held, "the page asks who is signed in when the connection comes back"
    page.fill("#guest-name", "Late Lou")
    submit(page, "#guest-name", "/api/guest")
    expect(page.locator("#who")).to_contain_text("Late Lou")
    for route in held:
        route.fulfill(status=200, content_type="application/json", body='{"user": null}')
    page.evaluate("() => new Promise((r) => setTimeout(r, 300))")  # (the old answer is read)
    expect(page.locator("#who")).to_contain_text("Late Lou")
    expect(page.locator("#guest-box")).to_be_visible()
    page.context.close()
