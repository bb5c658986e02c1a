"""Sitting at a table in Chromium (issue 15): following the play, a hand's end and the game's end
for every game, phones, the keyboard, leaving and going again, the lobby and the leaderboard.

Screenshots of each game's table (desktop, phone upright and on its side), its hand's end and its
game over go to ``SCREENS`` (``/tmp/boneyard-screens/`` unless BONEYARD_SCREENS says otherwise;
docs/server.md), with the lobby, a waiting private table, the missing-table page, a claim, the
guided hand and the leaderboard.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.browser import (
    axe_violations,
    csp_violations,
    needs_axe,
    needs_chromium,
    no_sideways_scroll,
    play_as_guest,
    screenshot,
    serve,
    wait_until,
)

pytestmark = needs_chromium

DESKTOP = {"width": 1280, "height": 900}
PHONES = {"phone": (390, 844), "phone-landscape": (844, 390)}
GAMES = {
    "highfive": (2, {}),
    "merry-go-round": (3, {"target": 41}),
    "high-fives": (2, {}),
    "highrise": (2, {"target": 500}),  # (at 300, 1 game in ~60 ended in its first hand)
}
MIN_TILE = 28
MIN_TARGET = 43.5  # (44 px, less what sub-pixel layout may shave off)

# Play the seat of this page's person through a socket of its own (as fast as the server goes),
# pressing Continue at each hand's end when told to, until a hand ends or the game is over.
AUTOPLAY = """({ tid, until }) => new Promise((resolve) => {
  const ws = new WebSocket(`ws://${location.host}/ws/tables/${tid}`);
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type !== "view" && m.type !== "resync") return;
    if (m.result || m.ending) { ws.close(); resolve("over"); return; }
    const end = m.hand_end;
    if (end && end.waiting) {
      if (until === "hand_end") { ws.close(); resolve("hand_end"); return; }
      if (!end.continued.includes(m.seat)) ws.send(JSON.stringify({ type: "continue", hand: end.hand }));
      return;
    }
    if (m.moves && m.moves.length) ws.send(JSON.stringify({ seq: m.version, action: m.moves[0].event }));
  };
})"""
CHOSE = """document.body.dataset.version !== 'BEFORE' ? 'played'
  : document.activeElement.matches('#layout [role=button], #options button.option') ? 'choose' : ''"""
WATCH_LOG = """() => { window.logTimes = [];
  new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)
    if (n.nodeType === 1) window.logTimes.push([performance.now(), n.textContent]); })
  .observe(document.getElementById("move-log"), { childList: true }); }"""
SETTLED = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity)
  .map((a) => a.finished.catch(() => null)))"""  # (a redraw cancels an animation: over too)
