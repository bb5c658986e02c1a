"""Tournaments on PostgreSQL (a scratch database): migration 0006, the row lock that serialises an
event's changes (``SELECT … FOR UPDATE``), a double elimination played by bots to its end, an
over-the-board card signed by both, a notification and the exports."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import make_app, post, register, use
from tests.server.tournaments.test_tournaments import get, match, ok, people, wait
from tests.services import needs_postgres, scratch_postgres

pytestmark = needs_postgres


@pytest.fixture
def pg_url() -> Iterator[str]:
    with scratch_postgres() as url:
        yield url


def test_tournaments_on_postgresql(pg_url: str) -> None:
    with TestClient(make_app(pg_url)) as c:
        c.get("/api/me")
        dora = register(c, "dora")
        body = {"name": "PG", "format": "double_elimination", "schedule": "bo1", "preset": "pda"}
        eid = ok(post(c, "/api/tournaments", body))["id"]
        ok(post(c, f"/api/tournaments/{eid}/bots", {"count": 4}))
        ok(post(c, f"/api/tournaments/{eid}/start"))
        data = wait(c, eid, lambda d: d["status"] == "finished", limit=300)
        assert data["champion"] is not None and len(data["sections"]) == 3
        otb = ok(post(c, "/api/tournaments", {"name": "PG hall", "mode": "otb", "schedule": "bo1"}))
        jars = people(c, otb["id"], ["ann", "bob"])
        use(c, dora)
        ok(post(c, f"/api/tournaments/{otb['id']}/start"))
        data = ok(
            post(
                c,
                f"/api/tournaments/{otb['id']}/matches/R1M1/card",
                {"score_a": 150, "score_b": 45},
            )
        )
        m = match(data, "R1M1")
        for name in (m["a_name"], m["b_name"]):
            use(c, jars[name])
            ok(post(c, f"/api/tournaments/{otb['id']}/games/{m['games'][0]['id']}/sign"))
        data = get(c, otb["id"])
        assert data["status"] == "finished" and data["champion"]["id"] == m["a"]
        assert c.get("/api/me/notifications").json()["notifications"]
        doc = c.get(f"/api/tournaments/{otb['id']}/export.json").json()
        assert [x["what"] for x in doc["cards"][0]["history"]] == [
            "entered by the director",
            "signed",
            "signed",
        ]
