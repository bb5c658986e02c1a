"""The PDF of a printed page (``printdoc``), drawn with fpdf2: the same pages, blocks, lines and
sizes the printable page shows, so the download and the printout agree.

Text is set in DejaVu Sans where the system has it (every name's letters), else in the PDF's
built-in Helvetica, which holds Western European letters only (others print as ``?``).
"""

from __future__ import annotations

import itertools
from pathlib import Path

from fpdf import FPDF

from boneyard.server.tournaments.printdoc import HEADER, LINE, PAD, PORTRAIT_W
from boneyard.server.tournaments.printtypes import (
    Block,
    Box,
    BracketBlock,
    Column,
    PrintDoc,
    TableBlock,
    TextBlock,
)

FONTS = [
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts/dejavu"),
]
"""Where DejaVu Sans is looked for (Debian, Fedora, a local install)."""
GREY = (110, 110, 110)


class Sheet(FPDF):
    """One document's PDF: its footer on every page."""

    def __init__(self, doc: PrintDoc) -> None:
        w, h = doc["size"]
        super().__init__(unit="mm", format=(w, h))
        self.doc = doc
        self.set_margins(doc["margin"], doc["margin"], doc["margin"])
        self.set_auto_page_break(False)
        self.set_title(doc["title"])
        self.set_creator("Boneyard")
        self.family = "Helvetica"
        found = next((d for d in FONTS if (d / "DejaVuSans.ttf").is_file()), None)
        if found is not None:
            self.add_font("DejaVu", "", str(found / "DejaVuSans.ttf"))
            self.add_font("DejaVu", "B", str(found / "DejaVuSans-Bold.ttf"))
            self.family = "DejaVu"

    def font(self, size: float, bold: bool = False) -> None:
        """Set the text's size (points) and weight."""
        self.set_font(self.family, "B" if bold else "", size)

    def say(self, value: object) -> str:
        """Text the font can draw (Helvetica: Latin-1 only)."""
        text = str(value)
        if self.family == "Helvetica":
            text = text.replace("–", "-").replace("—", "-").replace("…", "...").replace("·", "-")
            return text.encode("latin-1", "replace").decode("latin-1")
        return text

    def footer(self) -> None:
        """The event, when printed, the page number."""
        self.set_y(-self.doc["margin"] + 1.0)
        self.font(7.5)
        self.set_text_color(*GREY)
        total = len(self.doc["pages"])
        line = f"{self.doc['footer']} · page {self.page_no()} of {total}"
        self.cell(0, 4.0, self.say(line), align="C")
        self.set_text_color(0, 0, 0)


def render(doc: PrintDoc) -> bytes:
    """The PDF of ``doc``."""
    pdf = Sheet(doc)
    m = doc["margin"]
    for page in doc["pages"]:
        pdf.add_page()
        pdf.font(12.0, True)
        pdf.set_xy(m, m)
        pdf.cell(0, 6.0, pdf.say(doc["title"]))
        pdf.font(8.0)
        pdf.set_xy(m, m + 6.5)
        pdf.cell(0, 4.0, pdf.say(doc["subtitle"]))
        y = m + HEADER
        for block in page["blocks"]:
            draw(pdf, block, m, y)
            y += block["h"] + 3.0
    return bytes(pdf.output())


def draw(pdf: Sheet, b: Block, x: float, y: float) -> None:
    """One block at ``(x, y)``."""
    if b["type"] == "text":
        draw_text(pdf, b, x, y)
    elif b["type"] == "table":
        draw_table(pdf, b, x, y)
    elif b["type"] == "card":
        pdf.set_line_width(0.5)
        pdf.rect(x, y, PORTRAIT_W, b["h"])
        pdf.set_line_width(0.2)
        at = y + PAD
        for inner in b["blocks"]:
            draw(pdf, inner, x + PAD, at)
            at += inner["h"]
    elif b["type"] == "bracket":
        draw_bracket(pdf, b, x, y)


def draw_text(pdf: Sheet, b: TextBlock, x: float, y: float) -> None:
    """Lines of text, each :data:`LINE` high."""
    size = float(b["size"])
    pdf.font(size, bool(b.get("bold")))
    for i, line in enumerate(b["lines"]):
        pdf.set_xy(x, y + i * LINE[size])
        pdf.cell(0, LINE[size], pdf.say(line))


