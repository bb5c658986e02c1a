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


def _arms(obs: Any) -> list[tuple[str, list[Tile], list[int]]]:
    """Arms of the layout: (label, tiles outward, each tile's inner half)."""
    placed = obs.layout
    if not placed:
        return []
    kids: dict[Tile, list[Any]] = {}
    for p in placed:
        if p.on is not None:
            kids.setdefault(p.on, []).append(p)
    lead = placed[0]
    arms: list[tuple[str, list[Tile], list[int]]] = []
    spinners: list[Any] = []

    def follow(first: Any) -> tuple[list[Tile], list[int]]:
        tiles: list[Tile] = []
        inners: list[int] = []
        cur = first
        while cur is not None:
            tiles.append(cur.tile)
            inners.append(cur.joined)
            if cur.role == "SPINNER":
                spinners.append(cur)
                cur = next((k for k in kids.get(cur.tile, []) if k.port == "SIDE_B"), None)
            else:
                cur = next(iter(kids.get(cur.tile, [])), None)
        return tiles, inners

    if lead.role == "SPINNER":
        spinners.append(lead)
    else:
        for half in (lead.tile.lo, lead.tile.hi):
            first = next((k for k in kids.get(lead.tile, []) if k.joined == half), None)
            if first is not None:
                tiles, inners = follow(first)
                arms.append((f"the {half} end of the lead {lead.tile}", tiles, inners))
    seen: set[Tile] = set()
    while spinners:
        sp = spinners.pop(0)
        if sp.tile in seen:
            continue
        seen.add(sp.tile)
        for port in ("SIDE_A", "SIDE_B", "END_A", "END_B"):
            if port == "SIDE_B" and sp.tile != lead.tile:
                continue
            first = next((k for k in kids.get(sp.tile, []) if k.port == port), None)
            if first is not None:
                tiles, inners = follow(first)
                arms.append((f"spinner {sp.tile}, {port.replace('_', ' ').lower()}", tiles, inners))
    return arms


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
        for label, tiles, inners in _arms(obs):
            out.append(f"[dim]{_esc(label)}:[/]")
            out.append(draw_strip(tiles, inners))
        ends = ", ".join(
            f"{v} ({'spinner ' + port.replace('_', ' ').lower() if port.startswith(('SIDE', 'END')) else 'on ' + str(t)})"
            for v, t, port in obs.available_ends
        )
        out.append(f"Open ends you may play on: {ends or 'none'}")
        count = obs.count
        scoring = " [green]— scores![/]" if count and count % 5 == 0 else ""
        out.append(f"Count: [bold]{count}[/]{scoring}")
    if obs.seat is not None and obs.hand:
        hand = " ".join(_esc(f"[{t.lo}|{t.hi}]") for t in obs.hand)
        out.append(f"Your hand ({sum(t.pips for t in obs.hand)} pips): {hand}")
    return "\n".join(out)
