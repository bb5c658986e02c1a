"""Learning the games in the browser: the rules pages, the links to them, plain words at the
table, and the axe-core accessibility check (Debian's Chromium, Playwright).

Screenshots of the rules pages at desktop (1280×800) and phone (390×844) sizes go to
``SCREENS`` (``/tmp/boneyard-screens/`` unless BONEYARD_SCREENS says otherwise; docs/server.md).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from boneyard.server.rules.service import GAMES
from tests.server.browser import (
    axe_violations,
    launch,
    needs_axe,
    needs_chromium,
    no_sideways_scroll,
    play_as_guest,
    screenshot,
    serve,
    wait_until,
)

pytestmark = needs_chromium

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
PLAYERS = {"highfive": 2, "merry-go-round": 3, "high-fives": 3, "highrise": 2}

# Everything a person reads on a page: its text, its tooltips (title attributes and SVG titles)
# and its accessible names.
READ_TEXT = """() => [document.body.innerText,
  ...[...document.querySelectorAll("[title]")].map((n) => n.getAttribute("title")),
  ...[...document.querySelectorAll("title")].map((n) => n.textContent),
  ...[...document.querySelectorAll("[aria-label]")].map((n) => n.getAttribute("aria-label"))]"""
CHIPS = """() => [...document.querySelectorAll("#info .chip")].map(
  (c) => [c.querySelector("small").textContent, c.getAttribute("title") || ""])"""
RAW = re.compile(
    r"\b(undealt|stage|cross_\w+|SIDE_[AB]|END_[AB]|LEAD_SINGLE|LINE_SINGLE|PLAIN_DOUBLE|SPINNER"
    r"|L\d+|[a-z]+_[a-z_]+)\b"
)
RAW_LABELS = {"count", "hand", "boneyard", "reserve", "pile", "undealt", "spacers", "target"}
# The level each domino of the tower says it is at ("level 2", "in the basement").


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("rules")
    with serve(tmp / "site.db", tmp / "server.log") as url:
        yield url


def raw_words(page: Any) -> list[str]:
    """Record names, port codes, option keys... anything a person should not have to read, and
    info chips without a plain label and a tooltip."""
    return raw_in(page.evaluate(READ_TEXT), page.evaluate(CHIPS))


def raw_in(texts: list[str | None], chips: list[list[str]]) -> list[str]:
    """The raw words of :func:`raw_words` in what a page read (``READ_TEXT``, ``CHIPS``)."""
    found = {m for text in texts if text for m in RAW.findall(text)}
    for label, tip in chips:
        if label in RAW_LABELS or not tip:
            found.add(f"chip {label!r} (tooltip {tip!r})")
    return sorted(found)


def bot_table(page: Any, base: str, game: str) -> str:
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "boneyard_csrf")
    seats = [{"kind": "bot", "bot": "greedy"}] * PLAYERS[game]
    r = page.request.post(
        base + "/api/tables", data={"game": game, "seats": seats}, headers={"X-CSRF-Token": csrf}
    )
    assert r.ok, r.text()
    return str(r.json()["id"])


def test_rules_pages_draw_their_pictures_and_fit_a_phone(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            for size, (w, h) in SIZES.items():
                page = browser.new_page(viewport={"width": w, "height": h})
                errors: list[str] = []
                page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                for name in ("index", *GAMES):
                    page.goto(live_server + ("/rules" if name == "index" else f"/rules/{name}"))
                    figures = page.locator("figure.board")
                    # Each picture is drawn by the tables' renderer, with what the engine counts.
                    expect(page.locator("figure.board .figure-fact")).to_have_count(figures.count())
                    assert page.locator("figure.board .felt").count() == figures.count()
                    if name != "index":
                        assert figures.count() >= 3, name
                        assert page.locator("table.options tr").count() > 8
                        expect(
                            page.locator(f'.rules-nav a[href="/rules/{name}"]')
                        ).to_have_attribute("aria-current", "page")
                    assert no_sideways_scroll(page), f"{name} scrolls sideways at {w} px"
                    for link in page.locator(".rules-nav a").all():
                        assert link.bounding_box()["height"] >= 44
                    assert screenshot(page, f"rules-{name}-{size}").stat().st_size > 10_000
                assert errors == []
                page.close()
            # The pictures say what the engine counts: a count of 20, a 20-point tower move.
            page = browser.new_page()
            page.goto(live_server + "/rules/highfive")
            expect(page.locator("body")).to_contain_text(
                "The open ends add up to 20: a multiple of 5, it scores 20 points."
            )
            assert page.locator("figure.board .spinner").count() >= 3
            page.goto(live_server + "/rules/highrise")
            expect(page.locator("body")).to_contain_text("The last domino scores 20 points")
            assert page.locator("figure.board .tower .spacer").count() == 1
            page.goto(live_server + "/rules/merry-go-round")  # a point for every five
            expect(page.locator("body")).to_contain_text(
                "add up to 20: a multiple of 5, it scores 4 points."
            )
            page.goto(live_server + "/rules/high-fives")
            expect(page.locator("body")).to_contain_text("The turn wins 4 tiles worth 7 points")
        finally:
            browser.close()


def test_home_lobby_and_table_link_the_rules_and_say_things_plainly(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(live_server + "/")
            expect(page.locator("#intro")).to_contain_text("Boneyard is a free, open-source place")
            page.click("#learn")
            page.wait_for_url("**/rules")
            play_as_guest(page, live_server, "Rita")
            rules_link = page.locator("#game-rules")
            for game in GAMES:
                page.select_option("#game", game)
                expect(rules_link).to_have_attribute("href", f"/rules/{game}")
            page.select_option("#game", "merry-go-round")
            page.click("#game-rules")
            page.wait_for_url("**/rules/merry-go-round")
            expect(page.locator("h1")).to_have_text("Merry-Go-Round")
            # Every game's table, seated and watched, in plain words with tooltips.
            seen: dict[str, set[str]] = {}
            for game in GAMES:
                page.goto(live_server + "/")
                page.select_option("#game", game)
                page.fill("#players", str(PLAYERS[game]))
                page.dispatch_event("#players", "input")
                page.click("#create")
                page.wait_for_url("**/table/*")
                page.wait_for_selector("#info .chip")
                expect(page.locator("#rules-link")).to_have_attribute("href", f"/rules/{game}")
                assert raw_words(page) == [], game
                seen[game] = watch_bots_play(page, live_server, game)
            assert {"cross: the sides", "open play"} <= seen["merry-go-round"]
            assert "level 1" in seen["highrise"] and "in the basement" in seen["highrise"]
            assert "Still to deal" in seen["high-fives"]
            assert "Ends add up to" in seen["highfive"]
        finally:
            browser.close()


# Every view the table draws, as it is drawn: render() sets data-version, then draws the rest in
# the same task, and the observer's callback runs after that task. (Sampling the page instead
# missed views on a loaded machine, where bots outpace the sampling.)
RECORD_VIEWS = """([read, chips]) => {
  window.seenViews = [];
  const snap = () => window.seenViews.push({ version: document.body.dataset.version,
    text: read(), chips: chips(), labels: [...document.querySelectorAll(
      "#info .chip small, #info .chip b")].map((n) => n.innerText).concat(
      [...document.querySelectorAll(".tower g.domino")].map(
        (n) => n.getAttribute("aria-label").split(", ")[1])) });
  snap();
  new MutationObserver(snap).observe(document.body, { attributes: true, attributeFilter: ["data-version"] });
}"""


def watch_bots_play(page: Any, base: str, game: str) -> set[str]:
    """Watch a bots' table of ``game`` to its end (or 60 s of it), checking every view drawn
    for raw words; returns the chip labels and values and the tower's levels seen."""
    tid = bot_table(page, base, game)
    page.goto(f"{base}/table/{tid}")
    wait_until(page, "document.body.dataset.version !== undefined")
    page.evaluate(
        f"""() => {{ const read = {READ_TEXT}; const chips = {CHIPS};
        ({RECORD_VIEWS})([read, chips]); }}"""
    )
    with contextlib.suppress(AssertionError):  # (60 s of it is enough to read)
        wait_until(page, "document.getElementById('game-over') !== null", 60)
    seen: set[str] = set()
    versions: set[str] = set()
    for view in page.evaluate("window.seenViews"):
        versions.add(view["version"])
        assert raw_in(view["text"], view["chips"]) == [], (game, view["version"])
        seen |= set(view["labels"])
    assert len(versions) > 5
    return seen


