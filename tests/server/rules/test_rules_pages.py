"""The rules pages (/rules, /rules/<game>): every option of a game explained, and no other.

Each page's options table (``web/rules/<game>.md``) is held to the game's options dataclass: one
row per field, naming the field in a code span, its choices (every value its type admits) and
its default in bold. A field without a row, a row (or any code span) naming an option that does
not exist, a missing choice or a wrong default fails. The checker is run on broken pages too, so
that it is known to fail.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from typing import Any, Literal, get_args, get_origin

import pytest
from starlette.testclient import TestClient

from boneyard.games.high_fives.rules import HighFivesOptions
from boneyard.games.high_fives.rules import schedule as deal_schedule
from boneyard.games.highfive.options import PRESETS, HighFiveOptions
from boneyard.games.highrise.options import CARRY_OVER, DEFAULT_TILESET, HighriseOptions
from boneyard.games.merry_go_round.options import MerryGoRoundOptions
from boneyard.server.rules import service as rules
from boneyard.server.rules.figures import FigureError, expand_figures

OPTIONS: dict[str, type[Any]] = {
    "highfive": HighFiveOptions,
    "merry-go-round": MerryGoRoundOptions,
    "high-fives": HighFivesOptions,
    "highrise": HighriseOptions,
}
SPECIAL: dict[tuple[type[Any], str], set[str]] = {
    # words a field takes besides its type's values (checked by build_highrise_options)
    (HighriseOptions, "tileset"): {DEFAULT_TILESET},
    (HighriseOptions, "spacers_per_hand"): {CARRY_OVER},
}
CODE = re.compile(r"<code>([^<]*)</code>")
IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")  # how an option key looks


def written(value: Any) -> str:
    """A value as the pages (and ``--option key=value``) write it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def choices(cls: type[Any], name: str) -> tuple[set[str], bool]:
    """The fixed values field ``name`` admits, and whether it also takes other values (a whole
    number, a list of tiles)."""
    tp = typing.get_type_hints(cls)[name]
    args = get_args(tp) if get_origin(tp) in (typing.Union, type(int | str)) else (tp,)
    fixed = set(SPECIAL.get((cls, name), set()))
    open_ended = False
    for arg in args:
        if get_origin(arg) is Literal:
            fixed |= {written(v) for v in get_args(arg)}
        elif arg is bool:
            fixed |= {"true", "false"}
        else:
            open_ended = True
    return fixed, open_ended


def option_rows(page: str) -> dict[str, tuple[list[str], list[str]]]:
    """``{key: (choices, bold choices)}`` of the rows of the page's options tables."""
    rows: dict[str, tuple[list[str], list[str]]] = {}
    for table in re.findall(r'<table class="options">(.*?)</table>', page, re.S):
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
            cells = re.findall(r"<td>(.*?)</td>", row, re.S)
            if not cells:
                continue  # the header
            keys = CODE.findall(cells[0])
            assert len(keys) == 1, f"an option row names one key: {cells[0]}"
            bold = re.findall(r"<strong><code>([^<]*)</code></strong>", cells[1])
            rows[keys[0]] = (CODE.findall(cells[1]), bold)
    return rows


def option_problems(page: str, cls: type[Any]) -> list[str]:
    """What is wrong with a rendered page's account of the options of ``cls`` (empty: nothing)."""
    problems = []
    rows = option_rows(page)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: set[str] = set()
    for name in fields:
        values |= choices(cls, name)[0]
    for name, field in fields.items():
        if name not in rows:
            problems.append(f"option {name} is not explained")
            continue
        named, bold = rows[name]
        fixed, open_ended = choices(cls, name)
        if missing := fixed - set(named):
            problems.append(f"option {name}: choices {sorted(missing)} are not explained")
        if extra := set(named) - fixed - ({written(field.default)} if open_ended else set()):
            problems.append(f"option {name}: {sorted(extra)} is not a choice")
        if bold != [written(field.default)]:
            problems.append(f"option {name}: the default is {field.default!r}, not {bold}")
    for key in rows.keys() - fields.keys():
        problems.append(f"option {key} does not exist")
    for code in set(CODE.findall(page)):
        if IDENTIFIER.fullmatch(code) and code not in fields and code not in values:
            problems.append(f"{code} is named but is no option (nor a value of one)")
    return problems


