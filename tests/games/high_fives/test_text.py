"""Typed moves, descriptions and the rendered table."""

from __future__ import annotations

import random
import re

import pytest

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import Tile
from boneyard.games.high_fives import (
    SPEC,
    Claim,
    HighFivesOptions,
    Turn,
    describe_action,
    new_game,
    parse_action,
)
from tests.games.high_fives.helpers import make_position

W5 = "0-1 1-2 7-7 8-9 10-15"


def T(text: str) -> Tile:
    return Tile.parse(text)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("7-8 x 8-9", Turn(T("7-8"), T("8-9"))),
        ("8-7 takes 9-8", Turn(T("7-8"), T("8-9"))),
        ("7-8 7-7", Turn(T("7-8"), T("7-7"))),
        ("claim 0-1 1-2 7-8 x 8-9", Turn(T("7-8"), T("8-9"), ((T("0-1"), T("1-2")),))),
        ("claim 1-2 0-1, play 7-8 x 7-7", Turn(T("7-8"), T("7-7"), ((T("0-1"), T("1-2")),))),
        ("7-8 x 8-9 0-1+1-2", Turn(T("7-8"), T("8-9"), ((T("0-1"), T("1-2")),))),
        ("2-5", Turn(T("2-5"), T("1-2"))),
        ("2-5 claim 0-1 1-2", Turn(T("2-5"), None, ((T("0-1"), T("1-2")),))),
    ],
)
def test_parse_action(typed: str, expected: Turn) -> None:
    s = make_position(W5, "7-8 2-5")
    assert parse_action(s.observation(0), typed) == expected


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("7-8", "7-8 can capture 7-7 or 8-9: add 'x' and the tile"),
        ("", "which tile do you play?"),
        ("claim 0-1 1-2", "which tile do you play?"),
        ("7-8 2-5", "a turn plays one tile, not 7-8 and 2-5"),
        ("7-8 x 7-7 8-9", "a turn captures one tile, not 7-7 and 8-9"),
        ("3-3", "3-3 is neither in your hand nor on the layout"),
        ("hello", "'hello' is not a tile or a word I know"),
        ("7-8 x 8-9 claim 0-1", "a claim is pairs of tiles"),
        ("2-5 x 1-2 claim 0-1 1-2", "a claim and a capture cannot share a tile"),
        ("2-5 x 0-1", "0-1 does not match 2-5"),
        ("7-8 claim 0-1 7-7", "0-1 and 7-7 do not match"),
    ],
)
def test_parse_action_errors(typed: str, message: str) -> None:
    s = make_position(W5, "7-8 2-5")
    with pytest.raises(BoneyardError, match=re.escape(message)):
        parse_action(s.observation(0), typed)


def test_parse_action_optional_capture() -> None:
    s = make_position(W5, "2-5", options=HighFivesOptions(capture_mandatory=False))
    obs = s.observation(0)
    with pytest.raises(BoneyardError, match="2-5 may capture 1-2 or stay on the layout"):
        parse_action(obs, "2-5")
    assert parse_action(obs, "2-5 leave") == Turn(T("2-5"))
    assert parse_action(obs, "2-5 x 1-2") == Turn(T("2-5"), T("1-2"))


def test_parse_action_claim_steps() -> None:
    opts = HighFivesOptions(max_claims_per_turn="unlimited")
    s = make_position("0-1 1-4 2-3 3-12 7-7", "7-8", options=opts)
    step = parse_action(s.observation(0), "claim 1-4 0-1")
    assert step == Claim((T("0-1"), T("1-4")))
    with pytest.raises(BoneyardError, match="claim pairs one at a time"):
        parse_action(s.observation(0), "claim 0-1 1-4 7-8 x 7-7")
    with pytest.raises(BoneyardError, match="0-1 and 2-3 do not match"):
        parse_action(s.observation(0), "claim 0-1 2-3")
    s.apply(step)
    turn = parse_action(s.observation(0), "7-8 x 7-7")
    assert turn == Turn(T("7-8"), T("7-7"), ((T("0-1"), T("1-4")),))
    s.apply(turn)
    assert s.scores == [5, 0]


def test_parse_action_not_your_turn() -> None:
    s = make_position(W5, "7-8")
    with pytest.raises(BoneyardError, match="it is not your turn"):
        parse_action(s.observation(1), "7-8")


def test_parse_every_legal_action_back() -> None:
    for opts in (HighFivesOptions(), HighFivesOptions(capture_mandatory=False)):
        s = make_position("0-1 1-2 7-7 8-9 2-9", "7-8 2-5 9-9", options=opts)
        obs = s.observation(0)
        for a in obs.legal_actions:
            text = f"{a.tile}"
            if a.capture is not None:
                text += f" x {a.capture}"
            elif not opts.capture_mandatory:
                text += " leave"
            for x, y in a.claim:
                text += f" {x}+{y}"
            assert parse_action(obs, text) == a, text


def test_describe_action() -> None:
    assert (
        describe_action(Turn(T("4-6"), T("6-9"), ((T("1-4"), T("4-4")),)))
        == "claims 1-4+4-4, plays 4-6 capturing 6-9 (7 pts)"
    )
    assert describe_action(Turn(T("13-14"), T("13-13"))) == "plays 13-14 capturing 13-13 (1 pt)"
    assert describe_action(Turn(T("5-8"))) == "plays 5-8 to the layout"
    assert describe_action(Claim((T("5-10"), T("10-10")))) == "claims 5-10+10-10 (8 pts)"
    assert SPEC.describe_action is describe_action


def test_render_highlights_matching_layout_tiles() -> None:
    s = make_position(W5, "7-8 3-4")
    text = SPEC.render(s.observation(0), ["Ann", "Bob"])
    layout_line = next(line for line in text.splitlines() if line.startswith("Layout:"))
    assert "[bold yellow]7-7[dim]·1[/][/]" in layout_line
    assert "[bold yellow]8-9[/]" in layout_line
    assert "[bold yellow]0-1" not in layout_line and "10-15[dim]·5[/]" in layout_line
    assert "Claimable pairs: 0-1+1-2" in text
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand:"))
    assert "[bold yellow]7-8[dim]·3[/][/]" in hand_line and "3-4" in hand_line
    assert "Ann" in text and "Bob" in text and "score" in text


def test_render_shows_scores_and_piles_but_no_hidden_tile() -> None:
    g = new_game(3, {"first_leader": 0, "target": 1000})
    g.deal_random(random.Random(4))
    rng = random.Random(4)
    for _ in range(20):
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    for seat in (0, 1, 2, None):
        obs = g.observation(seat)
        text = SPEC.render(obs, ["A[x]", "B", "C"])
        shown = set(re.findall(r"\d+-\d+", text))
        visible = {str(t) for t in obs.layout} | {str(t) for p in obs.piles for t in p}
        visible |= {str(t) for t in obs.hand}
        assert shown <= visible, shown - visible
        for s in range(3):
            assert f"score {g.scores[s]:>3}" in text
        assert "A\\[x]" in text  # a name is never read as markup
        if seat is None:
            assert "Your hand" not in text


def test_render_before_the_first_pass_and_at_the_end() -> None:
    g = new_game(2, {"target": 5})
    assert "High Fives" in SPEC.render(g.observation(None), ["Ann", "Bob"])
    g.deal_random(random.Random(1))
    rng = random.Random(1)
    while not g.is_over:
        if g.awaiting_deal:
            g.deal_random(rng)
            continue
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    text = SPEC.render(g.observation(0), ["Ann", "Bob"])
    assert "wins with" in text
