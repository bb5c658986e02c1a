"""The tournaments' old addresses (the domain was "events" before 2026-11): an old page address
answers 308 with the new one, query string kept; the old API is served by the same routes as the
new one, and only the new one is in the OpenAPI document."""

from __future__ import annotations

from fastapi.routing import APIRoute
from starlette.routing import BaseRoute
from starlette.testclient import TestClient

from boneyard.server.tournaments.router import MODULES, router
from tests.server.conftest import post, register


def test_old_pages_answer_308_with_the_new_address(tournament_client: TestClient) -> None:
    c = tournament_client
    for old, new in {
        "/events": "/tournaments",
        "/events/abc123": "/tournaments/abc123",
        "/events/abc123?join=K7Q2": "/tournaments/abc123?join=K7Q2",
        "/events/abc123/matches/R1M1": "/tournaments/abc123/matches/R1M1",
        "/events/abc123/scorecard?round=2&tz=Europe%2FLondon": (
            "/tournaments/abc123/scorecard?round=2&tz=Europe%2FLondon"
        ),
    }.items():
        r = c.get(old, follow_redirects=False)
        assert (r.status_code, r.headers["location"]) == (308, new), old
    page = c.get("/events/abc123?join=K7Q2")
    assert page.status_code == 200 and "tournament.js" in page.text
    assert str(page.url).endswith("/tournaments/abc123?join=K7Q2")


def test_the_old_api_is_the_same_routes(tournament_client: TestClient) -> None:
    c = tournament_client
    register(c, "dora")
    r = post(c, "/api/events", {"name": "Old Client Open", "preset": "pda"})
    assert r.status_code == 200, r.text
    eid = r.json()["id"]
    new = c.get(f"/api/tournaments/{eid}").json()
    assert new["name"] == "Old Client Open"
    assert c.get(f"/api/events/{eid}").json() == new
    assert c.get("/api/events").json() == c.get("/api/tournaments").json()
    r = c.patch(
        f"/api/events/{eid}",
        json={"name": "Renamed"},
        headers={"X-CSRF-Token": c.cookies.get("boneyard_csrf") or ""},
    )
    assert r.status_code == 200, r.text
    assert c.get(f"/api/tournaments/{eid}").json()["name"] == "Renamed"
    assert (
        c.get(f"/api/events/{eid}/standings.csv").text
        == c.get(f"/api/tournaments/{eid}/standings.csv").text
    )
    assert c.get("/api/events/nosuch").status_code == 404


def test_every_api_route_has_its_old_twin_hidden_from_openapi(
    tournament_client: TestClient,
) -> None:
    def routes(found: list[BaseRoute], prefix: str) -> set[tuple[str, frozenset[str], object]]:
        return {
            (r.path.removeprefix(prefix), frozenset(r.methods), r.endpoint)
            for r in found
            if isinstance(r, APIRoute) and r.path.startswith(prefix)
        }

    new = routes([r for m in MODULES for r in m.router.routes], "/api/tournaments")
    old = routes(router.routes, "/api/events")
    assert len(new) > 40 and old == new
    paths = tournament_client.get("/openapi.json").json()["paths"]
    assert not [p for p in paths if p.startswith(("/api/events", "/events"))]
    assert {f"/api/tournaments{path}" for path, _, _ in new} <= set(paths)
