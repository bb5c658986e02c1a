"""The printed pages of an event as one document, laid out once: the printable page shows it
and the PDF draws it (``printpdf``), so both hold the same pages with the same lines
(docs/tournaments-site.md, "Printing").

* ``pairings``: a round's pairing list — table numbers, players with seeds (and clubs), the
  result once known, the byes;
* ``cards``: official score cards (PDA rule 11) of a round or a match — table, date and time
  fields, a line per game with both scores, the winner, how it ended and each player's
  signature, blank lines for the games to play, void games struck through, every entry of the
  card's history (entries, signatures and what they were for, disputes, rulings, 9b
  penalties, bogus play), the match result and the director's line; a card is never split;
* ``standings``: the standings with every tiebreak column and the legend;
* ``bracket``: the bracket on landscape pages (``printbracket``), with the rounds of a format
  without one (Swiss, round robin, a pool stage) as results by round.

A page is a list of blocks (``text``, ``table``, ``card``, ``bracket``), each with its height in
millimetres; texts are cut or wrapped here to what their width holds, so the page and the PDF
break lines alike.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from boneyard.server.tables.clock import now
from boneyard.server.tournaments import cardtext
from boneyard.server.tournaments.printbracket import bracket_pages
from boneyard.server.tournaments.printtypes import (
    Block,
    Cell,
    PrintDoc,
    TableBlock,
    TableRow,
    TableRowIn,
    TextBlock,
)
from boneyard.server.tournaments.viewtypes import GameView, MatchView, Names, TournamentView

PAPERS = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
MARGIN = 12.0
HEADER = 14.0
"""The page's title and subtitle."""
FOOTER = 6.0
PORTRAIT_W = 186.0
"""The width every portrait page gives its blocks (A4's, the narrower)."""
PAD = 3.0
"""A card's frame: the room between its border and what it holds."""
CARD_W = PORTRAIT_W - 2 * PAD
LINE = {7.0: 3.2, 7.5: 3.4, 8.0: 3.7, 9.0: 4.2, 10.0: 4.6, 11.0: 5.0, 12.0: 5.6}
"""Millimetres a line of each font size (points) takes."""


