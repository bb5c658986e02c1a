"""A 128-entrant over-the-board PDA event run in Chromium as a director runs one at a hall
(issue 26): paste 128 names, check most in, drop the rest when check-in closes, start, print
round 1's pairings and cards (PDF), enter every card of round 1 from the console (one form and
one confirmation a card), rule a PDA 9b penalty and a bogus game, undo a ruling, run to the
champion (later rounds through the same API the console uses), print the bracket and the
standings, export; then a walk-in claims the entry with an account and keeps the games.

It prints the wall time and the interactions per card. The PDFs and screenshots go to the
screenshots folder (tests/server/browser.py SCREENS) for a person to look at."""

from __future__ import annotations

import csv
import io
import re
import time
from typing import Any

from tests.server.browser import (
    SCREENS,
    csp_violations,
    needs_chromium,
    next_frames,
    no_sideways_scroll,
    screenshot,
    sign_up,
)

pytestmark = [needs_chromium]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
NAMES = [f"Walk-in {i:03d}" for i in range(1, 128)]
"""127 walk-ins; the 128th entrant is a person with an account."""
DESK = 12
"""Entrants the test checks in by clicking in the console (the rest through its request)."""
ABSENT = {"Walk-in 020", "Walk-in 040", "Walk-in 060", "Walk-in 080", "Walk-in 100",
          "Walk-in 120", "Walk-in 127"}  # fmt: skip

FETCH = """async ([method, path, body]) => {
  const csrf = document.cookie.split('; ').find((c) => c.startsWith('boneyard_csrf='));
  const r = await fetch(path, { method, headers: { 'Content-Type': 'application/json',
    'X-CSRF-Token': csrf ? decodeURIComponent(csrf.split('=')[1]) : '' },
    body: body === null ? undefined : JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}"""


REQUESTS = """async ([eid, what, ids]) => {
  // the console's own requests, one after another: check entrants in ('checkin', ids), or
  // play every match still to play on paper, the lower name winning ('play')
  const csrf = document.cookie.split('; ').find((c) => c.startsWith('boneyard_csrf='));
  const call = async (method, path, body) => {
    const r = await fetch(path, { method, headers: { 'Content-Type': 'application/json',
      'X-CSRF-Token': decodeURIComponent(csrf.split('=')[1]) }, body: body && JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  if (what === 'checkin') {
    for (const id of ids) await call('POST', `/api/tournaments/${eid}/entrants/${id}/checkin`, { present: true });
    return null;
  }
  let data = await call('GET', `/api/tournaments/${eid}`, null);
  while (data.status === 'running') {
    for (const m of data.rounds.flat().filter((x) => x.ready && !x.over)) {
      const aWins = m.a_name < m.b_name;
      const need = Math.floor(m.best_of / 2) + 1 - Math.max(...m.wins);
      const game = aWins ? { score_a: 150, score_b: 95 } : { score_a: 95, score_b: 150 };
      data = await call('POST', `/api/tournaments/${eid}/matches/${m.id}/card`, { paper: true, games: Array(need).fill(game) });
    }
  }
  return data;
}"""


LIST_SHOWN = """window.listShownWith = null;
new MutationObserver(() => {
  const list = document.getElementById('list'), ul = document.getElementById('tournaments');
  if (list && ul && !list.hidden && window.listShownWith === null) window.listShownWith = ul.children.length;
}).observe(document, { attributes: true, attributeFilter: ['hidden'], subtree: true });"""
"""How many events the tournaments' list held when it was shown (a list shown empty and filled
after moves New tournament down under the press about to open it)."""


def call(page: Any, method: str, path: str, body: Any = None) -> Any:
    """A request of the console's own API from the page (the director's session)."""
    r = page.evaluate(FETCH, [method, path, body])
    assert r["status"] == 200, r
    return r["body"]


