"""High Fives' events: a turn taken (what it won and the scores after it), and a claim step
(``max_claims_per_turn: "unlimited"``), which the record does not keep: the turn that ends it
carries its claims (RECORDS.md §3).

>>> from boneyard.core.tiles import Tile
>>> from boneyard.games.high_fives.actions import Turn
>>> TurnTaken(0, Turn(Tile(7, 8), Tile(8, 9)), False, 3, (3, 0)).to_json()
{'seat': 0, 'play': '7-8', 'capture': '8-9'}
"""

from __future__ import annotations

from typing import Final

from boneyard.core.records import JSON
from boneyard.core.state import Value
from boneyard.games.high_fives.actions import Pair, Turn


class TurnTaken(Value):
    """``seat`` took ``turn``, which scored ``points``; ``listed``: the record writes its claim
    as a list of pairs (``max_claims_per_turn: "unlimited"``)."""

    __slots__ = ("listed", "points", "scores", "seat", "turn")

    def __init__(
        self, seat: int, turn: Turn, listed: bool, points: int, scores: tuple[int, ...]
    ) -> None:
        self.seat: Final = seat
        self.turn: Final = turn
        self.listed: Final = listed
        self.points: Final = points
        self.scores: Final = scores

    def to_json(self) -> JSON:
        """The record event."""
        turn = self.turn
        ev: JSON = {"seat": self.seat, "play": str(turn.tile)}
        if turn.capture is not None:
            ev["capture"] = str(turn.capture)
        if turn.claim:
            if self.listed:
                ev["claim"] = [[str(a), str(b)] for a, b in turn.claim]
            else:
                a, b = turn.claim[0]
                ev["claim"] = [str(a), str(b)]
        return ev


class ClaimMade(Value):
    """A claim step: ``seat`` claimed ``pair`` and keeps its turn. Not a record event of its
    own (:meth:`to_json` is the claim as its turn will write it)."""

    __slots__ = ("pair", "seat")

    def __init__(self, seat: int, pair: Pair) -> None:
        self.seat: Final = seat
        self.pair: Final = pair

    def to_json(self) -> JSON:
        """The claim, as the event of the turn that ends it will carry it."""
        a, b = self.pair
        return {"seat": self.seat, "claim": [[str(a), str(b)]]}


HighFivesEvent = TurnTaken | ClaimMade
"""Everything a High Fives action can do."""
