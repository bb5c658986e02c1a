"""A High Fives pass's end in words (``SPEC.explain_hand_end``), on a golden record: the tiles
kept are only named (they count nothing), and a pass ends when every tile is played; the game
has no domino and no block."""

from __future__ import annotations

from boneyard.games.registry import get_spec
from tests.games.golden import Golden

GAME = "high-fives"


def test_a_pass_played_out_and_the_target_reached() -> None:
    spec = get_spec(GAME)
    played_out, over = Golden(GAME).endings("game-3p-immediate")
    assert spec.explain_hand_end(played_out) == [
        "Every tile of the pass has been played: tiles left on the layout score nobody."
    ]
    assert spec.explain_hand_end(over) == [
        "Ann kept 1-13, 2-10, 4-10 and 5-7.",
        "Bob kept 0-3, 0-13, 2-4 and 7-15.",
        "Cy kept 1-8, 3-4, 7-13 and 8-11.",
        "Ann reached the target: the game is over.",
    ]


def test_what_the_game_calls_a_hand() -> None:
    assert get_spec(GAME).hand_word == "Pass"
    assert get_spec("highfive").hand_word == "Hand"
