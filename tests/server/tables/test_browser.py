"""The browser client in Debian's Chromium (Playwright, own fixture: no pytest-playwright).

Registers and plays a whole High Five hand against the bot by clicking tiles and open ends; two
people play each other; Highrise and High Fives accept a move by their own pickers; a spectator
never sees a hand; the replay viewer steps through a finished game and views an uploaded record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import (
    TARGETS,
    game_went_on,
    launch,
    make_move,
    moved_on,
    my_turn_or_done,
    needs_chromium,
    play_as_guest,
    sign_up,
    version,
    wait_until,
)

SCREENSHOT = Path("/tmp/boneyard-browser-highfive-layout.png")
SUMMARY_SHOT = Path("/tmp/boneyard-browser-hand.png")

pytestmark = needs_chromium


def first_hand_played(page: Any) -> str:
    """``Hand N`` of the first hand end in the move log that is not a deal thrown in."""
    ends = page.locator("#move-log .t-hand_end .text").all_inner_texts()
    played = [t for t in ends if "dealt again" not in t]
    assert played, ends
    first = " ".join(played[0].split()[:2])
    assert first == f"Hand {ends.index(played[0]) + 1}", ends  # each deal thrown in counts
    return first


def drag_move(page: Any) -> bool:
    """Drag the first playable hand tile onto the first target that appears (HTML5 drag and
    drop with the mouse); True when that made the move."""
    before = version(page)
    box = page.locator("#hand svg.playable").first.bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    page.mouse.move(box["x"] + 30, box["y"] - 30, steps=5)
    targets = page.locator(".end.target")
    if not targets.count():
        page.mouse.up()
        if page.locator("button.cancel").count():
            page.locator("button.cancel").click()
        return False
    spot = targets.first.bounding_box()
    page.mouse.move(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2, steps=8)
    page.mouse.up()
    moved_on(page, before)
    return True


def test_register_and_play_a_whole_hand_against_the_bot(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            sign_up(page, live_server, "newcomer")
            page.click("#quickplay")
            page.wait_for_url("**/table/*")
            expect(page.locator("#status")).to_have_text("connected")
            counts: dict[str, int] = {}
            drawn = 0
            for _ in range(300):
                my_turn_or_done(page)
                if page.locator(".hand-end").count():
                    break
                # The 2-D layout with its open ends marked: the last one before the hand ends.
                if page.locator("svg.layout .tile").count() > drawn:
                    drawn = page.locator("svg.layout .tile").count()
                    assert page.locator("svg.layout .end").count() >= 1
                    page.screenshot(path=str(SCREENSHOT))
                # One move by drag and drop; the rest by clicks.
                if (
                    drawn
                    and not counts.get("drag")
                    and page.locator("#hand svg.playable").count()
                    and drag_move(page)
                ):
                    counts["drag"] = counts.get("drag", 0) + 1
                    continue
                make_move(page, counts)
            # The first hand played out: hand 1, unless nobody held a double in the first
            # deal (about one deal in 345 at two players), which the log shows dealt again.
            first = first_hand_played(page)
            expect(page.locator(".hand-end").first).to_contain_text(first)
            summary = page.locator("#hand-summary")
            expect(summary).to_be_visible()
            # Continue, unless that hand ended the game (a seat reached 150 in it).
            went_on = game_went_on(page)
            expect(summary).to_contain_text(f"{first} is over" if went_on else "Game over")
            # Hand 1 was dealt after this page sent its seed (Play a bot now waits for it).
            expect(page.locator("#fairness li").first).to_contain_text(
                "matches the commitment, with your seed"
            )
            assert counts.get("tile", 0) + counts.get("drag", 0) > 3, counts
            assert counts.get("drag", 0) >= 1, counts
            print("moves by kind:", counts)
            assert page.locator("#error").inner_text() == ""
            assert drawn >= 3
            page.screenshot(path=str(SUMMARY_SHOT), full_page=True)
            if went_on:
                page.click("#continue")
                expect(summary).to_be_hidden()
            # Reload restores the same view.
            hand = page.locator("#hand svg").evaluate_all("ns => ns.map(n => n.dataset.tile)")
            seen = version(page)
            page.reload()
            expect(page.locator("#status")).to_have_text("connected")
            wait_until(page, "document.body.dataset.version !== undefined")
            if version(page) == seen:
                again = page.locator("#hand svg").evaluate_all("ns => ns.map(n => n.dataset.tile)")
                assert again == hand
            # A spectator (another browser context, signed out) sees no hand, on the page or
            # in any frame it receives, until the game's end shows every hand face up (the
            # first hand, or the second's first plays, may end it).
            watcher = browser.new_context().new_page()
            frames: list[str] = []

            def listen(ws: Any) -> None:
                ws.on("framereceived", lambda payload: frames.append(str(payload)))

            watcher.on("websocket", listen)
            watcher.goto(page.url)
            expect(watcher.locator("#status")).to_have_text("connected")
            wait_until(watcher, "document.body.dataset.version !== undefined")
            assert watcher.locator("#hand svg").count() == 0
            text = watcher.content()
            if 'id="game-end-title"' not in text:
                assert not [t for t in hand if f'data-tile="{t}"' in text]
            assert frames
            for frame in frames:
                msg = json.loads(frame)
                assert msg["seat"] is None and msg["view"]["hand"] == []
                if msg.get("result") or msg.get("ending"):
                    continue
                # (the move log's entries of the hand that ended are public history: its tiles
                # are dealt again; those of the hand in play are checked with the rest)
                now = msg["view"]["hand_number"]
                entries = [e for e in msg["log"]["entries"] if e.get("hand") == now]
                scanned = json.dumps({**msg, "log": entries})
                assert not [t for t in hand if f'"{t}"' in scanned]
        finally:
            browser.close()
    assert SCREENSHOT.stat().st_size > 10_000


def test_two_people_play_a_hand_against_each_other(live_server: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
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
            bob.click("text=Take seat 2")  # the table starts once it is full
            pages = [ann, bob]
            expect(ann.locator("#turn")).not_to_have_text("Waiting for the table to start.")
            for _ in range(3000):
                if all(pg.locator(".hand-end").count() for pg in pages):
                    break
                mover = next(
                    (pg for pg in pages if pg.locator("#hand svg.playable, button.move").count()),
                    None,
                )
                if mover is None:
                    ann.wait_for_timeout(50)
                    continue
                seen = version(mover)
                make_move(mover)
                for pg in pages:
                    moved_on(pg, seen)
            for pg in pages:
                expect(pg.locator(".hand-end").first).to_contain_text(first_hand_played(pg))
                assert pg.locator("#error").inner_text() == ""
        finally:
            browser.close()


@pytest.mark.parametrize("game", ["highrise", "high-fives"])
def test_other_games_render_and_accept_a_move(live_server: str, game: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            play_as_guest(page, live_server, "Gus")
            page.select_option("#game", game)
            page.click("#create")
            page.wait_for_url("**/table/*")
            counts: dict[str, int] = {}
            for _ in range(3):
                my_turn_or_done(page)
                if game == "highrise":
                    assert page.locator(".tower .cell").count() >= 16
                else:
                    assert page.locator("#captured .pile").count() == 2
                # A tile with several placements opens the picker (cells / captures / options);
                # cancel closes it. A tile with one placement is played at once.
                before = version(page)
                if not page.locator("#hand svg.playable").count():
                    make_move(page, counts)  # draw or pass
                    continue
                page.locator("#hand svg.playable").first.click()
                opened = page.evaluate(
                    f"document.body.dataset.pending !== '1' && "
                    f"document.body.dataset.version === '{before}'"
                )
                if opened:
                    assert page.locator(TARGETS).count() >= 1
                    page.locator("button.cancel").click()
                    assert page.locator(TARGETS).count() == 0
                else:
                    wait_until(page, f"document.body.dataset.version !== '{before}'")
                    my_turn_or_done(page)
                make_move(page, counts)
                assert page.locator("#error").inner_text() == ""
            assert counts.get("tile", 0) + counts.get("button", 0) >= 3
            if game == "highrise":
                check_highrise_picker(page)
            page.screenshot(path=f"/tmp/boneyard-browser-{game}.png", full_page=True)
        finally:
            browser.close()


PICKER_CHECK = """async () => {
  const p = await import("/static/picker.js");
  const mv = (play, cells, spacer) => ({ event: spacer ? { play, cells, spacer } : { play, cells } });
  const moves = [mv("6-3", [[2, 0], [2, 1]]), mv("6-3", [[2, 0], [2, 1]], [2, 1]),
    mv("3-6", [[2, 0], [2, 1]]), mv("2-0", [[2, 3], [3, 3]], [3, 3]), { event: { pass: true } }];
  const sel = { tile: "3-6", cells: [] };
  const out = { tile: p.tileMoves(moves, "6-3").length, first: [...p.cellTargets(moves, sel)] };
  sel.cells.push("2,0");
  out.second = [...p.cellTargets(moves, sel)];
  out.orientations = p.spacerChoice(p.candidates(moves, sel));
  const flat = p.candidates(moves.filter((m) => m.event.play === "6-3"), sel);
  out.spacer = p.spacerChoice(flat);
  out.labels = flat.map(p.spacerLabel);
  return out;
}"""


def check_highrise_picker(page: Any) -> None:
    """The Highrise picker: cells to click, then a spacer choice when only the spacer differs."""
    out = page.evaluate(PICKER_CHECK)
    assert out == {
        "tile": 3,
        "first": ["2,0", "2,1"],
        "second": ["2,1"],
        "orientations": False,
        "spacer": True,
        "labels": ["no spacer", "spacer on (2,1)"],
    }


def finished_table(page: Any, base: str) -> str:
    """A High Five table between two bots, watched (bots at a table with only bots move only
    while someone watches) and played to its end; returns its id."""
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "boneyard_csrf")
    r = page.request.post(
        base + "/api/tables",
        data={"game": "highfive", "seats": [{"kind": "bot", "bot": "greedy"}] * 2},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.ok, r.text()
    tid = str(r.json()["id"])
    watcher = page.context.browser.new_page()
    watcher.goto(f"{base}/table/{tid}")
    try:
        for _ in range(600):
            if page.request.get(f"{base}/api/tables/{tid}").json()["status"] == "over":
                return tid
            page.wait_for_timeout(100)
    finally:
        watcher.close()
    raise AssertionError("the bots did not finish")


def test_replay_viewer_steps_through_a_finished_game_and_views_uploads(
    live_server: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            play_as_guest(page, live_server, "Vic")
            tid = finished_table(page, live_server)
            page.goto(f"{live_server}/replay/{tid}")
            expect(page.locator("#board")).to_be_visible()
            expect(page.locator("#step-text")).to_have_text("Hand 1 is dealt")
            steps = int(page.locator("#slider").get_attribute("max") or 0) + 1
            assert steps > 10
            # Before the first tile: an empty table, both hands shown (the game is over).
            assert page.locator("#hands-shown .seat-hand").count() == 2
            assert page.locator("#hands-shown svg.tile").count() > 0
            texts = set()
            for k in range(1, 6):
                page.click("#next")
                expect(page.locator("#step-no")).to_contain_text(f"step {k + 1} of {steps}")
                texts.add(page.locator("#step-text").inner_text())
            assert len(texts) >= 3
            assert page.locator("svg.layout .tile").count() >= 1
            page.keyboard.press("End")
            expect(page.locator("#step-no")).to_contain_text(f"step {steps} of {steps}")
            expect(page.locator("#hand-summary")).to_contain_text("Game over")
            page.keyboard.press("ArrowLeft")
            expect(page.locator("#step-no")).to_contain_text(f"step {steps - 1} of")
            page.click("#first")
            expect(page.locator("#step-text")).to_have_text("Hand 1 is dealt")
            expect(page.locator("#hands li.hand-end").first).to_contain_text("Hand 1")
            page.screenshot(path="/tmp/boneyard-browser-replay.png", full_page=True)
            # Upload: the same record, then a broken one.
            record = page.request.get(f"{live_server}/api/tables/{tid}/record").json()
            good = tmp_path / "good.json"
            good.write_text(json.dumps(record))
            page.goto(live_server + "/replay")
            expect(page.locator("#upload")).to_be_visible()
            page.set_input_files("#record-file", str(good))
            expect(page.locator("#board")).to_be_visible()
            assert int(page.locator("#slider").get_attribute("max") or 0) + 1 == steps
            # (the first hand with moves: a first deal thrown in has none)
            played = next(h for h in record["hands"] if len(h["events"]) > 1)
            played["events"][1]["play"] = "9-9"
            bad = tmp_path / "bad.json"
            bad.write_text(json.dumps(record))
            page.goto(live_server + "/replay")
            page.set_input_files("#record-file", str(bad))
            expect(page.locator("#upload-error")).to_contain_text("the record does not replay")
            expect(page.locator("#board")).to_be_hidden()
            expect(page.locator("#load-error")).to_be_hidden()
            # A replay address no game has says so above the upload, in words.
            page.goto(live_server + "/replay/nope")
            expect(page.locator("#load-error")).to_have_text(
                "No such game: the address may be mistyped, or the table is private and this "
                "link has no invite. You may view a record file instead."
            )
            expect(page.locator("#record-file")).to_be_visible()
            assert page.locator("#upload-error").inner_text() == ""
        finally:
            browser.close()
