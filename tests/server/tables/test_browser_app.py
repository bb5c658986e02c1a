"""The table as an app (issue 27), in Chromium: every game followed from its first moves to its
game over on six screens, crowded tables, touch, the tower drawn as dominoes, the turn's notice
and the dark theme.

One table per game, and one page resized through the viewports at each moment (a few moves in,
a hand's end, the game over): the board, your hand, whose turn it is, the players' scores and
every action button inside the window with nothing to scroll; on phones every tap target at
least 44 px and board tiles at least 28 px long. Screenshots of each game at each viewport go to
``SCREENS`` (``/tmp/boneyard-screens/`` unless BONEYARD_SCREENS says otherwise; docs/server.md):
``app-<game>-<moment>-<viewport>.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import (
    autoplay,
    axe_violations,
    moved_on,
    needs_axe,
    needs_chromium,
    new_table,
    no_sideways_scroll,
    person,
    serve,
    shot,
    version,
    wait_until,
)

pytestmark = needs_chromium

VIEWPORTS = {
    "1366x768": (1366, 768),
    "1440x900": (1440, 900),
    "1920x1080": (1920, 1080),
    "390x844": (390, 844),
    "360x740": (360, 740),
    "844x390": (844, 390),
}
UPRIGHT = ("390x844", "360x740")
SIDEWAYS = ("844x390",)
PHONES = (*UPRIGHT, *SIDEWAYS)
GAMES = {
    "highfive": (2, {}),
    "merry-go-round": (3, {"target": 41}),
    "high-fives": (2, {}),
    "highrise": (2, {"target": 500}),  # (at 300, 1 game in ~60 ended in its first hand)
}
MIN_TILE = 28
MIN_TARGET = 43.5  # (44 px, less what sub-pixel layout may shave off)

# What must be in the window, and the buttons that must be when shown.
SEEN = {
    "board": "#layout",
    "hand": "#hand",
    "turn": "#turn",
    "scores": "#top .plate, #my-plate .plate",
}
ACTIONS = (
    "#moves button, #game-actions button, #options button, #continue, #rematch, #play-again, "
    "#view-replay, #back-to-lobby, #hand .hand-tile"
)
IN_VIEW = """({ seen, actions }) => {
  const vw = innerWidth, vh = innerHeight, eps = 0.5, out = [];
  const shown = (css) => [...document.querySelectorAll(css)]
    .filter((n) => n.getClientRects().length && getComputedStyle(n).visibility !== "hidden");
  // Inside the window, and seen there: what is at its middle is itself (not a box that clips
  // it, nor something over it).
  const check = (what, n) => {
    const r = n.getBoundingClientRect();
    const name = `${what} ${n.id || n.getAttribute("class")}`;
    if (r.left < -eps || r.top < -eps || r.right > vw + eps || r.bottom > vh + eps) {
      out.push(`${name}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
      return;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(n.contains(hit) || hit.contains(n))) out.push(`${name}: hidden under ${hit && (hit.id || hit.getAttribute("class") || hit.tagName)}`);
  };
  for (const [what, css] of Object.entries(seen)) {
    const nodes = shown(css);
    if (!nodes.length) out.push(`${what}: not shown`);
    nodes.forEach((n) => check(what, n));
  }
  shown(actions).forEach((n) => check("action", n));
  const d = document.documentElement;
  if (d.scrollHeight > vh + 1 || d.scrollWidth > vw + 1) out.push(`the page scrolls: ${d.scrollWidth}x${d.scrollHeight}`);
  if (scrollX || scrollY) out.push(`scrolled to ${scrollX},${scrollY}`);
  return out;
}"""
SMALLEST_TILE = """() => {
  const sizes = [...document.querySelectorAll(
    '#layout svg.layout g.tile, #layout .tower g.domino .body, #layout .hf-layout svg.tile')]
    .map((n) => { const r = n.getBoundingClientRect(); return Math.max(r.width, r.height); })
    .filter((x) => x > 0);
  return sizes.length ? Math.min(...sizes) : null;
}"""
SMALL_TARGETS = """(min) => [...document.querySelectorAll(
    'header a, header button, main button, main a.button, main select, main summary, #hand .hand-tile, #layout [role=button]')]
  .filter((n) => n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden')
  .map((n) => { const r = n.getBoundingClientRect();
    return [n.id || n.getAttribute('class') || n.tagName, Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w > 0 && (w < min || h < min))"""
# Each "+N" over a tile that scored: where it is as it appears and near the end of its rise,
# against the board (it must stay inside) and the page's controls (it must cover none).
WATCH_POPS = """() => { window.pops = [];
  const box = (n) => n.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const sample = (pop) => {
    if (!pop.isConnected) return;
    const r = box(pop), board = box(document.getElementById("layout"));
    const controls = [...document.querySelectorAll(
      "header a, header button, #guide, #top, #mine button, #hand-summary button, #hand-summary a")]
      .filter((n) => n.getClientRects().length);
    window.pops.push({ text: pop.textContent,
      inside: r.left >= board.left - 1 && r.right <= board.right + 1 && r.top >= board.top - 1 && r.bottom <= board.bottom + 1,
      covers: controls.filter((n) => meets(r, box(n))).map((n) => n.id || n.getAttribute("class")) });
  };
  new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)
    if (n.classList && n.classList.contains("points-pop")) {
      requestAnimationFrame(() => sample(n)); setTimeout(() => sample(n), 1000); } })
  .observe(document.getElementById("layout"), { childList: true }); }"""
KEPT_COUNTED = """() => [...document.querySelectorAll('#hand-summary .revealed .seat-hand')].map((row) => {
  const seat = row.dataset.seat;
  const cell = document.querySelector(`#seats tr[data-seat="${seat}"] td.num:not(.score):not(.chips)`);
  const plate = document.querySelector(`.plate[data-seat="${seat}"] .plate-tiles`);
  return [row.querySelectorAll('svg.tile').length, Number(cell.textContent), parseInt(plate.textContent)];
})"""
TOWER = """() => {
  const cells = new Map([...document.querySelectorAll('#layout .tower rect.cell')]
    .map((c) => [c.dataset.cell, c]));
  const out = { problems: [], dominoes: 0, spacers: document.querySelectorAll('#layout .tower rect.spacer').length,
    onSpacers: [...cells.values()].filter((c) => c.textContent.includes('on a clear spacer')).length };
  const seen = new Set();
  for (const d of document.querySelectorAll('#layout .tower g.domino')) {
    out.dominoes += 1;
    const name = d.dataset.tile.split('-').sort().join('-');
    if (seen.has(name)) out.problems.push(`${d.dataset.tile} drawn twice`);
    seen.add(name);
    const keys = d.dataset.cells.split(' ');
    const body = d.querySelector('.body').getBoundingClientRect();
    const boxes = keys.map((k) => cells.get(k).getBoundingClientRect());
    const u = { left: Math.min(...boxes.map((b) => b.left)), right: Math.max(...boxes.map((b) => b.right)),
      top: Math.min(...boxes.map((b) => b.top)), bottom: Math.max(...boxes.map((b) => b.bottom)) };
    const w = u.right - u.left, h = u.bottom - u.top;
    if (keys.length !== 2) out.problems.push(`${d.dataset.tile} covers ${keys.length} squares`);
    if (body.width < 0.8 * w || body.height < 0.8 * h || body.left < u.left - 1 || body.right > u.right + 1)
      out.problems.push(`${d.dataset.tile}: its tile does not span its squares ${keys}`);
    const level = Number(d.dataset.level);
    const badge = d.querySelector('.level-badge text');
    if (level > 0 && (!badge || badge.textContent !== String(level))) out.problems.push(`${d.dataset.tile}: no level ${level} on it`);
  }
  for (const [k, c] of cells) {
    const on = c.dataset.tile.split('-').sort().join('-');
    const d = [...document.querySelectorAll('#layout .tower g.domino')].find((g) =>
      g.dataset.tile.split('-').sort().join('-') === on && g.dataset.cells.split(' ').includes(k));
    if (!d) out.problems.push(`square ${k}: no domino ${c.dataset.tile} drawn over it`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("app")
    with serve(tmp / "site.db", tmp / "server.log", extra=("--hand-pause", "600")) as url:
        yield url


HAND_ROOM = """() => {
  const hand = document.querySelector('#hand'), box = document.querySelector('#mine');
  const tile = hand.querySelector('svg.tile');
  return { unit: tile ? tile.getBoundingClientRect().width : 0, tiles: hand.children.length,
    rows: new Set([...hand.children].map((b) => b.offsetTop)).size,
    height: box.offsetHeight, room: parseFloat(getComputedStyle(box).minHeight) };
}"""


ENDED_ROOM = """() => {
  const px = (n, p) => parseFloat(getComputedStyle(n)[p]);
  const rem = px(document.documentElement, 'fontSize');
  const mine = document.querySelector('#mine'), first = mine.firstElementChild;
  const panel = document.querySelector('#hand-summary'), board = document.querySelector('#layout');
  const stage = board.parentElement.getBoundingClientRect().height;
  return { blank: first.getBoundingClientRect().top - mine.getBoundingClientRect().top - px(mine, 'paddingTop'),
    scrolls: panel.scrollHeight > panel.clientHeight + 1, board: board.getBoundingClientRect().height,
    least: board.querySelector('.tower') ? 15 * rem : Math.max(11 * rem, 0.34 * stage) };
}"""
"""At a hand's end: the blank band above your plate in the room kept for your hand (px), whether
the panel of the hand's end scrolls, the final board's height and the least the board keeps on
a phone held upright (table.css)."""


def resize(page: Any, size: tuple[int, int]) -> None:
    """The window at ``size``, once the board has been drawn again for it."""
    w, h = size
    page.set_viewport_size({"width": w, "height": h})
    wait_until(page, f"document.body.dataset.drawnSize === '{w}x{h}'")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def touch_targets(page: Any, label: str) -> None:
    """On a phone: every tap target (hand tiles, buttons and, with a tile chosen by a tap, the
    places it may go) at least 44 px square; the board's tiles at least 28 px long."""
    small = page.evaluate(SMALL_TARGETS, MIN_TARGET)
    assert small == [], f"{label}: tap targets under 44 px: {small}"
    smallest = page.evaluate(SMALLEST_TILE)
    assert smallest is None or smallest >= MIN_TILE, f"{label}: a board tile is {smallest} px long"
    playable = page.locator("#hand button.hand-tile.playable")
    if playable.count() and not page.evaluate("document.body.dataset.pending === '1'"):
        before = version(page)
        playable.first.tap()
        if version(page) == before:
            small = page.evaluate(SMALL_TARGETS, MIN_TARGET)
            assert small == [], f"{label}, a tile chosen: targets under 44 px: {small}"
            page.keyboard.press("Escape")  # (put it back)


def sweep(page: Any, game: str, moment: str) -> None:
    """Through every viewport: the table in the window, targets big enough on phones, no word
    for a mouse or a keyboard on this touch screen, the tower's dominoes whole; a screenshot."""
    for name, size in VIEWPORTS.items():
        label = f"{game} {moment} at {name}"
        resize(page, size)
        assert page.evaluate(IN_VIEW, {"seen": SEEN, "actions": ACTIONS}) == [], label
        if name in PHONES:
            touch_targets(page, label)
            hand = page.evaluate(HAND_ROOM)  # (a hand drawn bigger leaves the board its room)
            assert hand["unit"] <= MIN_TILE or hand["height"] <= hand["room"] + 0.5, (label, hand)
            assert page.locator("header").bounding_box()["height"] <= 60, f"{label}: header rows"
        if name not in SIDEWAYS and page.locator("#hand-summary:not([hidden])").count():
            # (the room kept for your hand goes to the board and the panel to read; on a phone
            # held upright the panel takes the most of it; on its side your hand has a column)
            ended = page.evaluate(ENDED_ROOM)
            assert ended["blank"] <= 2, (label, ended)
            if name in UPRIGHT:
                assert not ended["scrolls"] or ended["board"] <= ended["least"] + 1, (label, ended)
        if page.locator("#turn.mine").count() and not page.locator("#hand .playable").count():
            moves = page.locator("#moves button.move").all_inner_texts()
            if len(moves) == 1:  # (nothing fits: the words say what is left, a draw or a pass)
                expected = f"Your turn: no tile can be played, {moves[0]}."
                assert page.locator("#hint").inner_text() == expected, label
        text = page.evaluate("document.body.innerText")
        assert not re.search(r"\bclick|Tab and Enter", text, re.IGNORECASE), (label, text)
        if page.locator("#layout .tower").count():
            tower = page.evaluate(TOWER)
            assert tower["problems"] == [] and tower["dominoes"] >= 6, (label, tower)
            assert tower["spacers"] == tower["onSpacers"], (label, tower)
        shot(page, f"app-{game}-{moment}-{name}")


def hand_chip(page: Any) -> str:
    """The number the chips give the hand (or High Fives' pass)."""
    return str(page.locator("#info .chip b").first.inner_text())


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_fits_every_screen_from_its_first_moves_to_its_end(
    site: str, browser: Any, game: str
) -> None:
    from playwright.sync_api import expect

    players, options = GAMES[game]
    page = person(browser, site, f"Pat {list(GAMES).index(game)}", has_touch=True)
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1)
    for _ in range(3):
        tid = new_table(page, site, game, seats, options=options)
        page.goto(f"{site}/table/{tid}")
        expect(page.locator("#status")).to_have_text("connected")
        page.evaluate(WATCH_POPS)
        # The fairness list names the coming hand as the game calls it (High Fives: a pass).
        word = "Pass" if game == "high-fives" else "Hand"
        expect(page.locator("#fairness li.next")).to_contain_text(f"{word} 2 (next)")
        # A few moves in, at this player's turn.
        assert autoplay(page, tid, "moves", 3) == "turn"
        wait_until(page, "document.querySelector('#turn.mine') !== null")
        sweep(page, game, "mid-hand")
        # On to the hand's end, at a new table if this first hand ends the game (High Five: a
        # seat reaches 150 in it, 5 of 2,000 games between greedy players).
        if autoplay(page, tid, "hand_end") == "hand_end":
            break
    else:
        pytest.fail("three first hands in a row ended the game")
    # A hand's end: the final board, every hand face up, the scoring, Continue; the chips of
    # the hand that ended.
    panel = page.locator("#hand-summary")
    expect(page.locator("#continue")).to_be_visible()
    expect(panel.locator(".revealed .seat-hand")).to_have_count(players)
    assert panel.locator(".explain li").count() >= 2
    expect(panel.locator("#next-hand-in")).to_contain_text("The next hand is dealt in")
    assert page.locator("#layout .felt").count() == 1, "the final board stays"
    # The log names the bot's moves, and the hand's end.
    assert page.locator("#move-log li").filter(has_text="Greedy bot").count() >= 1
    expect(page.locator("#move-log li.t-hand_end").first).to_contain_text("is over")
    ended = page.request.get(f"{site}/api/tables/{tid}/hands").json()["hands"]
    assert hand_chip(page) == str(max(e["hand"] for e in ended if e["type"] == "hand_end") + 1)
    sweep(page, game, "hand-end")
    page.click("#continue")
    # The game over: the winner, the final scores, what comes next, and the chips of the hand
    # it ended in (not of a next hand, nor its counts).
    assert autoplay(page, tid, "over") == "over"
    expect(page.locator("#game-end-title")).to_be_visible()
    for button in ("#rematch", "#play-again", "#view-replay", "#back-to-lobby"):
        expect(page.locator(button)).to_be_visible()
    expect(page.locator("#game-over")).to_contain_text("Game over")
    # Each final score beside its player's name (a bare "350 – 532" after "Bob wins" was read
    # as the winner's score first).
    done = page.request.get(f"{site}/api/tables/{tid}/replay").json()
    scores = zip(done["seats"], done["game_end"]["scores"], strict=True)
    final = " · ".join(f"{name} {score}" for name, score in scores)
    w = done["game_end"]["winner"]
    won = "no single winner" if w is None else f"{done['seats'][w]} wins"
    expect(page.locator("#result #game-over")).to_have_text(f"Game over: {won}. Scores: {final}.")
    ended = page.request.get(f"{site}/api/tables/{tid}/hands").json()["hands"]
    last = max(e["hand"] for e in ended if e["type"] == "hand_end")
    assert hand_chip(page) == str(last + 1), (game, page.locator("#info").inner_text())
    assert page.locator("#count").count() == 0, "no count of a board no longer played"
    # The log names a bot's move with the points it scored (over a whole game the bot scores:
    # in one hand it may not); what each kept is counted alike everywhere.
    bot_scored = page.locator("#move-log li.scored").filter(has_text="Greedy bot")
    assert bot_scored.count() >= 1
    assert re.search(r"— \d+ points?$", bot_scored.first.inner_text())
    for shown, counted, plate in page.evaluate(KEPT_COUNTED):
        assert shown == counted == plate, (game, shown, counted, plate)
    if page.locator("#hand-summary .revealed").count():
        kept = page.locator('#hand-summary .revealed .seat-hand[data-seat="0"] svg.tile').count()
        assert page.locator("#hand svg.tile").count() == kept, "your hand shows what you kept"
    sweep(page, game, "game-over")
    # Every "+N" stayed on the board, over no control (High Fives' scoring tile leaves the
    # layout with its capture: no "+N" there).
    pops = page.evaluate("window.pops")
    assert all(p["inside"] and p["covers"] == [] for p in pops), pops
    assert pops or game == "high-fives"
    # The replay shows the same at each hand's end: what everyone kept, and why it scored.
    resize(page, VIEWPORTS["1366x768"])
    page.click("#view-replay")
    page.wait_for_url("**/replay/*")
    expect(page.locator("#game-over")).to_have_text(f"{won[0].upper()}{won[1:]}. Scores: {final}.")
    page.locator("#hands li a").first.click()
    expect(page.locator("#hand-summary .explain li").first).to_be_visible()
    if game != "high-fives":  # (a High Fives pass is played out: nobody keeps a tile)
        assert page.locator("#hands-shown .seat-hand svg.tile").count() >= 1
    shot(page, f"replay-hand-end-{game}")
    # On a phone the replay's board takes the width, its panels below it (not squeezed beside).
    page.set_viewport_size({"width": 390, "height": 844})
    wait_until(page, "document.querySelector('#board').getBoundingClientRect().width > 340")
    assert no_sideways_scroll(page)
    board, side = (page.locator(s).bounding_box() for s in ("#board", "#side"))
    assert side["y"] >= board["y"] + board["height"], (board, side)
    # its controls: the slider a row of its own, ◀ beside ▶ and hand − beside hand +, each
    # a finger tall
    ids = ("slider", "first", "prev", "next", "last", "prev-hand", "next-hand")
    at = {c: page.locator(f"#{c}").bounding_box() for c in ids}
    rows = [{at[c]["y"] for c in row} for row in (ids[:1], ids[1:5], ids[5:])]
    assert [len(r) for r in rows] == [1, 1, 1] and min(at, key=lambda c: at[c]["y"]) == "slider", at
    assert all(b["height"] >= MIN_TARGET for b in at.values()), at
    shot(page, f"replay-phone-{game}")
    assert page.errors == [] and page.csp == []
    page.context.close()


# -- crowded tables: four players, and High Fives' eight ------------------------------------------


@pytest.mark.parametrize(("game", "players"), [("highfive", 4), ("high-fives", 8)])
def test_a_crowded_table_fits_every_screen(
    site: str, browser: Any, game: str, players: int
) -> None:
    from playwright.sync_api import expect

    page = person(browser, site, f"Crowd {players}", has_touch=True)
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1)
    tid = new_table(page, site, game, seats)
    page.goto(f"{site}/table/{tid}")
    expect(page.locator("#status")).to_have_text("connected")
    assert autoplay(page, tid, "moves", 2) == "turn"
    wait_until(page, "document.querySelector('#turn.mine') !== null")
    expect(page.locator("#top .plate")).to_have_count(players - 1)
    sweep(page, f"{game}-{players}", "mid-hand")
    assert page.errors == [] and page.csp == []
    page.context.close()


# -- a phone: taps, the drawer, the menu ----------------------------------------------------------


def tap_until_played(page: Any) -> str:
    """At this page's turn, with a tile to place: tap it (it is chosen, not played), then tap it
    again or one of its places until the move is made; which of the two made it."""
    before = version(page)
    tile = page.locator("#hand button.hand-tile.playable").first
    name = tile.get_attribute("data-tile")
    tile.tap()
    assert version(page) == before, "a tap only chooses"
    chosen = page.locator(f'#hand button.hand-tile.selected[data-tile="{name}"]')
    assert chosen.count() == 1
    hint = page.locator("#hint").inner_text()
    assert "Tap" in hint and "click" not in hint.lower(), hint
    how = "target"
    for _ in range(6):
        # A sent move leaves the hand as it was, unchosen, until the server answers: wait for the
        # answer before reading the hand (the played tile is gone from it once the answer came).
        wait_until(page, "!document.body.dataset.pending")
        if version(page) != before:
            break
        if not chosen.count():  # (a view came meanwhile and put it back: choose it again)
            page.locator(f'#hand button.hand-tile[data-tile="{name}"]').tap()
            continue
        places = page.locator("#layout [role=button]")
        if page.locator("#options button.option").count() == 1:  # (one way to play it)
            page.locator(f'#hand button.hand-tile[data-tile="{name}"]').tap()
            how = "again"
        elif places.count():
            places.first.tap()
        else:
            page.locator("#options button.option").first.tap()
        page.evaluate("() => new Promise((r) => requestAnimationFrame(r))")
    moved_on(page, before)
    return how


def test_a_phone_taps_to_choose_then_to_play(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = person(
        browser, site, "Thumb", viewport={"width": 390, "height": 844}, has_touch=True,
        is_mobile=True,
    )  # fmt: skip
    # The header is one row; its other items wait behind the menu.
    page.goto(site + "/")
    tid = new_table(page, site, "highrise", [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}])
    page.goto(f"{site}/table/{tid}")
    expect(page.locator("#status")).to_have_text("connected")
    assert page.locator("header").bounding_box()["height"] <= 60
    expect(page.locator("#logout")).to_be_hidden()
    page.locator("#menu-toggle").tap()
    expect(page.locator("#logout")).to_be_visible()
    expect(page.locator("#sound-toggle")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#logout")).to_be_hidden()
    # When no tile fits, the words say what is left to do.
    said = page.evaluate(
        """async () => { const { hint } = await import('/static/hand.js');
        return [[{ event: { draw: true }, text: 'draw a tile' }], [{ event: { pass: true }, text: 'pass' }],
          [{ event: { play: '1-2' }, text: '1-2' }, { event: { draw: true }, text: 'draw a tile' }]]
          .map((moves) => hint({ moves })); }"""
    )
    assert said == [
        "Your turn: no tile can be played, draw a tile.",
        "Your turn: no tile can be played, pass.",
        "Your turn: tap a raised tile.",
    ]
    # Tap a tile, then the squares it may cover (each at least 44 px), until it is placed.
    made = set()
    for _ in range(30):
        wait_until(page, "document.querySelector('#turn.mine, #hand-summary:not([hidden])')")
        if page.locator("#continue").count():
            break
        if not page.locator("#hand button.hand-tile.playable").count():
            before = version(page)
            page.locator("#moves button").first.tap()  # (draw, or pass)
            moved_on(page, before)
            continue
        made.add(tap_until_played(page))
        break
    assert made == {"target"}, "a tile was placed by taps on its squares"
    text = page.evaluate("document.body.innerText")
    assert not re.search(r"\bclick|Tab and Enter", text, re.IGNORECASE)
    # The side panel is a drawer: the move log behind "Moves · chat".
    expect(page.locator("#move-log")).to_be_hidden()
    page.locator("#drawer-toggle").tap()
    expect(page.locator("#move-log")).to_be_visible()
    expect(page.locator("#move-log")).to_contain_text("placed")
    page.locator("#drawer-close").tap()
    expect(page.locator("#move-log")).to_be_hidden()
    # High Five: a tile that fits one place is played by a second tap (or a tap on its end).
    tid = new_table(page, site, "highfive", [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}])
    page.goto(f"{site}/table/{tid}")
    ways: set[str] = set()
    for _ in range(40):
        wait_until(page, "document.querySelector('#turn.mine, #hand-summary:not([hidden])')")
        if page.locator("#continue").count() or "again" in ways:
            break
        if not page.locator("#hand button.hand-tile.playable").count():
            before = version(page)
            page.locator("#moves button").first.tap()
            moved_on(page, before)
            continue
        ways.add(tap_until_played(page))
    assert "again" in ways, "a tile was played by a second tap"
    assert page.errors == [] and page.csp == []
    page.context.close()


def test_a_phone_held_upright_draws_your_hand_as_big_as_its_room_allows(
    site: str, browser: Any
) -> None:
    """High Five's seven tiles on a phone held upright: bigger than the least size (28 px a
    half), still in one row and within the room kept below the board, so that the board keeps
    its size; on its side the phone draws them small again, upright big again."""
    from playwright.sync_api import expect

    page = person(browser, site, "Upright", viewport={"width": 390, "height": 844}, has_touch=True)
    playable = page.locator("#hand button.hand-tile.playable")
    for _ in range(5):  # a deal whose first turn has a tile to play (where the bot led a tile
        # none of the seven matches, the seat must draw: about one deal in ten)
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
        page.goto(f"{site}/table/{new_table(page, site, 'highfive', seats)}")
        expect(page.locator("#status")).to_have_text("connected")
        wait_until(page, "document.querySelector('#turn.mine') !== null")
        page.wait_for_selector("#hand button.hand-tile.playable, button.move")
        if playable.count():
            break
    grown = f"(() => {{ const r = ({HAND_ROOM})(); return r.unit >= 32 && r.rows === 1; }})()"
    wait_until(page, grown)
    hand = page.evaluate(HAND_ROOM)
    assert hand["tiles"] >= 6 and hand["height"] <= hand["room"] + 0.5, hand
    # A tile chosen (its places, or its ways to play, shown) leaves the hand its size.
    playable.first.tap()
    expect(page.locator("#hand button.hand-tile.selected")).to_have_count(1)
    assert page.evaluate(HAND_ROOM)["unit"] == hand["unit"]
    page.keyboard.press("Escape")
    resize(page, VIEWPORTS["844x390"])
    wait_until(page, f"({HAND_ROOM})().unit <= 24")
    resize(page, VIEWPORTS["390x844"])
    wait_until(page, grown)
    assert page.errors == [] and page.csp == []
    page.context.close()


# -- your turn, day or night ----------------------------------------------------------------------

BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def test_the_turn_is_heard_and_the_theme_follows_the_system(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = person(browser, site, "Owl", color_scheme="dark")
    tid = new_table(page, site, "highfive", [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}])
    page.goto(f"{site}/table/{tid}")
    expect(page.locator("#status")).to_have_text("connected")
    # Dark, as the system says; light when chosen, and remembered.
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    dark = page.evaluate(BACKGROUND)
    expect(page.locator("#theme-toggle")).to_have_text("Dark: on")
    page.click("#theme-toggle")
    expect(page.locator("#theme-toggle")).to_have_text("Dark: off")
    page.reload()
    expect(page.locator("#theme-toggle")).to_have_text("Dark: off")
    assert page.evaluate(BACKGROUND) != dark
    page.click("#theme-toggle")  # (dark again, for the rest)
    # Sound is on from the start, quietly: a chime when the turn comes (once the person has
    # pressed something: browsers keep a page silent before), and the title says so.
    expect(page.locator("#sound-toggle")).to_have_text("Sound: on")
    for _ in range(30):
        wait_until(page, "document.querySelector('#turn.mine, #hand-summary:not([hidden])')")
        if page.locator("#continue").count():
            break
        before = version(page)
        page.locator("#hand button.hand-tile.playable, #moves button").first.click()
        if page.locator("#layout .end.target").count():
            page.locator("#layout .end.target").first.click()
        moved_on(page, before)
        sounds = page.evaluate("document.body.dataset.sounds || ''").split()
        if "turn" in sounds:
            break
    wait_until(page, "(document.body.dataset.sounds || '').includes('turn')")
    wait_until(
        page, "document.title.startsWith('▶ Your turn') || !!document.getElementById('continue')"
    )
    # Off with one toggle, remembered: the next turn comes in silence.
    page.click("#sound-toggle")
    page.reload()
    expect(page.locator("#sound-toggle")).to_have_text("Sound: off")
    wait_until(page, "document.querySelector('#turn.mine, #hand-summary:not([hidden])')")
    if not page.locator("#continue").count():
        before = version(page)
        page.locator("#hand button.hand-tile.playable, #moves button").first.click()
        if page.locator("#layout .end.target").count():
            page.locator("#layout .end.target").first.click()
        moved_on(page, before)
        wait_until(page, "document.querySelector('#turn.mine, #hand-summary:not([hidden])')")
    assert page.evaluate("document.body.dataset.sounds || ''") == ""
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.errors == [] and page.csp == []
    page.context.close()


@needs_axe
def test_axe_on_a_table_in_the_dark(site: str, browser: Any) -> None:
    """A Highrise table, and High Fives' with each seat's pile of captures named, in the dark."""
    page = person(browser, site, "Bat", color_scheme="dark")
    for game in ("highrise", "high-fives"):
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
        tid = new_table(page, site, game, seats)
        page.goto(f"{site}/table/{tid}")
        wait_until(page, "document.querySelector('#hand button.hand-tile') !== null")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        if game == "high-fives":
            wait_until(page, "document.querySelector('.pile .who') !== null")
        found = axe_violations(page)
        assert found == [], (game, found)
    page.context.close()


def test_every_shipped_game_has_its_row() -> None:
    """The table of games above has a row for every game the registry ships (a new game
    without one would be left out of these tests)."""
    from boneyard.games.registry import SHIPPED

    assert set(GAMES) == set(SHIPPED)