@needs_axe
def test_axe_finds_no_serious_or_critical_violations(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            found: dict[str, list[Any]] = {}
            page.goto(live_server + "/")
            expect(page.locator("#auth")).to_be_visible()
            found["home"] = axe_violations(page)
            play_as_guest(page, live_server, "Axel")
            expect(page.locator("#lobby")).to_be_visible()
            found["lobby"] = axe_violations(page)
            for name in ("index", *GAMES):
                page.goto(live_server + ("/rules" if name == "index" else f"/rules/{name}"))
                page.wait_for_selector("figure.board .figure-fact, .rules-game")
                found[f"rules {name}"] = axe_violations(page)
            tid = bot_table(page, live_server, "highfive")
            page.goto(f"{live_server}/table/{tid}")  # (watched: a bots' table plays only then)
            for _ in range(600):
                if page.request.get(f"{live_server}/api/tables/{tid}").json()["status"] == "over":
                    break
                page.wait_for_timeout(100)
            page.reload()  # a finished table: the game-over panel
            expect(page.locator("#game-over")).to_be_visible()
            found["table over"] = axe_violations(page)
            page.goto(f"{live_server}/replay/{tid}")
            expect(page.locator("#board")).to_be_visible()
            page.click("#next")
            found["replay"] = axe_violations(page)
            page.goto(live_server + "/replay")
            expect(page.locator("#upload")).to_be_visible()
            found["replay upload"] = axe_violations(page)
            for game in GAMES:
                page.goto(live_server + "/")
                page.select_option("#game", game)
                page.click("#create")
                page.wait_for_url("**/table/*")
                page.wait_for_selector("#info .chip")
                found[f"table {game}"] = axe_violations(page)
            report = [
                f"{where}: {v['id']} ({v['impact']}) {v['help']}: {v['nodes']}"
                for where, vs in found.items()
                for v in vs
            ]
            assert report == [], "\n".join(report)
        finally:
            browser.close()
