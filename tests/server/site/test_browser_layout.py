"""Long Fives layouts bend at the board's edge and stay on the board (issue 6, board).

In Debian's Chromium at 1280x800: the replay viewer shows the longest hands of the golden
records (a Merry-Go-Round hand of 27 tiles with a 13-tile arm, a High Five hand of 22 tiles),
and the table's board draws an injected layout with four long arms of a spinner, its open ends
clickable. Every tile must lie inside the board, no two tiles may overlap, and the open-end
targets must lie inside the board, clear of the tiles, and still make their move when clicked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.server.browser import launch, needs_chromium

SCREENSHOT = Path("/tmp/boneyard-browser-long-layout.png")
RECORDS = Path(__file__).resolve().parents[2] / "records"
VIEWPORT = {"width": 1280, "height": 800}

pytestmark = needs_chromium


BOXES = """() => {
  const box = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const felt = document.querySelector("#layout .felt");
  return {
    felt: box(felt),
    overflow: felt.scrollWidth - felt.clientWidth,
    tiles: [...felt.querySelectorAll("svg.layout g.tile")].map((g) => [g.dataset.tile, ...box(g)]),
    ends: [...felt.querySelectorAll("svg.layout g.end")].map((g) => [g.dataset.on, ...box(g)]),
    width: innerWidth,
  };
}"""


def overlap(a: list[float], b: list[float]) -> float:
    """The area two boxes [left, top, right, bottom] share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def check_layout(page: Any, tiles: int) -> dict[str, Any]:
    """Every tile and open end inside the board, none overlapping, the board no taller than a
    window and its tiles readable; returns the boxes."""
    out: dict[str, Any] = page.evaluate(BOXES)
    left, top, right, bottom = out["felt"]
    assert len(out["tiles"]) == tiles
    assert out["overflow"] <= 0, "the board scrolls sideways"
    assert right <= out["width"], out["felt"]
    # It fits a window (before the bends a long arm made the board some 1,000-1,500 px tall
    # at 1280x800) with tiles still readable (not shrunk to fit: a 14 px tile before).
    assert bottom - top <= 600, out["felt"]
    short = min(min(t[3] - t[1], t[4] - t[2]) for t in out["tiles"])
    assert short >= 20, short
    eps = 0.5
    things = [("tile", *t) for t in out["tiles"]] + [("end", *e) for e in out["ends"]]
    for kind, name, *b in things:
        assert b[0] >= left - eps and b[2] <= right + eps, (kind, name, b, out["felt"])
        assert b[1] >= top - eps and b[3] <= bottom + eps, (kind, name, b, out["felt"])
    for i, (_k1, n1, *b1) in enumerate(things):
        for _k2, n2, *b2 in things[i + 1 :]:
            assert overlap(b1, b2) < 1.0, (n1, n2, b1, b2)
    return out


def replay_last_step(page: Any, base: str, record: Path, step: int | None = None) -> None:
    from playwright.sync_api import expect

    page.goto(base + "/replay")
    page.set_input_files("#record-file", str(record))
    expect(page.locator("#board")).to_be_visible()
    if step is None:
        page.keyboard.press("End")
    else:
        page.evaluate(f"document.getElementById('slider').value = '{step}'")
        page.locator("#slider").dispatch_event("input")
        expect(page.locator("#step-no")).to_contain_text(f"step {step + 1} of")


def test_the_longest_golden_hands_bend_and_stay_on_the_board(live_server: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            # High Five: 22 tiles. Merry-Go-Round: 27 tiles, one arm of 13 (it ran off the board).
            replay_last_step(page, live_server, RECORDS / "highfive" / "t-h5-11a.json", 37)
            check_layout(page, 22)
            replay_last_step(page, live_server, RECORDS / "merry-go-round" / "t-mg-02-7.json")
            out = check_layout(page, 27)
            # The long arm turned a corner: tiles both across and down the board.
            xs = {round(t[1]) for t in out["tiles"]}
            ys = {round(t[2]) for t in out["tiles"]}
            assert len(xs) > 5 and len(ys) > 5
            page.screenshot(path=str(SCREENSHOT))
        finally:
            browser.close()
    assert SCREENSHOT.stat().st_size > 10_000


def long_view() -> dict[str, Any]:
    """A spinner with four long arms (14, 14, 10 and 10 tiles; some doubles), all ends open."""
    layout: list[dict[str, Any]] = [{"tile": "6-6", "role": "SPINNER", "on": None, "port": None}]
    ends: list[list[Any]] = []
    fresh = iter(range(7, 100))
    for port, length in (("SIDE_A", 14), ("SIDE_B", 14), ("END_A", 10), ("END_B", 10)):
        on, pip = "6-6", 6
        for k in range(length):
            if k % 5 == 3:
                tile, role, nxt = f"{pip}-{pip}", "PLAIN_DOUBLE", pip
            else:
                nxt = next(fresh)
                tile, role = f"{pip}-{nxt}", "LINE_SINGLE"
            layout.append({"tile": tile, "role": role, "on": on, "port": port if k == 0 else None})
            on, pip = tile, nxt
        ends.append([pip, on, "OUT"])
    return {"game": "highfive", "layout": layout, "open_ends": ends, "available_ends": ends}


INJECT = """async (view) => {
  const { board, endKey } = await import("/static/board.js");
  document.getElementById("upload").hidden = true;
  document.getElementById("board").hidden = false;
  window.clicked = [];
  const targets = new Map(view.open_ends.map((e) => [endKey(e[1], e[2]), { event: { play: "x", on: e[1] } }]));
  const ctx = { targets, onEnd: (m) => window.clicked.push(m.event.on) };
  document.getElementById("layout").replaceChildren(board(view, { board: "layout", pick: "end" }, ctx));
  return document.querySelectorAll("svg.layout g.end.target").length;
}"""


def test_four_long_arms_bend_and_their_ends_still_take_a_click(live_server: str) -> None:
    from playwright.sync_api import sync_playwright

    view = long_view()
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(live_server + "/replay")
            assert page.evaluate(INJECT, view) == 4
            out = check_layout(page, len(view["layout"]))
            assert out["felt"][3] <= VIEWPORT["height"]  # the whole board in the window
            page.screenshot(path="/tmp/boneyard-browser-long-layout-arms.png")
            for end in view["open_ends"]:
                page.locator(f'svg.layout g.end.target[data-on="{end[1]}"]').click()
            assert page.evaluate("window.clicked") == [e[1] for e in view["open_ends"]]
        finally:
            browser.close()
    print(json.dumps({"tiles": len(view["layout"])}))
