"""What a two-player game's final scores can be, as a score card states them.

Each game says it through its spec (``GameSpec.card``); the tournament package checks the cards
players type in against it (boneyard.tournament.scorecard).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CardRule:
    """The facts a card is checked against.

    ``target``: the winner reached it (``None``: the higher score wins, whatever it is);
    ``exact``: the winner ends on exactly the target (High Five's chips run out, Merry-Go-Round's
    bust rule); ``step``: every score is a multiple of it; ``loser_below``: the loser ended under
    the target (not in Highrise, where the highest total wins once anyone is over); ``negative``:
    scores may be below zero; ``bogus``: the card of a game ended by a bogus play (PDA 8c-e:
    150 for the other player, 100 for the offender).
    """

    target: int | None = 150
    exact: bool = False
    step: int = 1
    loser_below: bool = True
    negative: bool = False
    bogus: tuple[int, int] | None = None