SMALLEST_TILE = """() => {
  const sizes = [...document.querySelectorAll(
    '#layout svg.layout g.tile, #layout .tower .cell, #layout .hf-layout svg.tile')]
    .map((n) => { const r = n.getBoundingClientRect(); return Math.max(r.width, r.height); })
    .filter((x) => x > 0);
  return sizes.length ? Math.min(...sizes) : null;
}"""
KEPT_COUNTED = """() => [...document.querySelectorAll('#hand-summary .revealed .seat-hand')].map((row) => {
  const seat = row.dataset.seat;
  const cell = document.querySelector(`#seats tr[data-seat="${seat}"] td.num:not(.score):not(.chips)`);
  const plate = document.querySelector(`.plate[data-seat="${seat}"] .plate-tiles`);
  return [row.querySelectorAll('svg.tile').length, Number(cell.textContent), parseInt(plate.textContent)];
})"""
SMALL_TARGETS = """(min) => [...document.querySelectorAll(
    'header a, header button, main button, main a.button, main select, main summary, #hand .hand-tile, #layout [role=button]')]
  .filter((n) => n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden')
  .map((n) => { const r = n.getBoundingClientRect();
    return [n.id || n.getAttribute('class') || n.tagName, Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w > 0 && (w < min || h < min))"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("table")
    extra = ("--hand-pause", "600", "--claim-after", "3")
    with serve(tmp / "site.db", tmp / "server.log", extra=extra) as url:
        yield url


def person(browser: Any, base: str, name: str, **context: Any) -> Any:
    """A page of a new browser context signed in as the guest ``name``."""

    page = browser.new_context(viewport=DESKTOP, **context).new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.csp = csp_violations(page)  # type: ignore[attr-defined]
    play_as_guest(page, base, name)
    return page


def shot(page: Any, name: str) -> None:
    """A screenshot once the tiles have landed (finite animations over)."""
    page.evaluate(SETTLED)
    screenshot(page, name)


def post(page: Any, base: str, path: str, data: Any = None) -> Any:
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "boneyard_csrf")
    r = page.request.post(base + path, data=data, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def table(page: Any, base: str, game: str, seats: list[Any], **extra: Any) -> str:
    return str(post(page, base, "/api/tables", {"game": game, "seats": seats, **extra})["id"])


def autoplay(page: Any, tid: str, until: str) -> str:
    return str(page.evaluate(AUTOPLAY, {"tid": tid, "until": until}))


def fits(page: Any, label: str, size: tuple[int, int]) -> None:
    """At ``size``: no sideways scrolling, board tiles MIN_TILE px long, targets MIN_TARGET px
    square; a screenshot ``label``."""
    w, h = size
    page.set_viewport_size({"width": w, "height": h})
    wait_until(page, f"document.body.dataset.drawnFor === '{w}'")
    assert no_sideways_scroll(page), f"{label}: the page scrolls sideways at {w} px"
    smallest = page.evaluate(SMALLEST_TILE)
    assert smallest is None or smallest >= MIN_TILE, f"{label}: a board tile is {smallest} px long"
    small = page.evaluate(SMALL_TARGETS, MIN_TARGET)
    assert small == [], f"{label}: tap targets under 44 px: {small}"
    assert page.locator("#logout").is_visible(), "sign-out is reachable"
    shot(page, label)


def select_a_tile(page: Any) -> None:
    """If it is this page's turn with a tile to place somewhere, choose it (its targets show)."""
    tiles = page.locator("#hand button.hand-tile.playable")
    if page.locator("#turn.mine").count() and tiles.count():
        tiles.first.click()


