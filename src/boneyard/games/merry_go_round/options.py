"""Merry-Go-Round options (RULES §6.2, keys without the ``mgr.`` prefix).

>>> o = MerryGoRoundOptions.build({"cross_order": "any_order", "target": 31}, 3)
>>> o.cross_order, o.target, o.forced_play
('any_order', 31, False)
>>> o.to_json()
{'cross_order': 'any_order', 'target': 31}
>>> MerryGoRoundOptions.build({"first_setter": 3}, 2)
Traceback (most recent call last):
...
boneyard.core.errors.OptionError: option first_setter is seat 3, but 2 players sit at seats 0-1
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Literal

from boneyard.core.errors import OptionError
from boneyard.core.options import Bounds, build_options


@dataclass(frozen=True, slots=True)
class MerryGoRoundOptions:
    """Every option of RULES §6.2 (plus ``partnerships`` and ``target`` of §2.1/§2.6).

    Defaults are the spec's. ``first_setter`` is ``"random"`` or a seat number.
    ``enforcement`` is the all-games key of RULES §0.1: Merry-Go-Round defines no bogus
    actions or rulings, so only ``"strict"`` exists.
    """

    enforcement: Literal["strict"] = "strict"
    partnerships: bool = True
    """With 4 players: partners sit opposite and share a score (ignored for 2–3 players)."""
    first_setter: Literal["random", 0, 1, 2, 3] = "random"
    next_setter: Literal["hand_winner", "rotate_left"] = "hand_winner"
    set_double_choice: Literal["any", "highest"] = "any"
    no_double_fallback: Literal["pass_left", "redeal"] = "pass_left"
    cross_order: Literal["sides_then_ends", "any_order"] = "sides_then_ends"
    spinner_count: Literal["fives", "alone_only"] = "fives"
    forced_play: bool = False
    domino_bonus_rounding: Literal["total", "per_opponent"] = "total"
    partner_pips: Literal["net", "ignore"] = "net"
    exact_target_scope: Literal["all_scores", "play_scores_only"] = "all_scores"
    block_scoring: Literal["differences", "lowest_takes_all", "lowest_minus_own"] = "differences"
    split_half_rounding: Literal["up", "down"] = "up"
    boneyard_reserve: Literal["none", "kelley"] = "none"
    score_floor_zero: bool = True
    block_vs: Literal["opponents", "all_others"] = "opponents"
    target: Annotated[int, Bounds(1, 500)] = 61

    @staticmethod
    def build(raw: Mapping[str, object] | None, players: int) -> MerryGoRoundOptions:
        """Options from a record/CLI mapping for ``players`` seats; raises OptionError."""
        opts = build_options(MerryGoRoundOptions, raw)
        if opts.first_setter != "random" and opts.first_setter >= players:
            raise OptionError(
                f"option first_setter is seat {opts.first_setter}, but {players} players sit "
                f"at seats 0-{players - 1}"
            )
        return opts

    def to_json(self) -> dict[str, object]:
        """The record form: only the keys that differ from the defaults."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = value
        return out
