"""Highrise options: exactly the ``highrise.*`` keys of RULES.md §6.4 (and §4.4), without prefix.

>>> o = build_highrise_options({"target": 200, "base_layout": "2x8_one_row"})
>>> o.target, o.base_layout, o.spacers_per_hand
(200, '2x8_one_row', 12)
>>> build_highrise_options({"colour": "red"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boneyard.core.errors.OptionError: unknown option 'colour' (known options: ...)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from boneyard.core.errors import BoneyardError, OptionError
from boneyard.core.options import Bounds, OptionField, build_options, option_fields
from boneyard.core.tiles import HIGHRISE_36, Tile, TileSet

DEFAULT_TILESET = "d6_plus_wild_suit"
CARRY_OVER = "carry_over"
MAX_SPACERS = 36
"""More spacers than the 36 tiles could never all be placed."""


@dataclass(frozen=True, slots=True)
class HighriseOptions:
    """Every Highrise option (RULES §6.4, plus ``target`` and ``single_hand`` of §4.4).

    ``tileset`` is ``"d6_plus_wild_suit"`` or a tuple of 36 distinct tile strings;
    ``spacers_per_hand`` is a whole number (the supply refilled at every hand) or
    ``"carry_over"`` (12 spacers for the whole game); ``first_player`` is ``"youngest"``,
    ``"random"`` or a seat number (``"youngest"`` plays as ``"random"``: software has no ages).
    """

    tileset: str | tuple[str, ...] = DEFAULT_TILESET
    base_layout: Literal["4x4_two_rows", "2x8_one_row"] = "4x4_two_rows"
    wild_on_wild_value: Literal[7, "inherit"] = 7
    losers_subtract_on_going_out: bool = False
    allow_negative: bool = True
    tie_at_target: Literal["play_another_hand", "shared_win"] = "play_another_hand"
    first_player: Literal["youngest", "random", 0, 1, 2, 3] = "youngest"
    spacers_per_hand: int | str = 12
    early_block: bool = True
    target: Annotated[int, Bounds(1, 3000)] = 300
    single_hand: bool = False

    def tile_set(self) -> TileSet:
        """The 36 tiles in play."""
        if self.tileset == DEFAULT_TILESET:
            return HIGHRISE_36
        return TileSet("custom Highrise", tuple(Tile.parse(t) for t in self.tileset))

    def to_json(self) -> dict[str, object]:
        """The record form: every option, resolved (a default that changes later cannot change
        how the record replays; see :data:`RECORDED_DEFAULTS`)."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


_SPECIAL = ("tileset", "spacers_per_hand")


def _tileset(value: object) -> str | tuple[str, ...]:
    if value == DEFAULT_TILESET:
        return DEFAULT_TILESET
    if not isinstance(value, list | tuple):
        raise OptionError(
            f"option tileset cannot be {value!r} (choose {DEFAULT_TILESET!r} or a list of 36 tiles)"
        )
    try:
        tiles = [Tile.parse(t) for t in value]
    except BoneyardError as exc:
        raise OptionError(f"option tileset: {exc}") from None
    if len(tiles) != 36:
        raise OptionError(f"option tileset must list 36 tiles, not {len(tiles)}")
    if len(set(tiles)) != 36:
        raise OptionError("option tileset lists a tile twice")
    return tuple(str(t) for t in tiles)


def _spacers(value: object) -> int | str:
    if value == CARRY_OVER:
        return CARRY_OVER
    if type(value) is int and 0 <= value <= MAX_SPACERS:
        return value
    raise OptionError(
        f"option spacers_per_hand cannot be {value!r} (a whole number from 0 to {MAX_SPACERS}, "
        f"or {CARRY_OVER!r})"
    )


RECORDED_DEFAULTS: dict[str, object] = {"early_block": False}
"""What an absent key meant in records (and stored games) written before its default changed:
``early_block`` was ``false`` until RULES HR-10 was revised (2026-11). New records state every
option, so this applies only to older ones."""


def recorded_options(raw: Mapping[str, object] | None) -> HighriseOptions:
    """The options of a record or a stored game: absent keys take the defaults they had when
    such records were written (:data:`RECORDED_DEFAULTS`), not today's.

    >>> recorded_options({}).early_block, build_highrise_options({}).early_block
    (False, True)
    """
    return build_highrise_options({**RECORDED_DEFAULTS, **(raw or {})})


def build_highrise_options(raw: Mapping[str, object] | None) -> HighriseOptions:
    """Options from a record/CLI mapping; unknown keys or values raise :class:`OptionError`."""
    rest = dict(raw or {})
    special = {k: rest.pop(k) for k in _SPECIAL if k in rest}
    opts = build_options(HighriseOptions, rest)
    changes: dict[str, Any] = {}
    if "tileset" in special:
        changes["tileset"] = _tileset(special["tileset"])
    if "spacers_per_hand" in special:
        changes["spacers_per_hand"] = _spacers(special["spacers_per_hand"])
    return dataclasses.replace(opts, **changes) if changes else opts


OPTION_FIELDS = option_fields(
    HighriseOptions,
    special={
        # a form offers the set (a list of 36 tiles is for records and the terminal)
        "tileset": OptionField("tileset", DEFAULT_TILESET, (DEFAULT_TILESET,)),
        "spacers_per_hand": OptionField(
            "spacers_per_hand", HighriseOptions().spacers_per_hand, (CARRY_OVER,), 0, MAX_SPACERS
        ),
    },
)
"""Highrise's options as a form offers them (``GameSpec.option_fields``)."""
