"""Toy Line in the browser: a real ``boneyard serve`` that knows the game by ``BONEYARD_GAMES``
(its one registry line), and a person who plays it with clicks on the table page to the game's
end, then watches its replay. The page draws the game from the ``drawing`` its spec sends."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import make_move, new_table, person, serve, wait_until
from tests.server.conftest import browser  # noqa: F401  (the shared browser fixture)
from tests.toygame.rules import GAME

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def toy_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A site whose process registers Toy Line, as a plugin's game would be."""
    tmp = tmp_path_factory.mktemp("toy")
    path = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    env = {"BONEYARD_GAMES": f"{GAME}=tests.toygame", "PYTHONPATH": path}
    with serve(tmp / "site.db", tmp / "server.log", env=env, extra=("--hand-pause", "0")) as url:
        yield url


def test_a_person_plays_the_toy_game_in_the_browser(browser: Any, toy_site: str) -> None:  # noqa: F811
    page = person(browser, toy_site, "ann")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}]
    # A target of 20, not the default 5: no hand scores more than 19, so the game lasts two hands
    # at least and the person leads one of them. At 5 the bot can win the game in the first hand
    # while the person plays one tile or none (about one game in 70 played this way; one seen in
    # CI); at 20, none in 100,000 such games played with the engine.
    tid = new_table(page, toy_site, GAME, seats, options={"target": 20})
    page.goto(f"{toy_site}/table/{tid}")
    page.wait_for_selector("#hand .hand-tile", timeout=20_000)
    counts: dict[str, int] = {}
    longest = 0  # the most tiles the board drew in a line
    for _ in range(200):
        page.wait_for_selector(
            "#game-over, #hand svg.playable, button.move, #continue", state="attached"
        )
        if page.locator("#game-over").count():
            break
        if page.locator("#continue").count():
            page.locator("#continue").click()
            continue
        make_move(page, counts)
        longest = max(longest, page.locator("#layout svg.layout [data-tile]").count())
    else:
        raise AssertionError("the game never ended")
    assert "Game over" in page.locator("#game-over").inner_text()
    assert counts.get("tile", 0) >= 2 and longest >= 2, (counts, longest)
    assert page.errors == [] and page.csp == []
    page.click("#replay-link")
    page.wait_for_url(f"{toy_site}/replay/{tid}", wait_until="domcontentloaded")
    # (between the two pages the document has no body yet: the expression allows for it)
    wait_until(page, "document.body !== null && document.body.dataset.step === '0'")
    page.click("#last")  # the game's last position: its line of tiles
    wait_until(page, "document.querySelectorAll('#layout svg.layout [data-tile]').length > 0")
    assert page.errors == []
