"""Text views of a High Five table for the terminal (Rich markup, no I/O).

The layout drawing and the move wording are the Fives games' (:mod:`boneyard.games.fives.text`).

>>> from boneyard.core.tiles import Tile
>>> from boneyard.games.highfive.actions import DRAW, Play
>>> describe(Play(Tile(5, 6), Tile(5, 5), "SIDE_B")), describe(Play(Tile(6, 6))), describe(DRAW)
('5-6 on the spinner 5-5, side b', 'lead 6-6', 'draw a tile')
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.games.fives.text import (
    counted,
    describe_move,
    draw_layout,
    draw_strip,
    esc,
    hand_lines,
    layout_lines,
    strip_markup,
)
from boneyard.games.highfive.actions import HighFiveAction, ReturnTile, Ruling
from boneyard.games.highfive.observation import HighFiveObservation


def describe(action: HighFiveAction) -> str:
    """Short description of an action; a draw never names the tile."""
    if isinstance(action, ReturnTile):
        return "return the tile just drawn (grace rule)"
    if isinstance(action, Ruling):
        return f"ruling {action.kind} against seat {action.seat}"
    return describe_move(action, "lead", "spinner")


def render(obs: HighFiveObservation, names: Sequence[str], width: int | None = None) -> str:
    """The table as ``obs.seat`` sees it (the layout cut to ``width`` columns)."""
    out: list[str] = []
    n = obs.num_seats
    score_bits = []
    for i in range(n):
        who = names[i] if i < len(names) else f"Seat {i + 1}"
        mark = "▶ " if obs.current_seat == i else "  "
        you = " (you)" if obs.seat == i else ""
        tiles = obs.hand_sizes[i]
        score_bits.append(
            f"{mark}[bold]{esc(who)}[/]{you}: {obs.scores[i]} pts, "
            f"{counted(obs.chips_left[i], 'chip')} left, {counted(tiles, 'tile')}"
        )
    out.append(f"[bold cyan]High Five[/] — hand {obs.hand_number + 1}")
    out.extend(score_bits)
    out.append(f"Boneyard: {counted(obs.boneyard_size, 'tile')}")
    if not obs.layout:
        out.append("[dim]The table is empty.[/]")
        if obs.big6_lead:
            out.append("Big 6 call: the highest double dealt must lead.")
    else:
        lead = obs.layout[0].tile
        role = obs.layout[0].role
        out.append(f"Lead: [bold]{lead}[/] ({'spinner' if role == 'SPINNER' else 'single'})")
        out.extend(layout_lines(obs, "spinner", width))
        count = obs.count
        scoring = " [green]— scores![/]" if count and count % 5 == 0 else ""
        out.append(f"Count: [bold]{count}[/]{scoring}")
    out.extend(hand_lines(obs))
    return "\n".join(out)


__all__ = ["describe", "draw_layout", "draw_strip", "render", "strip_markup"]
