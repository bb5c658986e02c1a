"""The shapes of a printed page's document, as typed dicts: what :mod:`printdoc` and
:mod:`printbracket` lay out, the printable page draws from its JSON and :mod:`printpdf` draws
as a PDF. Sizes are millimetres, font sizes points; each key is in the order the JSON has it.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

Cell = str | int | float
"""A table cell before it is fitted to its column: a text or a number."""


class TableRowIn(TypedDict):
    """A table's row as a page gives it: its cells, and what it stands for (the match, game
    or entrant, for the page's links) or how it is drawn (``cls``: ``void``, ``blank``)."""

    cls: NotRequired[str]
    match: NotRequired[str]
    game: NotRequired[int]
    entrant: NotRequired[str]
    cells: list[Cell]


class TableRow(TypedDict):
    """A table's row laid out: each cell's lines, and the row's height."""

    cls: NotRequired[str]
    match: NotRequired[str]
    game: NotRequired[int]
    entrant: NotRequired[str]
    cells: list[list[str]]
    h: float


class Column(TypedDict):
    """A table's column: its width and its alignment (``l``, ``r``, ``c``)."""

    w: float
    align: str


class TextBlock(TypedDict):
    """Lines of text, already fitted to the page."""

    type: Literal["text"]
    lines: list[str]
    size: float
    bold: bool
    h: float


class TableBlock(TypedDict):
    """A table with its header; ``id`` or ``cls`` name it for the printable page."""

    type: Literal["table"]
    size: float
    head: list[list[str]]
    head_h: float
    columns: list[Column]
    rows: list[TableRow]
    h: float
    id: NotRequired[str]
    cls: NotRequired[str]


class CardBlock(TypedDict):
    """One match's score card: blocks in a frame, never split."""

    type: Literal["card"]
    match: str
    blocks: list[Block]
    h: float


class BoxLine(TypedDict):
    """A side of a match's box in the bracket."""

    text: str
    wins: str
    bold: bool


class Box(TypedDict):
    """A match's box in the bracket, at ``(x, y)``; ``mark``: how it ended when not played
    out (``ff``, ``ns`` …)."""

    x: float
    y: float
    w: float
    h: float
    match: str
    lines: list[BoxLine]
    mark: str


class Mark(TypedDict):
    """A label on a bracket page (a round's title, the champion)."""

    x: float
    y: float
    text: str
    bold: bool


class BracketPage(TypedDict):
    """A page of the bracket as :mod:`printbracket` lays it out (its title set last)."""

    boxes: list[Box]
    paths: list[list[float]]
    labels: list[Mark]
    height: float
    title: NotRequired[str]


class BracketBlock(TypedDict):
    """A page of the bracket as a block (a page of its own)."""

    type: Literal["bracket"]
    title: str
    boxes: list[Box]
    paths: list[list[float]]
    labels: list[Mark]
    h: float
    page: bool


Block = TextBlock | TableBlock | CardBlock | BracketBlock


class PrintPage(TypedDict):
    """A page of the document."""

    blocks: list[Block]


class PrintDoc(TypedDict):
    """A printed page's whole document: its paper, title and pages."""

    kind: str
    paper: str
    orientation: str
    size: list[float]
    margin: float
    title: str
    subtitle: str
    footer: str
    pages: list[PrintPage]
