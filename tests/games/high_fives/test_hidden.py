"""Hidden tiles never reach another seat: re-dealing what a seat cannot see changes nothing
in its observation (ARCHITECTURE §3.6)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from boneyard.bots import make_bot
from boneyard.core.records import record_from_json
from boneyard.games.high_fives import SPEC, HighFivesState, new_game


def redeal_hidden(state: HighFivesState, seat: int | None, rng: random.Random) -> dict[str, Any]:
    """The state's record with every tile ``seat`` cannot see shuffled among the hidden places:
    the other seats' unplayed tiles of this deal, all later deals and the extra tiles to come."""
    doc = copy.deepcopy(state.record())
    hand = doc["hands"][-1]
    k = state.deal_index
    slots: list[tuple[list[str], int]] = []
    for j, tiles in enumerate(hand["deals"][k]):
        if j == seat:
            continue
        held = {str(t) for t in state.hand(j)}
        slots += [(tiles, i) for i, t in enumerate(tiles) if t in held]
    for deal in hand["deals"][k + 1 :]:
        for tiles in deal:
            slots += [(tiles, i) for i in range(len(tiles))]
    if k < len(hand["deals"]) - 1:
        slots += [(hand["extra"], i) for i in range(len(hand["extra"]))]
    hidden = [lst[i] for lst, i in slots]
    rng.shuffle(hidden)
    for (lst, i), tile in zip(slots, hidden, strict=True):
        lst[i] = tile
    return doc


def option_games() -> list[tuple[int, dict[str, Any], int]]:
    return [
        (2, {}, 1),
        (3, {"max_claims_per_turn": "unlimited"}, 2),
        (4, {"capture_mandatory": False, "claimable_pairs": "left_by_player"}, 3),
        (5, {"remainder_timing": "short_final_deal", "capture_choice": "first_in_row"}, 4),
        (7, {"max_claims_per_turn": "unlimited", "target": 1000}, 5),
        (8, {"target": 1000}, 6),
    ]


@pytest.mark.parametrize(("players", "options", "seed"), option_games())
def test_redealing_hidden_tiles_changes_no_observation(
    players: int, options: dict[str, Any], seed: int
) -> None:
    rng = random.Random(seed)
    state = new_game(players, {"target": 1000, **options})
    bots = [make_bot("greedy", random.Random(seed + i)) for i in range(players)]
    state.deal_random(rng)
    checked = changed = 0
    step = 0
    while state.current_seat is not None:
        if step % 7 == 0 and not state.pending_claim:
            for seat in [*range(players), None]:
                doc = redeal_hidden(state, seat, rng)
                changed += doc != state.record()
                other = SPEC.from_record(record_from_json(json.loads(json.dumps(doc))))
                mine = state.observation(seat)
                theirs = other.observation(seat)
                assert theirs == mine
                assert theirs.to_json() == mine.to_json()
                checked += 1
        seat = state.current_seat
        state.apply(bots[seat].choose(state.observation(seat)))
        step += 1
    assert checked > players * 5 and changed > checked * 0.8


def test_spectator_and_other_seats_see_no_hand() -> None:
    state = new_game(4, {"first_leader": 0})
    state.deal_random(random.Random(0))
    assert state.observation(None).hand == ()
    assert state.observation(None).legal_actions == ()
    assert state.observation(1).legal_actions == ()
    own = set(state.observation(1).hand)
    assert len(own) == 5
    text = json.dumps(state.observation(1).to_json())
    for seat in (0, 2, 3):
        for tile in state.hand(seat):
            assert f'"{tile}"' not in text
