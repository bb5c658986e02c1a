"""The printed bracket fits its paper (docs/tournaments-site.md, "Printing"): for every bracket format
and 5 to 128 entrants, on Letter and A4 landscape, every match is one whole box on exactly one
page, and every box lies inside the page's printable area."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from boneyard.server.tournaments.printbracket import BOX_H, BOX_W
from boneyard.server.tournaments.printdoc import FOOTER, HEADER, MARGIN, PAPERS, build
from boneyard.server.tournaments.views import results_json
from boneyard.tournament import DoubleElimination, Pools, SingleElimination, Tournament


def played(t: Tournament) -> Tournament:
    """``t`` played to its end, the better seed winning every game."""
    while not t.is_over:
        for m in t.pending():
            a, b = m.a or "", m.b or ""
            winner = a if t.seed_of(a) < t.seed_of(b) else b
            t = t.record_game(m.id, winner, (150, 90) if winner == a else (90, 150))
    return t


def document(t: Tournament, paper: str) -> dict[str, Any]:
    names = {int(e): f"Player {int(e):03d} of the long-named club" for e in t.entrants}
    ev = SimpleNamespace(status="finished", settings={})
    data = {"name": "Hall", "game": "highfive", "title": "High Five", "format": "x",
            "format_name": "x", "options": {}, "directors": [{"name": "dora"}],
            "entrants": [{"id": int(e), "name": names[int(e)], "seed": t.seed_of(e)} for e in t.entrants],
            **results_json(ev, t, names, {}, [])}  # type: ignore[arg-type]  # fmt: skip
    return build(data, "bracket", paper, 0, None, "UTC")


@pytest.mark.parametrize(
    "make",
    [
        lambda d: SingleElimination.create(d, third_place=True),
        lambda d: DoubleElimination.create(d),
        lambda d: Pools.create(d, max(1, len(d) // 4), 2, bracket="double"),
    ],
    ids=["single", "double", "pools"],
)
@pytest.mark.parametrize("n", [5, 16, 33, 64, 128])
def test_every_match_is_one_whole_box_inside_the_page(make: Any, n: int) -> None:
    t = played(make([str(i) for i in range(1, n + 1)]))
    drawn = {m.id for s in results_json(SimpleNamespace(status="finished", settings={}), t, {}, {}, [])["sections"]  # type: ignore[arg-type]
             for ri, _k in s["columns"] for m in t.rounds[ri]}  # fmt: skip
    for paper in ("letter", "a4"):
        doc = document(t, paper)
        w, h = PAPERS[paper][1], PAPERS[paper][0]  # landscape
        room_w, room_h = w - 2 * MARGIN, h - 2 * MARGIN - HEADER - FOOTER
        seen: list[str] = []
        for page in doc["pages"]:
            for b in page["blocks"]:
                if b["type"] != "bracket":
                    continue
                assert b["h"] <= room_h, (paper, b["title"], b["h"])
                for box in b["boxes"]:
                    assert box["x"] >= 0 and box["x"] + BOX_W <= room_w, (paper, box)
                    assert box["y"] >= 0 and box["y"] + BOX_H + 6.0 <= b["h"], (paper, box)
                    seen.append(box["match"])
                labels = [x for x in b["labels"] if x["x"] + 20 > room_w]
                assert not labels, labels
        assert sorted(seen) == sorted(drawn), paper  # each match once, none missing
    if n == 128 and isinstance(t, SingleElimination):
        assert len(document(t, "letter")["pages"]) == 5
