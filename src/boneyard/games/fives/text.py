"""Terminal text for the Fives games (High Five, Merry-Go-Round): Rich markup, no I/O.

The layout is drawn arm by arm: the main line runs left to right through the lead, each
spinner's ends are drawn as their own arms, and doubles lie across (drawn upright). Moves are
described and typed in the same words in both games; each game passes what it calls its first
tile (``lead``, ``set``) and its spinner (``spinner``, ``set``).

>>> from boneyard.core.tiles import Tile
>>> print(strip_markup(draw_strip([Tile(4, 6), Tile(4, 4), Tile(1, 4)], [6, 4, 4])))
       ┌4┐
 [6|4] │─│ [4|1]
       └4┘
>>> describe_move(Play(Tile(5, 6), Tile(5, 5), "SIDE_B"), "lead", "spinner")
'5-6 on the spinner 5-5, side b'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from boneyard.core.errors import BoneyardError
from boneyard.core.tiles import Tile
from boneyard.games.fives.play import Draw, Pass, PlacedView, Play

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class FivesView(Protocol):
    """What the text views read of a Fives game's observation (High Five, Merry-Go-Round)."""

    @property
    def seat(self) -> int | None:
        """The observing seat (``None``: a spectator)."""
        ...

    @property
    def hand(self) -> Sequence[Tile]:
        """The seat's tiles."""
        ...

    @property
    def layout(self) -> Sequence[PlacedView]:
        """The placed tiles, in placement order."""
        ...

    @property
    def available_ends(self) -> Sequence[tuple[int, Tile, str]]:
        """The ends open to play: value, tile, port name."""
        ...


def strip_markup(text: str) -> str:
    """Remove Rich markup tags (for tests and plain output)."""
    return re.sub(r"\[/?[a-z ]*\]", "", text.replace("\\[", "\x00")).replace("\x00", "[")


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural but for one: ``1 tile``, ``0 tiles``, ``3 points``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def esc(text: str) -> str:
    """Escape ``[`` so that Rich prints it instead of reading a tag."""
    return text.replace("[", "\\[")


# --- describing moves ------------------------------------------------------------------------


def describe_move(action: object, lead: str, spinner: str) -> str:
    """Short description of a play, draw or pass (anything else: ``str``); a draw never names
    the tile. ``lead`` names the first tile of a hand, ``spinner`` the double with four edges."""
    if isinstance(action, Play):
        if action.on is None:
            return f"{lead} {action.tile}"
        if action.port is not None:
            side = action.port.replace("_", " ").lower()
            return f"{action.tile} on the {spinner} {action.on}, {side}"
        return f"{action.tile} on {action.on}"
    if isinstance(action, Draw):
        return "draw a tile"
    if isinstance(action, Pass):
        return "pass"
    return str(action)


# --- typed moves -----------------------------------------------------------------------------


class MoveView(Protocol[T_co]):
    """What :func:`parse_move` reads of an observation."""

    @property
    def legal_actions(self) -> Sequence[T_co]:
        """The seat's legal actions."""
        ...

    @property
    def hand(self) -> Sequence[Tile]:
        """The seat's tiles."""
        ...


_FILLER = frozenset({"a", "the", "tile", "just", "drawn", "grace", "rule"})
"""Words of a move's description that say nothing a parser needs (``draw a tile``, ``return
the tile just drawn (grace rule)``)."""


def move_words(text: str) -> list[str]:
    """A typed move as lower-case words: commas and brackets are spaces, ``side a`` is
    ``side_a`` (as a description writes a spinner's edge)."""
    text = re.sub(r"[,()]", " ", text.strip().lower())
    return re.sub(r"\b(side|end)\s+([ab])\b", r"\1_\2", text).split()


