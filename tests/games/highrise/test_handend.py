"""A Highrise hand's end in words (``SPEC.explain_hand_end``), on the hands of golden records:
what each seat's tiles are worth (a wild half 7, RULES §4.4), taken by the player who goes out or
subtracted on a block."""

from __future__ import annotations

from boneyard.games.registry import get_spec
from tests.games.golden import Golden

GAME = "highrise"


def words(name: str, hand: int = 0) -> list[str]:
    """The explanation of a golden record's hand."""
    return get_spec(GAME).explain_hand_end(Golden(GAME).endings(name)[hand])


def test_a_domino_takes_what_the_others_hold_a_wild_half_counting_seven() -> None:
    assert words("t-hr-16") == [
        "Bob kept W-3 and 6-6: worth 22.",
        "Cy kept 0-0: worth 0.",
        "Ann went out and scores what the others hold (a wild half counts 7): Ann scores 22.",
    ]


def test_a_block_subtracts_what_each_player_holds() -> None:
    assert words("t-hr-17") == [
        "Ann kept W-W: worth 14.",
        "Bob kept 1-2: worth 3.",
        "Blocked: no tile can be placed. Each player subtracts what they hold: Ann −14, Bob −3.",
    ]
