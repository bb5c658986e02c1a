"""The pictures of the rules pages, built by the engines themselves.

A rules page (``web/rules/<game>.md``) draws a position with
``<figure class="board" data-position="…">``: a few plays in the game's own notation, which the
game's spec plays on its real layout, tower or capture rules (``GameSpec.figure``; the notation
is in each game's ``figures`` module). This module replaces the words by the view the site's own
board renderer draws (``web/board.js``). ``data-count`` and ``data-points`` are checked against
what the engine gives. A picture can therefore never show a count, a placement or a capture the
engine would not allow: a wrong one raises :class:`FigureError` when the page is built (and in
the tests).
"""

from __future__ import annotations

import html
import json
import re

from boneyard.core.errors import BoneyardError, FigureError
from boneyard.games.registry import get_spec

__all__ = ["FigureError", "expand_figures"]

_FIGURE = re.compile(r'<figure class="board" data-position="([^"]*)"([^>]*)>')
_ATTR = re.compile(r'data-(count|points)="([^"]*)"')


def _expand(game: str, m: re.Match[str]) -> str:
    words, rest = html.unescape(m[1]), m[2]
    figure = get_spec(game).figure
    if figure is None:
        raise FigureError(f"{game} has no pictures")
    try:
        view = figure(words)
    except FigureError as exc:
        raise FigureError(f"figure {words!r}: {exc}") from None
    except (BoneyardError, ValueError, KeyError) as exc:  # a bad tile, port or cell
        raise FigureError(f"figure {words!r}: {exc}") from None
    for key, value in _ATTR.findall(rest):
        if str(view.get(key)) != value:
            raise FigureError(f"figure {words!r}: the engine gives {key} {view.get(key)}")
    data = html.escape(json.dumps(view, separators=(",", ":")))
    return f'<figure class="board" data-view="{data}"{rest}>'


def expand_figures(markdown: str, game: str) -> str:
    """Replace every figure's words in ``game``'s rules text by the view the board draws."""
    return _FIGURE.sub(lambda m: _expand(game, m), markdown)
