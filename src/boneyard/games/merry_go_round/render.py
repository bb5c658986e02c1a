"""Text views of a Merry-Go-Round table for the terminal (Rich markup, no I/O).

The layout drawing is High Five's (:func:`boneyard.games.highfive.render.draw_layout`): both
games lie on the same Fives layout, so there is one drawing of it.

>>> from boneyard.core.tiles import Tile
>>> from boneyard.games.merry_go_round.actions import DRAW, Play
>>> describe(Play(Tile(5, 6), Tile(5, 5), "SIDE_B")), describe(Play(Tile(5, 5))), describe(DRAW)
('5-6 on the set 5-5, side b', 'set 5-5', 'draw a tile')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boneyard.games.highfive.render import draw_layout
from boneyard.games.merry_go_round.actions import Draw, Pass, Play

_STAGES = {
    "set": "The set: a double must be set.",
    "cross_sides": "The cross: both sides of the set come first.",
    "cross_ends": "The cross: now both ends of the set.",
    "cross": "The cross: all four edges of the set come first, in any order.",
    "open": "Play on any open end.",
}


def _esc(text: str) -> str:
    return text.replace("[", "\\[")


def describe(action: Any) -> str:
    """Short description of an action; a draw never names the tile."""
    if isinstance(action, Play):
        if action.on is None:
            return f"set {action.tile}"
        if action.port is not None:
            side = action.port.replace("_", " ").lower()
            return f"{action.tile} on the set {action.on}, {side}"
        return f"{action.tile} on {action.on}"
    if isinstance(action, Draw):
        return "draw a tile"
    if isinstance(action, Pass):
        return "pass"
    return str(action)


def _end_text(value: int, tile: Any, port: str) -> str:
    if port.startswith(("SIDE", "END")):
        return f"{value} (set {port.replace('_', ' ').lower()})"
    return f"{value} (on {tile})"


def render(obs: Any, names: Sequence[str]) -> str:
    """The table as ``obs.seat`` sees it."""
    n = obs.num_seats

    def who(i: int) -> str:
        return _esc(names[i] if i < len(names) else f"Seat {i + 1}")

    out = [f"[bold cyan]Merry-Go-Round[/] — hand {obs.hand_number + 1}, to exactly {obs.target}"]
    if obs.partnerships:
        for side in (0, 1):
            pair = " & ".join(who(i) for i in (side, side + 2))
            out.append(f"  [bold]{pair}[/]: {obs.scores[side]} pts")
    for i in range(n):
        mark = "▶ " if obs.current_seat == i else "  "
        you = " (you)" if obs.seat == i else ""
        sets = " (set)" if obs.setter == i and obs.layout else ""
        pts = "" if obs.partnerships else f": {obs.scores[i]} pts"
        sep = ":" if obs.partnerships else ","
        out.append(f"{mark}[bold]{who(i)}[/]{you}{sets}{pts}{sep} {obs.hand_sizes[i]} tiles")
    bone = f"Boneyard: {obs.boneyard_size} tiles to draw"
    if obs.reserve:
        bone += f" ({obs.reserve} more in reserve, never drawn)"
    out.append(bone)
    stage = _STAGES.get(obs.stage)
    if stage:
        out.append(f"[italic]{stage}[/]")
    if not obs.layout:
        out.append("[dim]The table is empty.[/]")
    else:
        out.append("")
        out.append(draw_layout(obs))
        out.append("")
        ends = ", ".join(_end_text(v, t, p) for v, t, p in obs.available_ends)
        out.append(f"Open ends you may play on: {ends or 'none'}")
        count = obs.count
        scoring = f" [green]— {count // 5} points![/]" if count and count % 5 == 0 else ""
        out.append(f"Count: [bold]{count}[/]{scoring}")
    if obs.seat is not None and obs.hand:
        hand = " ".join(_esc(f"[{t.lo}|{t.hi}]") for t in obs.hand)
        out.append(f"Your hand ({sum(t.pips for t in obs.hand)} pips): {hand}")
    if obs.is_over and obs.winner is not None:
        out.append(f"[bold magenta]{who(obs.winner)} wins.[/]")
    return "\n".join(out)
