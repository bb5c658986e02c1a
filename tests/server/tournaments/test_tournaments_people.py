"""An event run with people (docs/tournaments-site.md): the check-in window, the director checking people
in and out, late arrivals inside the grace period, no-shows after it, the start at the start
time (also across a restart), co-directors, editing, cancelling, deleting, seeding by hand, and
undoing a ruling while the next round has not started."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import fast_dir, make_app, post, register, use
from tests.server.tournaments.test_tournaments import get, match, ok, people, playing, wait


@pytest.fixture
def db_file() -> Iterator[str]:
    with tempfile.TemporaryDirectory(dir=fast_dir()) as d:
        yield str(Path(d) / "people.db")


@pytest.fixture
def c(db_file: str) -> Iterator[TestClient]:
    with TestClient(make_app(db_file)) as client:
        client.get("/api/me")
        yield client


def soon(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def entrant(data: dict, name: str) -> dict:  # type: ignore[type-arg]
    return next(e for e in data["entrants"] if e["name"] == name)


def test_the_check_in_window_and_the_director_checks_people_in(c: TestClient) -> None:
    dora = register(c, "dora")
    eid = ok(post(c, "/api/tournaments", {"name": "Club", "checkin_opens_at": soon(3600)}))["id"]
    jars = people(c, eid, ["ann", "bob", "cyd"], check_in=False)
    use(c, jars["ann"])
    r = post(c, f"/api/tournaments/{eid}/checkin")
    assert r.status_code == 400 and "check-in opens at" in r.json()["detail"]
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/checkin-window", {"state": "open"}))
    assert data["checkin"]["open"] is True
    use(c, jars["ann"])
    assert entrant(ok(post(c, f"/api/tournaments/{eid}/checkin")), "ann")["checked_in"]
    use(c, dora)
    ok(post(c, f"/api/tournaments/{eid}/checkin-window", {"state": "closed"}))
    use(c, jars["bob"])
    r = post(c, f"/api/tournaments/{eid}/checkin")
    assert r.status_code == 400 and "closed" in r.json()["detail"]
    use(c, dora)
    data = get(c, eid)
    bob, cyd = entrant(data, "bob"), entrant(data, "cyd")
    data = ok(post(c, f"/api/tournaments/{eid}/entrants/{bob['id']}/checkin", {"present": True}))
    assert entrant(data, "bob")["checked_in"]
    data = ok(post(c, f"/api/tournaments/{eid}/entrants/{bob['id']}/checkin", {"present": False}))
    assert not entrant(data, "bob")["checked_in"]
    use(c, jars["ann"])  # not a director
    assert post(c, f"/api/tournaments/{eid}/entrants/{bob['id']}/checkin", {}).status_code == 403
    use(c, dora)
    data = ok(c.delete(f"/api/tournaments/{eid}/entrants/{cyd['id']}", headers=csrf_of(c)))
    assert [e["name"] for e in data["entrants"]] == ["ann", "bob"]
    kinds = [a["kind"] for a in data["actions"]]
    assert {"checkin_window", "checkin", "checkout", "remove"} <= set(kinds)
    ok(post(c, f"/api/tournaments/{eid}/start"))
    assert (
        c.delete(f"/api/tournaments/{eid}/entrants/{bob['id']}", headers=csrf_of(c)).status_code
        == 400
    )


def csrf_of(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": c.cookies.get("boneyard_csrf") or ""}


def test_a_late_arrival_plays_and_a_no_show_is_forfeited_after_the_grace(c: TestClient) -> None:
    dora = register(c, "dora")
    eid = ok(
        post(c, "/api/tournaments", {"name": "Grace", "schedule": "bo1", "grace_minutes": 0.05})
    )["id"]
    jars = people(c, eid, ["ann", "bob"])
    jars |= people(c, eid, ["cyd", "dan"], check_in=False)
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    assert all(e["status"] == "playing" for e in data["entrants"])  # nobody forfeits at start
    ann_dan, bob_cyd = match(data, "R1M1"), match(data, "R1M2")
    assert {ann_dan["a_name"], ann_dan["b_name"]} == {"ann", "dan"}
    for m, late in ((ann_dan, "dan"), (bob_cyd, "cyd")):
        assert m["games"] == [] and [w["name"] for w in m["waiting"]] == [late]
        until = datetime.fromisoformat(m["waiting"][0]["until"])
        assert timedelta(0) < until - datetime.now(UTC) <= timedelta(seconds=3)
    # cyd arrives inside the grace period: checks in, and the match's table starts
    use(c, jars["cyd"])
    data = ok(post(c, f"/api/tournaments/{eid}/checkin"))
    g = playing(match(data, "R1M2"))
    assert g is not None and match(data, "R1M2")["waiting"] == []
    seats = c.get(f"/api/tables/{g['table_id']}").json()["seats"]
    assert {s["name"] for s in seats} == {"bob", "cyd"}
    # dan never comes: forfeited when the grace ends (the server's task; nobody looks)
    time.sleep(3.5)
    use(c, dora)
    data = wait(c, eid, lambda d: match(d, "R1M1")["over"], limit=30)
    m = match(data, "R1M1")
    assert m["winner_name"] == "ann" and m["outcome"] == "no_show"
    assert m["games"][0]["reason"] == "no_show" and "no-show" in m["games"][0]["note"]
    assert entrant(data, "dan")["status"] == "no_show"
    assert m["table"] == 1 and match(data, "R1M2")["table"] == 2


def test_bots_placed_by_the_director_count_as_checked_in(c: TestClient) -> None:
    dora = register(c, "dora")
    eid = ok(post(c, "/api/tournaments", {"name": "Bots", "schedule": "bo1", "grace_minutes": 60}))[
        "id"
    ]
    people(c, eid, ["ann"])
    people(c, eid, ["bob"], check_in=False)
    use(c, dora)
    bob = entrant(get(c, eid), "bob")
    data = ok(post(c, f"/api/tournaments/{eid}/entrants/{bob['id']}/replace", {"bot": "greedy"}))
    assert entrant(data, "Greedy bot (bob)")["checked_in"] is True
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    assert playing(match(data, "R1M1")) is not None and match(data, "R1M1")["waiting"] == []


def test_the_event_starts_at_its_start_time_also_across_a_restart(db_file: str) -> None:
    # Each event's start time is set only once its entrants are in (a start time that passed
    # while a loaded machine was still adding the bots would find too few entrants).
    later = {"starts_at": soon(3600)}
    with TestClient(make_app(db_file)) as c:
        c.get("/api/me")
        register(c, "dora")
        body = {"name": "Timed", "schedule": "bo1", **later}
        eid = ok(post(c, "/api/tournaments", body))["id"]
        ok(post(c, f"/api/tournaments/{eid}/bots", {"count": 2}))
        assert get(c, eid)["settings"]["auto_start"] is True
        empty = ok(post(c, "/api/tournaments", {**body, "name": "Empty"}))["id"]
        for event in (eid, empty):
            ok(
                c.patch(
                    f"/api/tournaments/{event}", json={"starts_at": soon(1)}, headers=csrf_of(c)
                )
            )
        data = wait(c, eid, lambda d: d["status"] != "registration", limit=30)
        assert any(a["kind"] == "start" and a["by"] is None for a in data["actions"])
        data = wait(c, empty, lambda d: not d["settings"]["auto_start"], limit=30)
        assert data["status"] == "registration"  # too few entrants: the directors are told
        assert "at least 2" in next(a for a in data["actions"] if a["kind"] == "auto_start")["note"]
        late = ok(post(c, "/api/tournaments", {**body, "name": "Later"}))["id"]
        ok(post(c, f"/api/tournaments/{late}/bots", {"count": 2}))
        assert get(c, late)["status"] == "registration"
    move_start_into_the_past(db_file, late)  # the server was down at the start time
    with TestClient(make_app(db_file)) as c:
        c.get("/api/me")
        data = wait(c, late, lambda d: d["status"] != "registration", limit=30)
        assert data["started_at"] is not None


def move_start_into_the_past(db_file: str, event_id: str) -> None:
    """Set the start time of ``event_id`` a second ago, in the database of a stopped server."""
    from sqlalchemy import create_engine, update

    from boneyard.store.tournaments import TournamentRow

    engine = create_engine(f"sqlite:///{db_file}")
    with engine.begin() as db:
        past = datetime.now(UTC) - timedelta(seconds=1)
        assert db.execute(
            update(TournamentRow).where(TournamentRow.id == event_id).values(starts_at=past)
        ).rowcount
    engine.dispose()


def test_co_directors_edit_cancel_delete(c: TestClient) -> None:
    cara = register(c, "cara")
    ann = register(c, "ann")
    dora = register(c, "dora")
    eid = ok(post(c, "/api/tournaments", {"name": "Admin", "schedule": "bo1"}))["id"]
    use(c, ann)
    ok(post(c, f"/api/tournaments/{eid}/register"))
    use(c, dora)
    r = post(c, f"/api/tournaments/{eid}/directors", {"username": "ann"})
    assert r.status_code == 400 and "plays in this event" in r.json()["detail"]
    assert post(c, f"/api/tournaments/{eid}/directors", {"username": "nobody"}).status_code == 404
    data = ok(post(c, f"/api/tournaments/{eid}/directors", {"username": "cara"}))
    assert [d["name"] for d in data["directors"]] == ["dora", "cara"]
    use(c, cara)
    assert get(c, eid)["me"]["director"] is True
    r = post(c, f"/api/tournaments/{eid}/register")
    assert r.status_code == 400 and "director" in r.json()["detail"]
    data = ok(
        c.patch(
            f"/api/tournaments/{eid}",
            json={"name": "Admin Open", "format": "swiss", "per_move": 45},
            headers=csrf_of(c),
        )
    )
    assert data["name"] == "Admin Open" and data["format"] == "swiss"
    assert data["clock"]["per_move"] == 45
    assert (
        c.delete(f"/api/tournaments/{eid}", headers=csrf_of(c)).status_code == 403
    )  # not the owner
    ok(post(c, f"/api/tournaments/{eid}/bots", {"count": 3}))
    ok(post(c, f"/api/tournaments/{eid}/entrants/{entrant(get(c, eid), 'ann')['id']}/checkin", {}))
    ok(post(c, f"/api/tournaments/{eid}/start"))
    r = c.patch(f"/api/tournaments/{eid}", json={"format": "round_robin"}, headers=csrf_of(c))
    assert r.status_code == 400 and "cannot change" in r.json()["detail"]
    ok(
        c.patch(
            f"/api/tournaments/{eid}",
            json={"grace_minutes": 3, "format": "swiss"},
            headers=csrf_of(c),
        )
    )
    data = ok(post(c, f"/api/tournaments/{eid}/cancel", {"note": "the hall flooded"}))
    assert data["status"] == "cancelled"
    tables = {g["table_id"] for m in data["rounds"][0] for g in m["games"] if g["table_id"]}
    wait(
        c,
        eid,
        lambda d: all(
            c.get(f"/api/tables/{t}").json()["status"] in ("closed", "over") for t in tables
        ),
    )
    use(c, dora)
    assert c.delete(f"/api/tournaments/{eid}", headers=csrf_of(c)).status_code == 400  # it started
    other = ok(post(c, "/api/tournaments", {"name": "Never"}))["id"]
    assert ok(c.delete(f"/api/tournaments/{other}", headers=csrf_of(c)))["deleted"] == other
    assert c.get(f"/api/tournaments/{other}").status_code == 404


def test_seeding_by_hand_beside_seeding_by_rating(c: TestClient) -> None:
    register(c, "dora")
    eid = ok(post(c, "/api/tournaments", {"name": "Seeds", "schedule": "bo1"}))["id"]
    data = ok(post(c, f"/api/tournaments/{eid}/bots", {"count": 4}))
    ids = [e["id"] for e in data["entrants"]]
    data = ok(post(c, f"/api/tournaments/{eid}/seeds", {"by": "rating"}))
    assert [e["seed"] for e in data["entrants"]] == [1, 2, 3, 4]
    r = post(c, f"/api/tournaments/{eid}/seeds", {"order": ids[:3]})
    assert r.status_code == 400 and "every entrant" in r.json()["detail"]
    order = [ids[2], ids[0], ids[3], ids[1]]
    data = ok(post(c, f"/api/tournaments/{eid}/seeds", {"order": order}))
    assert data["settings"]["seeding"] == "manual"
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    seeds = {e["id"]: e["seed"] for e in data["entrants"]}
    assert [seeds[i] for i in order] == [1, 2, 3, 4]
    assert (match(data, "R1M1")["a"], match(data, "R1M1")["b"]) == (order[0], order[3])


def test_undo_a_ruling_until_the_next_round_starts(c: TestClient) -> None:
    register(c, "dora")
    eid = ok(post(c, "/api/tournaments", {"name": "Undo", "schedule": "bo1", "cap": 4}))["id"]
    dora = dict(c.cookies)
    people(c, eid, ["ann", "bob", "cyd", "dan"])
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    m1 = match(data, "R1M1")
    g = playing(m1)
    assert g is not None
    body = {"kind": "score", "game_id": g["id"], "score_a": 150, "score_b": 40, "note": "oops"}
    data = ok(post(c, f"/api/tournaments/{eid}/matches/R1M1/ruling", body))
    assert match(data, "R1M1")["over"]
    ruling = next(a for a in data["actions"] if a["kind"] == "ruling")
    data = ok(
        post(c, f"/api/tournaments/{eid}/actions/{ruling['id']}/undo", {"note": "wrong match"})
    )
    m1 = match(data, "R1M1")
    assert not m1["over"] and next(a for a in data["actions"] if a["id"] == ruling["id"])["undone"]
    again = playing(m1)
    assert again is not None and again["number"] == 1 and again["id"] != g["id"]
    assert post(c, f"/api/tournaments/{eid}/actions/{ruling['id']}/undo", {}).status_code == 400
    # rule both semi-finals: the final starts; the first ruling can no longer be undone
    for mid in ("R1M1", "R1M2"):
        live = playing(match(get(c, eid), mid))
        assert live is not None
        body = {"kind": "bogus", "game_id": live["id"], "offender": match(get(c, eid), mid)["b"]}
        data = ok(post(c, f"/api/tournaments/{eid}/matches/{mid}/ruling", body))
    assert playing(match(data, "R2M1")) is not None
    first = next(a for a in data["actions"] if a["kind"] == "ruling" and not a["undone"])
    r = post(c, f"/api/tournaments/{eid}/actions/{first['id']}/undo", {})
    assert r.status_code == 400 and "next round has started" in r.json()["detail"]


def test_a_stopped_event_table_links_its_match_and_the_next_game(c: TestClient) -> None:
    dora = register(c, "dora")
    eid = ok(post(c, "/api/tournaments", {"name": "Links", "schedule": "bo3"}))["id"]
    jars = people(c, eid, ["ann", "bob"])
    use(c, dora)
    data = ok(post(c, f"/api/tournaments/{eid}/start"))
    g1 = playing(match(data, "R1M1"))
    assert g1 is not None
    body = {"kind": "score", "game_id": g1["id"], "score_a": 150, "score_b": 70}
    data = ok(post(c, f"/api/tournaments/{eid}/matches/R1M1/ruling", body))
    g2 = playing(match(data, "R1M1"))
    assert g2 is not None and g2["number"] == 2
    use(c, jars["ann"])
    info = ok(c.get(f"/api/tables/{g1['table_id']}/event"))
    assert info["match"] == {"id": "R1M1", "url": f"/tournaments/{eid}/matches/R1M1"}
    assert info["next"] == {"table_id": g2["table_id"], "match": "R1M1", "number": 2}
    table = c.get(f"/api/tables/{g1['table_id']}").json()
    assert table["event"]["match"] == "R1M1"
    end = time.monotonic() + 10
    while c.get(f"/api/tables/{g1['table_id']}").json()["status"] != "closed":
        assert time.monotonic() < end
        time.sleep(0.05)
    assert "the director ruled" in c.get(f"/api/tables/{g1['table_id']}").json()["halted"]
    assert c.get("/api/tables/nope/event").status_code == 404
