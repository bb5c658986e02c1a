"""Text views of a Merry-Go-Round table for the terminal (Rich markup, no I/O).

The layout drawing and the move wording are the Fives games' (:mod:`boneyard.games.fives.text`):
both games lie on the same Fives layout, so there is one drawing of it.

>>> from boneyard.core.tiles import Tile
>>> from boneyard.games.merry_go_round.actions import DRAW, Play
>>> describe(Play(Tile(5, 6), Tile(5, 5), "SIDE_B")), describe(Play(Tile(5, 5))), describe(DRAW)
('5-6 on the set 5-5, side b', 'set 5-5', 'draw a tile')
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.games.fives.text import counted, describe_move, esc, hand_lines, layout_lines
from boneyard.games.merry_go_round.actions import MerryGoRoundAction
from boneyard.games.merry_go_round.observation import MerryGoRoundObservation

_STAGES = {
    "set": "The set: a double must be set.",
    "cross_sides": "The cross: both sides of the set come first.",
    "cross_ends": "The cross: now both ends of the set.",
    "cross": "The cross: all four edges of the set come first, in any order.",
    "open": "Play on any open end.",
}


def describe(action: MerryGoRoundAction) -> str:
    """Short description of an action; a draw never names the tile."""
    return describe_move(action, "set", "set")


def _scored(obs: MerryGoRoundObservation, names: Sequence[str]) -> str:
    """What the count of the last placement scored: its points, or why it scored nothing
    although it is a multiple of five (a bust: the points would pass the target, RULES §2.6)."""
    count = obs.count
    if not count or count % 5:
        return ""
    last = next((e for e in reversed(obs.history) if e.kind == "play"), None)
    if last is None or last.points:
        return f" [green]— {counted(count // 5, 'point')}![/]"
    seat = last.seat
    side = (seat % 2, seat % 2 + 2) if obs.partnerships else (seat,)
    who = " & ".join(esc(names[i] if i < len(names) else f"Seat {i + 1}") for i in side)
    return f" [yellow]— no points: {count // 5} would take {who} past {obs.target} (a bust)[/]"


def render(obs: MerryGoRoundObservation, names: Sequence[str], width: int | None = None) -> str:
    """The table as ``obs.seat`` sees it (the layout cut to ``width`` columns)."""
    n = obs.num_seats

    def who(i: int) -> str:
        return esc(names[i] if i < len(names) else f"Seat {i + 1}")

    out = [f"[bold cyan]Merry-Go-Round[/] — hand {obs.hand_number + 1}, to exactly {obs.target}"]
    if obs.partnerships:
        for side in (0, 1):
            pair = " & ".join(who(i) for i in (side, side + 2))
            out.append(f"  [bold]{pair}[/]: {counted(obs.scores[side], 'pt')}")
    for i in range(n):
        mark = "▶ " if obs.current_seat == i else "  "
        you = " (you)" if obs.seat == i else ""
        sets = " (set)" if obs.setter == i and obs.layout else ""
        pts = "" if obs.partnerships else f": {counted(obs.scores[i], 'pt')}"
        sep = ":" if obs.partnerships else ","
        tiles = counted(obs.hand_sizes[i], "tile")
        out.append(f"{mark}[bold]{who(i)}[/]{you}{sets}{pts}{sep} {tiles}")
    bone = f"Boneyard: {counted(obs.boneyard_size, 'tile')} to draw"
    if obs.reserve:
        bone += f" ({obs.reserve} more in reserve, never drawn)"
    out.append(bone)
    stage = _STAGES.get(obs.stage)
    if stage:
        out.append(f"[italic]{stage}[/]")
    if not obs.layout:
        out.append("[dim]The table is empty.[/]")
    else:
        out.extend(layout_lines(obs, "set", width))
        out.append(f"Count: [bold]{obs.count}[/]{_scored(obs, names)}")
    out.extend(hand_lines(obs))
    if obs.is_over and obs.winner is not None:
        out.append(f"[bold magenta]{who(obs.winner)} wins.[/]")
    return "\n".join(out)
