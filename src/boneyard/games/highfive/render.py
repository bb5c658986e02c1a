"""Text views of a High Five table for the terminal (Rich markup, no I/O).

The layout is drawn arm by arm: the main line runs left to right through the lead, each
spinner's ends are drawn as their own arms, and doubles lie across (drawn upright).

>>> from boneyard.core.tiles import Tile
>>> print(strip_markup(draw_strip([Tile(4, 6), Tile(4, 4), Tile(1, 4)], [6, 4, 4])))
       ┌4┐
 [6|4] │─│ [4|1]
       └4┘
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from boneyard.core.tiles import Tile
from boneyard.games.highfive.actions import Draw, Pass, Play, ReturnTile, Ruling


def strip_markup(text: str) -> str:
    """Remove Rich markup tags (for tests and plain output)."""
    return re.sub(r"\[/?[a-z ]*\]", "", text.replace("\\[", "\x00")).replace("\x00", "[")


def _esc(text: str) -> str:
    return text.replace("[", "\\[")


def draw_strip(tiles: Sequence[Tile], first_halves: Sequence[int]) -> str:
    """Three text rows of tiles left to right; ``first_halves[k]`` is tile k's left half."""
    rows = ["", "", ""]
    for tile, left in zip(tiles, first_halves, strict=True):
        if tile.is_double:
            rows[0] += f" ┌{tile.lo}┐"
            rows[1] += " │─│"
            rows[2] += f" └{tile.lo}┘"
        else:
            right = tile.other(left)
            cell = f" [{left}|{right}]"
            rows[0] += " " * len(cell)
            rows[1] += _esc(cell)
            rows[2] += " " * len(cell)
    return "\n".join(r.rstrip() for r in rows)


def describe(action: Any) -> str:
    """Short description of an action; a draw never names the tile."""
    if isinstance(action, Play):
        if action.on is None:
            return f"lead {action.tile}"
        if action.port is not None:
            side = action.port.replace("_", " ").lower()
            return f"{action.tile} on the spinner {action.on}, {side}"
        return f"{action.tile} on {action.on}"
    if isinstance(action, Draw):
        return "draw a tile"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, ReturnTile):
        return "return the tile just drawn (grace rule)"
    if isinstance(action, Ruling):
        return f"ruling {action.kind} against seat {action.seat}"
    return str(action)