def draw_table(pdf: Sheet, b: TableBlock, x: float, y: float) -> None:
    """A table with its header row; void rows struck through and grey."""
    size = float(b["size"])
    cols = b["columns"]
    pdf.set_draw_color(0, 0, 0)
    pdf.set_fill_color(232, 232, 228)
    pdf.font(size, True)
    cx = x
    for lines, col in zip(b["head"], cols, strict=True):
        pdf.rect(cx, y, col["w"], b["head_h"], style="DF")
        for k, line in enumerate(lines):
            pdf.set_xy(cx, y + 0.8 + k * LINE[size])
            pdf.cell(col["w"], LINE[size], pdf.say(line), align=align(col))
        cx += col["w"]
    ry = y + b["head_h"]
    pdf.font(size)
    for row in b["rows"]:
        void = row.get("cls") == "void"
        pdf.set_text_color(*(GREY if void else (0, 0, 0)))
        cx = x
        for lines, col in zip(row["cells"], cols, strict=True):
            pdf.rect(cx, ry, col["w"], row["h"])
            for k, line in enumerate(lines):
                ly = ry + 0.8 + k * LINE[size]
                pdf.set_xy(cx, ly)
                pdf.cell(col["w"], LINE[size], pdf.say(line), align=align(col))
                if void and line:
                    width = min(col["w"] - 2.0, pdf.get_string_width(pdf.say(line)))
                    start = cx + 1.0 if col["align"] != "r" else cx + col["w"] - 1.0 - width
                    pdf.line(start, ly + LINE[size] / 2, start + width, ly + LINE[size] / 2)
            cx += col["w"]
        ry += row["h"]
    pdf.set_text_color(0, 0, 0)


def align(col: Column) -> str:
    """fpdf2's alignment of a column (``l``, ``r``, ``c``)."""
    return {"r": "R", "c": "C"}.get(col["align"], "L")


def draw_bracket(pdf: Sheet, b: BracketBlock, x: float, y: float) -> None:
    """A page of the bracket: its title, round titles, the lines between matches, then each
    match's box (winner in bold, games won at the right, a mark when not played out)."""
    pdf.font(10.0, True)
    pdf.set_xy(x, y)
    pdf.cell(0, 5.0, pdf.say(b["title"]))
    top = y + 6.0
    pdf.set_line_width(0.25)
    pdf.set_draw_color(120, 120, 140)
    for path in b["paths"]:
        pts = list(zip(path[::2], path[1::2], strict=True))
        for (x1, y1), (x2, y2) in itertools.pairwise(pts):
            pdf.line(x + x1, top + y1, x + x2, top + y2)
    pdf.set_draw_color(0, 0, 0)
    for label in b["labels"]:
        pdf.font(8.0, bool(label.get("bold")))
        pdf.set_xy(x + label["x"], top + label["y"] - 3.0)
        pdf.cell(60.0, 3.5, pdf.say(label["text"]))
    for bx in b["boxes"]:
        draw_box(pdf, bx, x + bx["x"], top + bx["y"])


def draw_box(pdf: Sheet, bx: Box, x: float, y: float) -> None:
    """One match's box."""
    w, h = bx["w"], bx["h"]
    pdf.set_line_width(0.3)
    pdf.rect(x, y, w, h)
    pdf.set_line_width(0.1)
    pdf.line(x, y + h / 2, x + w, y + h / 2)
    for k, side in enumerate(bx["lines"]):
        pdf.font(7.0, bool(side.get("bold")))
        pdf.set_xy(x + 0.8, y + k * h / 2)
        pdf.cell(w - 7.0, h / 2, pdf.say(side["text"]))
        pdf.set_xy(x + w - 5.0, y + k * h / 2)
        pdf.cell(4.2, h / 2, pdf.say(side["wins"]), align="R")
    if bx.get("mark"):
        pdf.font(6.0, True)
        pdf.set_xy(x + w - 13.0, y + h / 2 - 1.6)
        pdf.cell(7.0, 3.2, pdf.say(bx["mark"]), align="R")
