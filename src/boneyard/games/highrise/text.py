"""Highrise for people: describing and parsing moves, drawing the table as Rich-markup text.

>>> a = Place((16, 6), ((0, 2), (1, 2)), (0, 2), level=2, points=20)
>>> describe_action(a)
'W-6: W on (0,2), 6 on (1,2), spacer on (0,2) · level 2, 20 points'
>>> describe_action(Draw(Tile(5, 5)))
'draw a tile'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import Tile, parse_halves
from boneyard.games.highrise.actions import Draw, HighriseAction, Pass, Place
from boneyard.games.highrise.observation import HighriseObservation
from boneyard.games.highrise.tower import Cell, cell_text, face_text


def describe_action(action: HighriseAction) -> str:
    """Short human text for an action; a draw never names its tile."""
    if isinstance(action, Place):
        (fa, fb), (ca, cb) = action.faces, action.cells
        text = (
            f"{action.text}: {face_text(fa)} on {cell_text(ca)}, {face_text(fb)} on {cell_text(cb)}"
        )
        if action.spacer is not None:
            text += f", spacer on {cell_text(action.spacer)}"
        if action.level:
            unit = "point" if action.points == 1 else "points"
            text += f" · level {action.level}, {action.points} {unit}"
        return text
    if isinstance(action, Draw):
        return "draw a tile"
    if isinstance(action, Pass):
        return "pass"
    raise BoneyardError(f"{action!r} is not a Highrise action")


_TILE = re.compile(r"^\s*([0-9]{1,2}|w)\s*-\s*([0-9]{1,2}|w)", re.IGNORECASE)
_CELL = re.compile(r"(\d+)\s*,\s*(\d+)")
_SPACER = re.compile(r"spacer\s*(?:on\s*)?\(?\s*(\d+)\s*,\s*(\d+)\s*\)?")


def _placement_list(actions: Sequence[Place]) -> str:
    return "; ".join(describe_action(a) for a in actions)


def parse_action(observation: HighriseObservation, text: str) -> HighriseAction:
    """A move typed by a player: ``draw``, ``pass``, or a tile with optional cells, e.g.
    ``W-3`` or ``W-3 0,1 1,1`` (the first written face goes on the first cell), and
    ``spacer 0,1`` to place a spacer (none is placed unless asked for). A move's own
    description reads back too (``W-3: W on (0,1), 3 on (1,1) · level 1, 5 points``).

    >>> import random
    >>> from boneyard.games.highrise import new_game
    >>> state = new_game(2)
    >>> state.deal_random(random.Random(3))
    >>> obs = state.observation(state.current_seat)
    >>> [describe_action(a) for a in obs.legal_actions if str(a.tile) == "5-6"]
    ['5-6: 5 on (1,1), 6 on (2,1) · level 1, 11 points']
    >>> describe_action(parse_action(obs, "6-5"))
    '5-6: 5 on (1,1), 6 on (2,1) · level 1, 11 points'
    >>> describe_action(parse_action(obs, "W-0 1,1"))
    'W-0: W on (1,1), 0 on (2,1) · level 1, 5 points'
    >>> parse_action(obs, "W-0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boneyard.core.errors.BoneyardError: W-0 fits 5 ways; add the cells (e.g. 'W-0 0,1 0,2'): ...
    """
    words = text.strip().lower().split("·")[0].strip()  # (a description's level and points)
    legal = observation.legal_actions
    if not legal:
        raise BoneyardError("it is not your turn")
    if words in ("draw", "d", "draw a tile"):
        for a in legal:
            if isinstance(a, Draw):
                return a
        raise BoneyardError(
            "you cannot draw: you can place a tile"
            if _places(legal)
            else "you cannot draw: the pile is empty"
        )
    if words in ("pass", "p"):
        for a in legal:
            if isinstance(a, Pass):
                return a
        raise BoneyardError("you cannot pass now")
    m = _TILE.match(words)
    if not m:
        raise BoneyardError(
            f"{text.strip()!r} is not a move: type a tile like W-3, optionally with its cells"
            " (W-3 0,1 1,1), or draw, or pass"
        )
    try:
        fa, fb = parse_halves(f"{m.group(1)}-{m.group(2)}")
        tile = Tile.of(fa, fb)
    except BoneyardError as exc:
        raise BoneyardError(str(exc)) from None
    rest = words[m.end() :]
    spacer_words = _SPACER.search(rest)
    spacer: Cell | None = None
    if spacer_words is not None:
        spacer = (int(spacer_words.group(1)), int(spacer_words.group(2)))
        rest = rest[: spacer_words.start()] + rest[spacer_words.end() :]
    cells: list[Cell] = [(int(r), int(c)) for r, c in _CELL.findall(rest)]
    if len(cells) > 2:
        raise BoneyardError("give at most two cells: where each face goes")
    places = _places(legal)
    candidates = [a for a in places if a.tile == tile]
    if not candidates:
        if observation.hand is not None and tile not in observation.hand:
            raise BoneyardError(f"you do not hold {tile}")
        if not places:
            raise BoneyardError(f"{tile} cannot be placed: you must {describe_action(legal[0])}")
        playable = sorted({a.tile for a in places})
        raise BoneyardError(
            f"{tile} has no legal placement (playable: {', '.join(str(t) for t in playable)})"
        )
    if cells:
        chosen = []
        for a in candidates:
            where = {a.cells[0]: a.faces[0], a.cells[1]: a.faces[1]}
            if where.get(cells[0]) == fa and (
                len(cells) == 1 or (cells[0] != cells[1] and where.get(cells[1]) == fb)
            ):
                chosen.append(a)
        if not chosen:
            raise BoneyardError(
                f"{face_text(fa)}-{face_text(fb)} cannot go on "
                f"{' and '.join(cell_text(c) for c in cells)}; it fits: "
                + _placement_list(candidates)
            )
        candidates = chosen
    candidates = _spacer(candidates, spacer, "spacer" in rest)
    if len(candidates) > 1:
        raise BoneyardError(
            f"{tile} fits {len(candidates)} ways; add the cells (e.g. "
            f"'{candidates[0].text} {candidates[0].cells[0][0]},{candidates[0].cells[0][1]}"
            f" {candidates[0].cells[1][0]},{candidates[0].cells[1][1]}'): "
            + _placement_list(candidates)
        )
    return candidates[0]


def _spacer(candidates: list[Place], spacer: Cell | None, asked: bool) -> list[Place]:
    """The placements with the spacer asked for (``spacer 0,1``); without one asked, those
    without a spacer when there are any (a spacer is placed only when said)."""
    if spacer is not None:
        chosen = [a for a in candidates if a.spacer == spacer]
        if not chosen:
            raise BoneyardError(
                f"a spacer cannot go on {cell_text(spacer)} with that placement; it fits: "
                + _placement_list(candidates)
            )
        return chosen
    if asked:
        raise BoneyardError("say where the spacer goes, e.g. 'spacer 0,1'")
    bare = [a for a in candidates if a.spacer is None]
    return bare or candidates


def _places(actions: Sequence[HighriseAction]) -> list[Place]:
    return [a for a in actions if isinstance(a, Place)]


def _esc(text: str) -> str:
    return text.replace("[", "\\[")


def render(
    observation: HighriseObservation, seat_names: Sequence[str], width: int | None = None
) -> str:
    """The table as ``observation.seat`` sees it: the tower as a grid of top faces with their
    levels (``*``: the half rests on a spacer; ``═``/``║`` join the two halves of one domino),
    spacers and pile left, every seat's score and tile count, and the seat's own tiles (the grid
    of a tower fits any terminal: ``width`` is not needed)."""
    o = observation
    names = [_esc(n) for n in seat_names]
    out: list[str] = []
    title = f"[bold]Highrise[/] · hand {o.hand_number + 1}"
    title += f" · target {o.target} · spacers left {o.spacers_left} · pile {o.pile_size}"
    out.append(title)
    for s in range(o.num_seats):
        mark = "▶ " if s == o.current_seat else "  "
        who = f"{names[s]} (you)" if s == o.seat else names[s]
        tiles = "tile" if o.hand_sizes[s] == 1 else "tiles"
        line = f"{mark}{who}: {o.scores[s]} points, {o.hand_sizes[s]} {tiles}"
        out.append(f"[bold]{line}[/]" if s == o.current_seat else line)
    if o.tops:
        out.append("")
        out.extend(_grid(o))
        out.append("[dim]face:level  * on a spacer  ═ ║ join the halves of one domino[/]")
    out.append("")
    if o.hand is not None:
        hand = " ".join(str(t) for t in o.hand) or "none"
        out.append(f"Your tiles: [bold]{hand}[/]")
        if o.drawn is not None:
            out.append(f"You drew {o.drawn} and must place it.")
    end = o.last_hand_end
    if end is not None and o.current_seat is None and not o.is_over:
        if end.winner is not None:
            out.append(f"Hand over: {names[end.winner]} went out and scores {end.award}.")
        else:
            changes = ", ".join(f"{names[s]} {a:+d}" for s, a in enumerate(end.awards or ()))
            out.append(f"Hand blocked: {changes}.")
    if o.is_over:
        if o.winner is not None:
            out.append(f"[bold]Game over: {names[o.winner]} wins.[/]")
        else:
            top = max(o.scores)
            shared = ", ".join(names[s] for s in range(o.num_seats) if o.scores[s] == top)
            out.append(f"[bold]Game over: shared win ({shared}).[/]")
    return "\n".join(out)


def _grid(o: HighriseObservation) -> list[str]:
    cols = o.cols
    rows = o.rows
    width = 6
    head = "     " + "".join(f"{c:^{width}}" for c in range(cols)).rstrip()
    lines = [head]
    for r in range(rows):
        row = f"  {r}  "
        for c in range(cols):
            k = r * cols + c
            cell = f"{face_text(o.faces[k])}:{o.levels[k]}"
            cell = f"{cell:>4}{'*' if o.on_spacer[k] else ' '}"
            row += f"[dim]{cell}[/]" if o.levels[k] == 0 else f"[bold]{cell}[/]"
            if c + 1 < cols:
                row += "═" if o.tops[k] == o.tops[k + 1] else " "
        lines.append(row.rstrip())
        if r + 1 < rows:
            joins = "     "
            for c in range(cols):
                k = r * cols + c
                mark = "║" if o.tops[k] == o.tops[k + cols] else " "
                joins += f"{mark:^5} "
            lines.append(joins.rstrip())
    return lines