# -- every game: the log, a hand's end, the game's end, phones ---------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_a_game_followed_from_its_log_to_its_end(site: str, browser: Any, game: str) -> None:
    from playwright.sync_api import expect

    players, options = GAMES[game]
    page = person(browser, site, f"Pat {list(GAMES).index(game)}")
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1)
    tid = table(page, site, game, seats, options=options)
    page.goto(f"{site}/table/{tid}")
    expect(page.locator("#status")).to_have_text("connected")
    wait_until(page, "document.querySelector('#hand button.hand-tile') !== null")
    select_a_tile(page)
    # The fairness list names the coming hand as the game calls it (High Fives deals a pass).
    word = "Pass" if game == "high-fives" else "Hand"
    expect(page.locator("#fairness li.next")).to_contain_text(f"{word} 2 (next)")
    shot(page, f"table-{game}-desktop")
    for name, size in PHONES.items():
        fits(page, f"table-{game}-{name}", size)
    page.set_viewport_size(DESKTOP)
    # A hand's end: the final board, every hand face up, the scoring in words, Continue.
    assert autoplay(page, tid, "hand_end") == "hand_end"
    panel = page.locator("#hand-summary")
    expect(panel).to_be_visible()
    expect(page.locator("#continue")).to_be_visible()
    expect(panel.locator(".revealed .seat-hand")).to_have_count(players)
    assert panel.locator(".explain li").count() >= 2
    expect(panel.locator("#next-hand-in")).to_contain_text("The next hand is dealt in")
    assert page.locator("#layout .felt").count() == 1, "the final board stays"
    # The log names the bot's moves, and the hand's end.
    assert page.locator("#move-log li").filter(has_text="Greedy bot").count() >= 1
    expect(page.locator("#move-log li.t-hand_end").first).to_contain_text("is over")
    shot(page, f"hand-end-{game}-desktop")
    fits(page, f"hand-end-{game}-phone", PHONES["phone"])
    page.set_viewport_size(DESKTOP)
    page.click("#continue")
    expect(panel).to_be_hidden()
    # The game's end: the winner, the final scores, and what comes next.
    assert autoplay(page, tid, "over") == "over"
    expect(page.locator("#game-end-title")).to_be_visible()
    for button in ("#rematch", "#play-again", "#view-replay", "#back-to-lobby"):
        expect(page.locator(button)).to_be_visible()
    expect(page.locator("#game-over")).to_contain_text("Game over")
    # The log names a bot's move with the points it scored (over a whole game the bot scores:
    # in one hand it may not).
    bot_scored = page.locator("#move-log li.scored").filter(has_text="Greedy bot")
    assert bot_scored.count() >= 1
    assert re.search(r"— \d+ points?$", bot_scored.first.inner_text())
    for shown, counted, plate in page.evaluate(KEPT_COUNTED):  # what each kept, counted alike
        assert shown == counted == plate, (game, shown, counted, plate)
    if page.locator("#hand-summary .revealed").count():
        kept = page.locator('#hand-summary .revealed .seat-hand[data-seat="0"] svg.tile').count()
        assert page.locator("#hand svg.tile").count() == kept, "your hand shows what you kept"
    shot(page, f"game-over-{game}-desktop")
    fits(page, f"game-over-{game}-phone", PHONES["phone"])
    page.set_viewport_size(DESKTOP)
    # The replay shows the same at each hand's end: what everyone kept, and why it scored.
    page.click("#view-replay")
    page.wait_for_url("**/replay/*")
    page.locator("#hands li a").first.click()
    expect(page.locator("#hand-summary .explain li").first).to_be_visible()
    kept = page.locator("#hands-shown .seat-hand svg.tile").count()
    if game != "high-fives":  # (a High Fives pass is played out: nobody keeps a tile)
        assert kept >= 1
    shot(page, f"replay-hand-end-{game}")
    assert page.errors == [] and page.csp == []  # type: ignore[attr-defined]
    page.context.close()


# -- the keyboard and a screen reader ------------------------------------------------------------


