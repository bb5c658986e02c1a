"""A High Five hand's end in words (``SPEC.explain_hand_end``), on the hands of golden records:
the tiles kept with their pips, and who paid whom (RULES §1.8)."""

from __future__ import annotations

from boneyard.games.registry import get_spec
from tests.games.golden import Golden

GAME = "highfive"


def words(name: str, hand: int = 0) -> list[str]:
    """The explanation of a golden record's hand."""
    return get_spec(GAME).explain_hand_end(Golden(GAME).endings(name)[hand])


def test_a_domino_names_the_tiles_kept_and_the_pips_paid() -> None:
    assert words("t-h5-06") == [
        "Bob kept 4-4: 8 pips.",
        "Ann went out: Bob's 8 pips, rounded to 10, go to Ann — Ann scores 10.",
    ]


def test_a_block_is_paid_by_the_seat_before_the_one_with_the_fewest_pips() -> None:
    assert words("t-h5-09a") == [
        "Ann kept 2-5 and 3-3: 13 pips.",
        "Bob kept 1-2, 1-3 and 2-2: 11 pips.",
        "Cy kept 3-5 and 5-5: 18 pips.",
        "Blocked: nobody can play and the boneyard is empty.",
        "Bob holds the fewest pips (11): Ann's 13 pips, rounded to 15, go to Bob — Bob scores 15.",
    ]


def test_a_block_with_the_fewest_pips_tied_scores_nobody() -> None:
    said = words("t-h5-12")
    assert said[:3] == [
        "Ann kept 3-3, 3-4, 3-5 and 4-5: 30 pips.",
        "Bob kept 1-1 and 5-5: 12 pips.",
        "Cy kept 2-2 and 4-4: 12 pips.",
    ]
    assert said[3:] == [
        "Blocked: nobody can play and the boneyard is empty.",
        "The fewest pips are tied: nobody scores.",
    ]
