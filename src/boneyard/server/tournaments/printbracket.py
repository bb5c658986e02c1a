"""The printed bracket, laid out once for the printed page and its PDF (docs/tournaments-site.md,
"Printing"): every section of the event's bracket (single elimination with its third-place
match, a double elimination's winners', losers' and grand-final parts, the bracket after pools)
on landscape pages, Letter or A4, each match a whole box on one page.

A section too big for one page is cut into tiles: a run of columns (rounds) as wide as a page
takes, and within it bands of at most :data:`ROWS` first-column matches, each band with the
later rounds' matches it feeds; a round with fewer matches than bands starts the next run. A
128-entrant single elimination is four pages of rounds 1–5 (16 first-round matches each) and a
page with the semi-finals, the final, the third-place match and the champion.

Sizes are millimetres from the page's top left corner (inside its margins).
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.server.tournaments.printtypes import Box, BoxLine, BracketPage, Mark
from boneyard.server.tournaments.viewtypes import MatchView, SectionView, TournamentView

BOX_W, BOX_H = 42.0, 8.4
"""A match box: two lines, one per side."""
GAP = 9.0
"""Between two columns (the connecting lines run there)."""
SLOT = 9.4
"""The height of one first-column match of a band."""
ROWS = 16
"""The most first-column matches on one page (16 × 9.4 mm fits Letter and A4 landscape)."""
COLUMNS = 5
"""The most rounds side by side on one page."""
HEAD = 8.0
"""Room for the round titles above the boxes."""
NAME = 22
"""Characters of a name that fit a box."""
WIDTH = 255.0
"""The width a page gives the bracket (Letter landscape less its margins; A4 is wider)."""

Page = BracketPage


def clip(text: str | None, n: int = NAME) -> str:
    """``text`` cut to ``n`` characters with an ellipsis.

    >>> clip("Alexandrina Featherstonehaugh"), clip("Ann"), clip(None)
    ('Alexandrina Featherst…', 'Ann', '')
    """
    if not text:
        return ""
    return text if len(text) <= n else text[: n - 1] + "…"


def tiles(slots: Sequence[int]) -> list[tuple[int, int, int]]:
    """Cut columns of ``slots`` matches (each column half or as many as the one before it)
    into runs ``(first, last + 1, bands)``: at most :data:`COLUMNS` wide, each band at most
    :data:`ROWS` first-column matches, every column of a run with at least one match a band.

    >>> tiles([64, 32, 16, 8, 4, 2, 1])
    [(0, 5, 4), (5, 7, 1)]
    >>> tiles([32, 32, 16, 16, 8, 8, 4, 4, 2, 2, 1, 1])
    [(0, 5, 2), (5, 10, 1), (10, 12, 1)]
    >>> tiles([4, 2, 1])
    [(0, 3, 1)]
    """
    out = []
    c = 0
    while c < len(slots):
        bands = max(1, -(-slots[c] // ROWS))
        end = c + 1
        while end < len(slots) and end - c < COLUMNS and slots[end] >= bands:
            end += 1
        out.append((c, end, bands))
        c = end
    return out


def box(m: MatchView, x: float, y: float, names: dict[int, int | None]) -> Box:
    """A match's box at ``(x, y)`` (its top left): each side's name, games won, the winner in
    bold, and the mark of a match not played out (``ff``, ``ns``, ``r`` …)."""
    lines: list[BoxLine] = []
    for k, (name, entrant) in enumerate(((m["a_name"], m["a"]), (m["b_name"], m["b"]))):
        who = name or ("bye" if m.get("bye") and k == 1 else "")
        seed = names.get(entrant) if entrant is not None else None
        label = f"{seed} {who}" if seed and who else who
        wins = m["wins"][k] if not m.get("bye") and entrant is not None else ""
        won = m.get("winner") is not None and m.get("winner") == entrant
        lines.append({"text": clip(label), "wins": str(wins), "bold": won})
    marked = m.get("outcome_label")
    short = marked["short"] if marked else ""
    mark = short if m.get("outcome") not in (None, "played", "bye") else ""
    return {"x": x, "y": y, "w": BOX_W, "h": BOX_H, "match": m["id"], "lines": lines, "mark": mark}


def section_pages(data: TournamentView, section: SectionView, last: bool) -> list[Page]:
    """The pages of one section of the bracket (``last``: the section with the champion)."""
    rounds = data["rounds"]
    cols = [(ri, slots) for ri, slots in section["columns"] if ri < len(rounds)]
    if not cols:
        return []
    seeds = {e["id"]: e.get("seed") for e in data.get("entrants", [])}
    titles = data.get("round_titles") or []
    third = section.get("third_place")
    runs = tiles([s for _ri, s in cols])
    pages: list[Page] = []
    for n, (first, end, bands) in enumerate(runs):
        final_run = n == len(runs) - 1
        for band in range(bands):
            page = band_page(rounds, titles, cols[first:end], band, bands, seeds, third)
            if final_run and last:
                champion_label(page, data)
            part = f", part {band + 1} of {bands}" if bands > 1 else ""
            names = [
                titles[ri] if ri < len(titles) else f"Round {ri + 1}" for ri, _s in cols[first:end]
            ]
            page["title"] = (
                f"{section['title']}: {names[0]}"
                + (f" to {names[-1]}" if len(names) > 1 else "")
                + part
            )
            pages.append(page)
    return pages


def band_page(
    rounds: list[list[MatchView]],
    titles: Sequence[str],
    cols: Sequence[tuple[int, int]],
    band: int,
    bands: int,
    seeds: dict[int, int | None],
    third: str | None,
) -> Page:
    """One page: band ``band`` of ``bands`` of the columns ``cols``."""
    boxes: list[Box] = []
    paths: list[list[float]] = []
    labels: list[Mark] = []
    height = min(ROWS, max(1, cols[0][1] // bands)) * SLOT
    where: dict[str, tuple[float, float]] = {}
    for c, (ri, slots) in enumerate(cols):
        per = max(1, slots // bands)
        x = c * (BOX_W + GAP)
        labels.append(
            {"x": x, "y": 4.0, "text": titles[ri] if ri < len(titles) else "", "bold": True}
        )
        for m in rounds[ri]:
            i = int(m["index"])
            if m["id"] == third or not band * per <= i < (band + 1) * per:
                continue
            y = HEAD + ((i - band * per) + 0.5) * height / per - BOX_H / 2
            boxes.append(box(m, x, y, seeds))
            where[m["id"]] = (x, y)
        if c:
            paths += joins(rounds, cols[c - 1], (ri, slots), where, third)
    page: Page = {"boxes": boxes, "paths": paths, "labels": labels, "height": HEAD + height}
    if third and cols[-1][0] < len(rounds):
        tm = next((x for x in rounds[cols[-1][0]] if x["id"] == third), None)
        final = next((b for b in boxes if b["x"] == (len(cols) - 1) * (BOX_W + GAP)), None)
        if tm is not None and final is not None:
            x = final["x"]
            y = max(HEAD + height - BOX_H, final["y"] + BOX_H + 16.0)
            title = tm.get("title") or "Third-place match"
            labels.append({"x": x, "y": y - 2.0, "text": title, "bold": True})
            boxes.append(box(tm, x, y, seeds))
            page["height"] = max(page["height"], y + BOX_H)
    return page


def joins(
    rounds: list[list[MatchView]],
    before: tuple[int, int],
    now: tuple[int, int],
    where: dict[str, tuple[float, float]],
    third: str | None,
) -> list[list[float]]:
    """The lines from each match of the column ``before`` to the match it feeds in ``now``
    (the next index, halved when the column halves), when both are on the page."""
    out = []
    halves = now[1] * 2 == before[1]
    for m in rounds[before[0]]:
        if m["id"] not in where:
            continue
        j = int(m["index"]) // 2 if halves else int(m["index"])
        nxt = next((n for n in rounds[now[0]] if int(n["index"]) == j and n["id"] != third), None)
        if nxt is None or nxt["id"] not in where:
            continue
        (x1, y1), (x2, y2) = where[m["id"]], where[nxt["id"]]
        a, b = y1 + BOX_H / 2, y2 + BOX_H / 2
        out.append([x1 + BOX_W, a, x1 + BOX_W + GAP / 2, a, x1 + BOX_W + GAP / 2, b, x2, b])
    return out


def champion_label(page: Page, data: TournamentView) -> None:
    """The champion: right of the final when the page has room, else under it."""
    right = max((b["x"] for b in page["boxes"]), default=None)
    if right is None:
        return
    final = min((b for b in page["boxes"] if b["x"] == right), key=lambda b: b["y"])
    x, y = final["x"] + BOX_W + GAP, final["y"]
    if x + BOX_W > WIDTH:
        x, y = final["x"], final["y"] + BOX_H + 1.5
    won = data.get("champion")
    champion = (won["name"] if won else None) or "—"
    page["labels"] += [
        {"x": x, "y": y + 3.0, "text": "Champion", "bold": True},
        {"x": x, "y": y + 8.0, "text": clip(champion, 26), "bold": True},
    ]


def bracket_pages(data: TournamentView) -> list[Page]:
    """Every page of the event's bracket (none for a format without one)."""
    sections = data.get("sections") or []
    out: list[Page] = []
    for i, s in enumerate(sections):
        out += section_pages(data, s, i == len(sections) - 1)
    return out
