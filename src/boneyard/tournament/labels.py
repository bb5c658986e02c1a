"""Names and one-line explanations the site shows beside results: how a match or game ended,
and what each standings column (tiebreak) means.

The formats say which criteria rank them (``Tournament.ranking()``) and which of those are the
``Standing.tiebreaks`` values (``Tournament.tiebreak_labels()``); the texts live here, in one place.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Label:
    """A result mark or a standings criterion: its key, a column name, a short form and one
    sentence for a tooltip or a legend."""

    key: str
    name: str
    short: str
    explanation: str

    def to_json(self) -> dict[str, object]:
        """``{"key": ..., "name": ..., "short": ..., "explanation": ...}``."""
        return {
            "key": self.key,
            "name": self.name,
            "short": self.short,
            "explanation": self.explanation,
        }


def _label(key: str, name: str, short: str, explanation: str) -> tuple[str, Label]:
    return key, Label(key, name, short, explanation)


OUTCOMES: dict[str, Label] = dict(
    [
        _label("played", "Played", "", "Decided by the games played."),
        _label("target", "Played", "", "Played until a side reached the target score."),
        _label("bye", "Bye", "bye", "No opponent this round: goes through without playing."),
        _label("forfeit", "Forfeit", "ff", "Lost by forfeit, without being played out."),
        _label("no_show", "No-show", "ns", "Not there when the match was ready: a forfeit."),
        _label("abandoned", "Abandoned", "ab", "Left the table and lost by forfeit."),
        _label("withdrawn", "Withdrawn", "wd", "Withdrew from the event: a forfeit."),
        _label("timeout", "Time-out", "t/o", "Ran out of time on the move clock."),
        _label("ruling", "Ruling", "r", "Decided by the tournament director."),
        _label("disqualified", "Disqualified", "dq", "Disqualified by the director (PDA 9e)."),
        _label("bogus", "Bogus", "b", "A bogus play ended the game, scored 150-100 (PDA 8c-e)."),
    ]
)
"""How a match (``Match.outcome``) or a game (``MatchGame.reason``) ended."""


MATCH_KINDS: dict[str, Label] = dict(
    [
        _label("final", "Final", "F", "The match for first place."),
        _label(
            "third_place",
            "Third-place match",
            "3rd",
            "The semi-final losers play for third place.",
        ),
        _label(
            "grand_final",
            "Grand final",
            "GF",
            "The winners' champion against the losers' champion.",
        ),
        _label(
            "grand_final_reset",
            "Grand final reset",
            "GF2",
            "The losers' champion won the grand final: both have lost once, and this match "
            "decides the title.",
        ),
    ]
)
"""The matches a bracket names (``Tournament.match_kind``): an ordinary match has no kind."""


def outcome_label(key: str) -> Label:
    """The label of a match outcome or a game reason (an unknown key gets its own name).

    >>> outcome_label("no_show").name, outcome_label("penalty").name
    ('No-show', 'Penalty')
    """
    return OUTCOMES.get(key) or Label(key, key.replace("_", " ").capitalize(), key, "")


def criterion(key: str, bye_points: float | None = None) -> Label:
    """A standings criterion; ``points`` says what a bye scores when the format has byes.

    >>> criterion("buchholz").explanation
    "The sum of the opponents' points: how strong the opposition was (a bye adds nothing)."
    >>> criterion("points", 0.5).explanation
    'Match points: a win 1, a loss 0, a bye 0.5.'
    """
    if key == "points":
        bye = "" if bye_points is None else f", a bye {bye_points:g}"
        return Label(key, "Points", "Pts", f"Match points: a win 1, a loss 0{bye}.")
    return CRITERIA[key]


CRITERIA: dict[str, Label] = dict(
    [
        _label(
            "buchholz",
            "Buchholz",
            "Bch",
            "The sum of the opponents' points: how strong the opposition was (a bye adds nothing).",
        ),
        _label(
            "sonneborn_berger",
            "Sonneborn-Berger",
            "S-B",
            "The sum of the points of the opponents beaten.",
        ),
        _label("game_difference", "Game difference", "+/-", "Games won minus games lost."),
        _label("seed", "Seed", "Seed", "The better seed settles any tie left."),
        _label(
            "finish",
            "Finish",
            "Fin",
            "How far the entrant went: the later they went out, the higher they rank; "
            "entrants out in the same round share a place.",
        ),
        _label("reached", "Round reached", "Rd", "The last round the entrant played in."),
        _label("losses", "Losses", "L", "Matches lost: a second loss puts an entrant out."),
        _label(
            "pool_place",
            "Pool place",
            "Place",
            "The place in the pool; for those who did not reach the bracket.",
        ),
        _label(
            "win_rate",
            "Win rate",
            "W%",
            "Matches won out of matches played in the pool (pools may differ in size).",
        ),
    ]
)
"""Every standings criterion but ``points`` (see :func:`criterion`)."""
