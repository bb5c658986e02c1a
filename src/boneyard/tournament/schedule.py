"""How many games each round's matches last: best of N per round (PDA: 5, final 7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boneyard.tournament.errors import TournamentError


def _check_best_of(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1 or n % 2 == 0:
        raise TournamentError(
            f"a match is best of an odd number of games (1, 3, 5, ...), not {n!r}"
        )
    return n


@dataclass(frozen=True, slots=True)
class Schedule:
    """Best-of-N per round.

    Round ``r`` of ``total`` rounds is best of ``rounds[r - 1]`` when the explicit list covers it,
    else ``final`` in the last round (when set), else ``default``.

    >>> pda = Schedule.preset("pda")
    >>> [pda.best_of(r, 7) for r in range(1, 8)]
    [5, 5, 5, 5, 5, 5, 7]
    >>> [Schedule.parse("3,5,7").best_of(r, 4) for r in range(1, 5)]
    [3, 5, 7, 7]
    >>> Schedule.parse("bo1").best_of(1, 1)
    1
    """

    default: int = 5
    final: int | None = 7
    rounds: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _check_best_of(self.default)
        if self.final is not None:
            _check_best_of(self.final)
        for n in self.rounds:
            _check_best_of(n)

    def best_of(self, round_no: int, total_rounds: int) -> int:
        """Games in a match of round ``round_no`` (1-based) of ``total_rounds``."""
        if 1 <= round_no <= len(self.rounds):
            return self.rounds[round_no - 1]
        if self.final is not None and round_no == total_rounds:
            return self.final
        return self.default

    @staticmethod
    def preset(name: str) -> Schedule:
        """A named schedule: ``pda`` (best of 5, final best of 7) or ``bo1``/``bo3``/``bo5``/...

        >>> Schedule.preset("bo3")
        Schedule(default=3, final=None, rounds=())
        """
        if name == "pda":
            return PDA
        if name.startswith("bo") and name[2:].isdigit():
            return Schedule(default=int(name[2:]), final=None)
        raise TournamentError(f"schedule {name!r} is unknown (pda, bo1, bo3, bo5, bo7, or 5,5,7)")

    @staticmethod
    def parse(text: str) -> Schedule:
        """A preset name, or an explicit comma-separated list from round 1 (later rounds use the
        last entry).

        >>> Schedule.parse("5, 7")
        Schedule(default=7, final=None, rounds=(5, 7))
        """
        text = text.strip()
        if "," in text or text.isdigit():
            try:
                items = tuple(int(x) for x in text.split(","))
            except ValueError:
                raise TournamentError(
                    f"write a schedule as 5,5,7 or a preset, not {text!r}"
                ) from None
            return Schedule(default=items[-1], final=None, rounds=items)
        return Schedule.preset(text)

    def to_json(self) -> dict[str, object]:
        """``{"default": 5, "final": 7, "rounds": []}``."""
        return {"default": self.default, "final": self.final, "rounds": list(self.rounds)}

    @staticmethod
    def from_json(doc: dict[str, Any]) -> Schedule:
        """The inverse of :meth:`to_json`.

        >>> Schedule.from_json(PDA.to_json()) == PDA
        True
        """
        return Schedule(
            default=doc["default"], final=doc.get("final"), rounds=tuple(doc.get("rounds", ()))
        )


PDA = Schedule(default=5, final=7)
"""PDA rule 1: best 3 of 5 in every round, best 4 of 7 in the final match."""
