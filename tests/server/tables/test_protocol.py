"""The realtime protocol's types (boneyard.server.tables.protocol) hold what goes over the wire:
every frame of a whole game checked against the server's union, every client message parsed into
its command, and the refusals in a player's words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest
from starlette.testclient import TestClient

from boneyard.server.tables import protocol
from tests.server.conftest import make_app, post, register

DOCS = Path(__file__).resolve().parents[3] / "docs" / "server.md"


def test_every_frame_of_a_game_is_a_server_message(db_path: str) -> None:
    seen: dict[str, int] = {}
    with TestClient(make_app(db_path, hand_pause=0)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}?presence=1") as ws:
            ws.send_json({"type": "chat", "text": "good luck"})
            ws.send_json({"type": "mute", "user_id": 10**6})
            ws.send_json({"type": "nonsense"})
            ws.send_json({"type": "resync"})
            for _ in range(5000):
                msg = ws.receive_json()
                parsed = protocol.SERVER.validate_python(msg)
                seen[type(parsed).__name__] = seen.get(type(parsed).__name__, 0) + 1
                if msg["type"] == "view" and msg.get("result"):
                    break
                if msg["type"] == "view" and msg["moves"]:
                    ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
            else:
                raise AssertionError("the game never ended")
    assert {"View", "Error", "ChatLine", "ChatHistory", "Presence"} <= set(seen), seen


@pytest.mark.parametrize(
    ("sent", "command"),
    [
        ({"seq": 4, "action": {"draw": None}}, protocol.Move(seq=4, action={"draw": None})),
        ({"type": "resync"}, protocol.Resync(type="resync")),
        ({"type": "chat", "text": "hi"}, protocol.Chat(type="chat", text="hi")),
        ({"type": "unmute", "user_id": 3}, protocol.Mute(type="unmute", user_id=3)),
        ({"type": "seed", "hand": 1, "seed": "x"}, protocol.Seed(type="seed", hand=1, seed="x")),
        ({"type": "continue", "hand": 0, "extra": 1}, protocol.Continue(type="continue", hand=0)),
        ({"type": "abort"}, protocol.Leave(type="abort")),
        (
            {"type": "claim", "seat": 1, "how": "win"},
            protocol.Claim(type="claim", seat=1, how="win"),
        ),
    ],
)
def test_a_client_message_is_one_command(sent: dict[str, Any], command: Any) -> None:
    assert protocol.parse(json.dumps(sent)) == command


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"seq": 3}', 'a move is {"seq": <version>, "action": {...}}'),
        ('{"action": {}}', 'a move is {"seq": <version>, "action": {...}}'),
        ('{"seq": "3", "action": {}}', '"seq" is the version of the view'),
        ('{"seq": true, "action": {}}', '"seq" is the version of the view'),
        ('{"seq": 3, "action": [1]}', '"action" must be an object of record event fields'),
        ('{"type": "dance"}', "unknown message type"),
        ('{"type": 7, "seq": 1, "action": {}}', "unknown message type"),
        ("[1, 2]", "a message is an object"),
        ("{", "not valid JSON"),
        ("[" * 3000 + "]" * 3000, "nested too deeply"),
    ],
)
def test_a_message_outside_the_protocol_is_refused_in_words(text: str, says: str) -> None:
    with pytest.raises(protocol.Refused) as refused:
        protocol.parse(text)
    assert says in str(refused.value)
    assert "pydantic" not in str(refused.value) and "Input should" not in str(refused.value)


def test_the_docs_name_every_message_of_both_directions() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for kind in protocol.KINDS:
        assert f'"type": "{kind}"' in text, kind
    for model in get_args(get_args(protocol.ServerMessage)[0]):
        for kind in get_args(model.model_fields["type"].annotation):
            assert f'"type": "{kind}"' in text, kind
