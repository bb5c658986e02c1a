"""Notifications (docs/tournaments-site.md, "Notifications"): the bell's list on the site, and e-mail
through a real SMTP server (aiosmtpd on a free local port) when the site has SMTP settings and
the person asked for it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from starlette.testclient import TestClient

from tests.server.browser import free_port
from tests.server.conftest import ROOMY, make_app, post, register, use
from tests.server.tournaments.test_tournaments import match, ok, people, playing


class Inbox:
    """An aiosmtpd handler that keeps every message."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def wait(self, to: str, words: str, limit: float = 20) -> Message:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            for m in self.messages:
                if m["To"] == to and words in str(m["Subject"]):
                    return m
            time.sleep(0.05)
        raise AssertionError([(m["To"], m["Subject"]) for m in self.messages])


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    server = Controller(inbox, hostname="127.0.0.1", port=port)
    server.start()
    try:
        yield inbox, port
    finally:
        server.stop()


def notes(c: TestClient) -> dict[str, Any]:
    r = c.get("/api/me/notifications")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_notifications_on_the_site_and_by_email(tmp_path: Path, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    settings = replace(ROOMY, smtp_host="127.0.0.1", smtp_port=port, site_url="https://dom.example")
    with TestClient(make_app(str(tmp_path / "n.db"), settings=settings)) as c:
        c.get("/api/me")
        assert c.get("/api/me/notifications").status_code == 401
        dora = register(c, "dora")
        eid = ok(post(c, "/api/tournaments", {"name": "Notes", "schedule": "bo3"}))["id"]
        jars = people(c, eid, ["ann", "bob"])
        use(c, jars["ann"])
        r = c.put(
            "/api/me/notify",
            json={"email": "not an address", "by_email": True},
            headers={"X-CSRF-Token": c.cookies.get("boneyard_csrf") or ""},
        )
        assert r.status_code == 400
        r = c.put(
            "/api/me/notify",
            json={"email": "ann@example.org", "by_email": True},
            headers={"X-CSRF-Token": c.cookies.get("boneyard_csrf") or ""},
        )
        assert r.json() == {"email": "ann@example.org", "by_email": True, "site_sends_email": True}
        use(c, dora)
        data = ok(post(c, f"/api/tournaments/{eid}/start"))
        # the bell: bob's list has his match, live (no e-mail for him: he gave no address)
        use(c, jars["bob"])
        bell = notes(c)
        ready = next(n for n in bell["notifications"] if n["kind"] == "ready")
        assert (
            "R1M1 is ready" in ready["title"] and ready["url"] == f"/tournaments/{eid}/matches/R1M1"
        )
        assert bell["unread"] >= 1 and not ready["read"]
        after = max(n["id"] for n in bell["notifications"])
        assert notes(c)["unread"] == bell["unread"]
        r = c.get(f"/api/me/notifications?after={after}")
        assert r.json()["notifications"] == []
        r = post(c, "/api/me/notifications/read", {"upto": after})
        assert r.json()["unread"] == 0
        # ann's e-mail: the match is ready, with the site's link
        mail = inbox.wait("ann@example.org", "R1M1 is ready")
        body = mail.get_payload()
        assert f"https://dom.example/tournaments/{eid}/matches/R1M1" in str(body)
        # the director acts on the match: both are told, ann by e-mail too
        use(c, dora)
        g = playing(match(data, "R1M1"))
        assert g is not None
        m = match(data, "R1M1")
        ok(
            post(
                c,
                f"/api/tournaments/{eid}/matches/R1M1/ruling",
                {"kind": "bogus", "game_id": g["id"], "offender": m["b"], "note": "8c"},
            )
        )
        inbox.wait("ann@example.org", "Ruling on R1M1")
        use(c, jars["bob"])
        fresh = c.get(f"/api/me/notifications?after={after}").json()["notifications"]
        assert any(n["kind"] == "director" and "Ruling" in n["title"] for n in fresh)
        assert {x["To"] for x in inbox.messages} == {"ann@example.org"}
        # each reads only their own list
        bobs = {n["id"] for n in notes(c)["notifications"]}
        use(c, jars["ann"])
        anns = {n["id"] for n in notes(c)["notifications"]}
        assert anns and bobs and anns.isdisjoint(bobs)
