"""The rules pages: ``/rules`` and ``/rules/<game>``, one page a game, for players.

The text is Markdown kept with the client (``web/rules/<game>.md``, the repository's own rules
text); each page is rendered once per process. Its pictures are ``<figure>`` elements that name a
position in a few words, built by the engines (:mod:`boneyard.server.rules.figures`) and drawn in
the browser by the same tile renderer as the tables (``web/rules.js``). Every option of a game is
a row of the page's options table; ``tests/server/rules/test_rules_pages.py`` holds the pages to the
options dataclasses. Routes: :mod:`.router`.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping
from string import Template
from typing import Any

from markdown_it import MarkdownIt

from boneyard.games.registry import MODULES, get_spec
from boneyard.server.rules.figures import expand_figures
from boneyard.server.webfiles import WEB

RULES = WEB / "rules"
GAMES = tuple(MODULES)  # the page order: High Five, Merry-Go-Round, High Fives, Highrise
NO_SUCH_GAME = (
    "<h1>No such game</h1>"
    '<p>Boneyard has no game by that name. <a href="/rules">All the rules</a></p>'
)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def render_markdown(text: str, game: str | None = None) -> str:
    """HTML of a rules text: CommonMark with tables and raw HTML (the figures), headings with
    ids (so that options and sections can be linked: ``/rules/highfive#options``)."""
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    tokens = md.parse(expand_figures(text, game) if game else text)
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.tag in ("h2", "h3"):
            tok.attrSet("id", _slug(tokens[i + 1].content))
        elif tok.type == "table_open" and tokens[i + 4].content == "option":
            tok.attrSet("class", "options")  # stacked row by row on a phone
    out: str = md.renderer.render(tokens, md.options, {})
    return out


def source(game: str) -> str:
    """The Markdown rules text of ``game``: its page with the client, else the one its
    package carries (its spec's ``rules``: a game added by registration)."""
    page = RULES / f"{game}.md"
    if page.is_file():
        return page.read_text(encoding="utf-8")
    return get_spec(game).rules


OPTION_ROW = re.compile(
    r"^\|\s*(?P<label>[^|]+?)<br>`(?P<name>[a-z0-9_]+)`\s*\|[^|]*\|(?P<help>[^|]*)\|\s*$", re.M
)
"""A row of a page's options table: ``| In words<br>`name` | choices | what it does |``."""


def _plain(markdown: str) -> str:
    """A cell as plain text, its values written as :func:`value_words` writes them."""
    text = re.sub(r"`([^`]*)`", lambda m: value_words(m[1]), markdown.replace("<br>", " "))
    return text.replace("**", "").strip()


@functools.cache
def option_words(game: str) -> dict[str, tuple[str, str]]:
    """Each option of ``game`` in words, ``name -> (label, what it does)``, from the options
    table of its rules page: the page and the New table form say the same thing, and
    ``tests/server/rules`` holds that table to the options themselves."""
    return {
        m["name"]: (_plain(m["label"]), _plain(m["help"]))
        for m in OPTION_ROW.finditer(source(game))
    }


def value_words(value: object) -> str:
    """An option's value as a player reads it: as the rules page names it (``true``,
    ``61``), words without underscores (``alone only``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).replace("_", " ")


def changed_options(game: str, options: Mapping[str, Any]) -> list[str]:
    """What a table's ``options`` change from the game's defaults, a phrase each (``Preset:
    pda``, ``The winning score: 31``): what a player should know before sitting down. A value
    its preset sets is part of the preset, not a change."""
    spec = get_spec(game)
    words = option_words(game)
    preset = options.get("preset")
    default = spec.presets[0] if spec.presets else None
    out = [f"Preset: {value_words(preset)}"] if preset and preset != default else []
    for f in spec.option_fields:
        if f.name not in options:
            continue
        base = dict(f.presets).get(str(preset), f.default)
        value = options[f.name]
        if value != base:
            label = words.get(f.name, (f.name, ""))[0]
            seat = f.seats and type(value) is int
            out.append(f"{label}: {f'seat {value + 1}' if seat else value_words(value)}")
    return out


def _title(game: str) -> str:
    return get_spec(game).title


def _nav(current: str | None) -> str:
    items = [
        f'<li><a href="/rules/{g}"{" aria-current=page" if g == current else ""}>'
        f"{html.escape(_title(g))}</a></li>"
        for g in GAMES
    ]
    links = "".join(items)
    return f'<nav class="rules-nav" aria-label="Rules of each game"><ul>{links}</ul></nav>'


def _page(title: str, current: str | None, body: str, description: str) -> str:
    shell = Template((WEB / "rules.html").read_text(encoding="utf-8"))
    about = html.escape(description, quote=True)
    return shell.substitute(
        title=html.escape(title), nav=_nav(current), body=body, description=about
    )


def _line_of(fragment: str) -> str:
    """An HTML fragment of our own Markdown as one line of text (a page's description, for
    search engines and the preview of a shared link)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _summary(game: str) -> str:
    """The first paragraph of a game's page (under its title): the blurb of the index."""
    paragraphs = [p for p in source(game).split("\n\n") if p.strip() and not p.startswith("#")]
    return render_markdown(paragraphs[0])


@functools.cache
def game_page(game: str) -> str:
    """The whole HTML page of one game's rules."""
    body = render_markdown(source(game), game)
    return _page(f"{_title(game)} rules", game, body, _line_of(_summary(game)))


@functools.cache
def index_page() -> str:
    """``/rules``: the four games, a line each."""
    parts = ["<h1>How to play</h1>", render_markdown((RULES / "index.md").read_text("utf-8"))]
    for g in GAMES:
        spec = get_spec(g)
        parts.append(
            f'<section class="rules-game"><h2><a href="/rules/{g}">{html.escape(spec.title)}</a>'
            f"</h2><p class=note>{spec.min_players}–{spec.max_players} players</p>"
            f"{_summary(g)}</section>"
        )
    titles = [get_spec(g).title for g in GAMES]
    games = f"{', '.join(titles[:-1])} and {titles[-1]}"
    about = f"How to play {games}: the rules of each game and every option."
    return _page("How to play", None, "\n".join(parts), about)


def page_of(game: str) -> tuple[str, int]:
    """The HTML of ``/rules/{game}`` and its status (a 404 page for a game Boneyard lacks)."""
    if game not in MODULES:
        return _page("No such game", None, NO_SUCH_GAME, "Boneyard has no game by that name."), 404
    return game_page(game), 200
