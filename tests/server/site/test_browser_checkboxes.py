"""On a phone, every box to tick is drawn box-sized with its words beside it, and its label (which
takes the tap) is a finger tall: the New table form, the leaderboard, the tournament form and a
director's walk-in row (style.css). A box drawn 44 px square stood over its words like an empty
frame, the words pushed under it."""

from __future__ import annotations

from typing import Any

from tests.server.browser import needs_chromium, person, sign_up, wait_until

pytestmark = needs_chromium

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
MIN_TARGET = 44
MOST_BOX = 28
"""A box to tick no bigger than this (px): the label around it is the target."""

CHECKS = """() => [...document.querySelectorAll('input[type=checkbox]')]
  .filter((c) => c.getClientRects().length)
  .map((c) => {
    const label = c.closest('label'), box = c.getBoundingClientRect();
    const words = [...label.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
    const range = document.createRange();
    range.selectNodeContents(words);
    const first = range.getClientRects()[0];
    return { id: c.id, box: Math.round(Math.max(box.width, box.height)),
      label: Math.round(label.getBoundingClientRect().height),
      beside: first.left >= box.right && first.top < box.bottom && first.bottom > box.top };
  })"""


def boxes_fit(page: Any, where: str, expected: set[str]) -> None:
    """Every box to tick shown on ``page`` (at least ``expected``, by id): box-sized, its words'
    first line beside it, its label a finger tall; a tap at the far end of the label's row
    ticks the box, and another unticks it."""
    checks = page.evaluate(CHECKS)
    assert expected <= {c["id"] for c in checks}, (where, checks)
    for c in checks:
        assert c["box"] <= MOST_BOX and c["beside"] and c["label"] >= MIN_TARGET, (where, c)
    for box_id in sorted(expected):
        label = page.locator(f"label:has(> #{box_id})")
        size = label.bounding_box()
        before = page.is_checked(f"#{box_id}")
        label.tap(position={"x": size["width"] - 4, "y": size["height"] / 2})
        assert page.is_checked(f"#{box_id}") is not before, (where, box_id)
        label.tap(position={"x": size["width"] - 4, "y": size["height"] / 2})
        assert page.is_checked(f"#{box_id}") is before, (where, box_id)


def test_boxes_to_tick_on_a_phone(browser: Any, site: str) -> None:
    guest = person(browser, site, "Tick", **PHONE)
    wait_until(guest, "!!document.getElementById('private').offsetParent")
    boxes_fit(guest, "New table", {"private"})
    guest.goto(site + "/leaderboard")
    wait_until(guest, "!!document.getElementById('lb-bots').offsetParent")
    boxes_fit(guest, "leaderboard", {"lb-bots"})

    director = browser.new_context(**PHONE).new_page()
    sign_up(director, site, "td-tick")
    director.goto(site + "/tournaments")
    director.click("#create summary")
    director.fill("#f-name", "Tick Club")
    director.select_option("#f-format", "swiss")
    director.select_option("#f-mode", "otb")
    boxes_fit(director, "tournament form", {"f-rated", "f-late_entry", "f-bot_accounts"})
    director.click("#ev-create")
    director.wait_for_url("**/tournaments/*")
    wait_until(director, "!!document.getElementById('walkin-here')")
    boxes_fit(director, "walk-ins", {"walkin-here"})
    assert guest.errors == [] and guest.csp == []