def parse_move(
    obs: MoveView[T],
    text: str,
    words: Mapping[str, type],
    no_fit: Callable[[Any, Tile], str],
    narrow: Callable[[Any, list[Play], list[str]], list[Play]],
    lead: str = "lead",
) -> T:
    """A typed move matched against ``obs.legal_actions``, or :class:`BoneyardError` saying why
    none (or more than one) matches. The moves' own descriptions (:func:`describe_move`) are
    read too, so a move reads back as it was described.

    ``words`` maps a one-word move (``draw``, ``d``...) to its action class (words such as
    ``a tile`` may follow it). Otherwise the first word is a tile, or ``lead`` (the game's word
    for the first tile of a hand) before it: ``no_fit(obs, tile)`` is the message when a held
    tile has no legal play, and ``narrow(obs, plays, rest)`` keeps the plays the words after the
    tile name (see :func:`after_on` and :func:`at_value`).
    """
    typed = move_words(text)
    if not typed:
        raise BoneyardError("type a move number or a tile such as 5-6")
    legal = obs.legal_actions
    if typed[0] in words and all(w in _FILLER for w in typed[1:]):
        kind = words[typed[0]]
        for a in legal:
            if isinstance(a, kind):
                return a
        raise BoneyardError(f"{typed[0]} is not allowed now")
    first = typed[0] == lead and len(typed) > 1
    if first:
        typed = typed[1:]
    try:
        tile = Tile.parse(typed[0])
    except BoneyardError:
        raise BoneyardError(
            f"{typed[0]!r} is not a move: type its number, a tile like 5-6, draw or pass"
        ) from None
    plays: list[Play] = [
        a for a in legal if isinstance(a, Play) and a.tile == tile and (a.on is None or not first)
    ]
    if not plays:
        if tile not in obs.hand:
            raise BoneyardError(f"you do not hold {tile}")
        raise BoneyardError(no_fit(obs, tile))
    plays = narrow(obs, plays, typed[1:])
    if not plays:
        raise BoneyardError(f"{tile} cannot go there")
    if len({a.on for a in plays}) > 1:
        options = " or ".join(f"{tile} on {a.on}" for a in plays)
        raise BoneyardError(f"{tile} fits several ends: type {options} (or its number)")
    return next(a for a in legal if a is plays[0])


def after_on(plays: list[Play], rest: list[str], spinner: str) -> tuple[list[Play], list[str]]:
    """For words ``on 5-5 ...`` (or ``on the spinner 5-5``, naming the spinner by the game's
    word ``spinner``): the plays on 5-5, and the words after that tile."""
    rest = rest[1:]
    while rest and rest[0] in ("the", spinner):
        rest = rest[1:]
    if not rest:
        raise BoneyardError("say which tile to play on, e.g. 5-6 on 5-5")
    on = Tile.parse(rest[0])
    return [a for a in plays if a.on == on], rest[1:]


def at_value(obs: FivesView, plays: list[Play], value: int) -> list[Play]:
    """The plays on a tile showing an open end of ``value``."""
    return [a for a in plays if any(v == value and t == a.on for v, t, _p in obs.available_ends)]


def open_values(obs: FivesView) -> str:
    """The values of the ends open to play, ``5, 6, 4`` (or ``none``)."""
    return ", ".join(str(v) for v, _t, _p in obs.available_ends) or "none"


# --- the table -------------------------------------------------------------------------------


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
            rows[1] += esc(cell)
            rows[2] += " " * len(cell)
    return "\n".join(r.rstrip() for r in rows)


