"""The expert's analysis in the replay viewer, in Debian's Chromium: a seat chosen, the progress
shown while the server's workers compute it, the mistakes listed and, at each decision of that
seat, the value of every legal move with the move played and the best marked."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from boneyard.bots import make_bot
from boneyard.games.registry import get_spec, play_out
from tests.server.browser import (
    axe_violations,
    csp_violations,
    launch,
    needs_chromium,
    screenshot,
    serve,
    system_theme,
    wait_until,
)

pytestmark = needs_chromium

# The step's words and the analysis at every step of the replay (the slider moved through them).
EVERY_STEP = """() => { const out = [], slider = document.getElementById("slider");
  for (let k = 0; k <= Number(slider.max); k++) {
    slider.value = String(k); slider.dispatchEvent(new Event("input"));
    out.push(document.getElementById("step-text").innerText);
    const panel = document.getElementById("analysis-step");
    if (!panel.hidden) out.push(panel.innerText);
  }
  return out; }"""


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    env = {"BONEYARD_ANALYSIS_WORLDS": "3"}
    with serve(tmp_path / "site.db", tmp_path / "server.log", env=env) as url:
        yield url


def random_against_greedy(path: Path) -> Path:
    """A finished High Five game in which seat 1 plays at random (mistakes to find)."""
    spec = get_spec("highfive")
    state = spec.new_game(2, {})
    state.names = ["Rand", "Greta"]
    bots = [make_bot("random", random.Random(1)), make_bot("greedy", random.Random(2))]
    play_out(state, [b.choose for b in bots], random.Random(5))
    path.write_text(json.dumps(state.record()))
    return path


def test_the_replay_viewer_shows_the_experts_analysis(live_server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    record = random_against_greedy(tmp_path / "game.json")
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            refused = csp_violations(page)
            page.goto(live_server + "/replay")
            page.set_input_files("#record-file", str(record))
            expect(page.locator("#analysis")).to_be_visible()
            expect(page.locator("#analysis-seat option")).to_have_count(2)
            page.select_option("#analysis-seat", "0")
            page.fill("#analysis-threshold", "5")
            page.click("#analysis-go")
            expect(page.locator("#analysis-progress")).to_be_visible()
            wait_until(page, "document.body.dataset.analysis === 'done'", 120)
            assert page.evaluate(
                "document.getElementById('analysis-progress').value"
            ) == page.evaluate("document.getElementById('analysis-progress').max")
            expect(page.locator("#analysis-status")).to_contain_text("Rand:")
            expect(page.locator("#analysis-status")).to_contain_text("decisions with a choice")
            mistakes = page.locator("#analysis-mistakes a.mistake-link")
            assert mistakes.count() >= 1
            first = mistakes.first.inner_text()
            assert first.startswith("Hand ") and "lost" in first and "best" in first
            mistakes.first.click()
            panel = page.locator("#analysis-step")
            expect(panel).to_be_visible()
            expect(panel).to_have_class("analysis-step mistake")
            expect(panel.locator(".verdict")).to_contain_text("Mistake: this move lost")
            assert panel.locator("tr.chosen").count() == 1 and panel.locator("tr.best").count() >= 1
            assert panel.locator("tr").count() >= 2
            expect(panel.locator("tr.chosen")).to_contain_text("← played")
            assert "SIDE_" not in panel.inner_text()
            screenshot(page, "replay-analysis")
            # In a player's words at every step: where a tile goes on a spinner as the board
            # shows it, not the record's "side b" (issue 27).
            said = page.evaluate(EVERY_STEP) + mistakes.all_inner_texts()
            said_all = "\n".join(said)
            assert not re.search(r"\b(side|end) [ab]\b|\(\d+,\s*\d+\)", said_all), said_all
            assert re.search(
                r"on the spinner \S+, (to its (left|right)|above it|below it)", said_all
            )
            mistakes.first.click()  # (back to the mistake)
            # A higher threshold: no mistakes left, the same move under it.
            page.fill("#analysis-threshold", "1000")
            expect(page.locator("#analysis-mistakes a")).to_have_count(0)
            expect(panel.locator(".verdict")).not_to_contain_text("Mistake")
            # A step of the other seat has no values of Rand's.
            page.click("#first")
            expect(panel).to_be_hidden()
            assert refused == []
            # where the system is dark the mistakes and a mistake's panel stay readable (last:
            # without axe-core the check skips)
            page.fill("#analysis-threshold", "5")
            mistakes.first.click()
            expect(panel).to_have_class("analysis-step mistake")
            system_theme(page, "dark")
            assert axe_violations(page) == []
        finally:
            browser.close()


def test_an_unfinished_game_is_not_offered_for_analysis(live_server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    doc = json.loads(random_against_greedy(tmp_path / "game.json").read_text())
    doc["hands"] = doc["hands"][:1]
    doc["hands"][0]["events"] = doc["hands"][0]["events"][:3]
    (tmp_path / "part.json").write_text(json.dumps(doc))
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page()
            page.goto(live_server + "/replay")
            page.set_input_files("#record-file", str(tmp_path / "part.json"))
            expect(page.locator("#analysis-go")).to_be_disabled()
            expect(page.locator("#analysis-status")).to_contain_text("finished games only")
        finally:
            browser.close()
