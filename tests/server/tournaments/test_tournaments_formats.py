"""Every format on the site, played by bots at real tables through the API: a 32-entrant
double elimination to its end, single elimination with a third-place match, pools then a
bracket, and late entry into Swiss (docs/tournaments-site.md, "Formats")."""

from __future__ import annotations

from collections import Counter
from typing import Any

from starlette.testclient import TestClient

from tests.server.conftest import post, register, use
from tests.server.tournaments.test_tournaments import get, match, matches, ok, people, wait

Data = dict[str, Any]


def bot_event(c: TestClient, n: int, **kw: Any) -> str:
    register(c, f"td-{kw.get('format', 'x')}")
    body = {"name": "Bots", "preset": "pda", "schedule": "bo1", "cap": n, "max_tables": 8, **kw}
    eid: str = ok(post(c, "/api/tournaments", body))["id"]
    ok(post(c, f"/api/tournaments/{eid}/bots", {"bot": "greedy", "count": n}))
    ok(post(c, f"/api/tournaments/{eid}/start"))
    return eid


def losses(data: Data) -> Counter[int]:
    out: Counter[int] = Counter()
    for m in matches(data):
        if m["over"] and not m["bye"]:
            out[m["a"] if m["winner"] == m["b"] else m["b"]] += 1
    return out


def test_a_32_entrant_double_elimination_played_by_bots_to_its_end(
    tournament_client: TestClient,
) -> None:
    c = tournament_client
    eid = bot_event(c, 32, format="double_elimination")
    data = wait(c, eid, lambda d: d["status"] == "finished", limit=900)
    champion = data["champion"]["id"]
    lost = losses(data)
    finals = [m for m in matches(data) if m["id"].startswith("F")]
    # everyone but the champion lost twice (the grand-final loser once, without a reset)
    reset = len(finals) == 2
    for e in data["entrants"]:
        if e["id"] == champion:
            assert lost[e["id"]] == (1 if reset else 0)
        else:
            assert lost[e["id"]] == 2, e
    assert data["standings"][0]["entrant"] == str(champion)
    titles = data["round_titles"]
    assert titles[:5] == [
        "Winners' round 1",
        "Winners' round 2",
        "Winners' round 3",
        "Winners' round 4",
        "Winners' final",
    ]
    assert titles[5] == "Losers' round 1" and "Grand final" in titles
    assert [s["title"] for s in data["sections"]] == [
        "Winners' bracket",
        "Losers' bracket",
        "Grand final",
    ]
    assert [slots for _col, slots in data["sections"][0]["columns"]] == [16, 8, 4, 2, 1]
    assert [label["key"] for label in data["tiebreak_labels"]] == ["losses"]
    games = [g for m in matches(data) for g in m["games"]]
    assert len(games) == sum(1 for m in matches(data) if not m["bye"])
    assert all(g["status"] == "over" and g["table_id"] for g in games)
    assert all(max(g["score_a"], g["score_b"]) == 150 for g in games)  # PDA: to 150 exactly


def test_single_elimination_with_a_third_place_match(tournament_client: TestClient) -> None:
    c = tournament_client
    eid = bot_event(c, 6, third_place=True)
    data = wait(c, eid, lambda d: d["status"] == "finished", limit=300)
    final, third = data["rounds"][-1]
    assert third["id"] == "R3M2" and third["over"] and data["sections"][0]["third_place"] == "R3M2"
    ranks = [s["rank"] for s in data["standings"]]
    assert ranks[:4] == [1, 2, 3, 4]
    assert data["standings"][2]["entrant"] == str(third["winner"])
    byes = [m for m in data["rounds"][0] if m["bye"]]
    assert len(byes) == 2 and all(m["outcome"] == "bye" for m in byes)
    assert data["champion"]["id"] == final["winner"]


def test_pools_then_a_bracket(tournament_client: TestClient) -> None:
    c = tournament_client
    eid = bot_event(c, 8, format="pools", pools=2, advance=2, bracket_schedule="bo1")
    data = wait(c, eid, lambda d: d["status"] == "finished", limit=300)
    assert [x["title"] for x in data["crosstables"]] == ["Pool 1", "Pool 2"]
    for table in data["crosstables"]:
        assert len(table["rows"]) == 4 and len(table["names"]) == 4
        for i, row in enumerate(table["rows"]):
            assert row["cells"][i] == []  # nobody plays themself
            assert sum(len(cell) for cell in row["cells"]) == 3
    assert data["sections"] and data["sections"][0]["title"] == "Bracket"
    assert data["round_titles"][:3] == ["Pools, round 1", "Pools, round 2", "Pools, round 3"]
    assert [x["key"] for x in data["tiebreak_labels"]] == ["pool_place", "win_rate"]
    assert data["champion"] is not None


def test_late_entry_into_swiss_before_a_round_is_paired(tournament_client: TestClient) -> None:
    c = tournament_client
    dora = register(c, "dora")
    body = {
        "name": "Late Swiss",
        "format": "swiss",
        "schedule": "bo1",
        "rounds": 3,
        "late_entry": True,
        "max_tables": 1,
        "per_move": 3600,
    }
    eid = ok(post(c, "/api/tournaments", body))["id"]
    ok(post(c, f"/api/tournaments/{eid}/bots", {"bot": "greedy", "count": 3}))
    people(c, eid, ["ann"])
    use(c, dora)
    ok(post(c, f"/api/tournaments/{eid}/start"))
    register(c, "zed")  # arrives during round 1: enters, paired from round 2 on
    data = ok(post(c, f"/api/tournaments/{eid}/register"))
    zed = next(e for e in data["entrants"] if e["name"] == "zed")
    assert zed["checked_in"] and zed["status"] == "playing" and zed["seed"] == 5
    assert any(a["kind"] == "late_entry" and a["payload"]["round"] == 2 for a in data["actions"])
    assert all(zed["id"] not in (m["a"], m["b"]) for m in data["rounds"][0])
    # ann's round-1 match is decided by a ruling; then round 2 pairs zed
    use(c, dora)
    mine = next(m for m in data["rounds"][0] if "ann" in (m["a_name"], m["b_name"]))
    ok(
        post(
            c,
            f"/api/tournaments/{eid}/matches/{mine['id']}/forfeit",
            {"loser": next(e["id"] for e in data["entrants"] if e["name"] == "ann")},
        )
    )
    data = wait(c, eid, lambda d: len(d["rounds"]) >= 2, limit=300)
    (r2,) = [m for m in data["rounds"][1] if zed["id"] in (m["a"], m["b"])]
    std = next(s for s in data["standings"] if s["name"] == "zed")
    # the missed round scores nothing; in this odd field zed, last, takes round 2's bye (1)
    assert std["points"] == (1 if r2["bye"] else 0) and std["wins"] == 0
    assert data["crosstables"] and data["crosstables"][0]["title"] == "Crosstable"
    assert match(data, data["rounds"][0][0]["id"])["table"] == 1
    assert get(c, eid)["format_name"] == "Swiss"
