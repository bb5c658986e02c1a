"""The New table form's rules in Debian's Chromium: the preset picker where a game has
presets, every option of the chosen game with its words, the player count kept within the
game's, a wrong number refused in words, and the table's rules shown to whoever opens it."""

from __future__ import annotations

import json
from typing import Any

from tests.server.browser import (
    axe_violations,
    needs_axe,
    needs_chromium,
    no_sideways_scroll,
    play_as_guest,
    screenshot,
)

pytestmark = needs_chromium


SIZES = """() => Object.fromEntries(["body", "#game", "#clock"].map((s) =>
  [s.replace("#", ""), getComputedStyle(document.querySelector(s)).fontSize]))"""


def chosen(page: Any, name: str) -> Any:
    """The value an option's select is set to, as JSON."""
    return json.loads(page.locator(f"#opt-{name}").input_value())


def marker(page: Any, summary: str) -> str:
    """The disclosure mark drawn before ``summary`` (a flex summary has none of its own)."""
    return str(page.locator(summary).evaluate("e => getComputedStyle(e, '::before').content"))


def table_options(page: Any) -> Any:
    table_id = page.url.rsplit("/", 1)[1]
    return page.request.get(f"{page.url.split('/table/')[0]}/api/tables/{table_id}").json()


def test_a_table_is_created_with_the_rules_chosen_and_shows_them(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    play_as_guest(page, site, "Rita")
    expect(page.locator("#game option")).to_have_count(4)
    # The form's fields in columns on a laptop, in the page's own size of letters (a form's
    # controls are otherwise the browser's smaller ones), as the tournaments' settings are.
    assert page.evaluate(SIZES) == {"body": "16px", "game": "16px", "clock": "16px"}
    others, bot = (page.locator(s).bounding_box() for s in ("#others", "#bot"))
    assert others["y"] == bot["y"] and others["x"] < bot["x"], (others, bot)
    # High Five: its presets; the tournament one sets its own values in the rows
    expect(page.locator("#preset option")).to_have_text(["box (default)", "pda"])
    assert chosen(page, "lead_after_lock") == "big6"
    page.select_option("#preset", "pda")
    assert chosen(page, "lead_after_lock") == "last_domino_holder"
    expect(page.locator("#options-changed")).to_have_text("(the game's own)")
    # Merry-Go-Round: no presets, at most 4 players, its own options
    page.select_option("#game", "merry-go-round")
    expect(page.locator("#preset-row")).to_be_hidden()
    assert marker(page, "#rule-options summary") == '"\u25b8"'  # shut, and it looks it
    page.click("#rule-options summary")
    assert marker(page, "#rule-options summary") == '"\u25be"'
    expect(page.locator("label[for=opt-forced_play]")).to_have_text("Forced play ")
    page.select_option("#opt-forced_play", "true")
    page.fill("#opt-target", "0")
    page.click("#create")  # the browser holds the form back and says why
    assert page.locator("#opt-target").evaluate("e => e.validity.rangeUnderflow")
    assert "/table/" not in page.url
    page.fill("#opt-target", "31")
    page.fill("#players", "9")
    page.dispatch_event("#players", "change")
    expect(page.locator("#players")).to_have_value("4")
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    seats = ["random (default)", "seat 1", "seat 2", "seat 3"]
    expect(page.locator("#opt-first_setter option")).to_have_text(seats)
    expect(page.locator("#opt-target")).to_have_value("31")  # kept
    expect(page.locator("#options-changed")).to_have_text("(2 changed)")
    page.set_viewport_size({"width": 390, "height": 844})
    assert no_sideways_scroll(page)
    screenshot(page, "new-table-options-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#create")
    page.wait_for_url("**/table/*")
    rules = "Rules at this table: Forced play: true; The winning score: 31 (options)."
    expect(page.locator("#table-rules")).to_have_text(rules)
    assert table_options(page)["options"] == {"forced_play": True, "target": 31}
    # Highrise: a whole number of spacers or "carry over"
    page.goto(site + "/")
    page.select_option("#game", "highrise")
    page.click("#rule-options summary")
    expect(page.locator("#opt-spacers_per_hand")).to_have_value("12")
    page.select_option("#opt-spacers_per_hand-kind", '"carry_over"')
    expect(page.locator("#opt-spacers_per_hand")).to_be_hidden()
    page.click("#create")
    page.wait_for_url("**/table/*")
    expect(page.locator("#table-rules")).to_contain_text("Spacers: carry over")
    assert table_options(page)["options"] == {"spacers_per_hand": "carry_over"}


@needs_axe
def test_the_rule_options_of_the_new_table_form_pass_axe(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    play_as_guest(page, site, "Axel")
    page.select_option("#game", "merry-go-round")
    page.click("#rule-options summary")
    expect(page.locator("#opt-forced_play")).to_be_visible()
    page.fill("#opt-target", "0")  # a value the browser refuses, shown as such
    assert axe_violations(page) == []
    page.select_option("#game", "highfive")
    page.select_option("#preset", "pda")
    expect(page.locator("#options-changed")).to_have_text("(the game's own)")
    assert axe_violations(page) == []