@pytest.mark.parametrize("game", rules.GAMES)
def test_every_option_is_explained_and_no_other(game: str) -> None:
    page = rules.game_page(game)
    assert option_problems(page, OPTIONS[game]) == []
    assert len(option_rows(page)) == len(dataclasses.fields(OPTIONS[game]))


def test_the_checker_fails_on_a_missing_an_unknown_or_a_wrong_option() -> None:
    text = rules.source("highfive")
    row = next(line for line in text.splitlines() if "<br>`bogus_grace`" in line)
    without = rules.render_markdown(text.replace(row + "\n", ""))
    assert option_problems(without, HighFiveOptions) == ["option bogus_grace is not explained"]
    made_up = row.replace("bogus_grace", "bogus_mercy")
    assert option_problems(rules.render_markdown(text.replace(row, made_up)), HighFiveOptions) == [
        "option bogus_grace is not explained",
        "option bogus_mercy does not exist",
        "bogus_mercy is named but is no option (nor a value of one)",
    ]
    wrong_default = row.replace("**`true`**, `false`", "`true`, **`false`**")
    assert option_problems(
        rules.render_markdown(text.replace(row, wrong_default)), HighFiveOptions
    ) == ["option bogus_grace: the default is True, not ['false']"]
    prose = text + "\nSet `spinner_ends_need_all_sides` to play faster.\n"
    assert option_problems(rules.render_markdown(prose), HighFiveOptions) == [
        "spinner_ends_need_all_sides is named but is no option (nor a value of one)"
    ]
    short = row.replace(", `false`", "")
    assert option_problems(rules.render_markdown(text.replace(row, short)), HighFiveOptions) == [
        "option bogus_grace: choices ['false'] are not explained"
    ]


def test_every_high_five_preset_is_explained_with_what_it_changes() -> None:
    page = rules.game_page("highfive")
    table = page[page.index('id="presets"') :]
    table = table[: table.index("</table>")]
    rows = dict(re.findall(r"<tr>\s*<td><code>([^<]*)</code></td>\s*<td>(.*?)</td>", table, re.S))
    assert set(rows) == set(PRESETS)
    for name, preset in PRESETS.items():
        for key, value in preset.items():
            if key != "preset":
                assert f"<code>{key}</code> is <code>{written(value)}</code>" in rows[name]


def test_the_deal_table_of_high_fives_is_the_engines() -> None:
    page = rules.game_page("high-fives")
    for n in range(2, 9):
        s = deal_schedule(n)
        row = f"<td>{n}</td>\n<td>{s.sizes[0]} each</td>\n<td>{s.sizes[1]} each</td>\n"
        assert f"{row}<td>{len(s.sizes)}</td>\n<td>{s.extra}</td>" in page


def test_the_pictures_are_the_engines_and_a_wrong_one_is_refused() -> None:
    pages = "".join(rules.game_page(g) for g in rules.GAMES)
    assert pages.count('<figure class="board" data-view=') >= 10
    with pytest.raises(FigureError, match="engine gives count 10"):
        expand_figures('<figure class="board" data-position="5-5" data-count="15">', "highfive")
    with pytest.raises(FigureError, match="not a legal play"):
        expand_figures('<figure class="board" data-position="6-6; 6-5 on 6-6 end_a">', "highfive")
    with pytest.raises(FigureError, match="two different dominoes"):
        expand_figures(
            '<figure class="board" data-position="5/1 2/3 4/6 W/0 3/3 6/2 1/4 5/6; 5-1 at 0,0 1,0">',
            "highrise",
        )
    with pytest.raises(FigureError, match="compulsory"):
        expand_figures('<figure class="board" data-position="1-2 3-4; play 2-5">', "high-fives")


def test_the_routes() -> None:
    from fastapi import FastAPI

    from boneyard.server.rules.router import router

    app = FastAPI()
    app.include_router(router)
    with TestClient(app) as c:
        index = c.get("/rules")
        assert index.status_code == 200
        for game in rules.GAMES:
            assert f'href="/rules/{game}"' in index.text
            page = c.get(f"/rules/{game}")
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
            assert 'id="options"' in page.text
        missing = c.get("/rules/chess")
        assert missing.status_code == 404 and "No such game" in missing.text
