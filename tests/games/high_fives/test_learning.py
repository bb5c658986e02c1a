"""High Fives' action ids: a turn that claims is a claim id per pair, then the play id."""

from __future__ import annotations

from boneyard.games.high_fives.learning import FIFTEEN, HighFivesCodec, pair_id


def test_a_high_fives_turn_with_a_claim_is_a_claim_id_then_the_play() -> None:
    codec = HighFivesCodec()
    turn = {"play": "7-8", "capture": "8-9", "claim": ["0-1", "1-2"]}
    claim, play = codec.tokens(turn, {"claimed_this_turn": []})
    assert claim == pair_id(FIFTEEN["0-1"], FIFTEEN["1-2"])
    assert codec.name(claim) == "claim 0-1 1-2" and codec.name(play) == "play 7-8 x 8-9"
    # Claimed already (a step of an unlimited claim): only the play is left.
    assert codec.tokens(turn, {"claimed_this_turn": [["0-1", "1-2"]]}) == (play,)
