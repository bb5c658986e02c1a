"""Writes ``learning_positions.json``, the pin of what a learner sees of each game
(tests/games/test_learning.py): a few positions of one seeded random game per table below, each
with its observation, the ids and names of its legal actions and its vector.

    python -m tests.games.learning_positions          # every table below, to the file

Written once before the codecs and encoders moved into the games (issue 17); run it again only
to pin a new game (add its tables to ``TABLES``), and check that the entries of the other games
come out unchanged (``git diff``). Needs the ``rl`` extra (games are played id by id)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from boneyard.games.learning import Codec, EventForm, View
from boneyard.games.registry import get_spec

FILE = Path(__file__).parent / "learning_positions.json"
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("highfive", 2, {}),
    ("highfive", 4, {"preset": "pda"}),
    ("merry-go-round", 3, {}),
    ("merry-go-round", 4, {"partnerships": True, "target": 121}),
    ("high-fives", 2, {"target": 20}),
    ("high-fives", 3, {"target": 60, "max_claims_per_turn": "unlimited"}),
    ("highrise", 2, {"single_hand": True}),
    ("highrise", 3, {"single_hand": True, "base_layout": "2x8_one_row"}),
]
"""Game, players, options: 2, 3 and 4 seats, claims (an unlimited claim too), draws, passes."""


def kind(view: View, events: list[EventForm], codec: Codec) -> str | None:
    """What makes a position worth pinning beyond the first and the tenth decision."""
    if any(len(codec.tokens(e, view)) > 1 for e in events):
        return "multi"
    if view.get("claimed_this_turn"):
        return "claimed"
    if view.get("drawn"):
        return "drawn"
    if any(e.get("ruling") for e in events):
        return "ruling"
    if any("draw" in e or e.get("pass") for e in events):
        return "draw"
    return None


def entry(
    game: str, players: int, options: dict[str, Any], step: int, view: View, events: list[EventForm]
) -> dict[str, Any]:
    """One pinned position."""
    learning = get_spec(game).learning
    assert learning is not None
    codec = learning.codec(view)
    actions = []
    for e in events:
        ids = list(codec.tokens(e, view))
        actions.append({"event": e, "ids": ids, "names": [codec.name(t) for t in ids]})
    size = codec.size
    sample = sorted({0, 1, 2, 7, 142, size // 2, size - 3, size - 2, size - 1})
    return {
        "game": game,
        "players": players,
        "options": options,
        "step": step,
        "view": view,
        "codec_size": size,
        "features": learning.features(players, view)(view),
        "actions": actions,
        "names": {str(t): codec.name(t) for t in sample},
    }


def capture(game: str, players: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Up to four positions of one random game, played id by id from fixed seeds."""
    import numpy as np

    from boneyard.rl.table import Table

    table = Table(game, players, options)
    table.reset(random.Random(11))
    rng = random.Random(12)
    out: list[dict[str, Any]] = []
    step, kinds = 0, set()
    while not table.over and len(out) < 4:
        seat = table.seat
        assert seat is not None
        view = table.state.observation(seat).to_json()
        events = [a.to_event() for a in table.state.legal_actions()]
        found = kind(view, events, table.codec)
        if step in (0, 9) or (found and found not in kinds):
            if found:
                kinds.add(found)
            out.append(entry(game, players, options, step, view, events))
        table.step(int(rng.choice(list(np.flatnonzero(table.mask())))))
        step += 1
    return out


def main() -> None:
    """Write every table's positions to ``FILE``, one entry a line."""
    entries = [e for table in TABLES for e in capture(*table)]
    lines = ",\n".join(json.dumps(e, separators=(",", ":")) for e in entries)
    FILE.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    print(f"{len(entries)} positions -> {FILE}")


if __name__ == "__main__":
    main()
