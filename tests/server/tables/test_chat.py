"""Table chat: stored before it is sent, limits, mutes (socket and REST, on every table),
history on connect and resync, spectators, and still no hidden tile in any frame."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select
from starlette.testclient import TestClient

from boneyard.store.models import ChatMessage
from tests.server.conftest import make_app, post, register, use
from tests.server.tables.test_ws import hidden_tiles, two_player_table


def next_of(ws: Any, kind: str, limit: int = 200) -> dict[str, Any]:
    """The next message of type ``kind`` (views and others in between are skipped)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} came")


def stored(c: TestClient, tid: str) -> int:
    async def count() -> int:
        async with c.app.state.sessions() as db:  # type: ignore[attr-defined]
            n = await db.scalar(
                select(func.count()).select_from(ChatMessage).where(ChatMessage.table_id == tid)
            )
            return int(n or 0)

    return int(c.portal.call(count))  # type: ignore[union-attr]


def sock(c: TestClient, jar: dict[str, Any] | None, tid: str) -> Any:
    use(c, jar)
    ws = c.websocket_connect(f"/ws/tables/{tid}")
    return ws


def test_chat_reaches_players_and_spectators_and_is_stored_first(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    carol = register(client, "carol")  # signed in, no seat: a spectator who may chat
    with (
        sock(client, ann, tid) as a,
        sock(client, bob, tid) as b,
        sock(client, carol, tid) as cw,
        sock(client, None, tid) as anon,
    ):
        for ws in (a, b, cw, anon):
            assert ws.receive_json()["type"] == "view"
        a.send_json({"type": "chat", "text": "  good luck, Bob!  "})
        lines = [next_of(ws, "chat") for ws in (a, b, cw, anon)]
        assert all(line == lines[0] for line in lines)
        line = lines[0]
        assert line["text"] == "good luck, Bob!" and line["name"] == "ann" and line["seat"] == 0
        assert isinstance(line["id"], int) and line["at"]
        cw.send_json({"type": "chat", "text": "watching <b>closely</b>"})
        line = next_of(b, "chat")
        assert line["seat"] is None and line["name"] == "carol"
        assert line["text"] == "watching <b>closely</b>"  # text: the client shows it as text
        anon.send_json({"type": "chat", "text": "hi"})
        assert next_of(anon, "error")["message"] == "sign in to chat"
        assert stored(client, tid) == 2
    # On connect: the history (oldest first), then it continues.
    with sock(client, None, tid) as anon:
        assert anon.receive_json()["type"] == "view"
        hist = anon.receive_json()
        assert hist["type"] == "chat_history"
        assert [m["text"] for m in hist["messages"]] == [
            "good luck, Bob!",
            "watching <b>closely</b>",
        ]
        anon.send_json({"type": "resync"})
        assert anon.receive_json()["type"] == "view"
        assert anon.receive_json()["type"] == "chat_history"


def test_bad_chat_is_refused_with_a_reason_and_changes_nothing(client: TestClient) -> None:
    register(client, "ann")
    tid = post(client, "/api/quickplay").json()["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.receive_json()
        cases: list[tuple[Any, str]] = [
            ({"type": "chat", "text": ""}, "a chat message cannot be empty"),
            ({"type": "chat", "text": "   "}, "a chat message cannot be empty"),
            ({"type": "chat", "text": "x" * 301}, "a chat message has at most 300 characters"),
            ({"type": "chat", "text": 42}, "with text a string"),
            ({"type": "chat"}, "with text a string"),
            ({"type": "chat", "text": ["hi"]}, "with text a string"),
            ({"type": "chat", "text": "bell\x07"}, "control characters"),
            ({"type": "mute", "user_id": "bob"}, '{"type": "mute", "user_id": <number>}'),
            ({"type": "mute", "user_id": 999}, "no such person"),
        ]
        for msg, reason in cases:
            ws.send_json(msg)
            reply = next_of(ws, "error")
            assert reason in reply["message"], (msg, reply)
        me = client.get("/api/me").json()["user"]["id"]
        ws.send_json({"type": "mute", "user_id": me})
        assert next_of(ws, "error")["message"] == "you cannot mute yourself"
        ws.send_json({"type": "chat", "text": "x" * 300})  # exactly the limit is fine
        assert len(next_of(ws, "chat")["text"]) == 300
    assert stored(client, tid) == 1
    assert client.get("/api/me/mutes").json() == {"muted": []}


def test_chat_rate_limit_per_person(db_path: str) -> None:
    with TestClient(make_app(db_path, limits={"chat": "2/minute"})) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with (
            c.websocket_connect(f"/ws/tables/{tid}") as ws,
            c.websocket_connect(f"/ws/tables/{tid}") as ws2,
        ):
            ws.receive_json()
            ws2.receive_json()
            ws.send_json({"type": "chat", "text": "one"})
            assert next_of(ws, "chat")["text"] == "one"
            ws2.send_json({"type": "chat", "text": "two"})  # another socket, same person
            assert next_of(ws, "chat")["text"] == "two"
            ws.send_json({"type": "chat", "text": "three"})
            assert next_of(ws, "error")["message"] == "too many chat messages: wait a few seconds"
        assert stored(c, tid) == 2


def test_mutes_hide_a_sender_everywhere_until_unmuted(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    use(client, bob)
    bob_id = client.get("/api/me").json()["user"]["id"]
    carol = register(client, "carol")
    with sock(client, ann, tid) as a, sock(client, bob, tid) as b, sock(client, carol, tid) as cw:
        for ws in (a, b, cw):
            ws.receive_json()
        b.send_json({"type": "chat", "text": "before the mute"})
        for ws in (a, b, cw):
            assert next_of(ws, "chat")["text"] == "before the mute"
        a.send_json({"type": "mute", "user_id": bob_id})
        assert next_of(a, "mutes")["muted"] == [{"user_id": bob_id, "name": "bob"}]
        b.send_json({"type": "chat", "text": "you cannot hear me"})
        assert next_of(cw, "chat")["text"] == "you cannot hear me"
        assert next_of(b, "chat")["text"] == "you cannot hear me"
        cw.send_json({"type": "chat", "text": "carol here"})
        assert next_of(a, "chat")["text"] == "carol here"  # bob's line never reached ann
    # Persisted, per person, on every table; the history leaves muted senders out.
    use(client, ann)
    assert client.get("/api/me/mutes").json()["muted"] == [{"user_id": bob_id, "name": "bob"}]
    with client.websocket_connect(f"/ws/tables/{tid}") as a:
        a.receive_json()
        texts = [m["text"] for m in next_of(a, "chat_history")["messages"]]
        assert texts == ["carol here"]
    other = post(client, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
    with sock(client, ann, other["id"]) as a, sock(client, bob, other["id"]) as b:
        a.receive_json()
        b.receive_json()
        b.send_json({"type": "chat", "text": "other table"})
        next_of(b, "chat")
        use(client, ann)
        r = client.delete(
            f"/api/me/mutes/{bob_id}",
            headers={"X-CSRF-Token": client.cookies.get("boneyard_csrf") or ""},
        )
        assert r.status_code == 200 and r.json() == {"muted": []}
        b.send_json({"type": "chat", "text": "heard again"})
        assert next_of(a, "chat")["text"] == "heard again"
    # REST mute and its errors.
    use(client, ann)
    assert post(client, "/api/me/mutes", {"user_id": bob_id}).json()["muted"][0]["name"] == "bob"
    assert post(client, "/api/me/mutes", {"user_id": bob_id}).status_code == 200  # idempotent
    assert post(client, "/api/me/mutes", {"user_id": 12345}).status_code == 400
    assert post(client, "/api/me/mutes", {"user_id": "x"}).status_code == 422
    use(client, None)
    assert client.get("/api/me/mutes").status_code == 401


def test_history_holds_the_last_fifty_lines(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            for i in range(55):
                ws.send_json({"type": "chat", "text": f"line {i}"})
                next_of(ws, "chat")
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            hist = next_of(ws, "chat_history")["messages"]
        assert [m["text"] for m in hist] == [f"line {i}" for i in range(5, 55)]
        assert stored(c, tid) == 55


def test_spectators_get_no_hidden_tile_with_chat_and_clock(db_path: str) -> None:
    with TestClient(make_app(db_path, clock_scale=0.01)) as c:
        c.get("/api/me")
        ann = register(c, "ann")
        t = post(
            c,
            "/api/tables",
            {
                "seats": [{"kind": "me"}, {"kind": "open"}],
                "clock": {"per_move": 60, "grace": 200, "bot": "greedy"},
            },
        ).json()
        bob = register(c, "bob")
        post(c, f"/api/tables/{t['id']}/join", {"seat": 1})
        live = c.app.state.tables.live[t["id"]]  # type: ignore[attr-defined]
        frames: list[str] = []
        # Both watch from before the start: the clock's warning comes 0.6 s after it, and a
        # spectator who came later (a loaded machine) would never see it.
        with sock(c, None, t["id"]) as spectator, sock(c, bob, t["id"]) as b:
            frames.append(json.dumps(spectator.receive_json()))
            b.receive_json()
            use(c, ann)
            post(c, f"/api/tables/{t['id']}/start")
            b.send_json({"type": "chat", "text": "hello"})
            seen: set[str] = set()
            for _ in range(200):  # the chat line, the warning and the seat's change to a bot
                msg = spectator.receive_json()
                frames.append(json.dumps(msg))
                seen.add(msg["type"])
                if msg["type"] == "view" and any(s["kind"] == "bot" for s in msg["table"]["seats"]):
                    seen.add("bot")
                if {"chat", "clock", "bot"} <= seen:
                    break
            hidden, hand = hidden_tiles(live, None), live.state.hand_number
        assert {"chat", "clock", "bot"} <= seen, seen
        for frame in frames:  # (a tile hidden now was hidden all this hand; bots may deal anew)
            view = json.loads(frame).get("view")
            if view is None or view["hand_number"] == hand:
                for tile in hidden:
                    assert f'"{tile}"' not in frame