def test_a_whole_hand_played_with_the_keyboard(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = person(browser, site, "kay")  # (a name written in lower case stays so)
    page.click("#quickplay")
    page.wait_for_url("**/table/*")
    wait_until(page, "document.querySelector('#hand button.hand-tile') !== null")
    names = page.locator("#hand button.hand-tile svg").evaluate_all(
        "ns => ns.map(n => n.getAttribute('aria-label'))"
    )
    word = r"(blank|one|two|three|four|five|six)"
    assert names and all(re.fullmatch(f"{word}-{word}", n) for n in names), names
    assert page.get_by_role("button", name=re.compile(f"^{word}-{word}")).count() >= 1
    for _ in range(300):
        if page.locator("#hand-summary #continue").count():
            break
        wait_until(
            page, "document.querySelector('#turn.mine, #hand-summary:not([hidden])') !== null", 30
        )
        if page.locator("#hand-summary #continue").count():
            break
        before = page.evaluate("document.body.dataset.version")
        playable = page.locator("#hand button.hand-tile.playable")
        if playable.count():
            playable.first.focus()
            page.keyboard.press("Enter")
            # One place: played at once. Several: the keyboard is on the first of them now.
            chose = wait_until(page, CHOSE.replace("BEFORE", before))
            if chose == "choose":
                page.keyboard.press("Enter")
        else:
            page.locator("button.move").first.focus()
            page.keyboard.press("Enter")
        wait_until(page, f"document.body.dataset.version !== '{before}'", 30)
    assert "Kay" not in page.locator("#hand-summary").inner_text()  # names are not recased
    page.locator("#continue").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#hand-summary")).to_be_hidden()
    page.context.close()


# -- leaving and going again ---------------------------------------------------------------------


def test_resign_rematch_and_the_leaderboard(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    ann = person(browser, site, "Anna")
    bob = person(browser, site, "Boris")
    tid = table(ann, site, "highfive", [{"kind": "me"}, {"kind": "open"}], clock=None)
    bob.goto(f"{site}/table/{tid}")
    bob.click("text=Take seat 2")
    ann.goto(f"{site}/table/{tid}")
    ann.locator("#board #start").click()  # (the Start button is in the main area)
    wait_until(ann, "document.querySelector('#resign') !== null")
    # Each seat shows that its person is connected.
    expect(ann.locator('.plate[data-seat="1"] .conn')).to_have_text("online")
    ann.click("#resign")
    expect(ann.locator("#resign-dialog")).to_be_visible()
    ann.click("#resign-no")  # (asked first: nothing happens)
    expect(ann.locator("#resign-dialog")).to_be_hidden()
    ann.click("#resign")
    ann.click("#resign-yes")
    for page in (ann, bob):
        expect(page.locator("#game-end-title")).to_have_text("Anna resigned: Boris wins.")
    ann.click("#rematch")
    expect(bob.locator("#rematch")).to_have_text("Accept the rematch")
    expect(bob.locator("#rematch-note")).to_contain_text("Anna")
    bob.click("#rematch")
    for page in (ann, bob):
        page.wait_for_url(re.compile(r".*/table/(?!" + tid + r")\w+$"))
    assert ann.url == bob.url
    shot(ann, "rematch-new-table")
    # Resigned before either had moved: not rated (issue 28's farm), and the page says so.
    ann.goto(f"{site}/leaderboard")
    expect(ann.locator("#lb-title")).to_have_text("High Five · 2 players")
    expect(ann.locator("#lb-count")).to_contain_text("rated in High Five")
    expect(ann.locator("#leaderboard")).to_contain_text("before each player has made two moves")
    assert "Boris" not in ann.locator("#lb").inner_text()
    ann.check("#lb-bots")
    expect(ann.locator("#lb-count")).to_contain_text("rated in High Five")
    shot(ann, "leaderboard")
    for page in (ann, bob):
        page.context.close()


def test_abort_and_resign_with_three_players(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = person(browser, site, "Abe")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    tid = table(page, site, "highfive", seats, bot_pace=3)  # (the bot waits: nobody moved)
    page.goto(f"{site}/table/{tid}")
    page.locator("#abort").click()
    expect(page.locator("#game-end-title")).to_contain_text("Game aborted")
    expect(page.locator("#view-replay")).to_have_count(0)
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "greedy"}] * 2
    clock = {"per_move": 600, "bot": "greedy"}
    tid = table(page, site, "merry-go-round", seats, clock=clock, bot_pace=0.5)
    page.goto(f"{site}/table/{tid}")
    page.click("#resign")
    expect(page.locator("#resign-dialog")).to_contain_text("A bot plays your seat to the end")
    page.click("#resign-yes")
    expect(page.locator('#seats tr[data-seat="0"]')).to_contain_text("bot (replacing Abe)")
    expect(page.locator("#move-log")).to_contain_text(
        "Abe resigned: a greedy bot plays the seat out"
    )
    expect(page.locator("#resign")).to_have_count(0)
    page.context.close()


def test_claiming_after_an_opponent_left(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    ann = person(browser, site, "Cleo")
    bob = person(browser, site, "Dave")
    tid = table(ann, site, "highrise", [{"kind": "me"}, {"kind": "open"}], clock=None)
    bob.goto(f"{site}/table/{tid}")
    bob.click("text=Take seat 2")
    ann.goto(f"{site}/table/{tid}")
    ann.click("#start")
    wait_until(ann, "document.querySelector('#resign') !== null")
    bob.context.close()  # Dave leaves
    expect(ann.locator('.plate[data-seat="1"] .conn')).to_have_text("away")
    expect(ann.locator("#claim-area")).to_contain_text("Dave is disconnected")
    expect(ann.locator("#claim-win")).to_be_visible(timeout=15_000)  # (after 3 s here)
    expect(ann.locator("#claim-bot-1")).to_be_visible()
    shot(ann, "claim")
    ann.click("#claim-win")
    expect(ann.locator("#game-end-title")).to_have_text("Cleo claimed the win: Dave left.")
    ann.context.close()


# -- getting a game going with friends -----------------------------------------------------------


def test_a_private_tables_invite_link_from_creation_and_the_missing_table(
    site: str, browser: Any
) -> None:
    from playwright.sync_api import expect

    ann = person(browser, site, "Ivy")
    ann.select_option("#others", "open")
    ann.check("#private")
    expect(ann.locator("#clock")).to_have_value("60")  # people play each other: a clock
    ann.click("#create")
    ann.wait_for_url("**/table/*")
    link = ann.locator("#invite-link")
    expect(link).to_be_visible()  # while the table waits for players
    expect(ann.locator("#join-area")).to_contain_text("Waiting for 1 more player")
    assert "/join/" in link.input_value()
    shot(ann, "invite-waiting")
    # Someone without the link: a clear message and a way back, and no endless retrying.
    eve = person(browser, site, "Eve")
    sockets: list[Any] = []
    eve.on("websocket", lambda ws: sockets.append(ws))
    eve.goto(ann.url.split("?")[0])
    expect(eve.locator("#gone")).to_contain_text("This table is not available")
    expect(eve.locator("#gone")).to_contain_text("private")
    expect(eve.locator("#back-home")).to_be_visible()
    started = len(sockets)
    eve.wait_for_timeout(2500)  # (no new attempt comes)
    assert len(sockets) == started == 1
    eve.goto(f"{site}/table/nosuchtable")
    expect(eve.locator("#gone")).to_contain_text("does not exist")
    shot(eve, "table-not-available")
    # With the link: Eve is seated in the free seat at once, and the table starts when full.
    eve.goto(link.input_value())
    expect(eve.locator('.plate[data-seat="1"]')).to_contain_text("Eve")
    wait_until(ann, "document.querySelector('#hand button.hand-tile') !== null")
    expect(ann.locator('#seats tr[data-seat="1"]')).to_contain_text("Eve")
    for page in (ann, eve):
        page.context.close()


def test_the_lobby_updates_live(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    ann = person(browser, site, "Lou")
    bob = person(browser, site, "Max")
    tid = table(bob, site, "merry-go-round", [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])
    item = ann.locator(f'#tables li[data-table="{tid}"]')
    expect(item).to_contain_text("waiting for players", timeout=15_000)  # no reload
    expect(item).to_contain_text("Max, open seat, open seat")
    shot(ann, "lobby")
    bob.goto(f"{site}/table/{tid}")
    expect(bob.locator("#share-link-open")).to_have_value(f"{site}/table/{tid}")
    ann.goto(f"{site}/table/{tid}")
    ann.click("text=Take seat 2")
    bob.goto(site + "/")  # (signed in: the lobby)
    expect(bob.locator(f'#tables li[data-table="{tid}"]')).to_contain_text(
        "Max, Lou, open seat", timeout=15_000
    )
    for page in (ann, bob):
        page.context.close()


# -- following the play: pace, motion, sound, the title, the guide --------------------------------


def test_bots_are_paced_animated_and_heard_only_when_asked(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    for motion in ("no-preference", "reduce"):
        page = person(
            browser, site, f"Mo{motion[:3]}", reduced_motion=motion, permissions=["notifications"]
        )
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
        tid = table(page, site, "highfive", seats, bot_pace=1)
        page.goto(f"{site}/table/{tid}")
        expect(page.locator("#sound-toggle")).to_have_text("Sound: off")  # (off at first)
        page.click("#sound-toggle")
        expect(page.locator("#sound-toggle")).to_have_text("Sound: on")
        page.reload()
        expect(page.locator("#sound-toggle")).to_have_text("Sound: on")  # remembered
        page.click("#notify-toggle")
        expect(page.locator("#notify-toggle")).to_have_text("Alerts: on")
        # This person moves until the bot has answered twice (a draw is a move of this person's
        # that the bot does not answer); the bot takes about a second over each of its own
        # (timed in the page: when each line of the log appeared).
        page.evaluate(WATCH_LOG)
        gaps: list[float] = []
        for _ in range(20):
            wait_until(page, "document.title.startsWith('▶ Your turn')", 30)
            lines = page.evaluate("window.logTimes")
            gaps = [b[0] - a[0] for a, b in itertools.pairwise(lines)
                    if a[1].startswith("Mo") and b[1].startswith("Greedy bot")]  # fmt: skip
            if len(gaps) >= 2:
                break
            before = page.evaluate("document.body.dataset.version")
            page.locator("#hand button.hand-tile.playable, button.move").first.click()
            if page.locator(".end.target").count():
                page.locator(".end.target").first.click()
            wait_until(page, f"document.body.dataset.version !== '{before}'")
        assert len(gaps) >= 2 and min(gaps) >= 850, gaps  # ms: about a second, never at once
        flights = int(page.evaluate("document.body.dataset.flights || 0"))
        assert (flights > 0) == (motion == "no-preference"), (motion, flights)
        page.context.close()


def test_the_guided_first_hand(site: str, browser: Any) -> None:
    from playwright.sync_api import expect

    page = person(browser, site, "Newbie")
    page.click("#guided")
    page.wait_for_url("**/table/*")
    guide = page.locator("#guide")
    expect(guide).to_be_visible()
    shot(page, "guide")
    texts = set()
    for _ in range(300):
        wait_until(
            page, "document.querySelector('#turn.mine, #hand-summary:not([hidden])') !== null", 30
        )
        texts.add(guide.inner_text())
        if page.locator("#continue").count():
            break
        before = page.evaluate("document.body.dataset.version")
        suggested = page.locator("#hand button.hand-tile.suggested, button.move.suggested")
        suggested.first.click()
        if page.locator(".end.target.suggested").count():
            page.locator(".end.target.suggested").first.click()
        elif page.locator(".end.target").count():
            page.locator(".end.target").first.click()
        wait_until(page, f"document.body.dataset.version !== '{before}'")
    assert "press Continue" in guide.inner_text()
    # Every hint is one of the guide's (which ones a hand needs depends on its deal).
    kinds = ("You lead", "You hold the highest double", "Play ", "No play scores",
             "None of your tiles fits", "Nothing fits", "The hand is over")  # fmt: skip
    assert len(texts) >= 2 and all(t.removeprefix("Guide: ").startswith(kinds) for t in texts), (
        texts
    )
    page.click("#continue")
    expect(guide).to_be_hidden()
    page.context.close()


@needs_axe
def test_axe_on_a_hand_end_a_game_over_and_the_leaderboard(site: str, browser: Any) -> None:
    page = person(browser, site, "Axa")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    tid = table(page, site, "highfive", seats)
    page.goto(f"{site}/table/{tid}")
    wait_until(page, "document.querySelector('#hand button.hand-tile') !== null")
    autoplay(page, tid, "hand_end")
    page.locator("#continue").wait_for()
    found = {"hand end": axe_violations(page)}
    page.goto(f"{site}/leaderboard")
    page.locator("#lb-count").wait_for()
    found["leaderboard"] = axe_violations(page)
    page.goto(f"{site}/table/nosuchtable")
    page.locator("#gone").wait_for()
    found["missing table"] = axe_violations(page)
    report = [
        f"{where}: {v['id']} {v['help']}: {v['nodes']}" for where, vs in found.items() for v in vs
    ]
    assert report == [], "\n".join(report)
    page.context.close()