class _Canvas:
    """A sparse character grid that grows in every direction."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], str] = {}

    def put(self, row: int, col: int, text: str) -> None:
        for k, ch in enumerate(text):
            self.cells[(row, col + k)] = ch

    def text(self, cuts: Sequence[int] = (), width: int | None = None) -> str:
        """The grid as lines; wider than ``width``, it is cut at some of the columns ``cuts``
        (where no tile is split) into bands printed one below the other."""
        if not self.cells:
            return ""
        rows = [r for r, _c in self.cells]
        cols = [c for _r, c in self.cells]
        c0, c1 = min(cols), max(cols) + 1
        bands = _bands(c0, c1, sorted(cuts), width)
        out: list[str] = []
        for a, b in bands:
            if out:
                out.append("")
            for r in range(min(rows), max(rows) + 1):
                line = "".join(self.cells.get((r, c), " ") for c in range(a, b)).rstrip()
                if line or len(bands) == 1:
                    out.append(esc(line))
        return "\n".join(out)


def _bands(c0: int, c1: int, cuts: Sequence[int], width: int | None) -> list[tuple[int, int]]:
    """Column ranges ``[a, b)`` of at most ``width`` columns each, cut only at ``cuts`` (a band
    that no cut can shorten enough stays wider)."""
    if width is None or c1 - c0 <= width:
        return [(c0, c1)]
    out: list[tuple[int, int]] = []
    a = c0
    while c1 - a > width:
        inside = [c for c in cuts if a < c <= a + width]
        later = [c for c in cuts if c > a]
        b = inside[-1] if inside else (later[0] if later else c1)
        if b >= c1:
            break
        out.append((a, b))
        a = b
    out.append((a, c1))
    return out


def _joined(p: PlacedView) -> int:
    """The value of the end a tile of an arm was laid against (every tile but the lead's)."""
    assert p.joined is not None
    return p.joined


def _chain(first: PlacedView, kids: dict[Tile, list[PlacedView]]) -> list[PlacedView]:
    """The tiles of one arm, outward from the tile it starts with."""
    out = []
    cur: PlacedView | None = first
    while cur is not None:
        out.append(cur)
        if cur.role == "SPINNER":
            cur = next((k for k in kids.get(cur.tile, []) if k.port == "SIDE_B"), None)
        else:
            cur = next(iter(kids.get(cur.tile, [])), None)
    return out


def draw_layout(obs: FivesView, width: int | None = None) -> str:
    """The layout in two dimensions: the line of play across, spinner ends up and down.

    Singles lie along their arm; doubles lie across it. A spinner's two sides continue the
    line left and right; its ends grow upward (end A) and downward (end B). A layout wider than
    ``width`` is cut between two tiles of the line (never through a double or a spinner's
    arms) and its parts printed one below the other.
    """
    placed = obs.layout
    if not placed:
        return ""
    kids: dict[Tile, list[PlacedView]] = {}
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
    line: list[tuple[PlacedView, int, int]] = []
    for p in reversed(left):
        joined = _joined(p)
        outer = p.tile.other(joined) if p.tile.has(joined) else p.tile.lo
        line.append((p, outer, joined))
    center_l = lead.tile.lo if lead.role == "SPINNER" else left_inner
    line.append((lead, center_l, lead.tile.other(center_l)))
    for p in right:
        joined = _joined(p)
        outer = p.tile.other(joined) if p.tile.has(joined) else p.tile.hi
        line.append((p, joined, outer))
    canvas = _Canvas()
    col = 0
    spinner_cols: list[tuple[PlacedView, int]] = []
    cuts: list[int] = []
    for p, a, b in line:
        cuts.append(col)
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
                inner = _joined(p)
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
    arms = [(c - 2, c + 3) for _sp, c in spinner_cols]
    cuts = [x for x in cuts if not any(lo < x < hi for lo, hi in arms)]
    return canvas.text(cuts, width)


def layout_lines(obs: FivesView, spinner: str, width: int | None = None) -> list[str]:
    """The drawn layout (cut to ``width`` columns) and the ends open to play (a spinner's edges
    named after ``spinner``), for a table with tiles on it."""
    ends = ", ".join(
        f"{v} ({spinner} {port.replace('_', ' ').lower()})"
        if port.startswith(("SIDE", "END"))
        else f"{v} (on {t})"
        for v, t, port in obs.available_ends
    )
    return ["", draw_layout(obs, width), "", f"Open ends you may play on: {ends or 'none'}"]


def hand_lines(obs: FivesView) -> list[str]:
    """The observer's hand, if it holds one."""
    if obs.seat is None or not obs.hand:
        return []
    hand = " ".join(esc(f"[{t.lo}|{t.hi}]") for t in obs.hand)
    return [f"Your hand ({sum(t.pips for t in obs.hand)} pips): {hand}"]