def save_pdf(page: Any, name: str) -> int:
    """Print the page to PDF as Chromium does; the number of pages."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    data = page.pdf(
        path=str(SCREENS / f"{name}.pdf"), prefer_css_page_size=True, print_background=True
    )
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


def scores(a_wins: bool) -> tuple[str, str]:
    return ("150", "95") if a_wins else ("95", "150")


def test_a_128_entrant_pda_event_at_the_hall(browser: Any, site: str) -> None:
    from playwright.sync_api import expect

    started = time.monotonic()

    def lap(what: str) -> None:
        print(f"{what}: {time.monotonic() - started:.0f} s", flush=True)

    page = browser.new_page(viewport=LAPTOP)
    csp = csp_violations(page)
    sign_up(page, site, "td-hall")
    # create: over the board, PDA, a third-place match, 128 places, one minute of grace
    page.add_init_script(LIST_SHOWN)
    page.goto(site + "/tournaments")
    page.click("#create summary")
    assert page.evaluate("window.listShownWith") >= 1, "the list was shown before it was filled"
    page.fill("#f-name", "Hall 128")
    page.select_option("#f-mode", "otb")
    page.select_option("#ev-preset", "pda")
    page.check("#f-third_place")
    page.fill("#f-cap", "128")
    page.fill("#f-grace_minutes", "1")
    page.click("#ev-create")
    page.wait_for_url("**/tournaments/*")
    eid = page.url.rstrip("/").split("/")[-1]
    expect(page.locator("#ev-when")).to_contain_text("gets 1 minute")
    assert "1 minutes" not in page.locator("#ev-when").inner_text()
    # a player with an account registers from the event page
    player = browser.new_page(viewport=PHONE)
    sign_up(player, site, "late-larry")
    player.goto(f"{site}/tournaments/{eid}")
    player.click("#register")
    expect(player.locator("#checkin")).to_be_visible()
    # the director pastes 127 names
    page.reload()
    page.click("#walkin-paste summary")
    page.fill("#walkin-list", "\n".join(NAMES))
    page.click("#walkin-add-list")
    expect(page.locator("#console-entrants tr[data-entrant]")).to_have_count(128)
    expect(page.locator("#walkin-add-list + .said")).to_have_text("127 entrants are entered")
    # check most in: the first arrivals one click each at the desk (find the name, check in),
    # the rest through the same request the console's button makes
    t0 = time.monotonic()
    here = [n for n in NAMES if n not in ABSENT]
    for n in here[:DESK]:
        row = f"#console-entrants tr[data-name='{n.lower()}']"
        page.fill("#entrant-filter", n)
        page.locator(f"{row} button.checkin").click()
        expect(page.locator(f"{row} button.checkout")).to_be_visible()
    checkin_s = time.monotonic() - t0
    page.fill("#entrant-filter", "")
    ids = {e["name"]: e["id"] for e in call(page, "GET", f"/api/tournaments/{eid}")["entrants"]}
    page.evaluate(REQUESTS, [eid, "checkin", [ids[n] for n in here[DESK:]]])
    page.reload()
    expect(page.locator("#console-summary")).to_contain_text("128 entrants, 120 checked in")
    lap("check-in")
    # check-in closes: the player's button goes, and the console drops the 8 absent
    page.click("#checkin-close")
    player.reload()
    expect(player.locator("#ev-actions")).to_contain_text(
        "You are not checked in: check-in is closed"
    )
    expect(player.locator("#checkin")).to_have_count(0)
    page.click("#drop-absent")
    expect(page.locator("#confirm-title")).to_have_text("Drop the 8 entrants not checked in?")
    page.click("#confirm-ok")
    expect(page.locator(".said.good")).to_contain_text("8 not checked in were dropped")
    screenshot(page, "venue-entrants-laptop")
    page.click("#start")
    expect(page.locator("#confirm")).to_contain_text("The draw is made of the 120 entrants")
    page.click("#confirm-ok")
    expect(page.locator("body")).to_have_attribute("data-status", "running")
    lap("start")
    data = call(page, "GET", f"/api/tournaments/{eid}")
    r1 = data["rounds"][0]
    assert len(r1) == 64 and sum(m["bye"] for m in r1) == 8
    dropped = {e["name"] for e in data["entrants"] if e["dropped"]}
    assert dropped == ABSENT | {"late-larry"}
    # print round 1's pairings and cards: the page, Chromium's PDF and the server's PDF
    page.goto(f"{site}/tournaments/{eid}/pairings?round=1")
    expect(page.locator(".sheet").first).to_be_visible()
    expect(page.locator("table.pairings tr[data-match]")).to_have_count(56)
    assert save_pdf(page, "venue-pairings-r1") == int(page.evaluate("document.body.dataset.pages"))
    page.goto(f"{site}/tournaments/{eid}/scorecard?round=1")
    expect(page.locator(".sheet .card")).to_have_count(56)
    cards_pages = save_pdf(page, "venue-cards-r1")
    assert cards_pages == int(page.evaluate("document.body.dataset.pages"))
    pdf = page.request.get(f"{site}/api/tournaments/{eid}/print/cards.pdf?round=1")
    assert pdf.ok and pdf.body().startswith(b"%PDF")
    (SCREENS / "venue-cards-r1-server.pdf").write_bytes(pdf.body())
    lap("print round 1")
    # round 1 from the console: a 9b penalty, a bogus game, a ruling undone, every card
    page.goto(f"{site}/tournaments/{eid}")
    ready = sorted((m for m in r1 if not m["bye"]), key=lambda m: m["table"])
    pen, bog, undo = ready[0], ready[1], ready[2]
    page.click("#tab-rulings")
    page.select_option("#rule-match", pen["id"])
    box = page.locator(f"[data-console={pen['id']}]")
    box.locator("#rule-who").select_option(str(pen["b"]))
    box.locator("input.points").fill("55")
    box.locator("button.penalty").click()
    page.click("#confirm-ok")
    expect(page.locator("#rulings li", has_text="9b penalty")).to_have_count(1)
    page.select_option("#rule-match", bog["id"])
    box = page.locator(f"[data-console={bog['id']}]")
    box.locator("#rule-who").select_option(str(bog["b"]))
    box.locator("button.bogus").click()
    page.click("#confirm-ok")
    expect(page.locator("li[data-match=" + bog["id"] + "]")).to_contain_text("bogus play by")
    page.select_option("#rule-match", undo["id"])
    box = page.locator(f"[data-console={undo['id']}]")
    box.locator("input.score-a").fill("-5")
    box.locator("input.score-b").fill("150")
    box.locator("button.rule").click()
    expect(box.locator(".said.bad")).to_have_text("A score cannot be negative (-5).")
    box.locator("input.score-a").fill("150")
    box.locator("button.rule").click()
    page.click("#confirm-ok")
    mine = page.locator("#rulings li", has_text=f"{undo['id']}: ruling")
    mine.locator("button.undo").click()
    page.click("#confirm-ok")
    expect(page.locator(".said.good")).to_contain_text(f"{undo['id']} game 1 no longer counts")
    lap("rulings")
    page.click("#tab-round")
    t0 = time.monotonic()
    acts = cards = 0
    while (mid := page.locator("#card-form").get_attribute("data-match")).startswith("R1M"):
        form = page.locator("#card-form")
        m = next(x for x in r1 if x["id"] == mid)
        a_wins = m["a_name"] < m["b_name"]
        inputs = form.locator("input.card-score")
        need = 2 if mid == bog["id"] and a_wins else 3  # (the bogus game, won by a, was game 1)
        for k in range(need):
            sa, sb = scores(a_wins)
            inputs.nth(2 * k).fill(sa)
            inputs.nth(2 * k + 1).fill(sb)
            acts += 2
        form.locator("#card-enter").click()
        page.click("#confirm-ok")
        acts += 2
        cards += 1
        expect(page.locator(".said.good")).to_contain_text(f"{mid}: entered.")
        if cards == 1:
            screenshot(page, "venue-round-laptop")
    round_s = time.monotonic() - t0
    assert cards == 56
    # round 1 is decided: the console goes on to round 2's first card
    expect(page.locator("#round-pick")).to_have_value("2")
    page.set_viewport_size(PHONE)
    next_frames(page)
    assert no_sideways_scroll(page)
    screenshot(page, "venue-round-phone")
    page.set_viewport_size(LAPTOP)
    lap("round 1")
    # later rounds through the same API the console uses
    page.goto(f"{site}/tournaments")  # (a light page of the site: the requests need its session)
    data = page.evaluate(REQUESTS, [eid, "play", []])
    assert data["champion"]["name"] == "Walk-in 001"
    lap("later rounds")
    # print the bracket and the standings; export
    page.goto(f"{site}/tournaments/{eid}/print/bracket")
    expect(page.locator(".sheet").first).to_be_visible()
    bracket_pages = save_pdf(page, "venue-bracket")
    assert bracket_pages == 5  # four pages of rounds 1-5, then the semi-finals, final, third place
    expect(page.locator("svg.pb-bracket text", has_text="Third-place match")).to_have_count(1)
    page.goto(f"{site}/tournaments/{eid}/print/standings")
    expect(page.locator("table.standings tr[data-entrant]")).to_have_count(120)
    save_pdf(page, "venue-standings")
    text = page.request.get(f"{site}/api/tournaments/{eid}/scorecards.csv").text()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert any("PDA 9b" in r["history"] for r in rows)
    assert any("bogus play by" in r["how"] for r in rows)
    assert all(r["paper"] == "True" for r in rows if r["status"] == "confirmed")
    # after the event the champion claims the entry with the code the director gave
    code = next(e for e in data["entrants"] if e["name"] == "Walk-in 001")["claim_code"]
    champ = browser.new_page(viewport=PHONE)
    sign_up(champ, site, "champ-one")
    champ.goto(f"{site}/tournaments/{eid}")
    champ.fill("#claim-code", code)
    champ.click("#claim")
    expect(champ.locator(".said.good")).to_contain_text("now on your account")
    mine = champ.evaluate(FETCH, ["GET", f"/api/tournaments/{eid}", None])["body"]
    assert mine["me"]["entrant"] == mine["champion"]["id"]
    board = champ.evaluate(FETCH, ["GET", "/api/ratings?game=highfive&category=2p", None])["body"]
    assert any(r["name"] == "champ-one" and r["games"] >= 7 for r in board["ratings"])
    wall = time.monotonic() - started
    print(
        f"\n128-entrant hall: {wall:.0f} s wall; check-in {DESK} clicks in {checkin_s:.0f} s; "
        f"round 1: {cards} cards, {acts / cards:.1f} interactions a card, {round_s:.0f} s "
        f"({round_s / cards:.1f} s a card); round-1 cards {cards_pages} pages, bracket "
        f"{bracket_pages} pages"
    )
    assert not csp, csp
