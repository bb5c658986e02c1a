"""Score cards of over-the-board games: what a game's final scores can be, and stable game
numbers.

A card typed in by a player or the director is checked against the game's rules before it
counts: the winner reached the target (150 under PDA), the loser did not, and no score is above
what a game allows (High Five with chips ends on exactly 150). A card that fails gets a reason
in the player's words; the director may still record the result as a ruling, which is not
checked (that is the override).

Each game states its card facts through its spec (``GameSpec.card``, a
:class:`~boneyard.core.cards.CardRule`); this module checks a card against them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields

from boneyard.core.cards import CardRule
from boneyard.core.errors import BoneyardError
from boneyard.games.registry import get_spec
from boneyard.tournament.errors import TournamentError

CHECKED = ("target", "bogus")
"""Game reasons whose scores are checked; the others (``ruling``, ``forfeit`` ...) are the
director's decision."""


@dataclass(frozen=True, slots=True)
class ScoreRule(CardRule):
    """What the final scores of a two-player game can be: its card facts
    (:class:`~boneyard.core.cards.CardRule`, the fields) and the checks of a card against them.

    >>> PDA_CARD.problem((100, 90))
    'Nobody reached 150 (100-90): the game was not over.'
    >>> PDA_CARD.problem((400, 20))
    '400 is more than a game allows: the winner ends on exactly 150.'
    >>> PDA_CARD.problem((95, 150)) is None
    True
    """

    @staticmethod
    def for_game(game: str, options: Mapping[str, object] | None = None) -> ScoreRule:
        """The rule of a two-player ``game`` played with ``options`` (as a table would)."""
        try:
            card = get_spec(game).card
        except BoneyardError as exc:
            raise TournamentError(str(exc)) from None
        if card is None:
            raise TournamentError(f"score cards are not known for the game {game!r}")
        c = card(dict(options or {}))
        return ScoreRule(**{f.name: getattr(c, f.name) for f in fields(c)})

    def problem(self, scores: tuple[int, int], reason: str = "target") -> str | None:
        """Why these final scores (side a, side b) cannot end a game, in the player's words;
        ``None`` when they can. Games decided otherwise (``ruling``, ``forfeit`` ...) pass."""
        if reason not in CHECKED:
            return None
        a, b = scores
        card = f"{a}-{b}"
        hi, lo = max(a, b), min(a, b)
        if lo < 0 and not self.negative:
            return f"A score cannot be negative ({card})."
        if a == b:
            return f"The scores are equal ({card}): a game has one winner."
        odd = next((x for x in (a, b) if x % self.step), None)
        if odd is not None:
            return f"Scores go up in steps of {self.step}: {odd} cannot be a final score."
        if reason == "bogus":
            if self.bogus is None:
                return "A bogus play does not end the game under these rules."
            if (hi, lo) != self.bogus:
                x, y = self.bogus
                return f"A game ended by a bogus play is scored {x}-{y} (PDA 8c-e), not {card}."
            return None
        return self._target_problem(hi, lo, card)

    def _target_problem(self, hi: int, lo: int, card: str) -> str | None:
        if self.target is None:
            return None
        if hi < self.target:
            return f"Nobody reached {self.target} ({card}): the game was not over."
        if self.exact and hi > self.target:
            return f"{hi} is more than a game allows: the winner ends on exactly {self.target}."
        if self.loser_below and lo >= self.target:
            return f"Both reached {self.target} ({card}): the game ends when the first does."
        return None


PDA_CARD = ScoreRule(150, exact=True, step=5, bogus=(150, 100))
"""High Five under the PDA rules: 150 exactly, scores in fives, bogus 150-100."""


def game_number(live: Iterable[int]) -> int:
    """The number of a match's next game, given the numbers of its games that still count
    (not void): the lowest number free. A voided game's number goes to the game that replaces
    it, and the games after it keep theirs, so numbers never drift.

    >>> game_number([]), game_number([1, 2]), game_number([1, 3]), game_number([2, 3])
    (1, 3, 2, 1)
    """
    taken = set(live)
    return next(n for n in range(1, len(taken) + 2) if n not in taken)
