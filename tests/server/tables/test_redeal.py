"""A thrown-in deal (High Five: nobody holds a double) is dealt again at once over the server."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from starlette.testclient import TestClient

from boneyard.server.tables import fairness
from tests.server.conftest import make_app, post, register, thrown_in_seed, until_turn


def test_a_thrown_in_deal_is_dealt_again_and_play_goes_on(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = thrown_in_seed()
    fresh = fairness.new_seed
    seeds = itertools.chain([bad], iter(fresh, None))
    monkeypatch.setattr(fairness, "new_seed", lambda: next(seeds))
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            msg: dict[str, Any] = until_turn(ws)  # before the fix: no turn ever came
            assert msg["moves"]
        table = c.app.state.tables.live[tid]  # type: ignore[attr-defined]
        assert table.seeds[0][0] == bad
        assert table.hands_dealt() >= 2
        assert not table.state.awaiting_deal


def test_a_thrown_in_deal_is_dealt_again_with_the_players_seed(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The redeal is committed (its commitment published with the thrown-in deal) and waits for
    the seated players' seeds like every deal (issue 14); before, it was dealt at once, without
    them, under a commitment nobody had seen."""
    bad = thrown_in_seed()
    fresh = fairness.new_seed
    seeds = itertools.chain([bad], iter(fresh, None))
    monkeypatch.setattr(fairness, "new_seed", lambda: next(seeds))
    with TestClient(make_app(db_path, seed_window=2.0)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        table = c.app.state.tables.live[tid]  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            # No seed for hand 0: it is dealt after the window, with the thrown-in server seed.
            msg = ws.receive_json()
            while not any(f["hand"] == 1 and f.get("next") for f in msg.get("fairness") or []):
                msg = ws.receive_json()
            assert table.state.awaiting_deal  # thrown in: the redeal waits
            ws.send_json({"type": "seed", "hand": 1, "seed": "ann's redeal seed"})
            assert ws.receive_json()["type"] == "seed"  # taken: the redeal follows at once
            while not (msg := ws.receive_json()).get("moves"):
                assert msg["type"] in ("view", "chat_history"), msg
        assert table.seeds[0][0] == bad and not table.state.awaiting_deal
        record = c.get(f"/api/tables/{tid}/hands")  # (the table is visible; the game goes on)
        assert record.status_code == 200
        assert table.client_seeds[1] == {0: "ann's redeal seed"}
        hand1 = next(f for f in table.fairness_json() if f["hand"] == 1)
        assert hand1["client_seeds"] == ["ann's redeal seed", None]