class _Canvas:
    """A sparse character grid that grows in every direction."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], str] = {}

    def put(self, row: int, col: int, text: str) -> None:
        for k, ch in enumerate(text):
            self.cells[(row, col + k)] = ch

    def text(self) -> str:
        if not self.cells:
            return ""
        rows = [r for r, _c in self.cells]
        cols = [c for _r, c in self.cells]
        c0 = min(cols)
        out = []
        for r in range(min(rows), max(rows) + 1):
            line = "".join(self.cells.get((r, c), " ") for c in range(c0, max(cols) + 1))
            out.append(_esc(line.rstrip()))
        return "\n".join(out)


def _chain(first: Any, kids: dict[Tile, list[Any]]) -> list[Any]:
    """The tiles of one arm, outward from the tile it starts with."""
    out = []
    cur = first
    while cur is not None:
        out.append(cur)
        if cur.role == "SPINNER":
            cur = next((k for k in kids.get(cur.tile, []) if k.port == "SIDE_B"), None)
        else:
            cur = next(iter(kids.get(cur.tile, [])), None)
    return out


def draw_layout(obs: Any) -> str:
    """The layout in two dimensions: the line of play across, spinner ends up and down.

    Singles lie along their arm; doubles lie across it. A spinner's two sides continue the
    line left and right; its ends grow upward (end A) and downward (end B).
    """
    placed = obs.layout
    if not placed:
        return ""
    kids: dict[Tile, list[Any]] = {}
    for p in placed:
        if p.on is not None:
            kids.setdefault(p.on, []).append(p)
    lead = placed[0]
    if lead.role == "SPINNER":
        left_first = next((k for k in kids.get(lead.tile, []) if k.port == "SIDE_A"), None)
        right_first = next((k for k in kids.get(lead.tile, []) if k.port == "SIDE_B"), None)
        left_inner, right_inner = lead.tile.lo, lead.tile.lo
    else:
        left_inner, right_inner = lead.tile.lo, lead.tile.hi
        left_first = next((k for k in kids.get(lead.tile, []) if k.joined == left_inner), None)
        right_first = next((k for k in kids.get(lead.tile, []) if k.joined == right_inner), None)
    left = _chain(left_first, kids) if left_first else []
    right = _chain(right_first, kids) if right_first else []
    # The main line, left to right: each entry (placed view, left half, right half).
    line: list[tuple[Any, int, int]] = []
    for p in reversed(left):
        outer = p.tile.other(p.joined) if p.tile.has(p.joined) else p.tile.lo
        line.append((p, outer, p.joined))
    center_l = lead.tile.lo if lead.role == "SPINNER" else left_inner
    line.append((lead, center_l, lead.tile.other(center_l)))
    for p in right:
        outer = p.tile.other(p.joined) if p.tile.has(p.joined) else p.tile.hi
        line.append((p, p.joined, outer))
    canvas = _Canvas()
    col = 0
    spinner_cols: list[tuple[Any, int]] = []
    for p, a, b in line:
        if p.tile.is_double:
            canvas.put(-1, col + 1, f"┌{a}┐")
            canvas.put(0, col + 1, "│─│")
            canvas.put(1, col + 1, f"└{b}┘")
            if p.role == "SPINNER":
                spinner_cols.append((p, col + 2))
            col += 4
        else:
            canvas.put(0, col + 1, f"[{a}|{b}]")
            col += 6
    for sp, c in spinner_cols:
        for port, step in (("END_A", -1), ("END_B", 1)):
            first = next((k for k in kids.get(sp.tile, []) if k.port == port), None)
            if first is None:
                continue
            row = -2 if step < 0 else 2
            for p in _chain(first, kids):
                inner = p.joined
                if p.tile.is_double:
                    canvas.put(row, c - 2, f"[{inner}|{inner}]")
                    row += step
                    continue
                outer = p.tile.other(inner) if p.tile.has(inner) else p.tile.hi
                near, far = (row, row + 2 * step)
                canvas.put(
                    near, c - 1, "└" + str(inner) + "┘" if step < 0 else "┌" + str(inner) + "┐"
                )
                canvas.put(row + step, c - 1, "│─│")
                canvas.put(
                    far, c - 1, "┌" + str(outer) + "┐" if step < 0 else "└" + str(outer) + "┘"
                )
                row += 3 * step
    return canvas.text()


def _where(tile: Tile, port: str) -> str:
    if port.startswith(("SIDE", "END")):
        return "spinner " + port.replace("_", " ").lower()
    return f"on {tile}"


def render(obs: Any, names: Sequence[str]) -> str:
    """The table as ``obs.seat`` sees it."""
    out: list[str] = []
    n = obs.num_seats
    score_bits = []
    for i in range(n):
        who = names[i] if i < len(names) else f"Seat {i + 1}"
        mark = "▶ " if obs.current_seat == i else "  "
        you = " (you)" if obs.seat == i else ""
        tiles = obs.hand_sizes[i]
        score_bits.append(
            f"{mark}[bold]{_esc(who)}[/]{you}: {obs.scores[i]} pts, "
            f"{obs.chips_left[i]} chips left, {tiles} tiles"
        )
    out.append(f"[bold cyan]High Five[/] — hand {obs.hand_number + 1}")
    out.extend(score_bits)
    out.append(f"Boneyard: {obs.boneyard_size} tiles")
    if not obs.layout:
        out.append("[dim]The table is empty.[/]")
        if obs.big6_lead:
            out.append("Big 6 call: the highest double dealt must lead.")
    else:
        lead = obs.layout[0].tile
        role = obs.layout[0].role
        out.append(f"Lead: [bold]{lead}[/] ({'spinner' if role == 'SPINNER' else 'single'})")
        out.append("")
        out.append(draw_layout(obs))
        out.append("")
        ends = ", ".join(f"{v} ({_where(t, port)})" for v, t, port in obs.available_ends)
        out.append(f"Open ends you may play on: {ends or 'none'}")
        count = obs.count
        scoring = " [green]— scores![/]" if count and count % 5 == 0 else ""
        out.append(f"Count: [bold]{count}[/]{scoring}")
    if obs.seat is not None and obs.hand:
        hand = " ".join(_esc(f"[{t.lo}|{t.hi}]") for t in obs.hand)
        out.append(f"Your hand ({sum(t.pips for t in obs.hand)} pips): {hand}")
    return "\n".join(out)
