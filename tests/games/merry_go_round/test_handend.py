"""A Merry-Go-Round hand's end in words (``SPEC.explain_hand_end``), on the hands of golden
records: a point for every five the others kept, a block's differences, and a domino that would
bust the target scoring nothing (RULES §2)."""

from __future__ import annotations

from boneyard.games.registry import get_spec
from tests.games.golden import Golden

GAME = "merry-go-round"


def words(name: str, hand: int = 0) -> list[str]:
    """The explanation of a golden record's hand."""
    return get_spec(GAME).explain_hand_end(Golden(GAME).endings(name)[hand])


def test_a_domino_scores_a_point_for_every_five_the_others_kept() -> None:
    assert words("t-mg-03") == [
        "Ann kept 1-1, 3-6 and 6-6: 23 pips.",
        "Bob went out: the others kept 23 pips, rounded to 25: a point for every 5 — Bob scores 5.",
    ]


def test_a_block_pays_the_differences() -> None:
    assert words("t-mg-05-default") == [
        "Ann kept 2-4 and 5-5: 16 pips.",
        "Bob kept 0-0 and 0-4: 4 pips.",
        "Cy kept 0-2 and 4-4: 10 pips.",
        "Blocked: nobody can play or draw. Each player scores a point for every 5 pips the players "
        "above them hold more: Ann 0, Bob +4, Cy +1.",
    ]


def test_a_domino_past_the_target_says_it_scores_nothing() -> None:
    ending = Golden(GAME).endings("t-mg-block-bust")[8]
    assert ending.end.scores == (60, 60) and ending.end.award == 0  # Ann at 60 went out
    said = get_spec(GAME).explain_hand_end(ending)
    assert said[1:] == [
        "Ann went out: the others kept 74 pips, rounded to 75: 15 points, a point for every 5.",
        "That would take Ann past 61 (exactly 61 wins): it scores nothing.",
    ]


def test_partners_and_other_block_rules_fall_back_to_the_plain_words() -> None:
    """Partnerships, per-opponent rounding and lowest-takes-all blocks are told by the award."""
    assert words("t-mg-07")[-1] == "Cy wins the hand and scores 3."  # partners
    assert words("t-mg-04-per-opponent")[-1] == "Ann wins the hand and scores 2."
    assert words("t-mg-06")[-1] == "Nobody scores for this hand."  # lowest_takes_all, tied
