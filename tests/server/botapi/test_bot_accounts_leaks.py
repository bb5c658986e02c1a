"""Hidden information and bot accounts: a bot's seat gets no tile it may not see (its socket's
views and ``act`` messages, message by message, in every game), its event stream names no tile
and nothing of another bot's challenges, and the token API shows a token once, to its owner only.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.botapi.test_bot_accounts import bare, bearer, bot_with_token
from tests.server.conftest import csrf, register, use

QUOTED_TILE = re.compile(r'"(W|\d+)-(W|\d+)"')


def hidden_from(live: Any, seat: int) -> set[str]:
    """Tiles ``seat`` may not see now: the other hands, the undrawn stock (boneyard, pile, the
    deals of a High Fives pass still to come and its extra tiles), each written both ways."""
    state = live.state
    out: set[str] = set()
    for other in range(state.num_seats):
        if other != seat:
            out |= set(state.observation(other).to_json()["hand"] or [])
    hand = state.record()["hands"][-1]
    events = hand["events"]
    gone = {e.get("play") for e in events} | {e.get("draw") for e in events}
    stock = [*hand.get("boneyard", []), *hand.get("pile", [])]
    mine = state.observation(seat).to_json()
    if mine.get("deal") is not None:  # High Fives: the deals and extra tiles still to come
        later = hand["deals"][mine["deal"] + 1 :]
        stock += [t for deal in later for tiles in deal for t in tiles]
        stock += hand.get("extra", []) if mine["extra_to_come"] else []
    out |= {t for t in stock if t not in gone}
    return out | {"-".join(t.split("-")[::-1]) for t in out}


GAMES = [
    ("highfive", {}),
    ("merry-go-round", {}),
    ("high-fives", {}),
    ("highrise", {"single_hand": True}),
]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_bot_seat_gets_no_hidden_tile_in_any_message(
    client: TestClient, game: str, options: dict[str, Any]
) -> None:
    """Every message a bot account's socket gets during a hand (views, ``act``, errors) is
    scanned for the tiles of the other hands and the stock, as it arrives."""
    _bot, token = bot_with_token(client, "scanner")
    register(client, "host")
    r = client.post(
        "/api/tables",
        json={"game": game, "options": options,
              "seats": [{"kind": "account", "account": "scanner"}, {"kind": "bot"}]},
        headers=csrf(client),
    )  # fmt: skip
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    program = bare(client)
    assert program.post(f"/api/bot/challenges/{tid}/accept", headers=bearer(token)).is_success
    live = client.app.state.tables.live[tid]  # type: ignore[attr-defined]
    hands = len(live.state.record()["hands"])
    scanned = acts = 0
    with program.websocket_connect(f"/ws/tables/{tid}", headers=bearer(token)) as ws:
        while True:
            msg = ws.receive_json()
            text = json.dumps(msg)
            hidden = hidden_from(live, 0)
            if live.state.is_over or len(live.state.record()["hands"]) != hands:
                break  # a new hand was dealt while this message travelled: stop here
            named = {f"{a}-{b}" for a, b in QUOTED_TILE.findall(text)}
            assert not named & hidden, (msg.get("type"), sorted(named & hidden))
            scanned += 1
            if msg.get("type") == "act":
                acts += 1
                assert msg["observation"]["seat"] == 0
                assert "legal_actions" not in msg["observation"]
                ws.send_json({"seq": msg["version"], "action": msg["legal_actions"][-1]})
            if msg.get("result") is not None:
                break
    assert acts >= 2 and scanned > acts, (scanned, acts)


def read_stream(c: TestClient, token: str, lines: int) -> list[dict[str, Any]]:
    """The first ``lines`` lines of a bot's event stream."""
    out: list[dict[str, Any]] = []
    with c.stream("GET", "/api/bot/stream", headers=bearer(token)) as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            if line.strip():
                out.append(json.loads(line))
            if len(out) >= lines:
                break
    return out


def test_the_stream_names_no_tile_and_no_other_bots_challenge(client: TestClient) -> None:
    _a, token_a = bot_with_token(client, "alpha")
    _b, token_b = bot_with_token(client, "beta")
    register(client, "carol")
    for name in ("alpha", "beta"):
        r = client.post(
            "/api/tables",
            json={"seats": [{"kind": "me"}, {"kind": "account", "account": name}]},
            headers=csrf(client),
        )
        assert r.status_code == 200, r.text
    tables = {
        t["seats"][1].get("invited"): t["id"] for t in client.get("/api/tables").json()["tables"]
    }
    program = bare(client)
    stream_a = read_stream(program, token_a, 2)
    stream_b = read_stream(program, token_b, 2)
    assert [e["type"] for e in stream_a] == ["hello", "challenge"]
    assert stream_a[1]["table"] == tables["alpha"] and stream_b[1]["table"] == tables["beta"]
    for events in (stream_a, stream_b):
        text = json.dumps(events)
        assert not QUOTED_TILE.search(text) and '"hand"' not in text
        assert token_a not in text and token_b not in text
    # Once a game is under way, its stream line says where to play, and still no tile.
    assert program.post(
        f"/api/bot/challenges/{tables['alpha']}/accept", headers=bearer(token_a)
    ).is_success
    started = read_stream(program, token_a, 2)
    assert started[1]["type"] == "game_start" and not QUOTED_TILE.search(json.dumps(started))


def test_tokens_are_shown_once_and_only_to_their_owner(client: TestClient) -> None:
    owner, token = bot_with_token(client, "owned")
    jar = dict(client.cookies)
    mine = client.get("/api/me/tokens").json()["tokens"]
    register(client, "snoop")
    assert client.get("/api/me/tokens").json()["tokens"] == []  # not the other account's
    _other, other_token = bot_with_token(client, "otherbot")
    assert client.get("/api/me/tokens").json()["tokens"][0]["prefix"] == other_token[:10]
    assert mine[0]["id"] not in [t["id"] for t in client.get("/api/me/tokens").json()["tokens"]]
    # Another account cannot revoke it (no such token for it), and the token still works.
    r = client.delete(f"/api/me/tokens/{mine[0]['id']}", headers=csrf(client))
    assert r.status_code == 404
    assert bare(client).get("/api/me", headers=bearer(token)).json()["user"]["id"] == owner["id"]
    # Nothing public carries a token, its hash or its prefix.
    use(client, jar)
    public = [
        client.get(f"/api/users/{owner['id']}").text,
        client.get("/api/me").text,
        client.get("/api/tables").text,
        client.get("/api/me/tokens").text,
    ]
    for text in public:
        assert token not in text
    assert token[:10] not in "".join(public[:3])
