"""High Five options (RULES §6.1) and the ``box``/``pda`` presets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from boneyard.core.options import build_options

Enforcement = Literal["strict", "detect", "tabletop"]


@dataclass(frozen=True, slots=True)
class HighFiveOptions:
    """Every option of RULES §6.1; defaults are the box rules.

    >>> HighFiveOptions.build({"preset": "pda"}).lead_after_lock
    'last_domino_holder'
    >>> HighFiveOptions.build({"lead_after_lock": "lock_winner"}).preset
    'box'
    """

    preset: Literal["box", "pda"] = "box"
    enforcement: Enforcement = "strict"
    spinner_ends_need_both_sides: bool = True
    zero_count_scores: bool = False
    lead_after_lock: Literal["big6", "last_domino_holder", "lock_winner"] = "big6"
    bogus_effect: Literal["end_hand", "end_game_150_100"] = "end_hand"
    pda_bogus_pass: Literal["as_bogus_draw", "commissioner"] = "as_bogus_draw"
    bogus_grace: bool = True
    bogus_beneficiary: Literal["creditor", "all_opponents"] = "creditor"
    fourp_bonus_from: Literal["opposite", "all_opponents"] = "opposite"
    multiplayer_lock: Literal["lowest_overall", "per_pair"] = "lowest_overall"
    misplaced_spinner: Literal["add", "transfer"] = "add"
    misdeal_rule: Literal["box_50", "pda"] = "box_50"
    misdeal_scope: Literal["every_hand", "first_hand_only"] = "every_hand"
    lock_tie_compare: Literal["raw", "rounded"] = "raw"
    bogus_award_rounding: Literal["round5", "raw"] = "round5"
    bogus_count_drawn_tile: bool = True
    domino_play_scores_first: bool = True
    payment_cap: Literal["chips", "uncapped"] = "chips"
    require_score_call: bool = False
    box_misdeal_fix: Literal["correct_hand", "redeal"] = "correct_hand"
    first_pick: Literal["redraw", "random"] = "random"

    @staticmethod
    def build(raw: Mapping[str, object] | None = None) -> HighFiveOptions:
        """Options from a record/CLI mapping: ``preset`` first, then explicit keys."""
        return build_options(HighFiveOptions, raw, PRESETS)

    def to_json(self) -> dict[str, object]:
        """The record form: the preset plus every key that differs from it."""
        base = HighFiveOptions(**PRESETS[self.preset])
        out: dict[str, object] = {"preset": self.preset}
        for name in self.__dataclass_fields__:
            if name != "preset" and getattr(self, name) != getattr(base, name):
                out[name] = getattr(self, name)
        return out


PRESETS: dict[str, dict[str, Any]] = {
    "box": {"preset": "box"},
    "pda": {
        "preset": "pda",
        "lead_after_lock": "last_domino_holder",
        "bogus_effect": "end_game_150_100",
        "bogus_grace": False,
        "misdeal_rule": "pda",
    },
}
