"""The crosstable of a round robin (or a pool, or a Swiss event): every entrant's result
against every other, rows and columns in standings order.

>>> from boneyard.tournament.roundrobin import RoundRobin
>>> ev = RoundRobin.create(["a", "b", "c"]).record_game("R1M1", "c")
>>> t = ev.crosstable()
>>> t.order
('c', 'a', 'b')
>>> [(x.match_id, x.result, x.games) for x in t.cell("c", "b")]
[('R1M1', 'win', (1, 0))]
>>> [x.result for x in t.cell("a", "b")], t.cell("a", "a")
([None], ())
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.tournament.errors import TournamentError
from boneyard.tournament.match import Match
from boneyard.tournament.standings import Standing


@dataclass(frozen=True, slots=True)
class CrossCell:
    """One meeting seen from the row entrant: ``result`` is ``win``, ``loss`` or ``None`` (not
    decided yet), ``games`` the games won by the row and by the column entrant, ``outcome`` how
    the match ended (``Match.outcome``: ``played``, ``forfeit``, ``ruling`` ...)."""

    match_id: str
    round: int
    result: str | None
    games: tuple[int, int]
    outcome: str | None

    def to_json(self) -> dict[str, object]:
        """The same field names; ``games`` as a list."""
        return {
            "match_id": self.match_id,
            "round": self.round,
            "result": self.result,
            "games": list(self.games),
            "outcome": self.outcome,
        }


@dataclass(frozen=True, slots=True)
class Crosstable:
    """Rows and columns in standings order; ``cells[i][j]`` holds the meetings of row entrant
    ``i`` with column entrant ``j`` in round order (two in a double round robin, none on the
    diagonal); ``byes[i]`` the rounds in which row entrant ``i`` had a bye."""

    order: tuple[str, ...]
    standings: tuple[Standing, ...]
    cells: tuple[tuple[tuple[CrossCell, ...], ...], ...]
    byes: tuple[tuple[int, ...], ...]

    def cell(self, row: str, column: str) -> tuple[CrossCell, ...]:
        """The meetings of ``row`` with ``column``, seen from ``row``."""
        try:
            return self.cells[self.order.index(row)][self.order.index(column)]
        except ValueError:
            raise TournamentError(f"{row!r} or {column!r} is not in this table") from None

    def to_json(self) -> dict[str, Any]:
        """``{"order": [...], "rows": [{"standing": {...}, "cells": [[cell, ...], ...],
        "byes": [round, ...]}, ...]}``, a row per entrant in standings order."""
        return {
            "order": list(self.order),
            "rows": [
                {
                    "standing": s.to_json(),
                    "cells": [[c.to_json() for c in cell] for cell in row],
                    "byes": list(byes),
                }
                for s, row, byes in zip(self.standings, self.cells, self.byes, strict=True)
            ],
        }


def crosstable(standings: Sequence[Standing], matches: Iterable[Match]) -> Crosstable:
    """The crosstable of ``matches`` between the entrants of ``standings`` (in that order)."""
    order = tuple(s.entrant for s in standings)
    pos = {e: i for i, e in enumerate(order)}
    cells: list[list[list[CrossCell]]] = [[[] for _ in order] for _ in order]
    byes: list[list[int]] = [[] for _ in order]
    for m in matches:
        if m.bye:
            if m.a is not None:
                byes[pos[m.a]].append(m.round)
            continue
        if m.a is None or m.b is None:
            continue
        wa, wb = m.wins
        for row, col, games in ((m.a, m.b, (wa, wb)), (m.b, m.a, (wb, wa))):
            result = None if m.winner is None else "win" if m.winner == row else "loss"
            cells[pos[row]][pos[col]].append(CrossCell(m.id, m.round, result, games, m.outcome))
    return Crosstable(
        order,
        tuple(standings),
        tuple(tuple(tuple(c) for c in row) for row in cells),
        tuple(tuple(b) for b in byes),
    )