def zone(name: str | None) -> ZoneInfo:
    """The reader's time zone (``tz``: an IANA name), UTC when unknown."""
    try:
        return ZoneInfo(name) if name else ZoneInfo("UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def chars(width: float, size: float) -> int:
    """How many characters of a ``size``-point text fit ``width`` mm (a generous average
    width, so that the browser's font and the PDF's both fit)."""
    return max(4, int(width / (size * 0.3528 * 0.62)))


def clip(text: str, width: float, size: float) -> str:
    """``text`` cut to fit ``width`` mm."""
    n = chars(width, size)
    return text if len(text) <= n else text[: n - 1] + "…"


def wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` broken into lines that fit ``width`` mm."""
    return textwrap.wrap(text, chars(width, size), break_long_words=True) or [""]


def text(lines: Sequence[str], size: float = 9.0, bold: bool = False) -> TextBlock:
    """A block of lines (already fitted)."""
    return {
        "type": "text",
        "lines": list(lines),
        "size": size,
        "bold": bold,
        "h": len(lines) * LINE[size],
    }


def table(
    columns: Sequence[tuple[str, float, str]],
    rows: Sequence[TableRowIn],
    size: float = 9.0,
    min_h: float = 6.0,
    id: str | None = None,
    cls: str | None = None,
) -> TableBlock:
    """A table: ``columns`` (title, width mm, align ``l``/``r``/``c``); each row's ``cells``
    texts are wrapped to their column (a row is as tall as its tallest cell); ``id`` or
    ``cls`` name it for the printable page."""
    out: list[TableRow] = []
    for r in rows:
        cells = [
            wrap(str(c), w - 2.0, size) for c, (_t, w, _a) in zip(r["cells"], columns, strict=True)
        ]
        h = max(min_h, max(len(c) for c in cells) * LINE[size] + 1.6)
        out.append({**r, "cells": cells, "h": h})
    head = [wrap(t, w - 2.0, size)[:2] for t, w, _a in columns]
    head_h = max(len(h) for h in head) * LINE[size] + 1.6
    block: TableBlock = {
        "type": "table",
        "size": size,
        "head": head,
        "head_h": head_h,
        "columns": [{"w": w, "align": a} for _t, w, a in columns],
        "rows": out,
        "h": head_h + sum(r["h"] for r in out),
    }
    if id is not None:
        block["id"] = id
    if cls is not None:
        block["cls"] = cls
    return block


def paginate(blocks: Sequence[Block], height: float) -> list[list[Block]]:
    """Blocks on pages of ``height`` mm: a card or a bracket stays whole; a table goes on
    with its header on the next page."""
    pages: list[list[Block]] = [[]]
    room = height
    for b in blocks:
        if b["type"] == "bracket" and b["page"] and pages[-1]:
            pages.append([])
            room = height
        if b["type"] == "table" and b["h"] > room:
            rows = list(b["rows"])
            while rows:
                take: list[TableRow] = []
                used = b["head_h"]
                while rows and used + rows[0]["h"] <= room:
                    used += rows[0]["h"]
                    take.append(rows.pop(0))
                if not take and pages[-1]:
                    pages.append([])
                    room = height
                    continue
                take = take or [rows.pop(0)]
                part: TableBlock = {
                    **b,
                    "rows": take,
                    "h": b["head_h"] + sum(r["h"] for r in take),
                }
                pages[-1].append(part)
                room -= part["h"] + 3.0
                if rows:
                    pages.append([])
                    room = height
            continue
        if b["h"] > room and pages[-1]:
            pages.append([])
            room = height
        pages[-1].append(b)
        room -= b["h"] + 3.0
    return [p for p in pages if p] or [[]]


def document(
    data: TournamentView,
    kind: str,
    paper: str,
    title: str,
    blocks: Sequence[Block],
    tz: ZoneInfo,
) -> PrintDoc:
    """The whole document: its paper, its title and its pages (each block placed)."""
    landscape = kind == "bracket"
    w, h = PAPERS.get(paper, PAPERS["letter"])
    w, h = (h, w) if landscape else (w, h)
    body = h - 2 * MARGIN - HEADER - FOOTER
    pages = paginate(blocks, body)
    printed = now().astimezone(tz).strftime("%Y-%m-%d %H:%M %Z")
    return {
        "kind": kind,
        "paper": paper if paper in PAPERS else "letter",
        "orientation": "landscape" if landscape else "portrait",
        "size": [w, h],
        "margin": MARGIN,
        "title": title,
        "subtitle": subtitle(data),
        "footer": f"{data['name']} · printed {printed} · Boneyard",
        "pages": [{"blocks": p} for p in pages],
    }


def subtitle(data: TournamentView) -> str:
    """The event in a line: game, format, best-of, directors."""
    directors = ", ".join(d["name"] for d in data.get("directors", []))
    preset = (data.get("options") or {}).get("preset")
    game = f"{data.get('title', data['game'])}" + (f" ({preset.upper()})" if preset else "")
    return f"{game} · {data.get('format_name', data['format'])} · run by {directors}"


def round_title(data: TournamentView, r: int) -> str:
    """The title of round ``r`` (1-based)."""
    titles = data.get("round_titles") or []
    return titles[r - 1] if 0 < r <= len(titles) else f"Round {r}"


def match_title(m: MatchView) -> str:
    """A match as a printed page names it: its id, and what it is where the bracket names it
    (``R7M2, Third-place match``; the tournament's ``match_title``)."""
    return f"{m['id']}, {m['title']}" if m.get("kind") else m["id"]


def who(data: TournamentView, side: int | None, name: str | None) -> str:
    """A player with their seed and club: ``Ann Lee (3, Hilltop)``."""
    if side is None or not name:
        return "to be decided"
    e = next((x for x in data["entrants"] if x["id"] == side), None)
    seed, club = (e.get("seed"), e.get("club")) if e is not None else (None, None)
    bits = [str(seed)] if seed else []
    bits += [club] if club else []
    return f"{name} ({', '.join(bits)})" if bits else name


def pairings(data: TournamentView, r: int) -> list[Block]:
    """Round ``r``'s pairing list."""
    rounds = data.get("rounds") or []
    rnd = rounds[r - 1] if 0 < r <= len(rounds) else []
    played = sorted(
        (m for m in rnd if not m["bye"]), key=lambda m: (m.get("table") or 999, m["index"])
    )
    rows: list[TableRowIn] = []
    for m in played:
        result = f"{m['winner_name']} {max(m['wins'])}–{min(m['wins'])}" if m["winner_name"] else ""
        rows.append(
            {
                "match": m["id"],
                "cells": [
                    m.get("table") or "",
                    who(data, m["a"], m["a_name"]),
                    who(data, m["b"], m["b_name"]),
                    result,
                    match_title(m),
                ],
            }
        )
    cols = [
        ("Table", 14.0, "r"),
        ("Player", 56.0, "l"),
        ("Player", 56.0, "l"),
        ("Result", 28.0, "l"),
        ("Match", 32.0, "l"),
    ]
    out: list[Block] = [table(cols, rows, 10.0, 7.5, id="pairings")]
    byes = [m["a_name"] or "" for m in rnd if m["bye"] and m.get("a_name")]
    if byes:
        out.append(text(wrap("Bye: " + ", ".join(byes), PORTRAIT_W, 10.0), 10.0))
    return out


def card(
    data: TournamentView, m: MatchView, r: int, when: Callable[[str | None], str], users: Names
) -> Block:
    """One match's official score card (PDA rule 11)."""
    names = {e["id"]: e["name"] for e in data["entrants"]}
    a, b = m["a_name"] or "?", m["b_name"] or "?"
    head = f"{data['name']} — {round_title(data, r)} · {match_title(m)}"
    blank = "_" * 14
    fields = f"Table: {m.get('table') or blank}    Date: {blank}    Time: {blank}"
    fields += f"    Best of {m['best_of']}"
    blocks: list[Block] = [
        text([clip(head, CARD_W, 11.0)], 11.0, True),
        text([fields], 9.0),
        text(
            [clip(f"{who(data, m['a'], a)}  v  {who(data, m['b'], b)}", CARD_W, 10.0)],
            10.0,
            True,
        ),
        game_table(m, a, b, names, users, when),
    ]
    lines = history(m, a, b, names, users, when)
    if lines:
        blocks.append(text(["History of the card"], 8.0, True))
        blocks.append(text(lines, 7.5))
    blocks.append(text([result_line(m)], 9.0, True))
    blocks.append(text([f"Director: {'_' * 40}"], 9.0))
    return {
        "type": "card",
        "match": m["id"],
        "blocks": blocks,
        "h": sum(x["h"] for x in blocks) + 2 * PAD,
    }


def game_table(
    m: MatchView,
    a: str,
    b: str,
    names: Names,
    users: Names,
    when: Callable[[str | None], str],
) -> TableBlock:
    """A line per game: scores, winner, how it ended, each player's signature; blank lines
    for the games still to play; void games struck through."""
    games = sorted(
        (g for g in m["games"] if g["kind"] == "game"), key=lambda g: (g["number"], g["id"])
    )
    rows: list[TableRowIn] = []
    used: set[int] = set()
    for g in games:
        if g["status"] != "void":
            used.add(g["number"])
        rows.append(
            {
                "cls": "void" if g["status"] == "void" else "",
                "game": g["id"],
                "cells": [
                    g["number"],
                    g["score_a"] if g["score_a"] is not None else "",
                    g["score_b"] if g["score_b"] is not None else "",
                    "void" if g["status"] == "void" else g["winner_name"] or "",
                    cardtext.how(g, names, users),
                    cardtext.signature(g, "a", when),
                    cardtext.signature(g, "b", when),
                ],
            }
        )
    for n in range(1, m["best_of"] + 1):
        if n not in used:
            rows.append({"cls": "blank", "cells": [n, "", "", "", "", "", ""]})
    rows.sort(key=lambda r: int(r["cells"][0]))
    rows += [forfeit_row(g, names, users) for g in m["games"] if g["kind"] == "forfeit"]
    cols = [
        ("Game", 10.0, "c"),
        (a, 22.0, "r"),
        (b, 22.0, "r"),
        ("Winner", 25.0, "l"),
        ("How", 43.0, "l"),
        (f"Signed {a}", 29.0, "l"),
        (f"Signed {b}", 29.0, "l"),
    ]
    return table(cols, rows, 8.0, 7.5, cls="card-table")


def forfeit_row(g: GameView, names: Names, users: Names) -> TableRowIn:
    """A forfeit's line under the games: no number, no scores, no signatures."""
    how = cardtext.how(g, names, users)
    cells: list[Cell] = ["—", "", "", g["winner_name"] or "", how, "", ""]
    return {"cls": "void" if g["status"] == "void" else "", "game": g["id"], "cells": cells}


def history(
    m: MatchView,
    a: str,
    b: str,
    names: Names,
    users: Names,
    when: Callable[[str | None], str],
) -> list[str]:
    """Every entry of every game's card, oldest first, fitted to the card's width."""
    out = []
    for g in sorted(m["games"], key=lambda g: (g["number"], g["id"])):
        label = f"Game {g['number']}" if g["kind"] == "game" else "Forfeit"
        for at, words in cardtext.history_entries(g, names, users, a, b):
            out += wrap(f"{label}, {when(at)}: {words}", CARD_W, 7.5)
    return out


def result_line(m: MatchView) -> str:
    """The match result, or blanks to fill in."""
    if m["winner_name"] and not m["bye"]:
        return f"Match: {m['winner_name']} wins {max(m['wins'])}–{min(m['wins'])}"
    return f"Match winner: {'_' * 24}    Games: {'_' * 8}"


def cards(
    data: TournamentView,
    r: int,
    match: str | None,
    when: Callable[[str | None], str],
    users: Names,
) -> list[Block]:
    """The cards of round ``r`` (0: every round), or of one match."""
    out: list[Block] = []
    for i, rnd in enumerate(data.get("rounds") or []):
        if r and i + 1 != r:
            continue
        for m in sorted(rnd, key=lambda x: (x.get("table") or 999, x["index"])):
            if m["bye"] or m["a"] is None or m["b"] is None or (match and match != m["id"]):
                continue
            out.append(card(data, m, i + 1, when, users))
    return out or [text(["No card to print yet: the pairings of this round are not known."])]


def standings(data: TournamentView) -> list[Block]:
    """The standings, a column per tiebreak, and the legend of the columns."""
    labels = data.get("tiebreak_labels") or []
    points = next((x for x in data.get("ranking") or [] if x["key"] == "points"), None)
    cols = [("#", 9.0, "r"), ("Entrant", 58.0, "l")]
    cols += [(points["short"], 12.0, "r")] if points else []
    cols += [("W", 11.0, "r"), ("L", 11.0, "r"), ("Games", 16.0, "r")]
    rest = (PORTRAIT_W - sum(w for _t, w, _a in cols)) / max(1, len(labels))
    cols += [(x["short"], min(16.0, rest), "r") for x in labels]
    rows: list[TableRowIn] = []
    for s in data.get("standings") or []:
        cells: list[Cell] = [s["rank"], s["name"]]
        cells += [num(s["points"])] if points else []
        cells += [
            f"{s['wins']}{brackets(s['forfeit_wins'])}",
            f"{s['losses']}{brackets(s['forfeit_losses'])}",
            f"{s['game_wins']}–{s['game_losses']}",
            *(num(x) for x in s["tiebreaks"]),
        ]
        rows.append({"entrant": s["entrant"], "cells": cells})
    ranking = ", then ".join(x["name"] for x in data.get("ranking") or [])
    legend = [
        f"{x['short']} — {x['name']}: {x['explanation']}"
        for x in ([points] if points else []) + labels
    ]
    legend += ["W, L — matches won and lost (forfeits in brackets); Games — games won–lost"]
    lines = [ln for item in legend for ln in wrap(item, PORTRAIT_W, 8.0)]
    return [
        text(wrap(f"Ranked by {ranking}.", PORTRAIT_W, 9.0)),
        table(cols, rows, 9.0, 6.0, id="standings"),
        text(lines, 8.0),
    ]


def brackets(n: int) -> str:
    """Forfeits beside the wins or losses: `` (1)``, or nothing."""
    return f" ({n})" if n else ""


def num(x: float) -> str:
    """A number as the standings print it (``2``, ``1.5``)."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")


def by_round(data: TournamentView, skip: set[int]) -> list[Block]:
    """Results by round, for rounds that no bracket section draws (Swiss, round robin, pools)."""
    out: list[Block] = []
    for i, rnd in enumerate(data.get("rounds") or []):
        if i in skip:
            continue
        rows: list[TableRowIn] = [
            {
                "match": m["id"],
                "cells": [
                    m.get("table") or "",
                    m["a_name"] or "",
                    "bye" if m["bye"] else m["b_name"] or "",
                    f"{m['wins'][0]}–{m['wins'][1]}" if not m["bye"] else "",
                    m["winner_name"] or "",
                ],
            }
            for m in rnd
        ]
        cols = [
            ("Table", 14.0, "r"),
            ("Player", 64.0, "l"),
            ("Player", 64.0, "l"),
            ("Games", 18.0, "c"),
            ("Winner", 62.0, "l"),
        ]
        out += [text([round_title(data, i + 1)], 11.0, True), table(cols, rows, 9.0, 6.0)]
    return out


def bracket(data: TournamentView) -> list[Block]:
    """The bracket's pages (one block each, whole), after results by round for the rounds it
    does not draw."""
    drawn = {ri for s in data.get("sections") or [] for ri, _n in s["columns"]}
    blocks: list[Block] = (
        by_round(data, drawn) if len(drawn) < len(data.get("rounds") or []) else []
    )
    for p in bracket_pages(data):
        blocks.append(
            {
                "type": "bracket",
                "title": p["title"],
                "boxes": p["boxes"],
                "paths": p["paths"],
                "labels": p["labels"],
                "h": p["height"] + 6.0,
                "page": True,
            }
        )
    return blocks or [text(["No bracket yet: the event has not started."])]


def build(
    data: TournamentView,
    kind: str,
    paper: str,
    r: int,
    match: str | None,
    tz_name: str | None,
    users: Names | None = None,
) -> PrintDoc:
    """The document of ``kind`` (``pairings``, ``cards``, ``standings``, ``bracket``);
    ``users``: the names of the accounts the cards mention."""
    tz = zone(tz_name)
    when = cardtext.clock(tz)
    if kind == "pairings":
        r = r or int(data.get("current_round") or 1)
        return document(
            data,
            kind,
            paper,
            f"{data['name']} — {round_title(data, r)}: pairings",
            pairings(data, r),
            tz,
        )
    if kind == "cards":
        which = match or (round_title(data, r) if r else "every match")
        return document(
            data,
            kind,
            paper,
            f"{data['name']} — score cards ({which})",
            cards(data, r, match, when, users or {}),
            tz,
        )
    if kind == "standings":
        return document(data, kind, paper, f"{data['name']} — standings", standings(data), tz)
    return document(data, "bracket", paper, f"{data['name']} — bracket", bracket(data), tz)
