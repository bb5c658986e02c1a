"""Merry-Go-Round actions: the Fives actions (:mod:`boneyard.games.fives.play`), whose first play
of a hand is the *set* (RECORDS.md §2).

>>> from boneyard.core.tiles import Tile
>>> Play(Tile(5, 6), Tile(5, 5), "SIDE_B").to_event()
{'play': '5-6', 'on': '5-5', 'port': 'SIDE_B'}
>>> str(Play(Tile(5, 5))), str(Play(Tile(5, 6), Tile(5, 5), "SIDE_B"))
('set 5-5', '5-6 on 5-5 SIDE_B')
"""

from __future__ import annotations

from typing import Final

from boneyard.games.fives import play as fives_play
from boneyard.games.fives.play import DRAW, PASS, Draw, Pass, PlayTable


class Play(fives_play.Play):
    """Place ``tile``: the set when ``on`` is None, else on an open end of ``on``.

    ``port`` names an edge of the set double (``SIDE_A``, ``SIDE_B``, ``END_A``, ``END_B``);
    ``touch`` and ``call`` are High Five's and stay None here.
    """

    __slots__ = ()

    def __str__(self) -> str:
        if self.on is None:
            return f"set {self.tile}"
        return fives_play.Play.__str__(self)


MerryGoRoundAction = Play | Draw | Pass
"""Everything a Merry-Go-Round seat can do."""

PLAYS: Final = PlayTable(Play)
"""The interned Merry-Go-Round plays (legal actions are these values)."""

__all__ = ["DRAW", "PASS", "PLAYS", "Draw", "MerryGoRoundAction", "Pass", "Play"]
