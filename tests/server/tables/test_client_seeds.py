"""Client seeds in the deal (boneyard-deal/2): commitment ahead, seeds from seated players only,
before the deal only, published with the deal, persisted across a restart, verified offline."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from boneyard.bots import make_bot
from boneyard.cli.main import app as cli
from boneyard.core.records import record_from_json
from boneyard.server.tables import fairness
from tests.server.conftest import make_app, post, register, use


def views(ws: Any, limit: int = 500) -> Any:
    """Messages of ``ws``; a refused seed or move fails the test."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "error":
            raise AssertionError(msg)
        yield msg


def next_entry(msg: dict[str, Any]) -> dict[str, Any] | None:
    return next((f for f in msg["fairness"] if f.get("next")), None)


def play(ws: Any, until: Any, seed_for: dict[int, str] | None = None) -> dict[str, Any]:
    """Play the first legal move whenever it is this seat's turn, adding ``seed_for[h]`` (or a
    made-up seed) for each coming hand, until ``until(view)``."""
    seeds = seed_for if seed_for is not None else {}
    for msg in views(ws, 5000):
        if msg["type"] == "seed":
            continue
        nxt = next_entry(msg)
        if nxt is not None and nxt.get("my_seed") is None and nxt["hand"] not in seeds:
            seeds[nxt["hand"]] = f"seed of hand {nxt['hand']} ✓"
            ws.send_json({"type": "seed", "hand": nxt["hand"], "seed": seeds[nxt["hand"]]})
        if until(msg):
            return msg
        if msg["moves"]:
            ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
    raise AssertionError("never reached")


def over(msg: dict[str, Any]) -> bool:
    return bool(msg["view"] and msg["view"]["is_over"])


def seed_msg(ws: Any, hand: Any, seed: Any) -> dict[str, Any]:
    """Send a seed; the answer (views of moves made meanwhile are skipped)."""
    ws.send_json({"type": "seed", "hand": hand, "seed": seed})
    while True:
        reply: dict[str, Any] = ws.receive_json()
        if reply["type"] in ("seed", "error"):
            return reply


def test_the_scheme_text_and_check() -> None:
    s = "ab" * 32
    text = fairness.deal_text(s, 3, ["x", None, "é"])
    assert text.startswith(f"boneyard-deal/2:{s}:3:")
    assert text.split(":")[4] == "-"
    assert fairness.deal_text(s, 3, scheme=fairness.SCHEME_V1) == f"boneyard-deal/1:{s}:3"
    a = fairness.deal_number(s, 0, ["x", None])
    assert a != fairness.deal_number(s, 0, ["y", None]) != fairness.deal_number(s, 0, [None, "x"])
    for bad in ("", "x" * 129, "a\nb", 5, None):
        with pytest.raises(ValueError):
            fairness.check_client_seed(bad)


def two_seat_open_table(c: TestClient) -> tuple[str, dict[str, Any], dict[str, Any]]:
    ann = register(c, "ann")
    t = post(c, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
    bob = register(c, "bob")
    assert post(c, f"/api/tables/{t['id']}/join", {"seat": 1}).status_code == 200
    return t["id"], ann, bob


def test_seeds_before_the_first_deal_are_mixed_in_and_published(client: TestClient) -> None:
    tid, ann, bob = two_seat_open_table(client)
    live = client.app.state.tables.live[tid]  # type: ignore[attr-defined]
    use(client, ann)
    with client.websocket_connect(f"/ws/tables/{tid}") as a:
        first = a.receive_json()
        nxt = next_entry(first)
        # Hand 0's commitment is published while the table is still open.
        assert first["view"] is None and nxt is not None
        assert nxt["hand"] == 0 and len(nxt["commitment"]) == 64 and nxt["my_seed"] is None
        assert seed_msg(a, 0, "first try")["type"] == "seed"
        ack = seed_msg(a, 0, "ann's seed")  # replacing your own seed before the deal: fine
        assert ack == {
            "type": "seed",
            "hand": 0,
            "seat": 0,
            "seed": "ann's seed",
            "commitment": nxt["commitment"],
            "version": first["version"],
        }
        a.send_json({"type": "resync"})
        again = a.receive_json()
        assert next_entry(again) == {**nxt, "my_seed": "ann's seed", "seeded": [0]}
    use(client, bob)
    with client.websocket_connect(f"/ws/tables/{tid}") as b:
        seen = b.receive_json()
        entry = next_entry(seen)
        assert entry is not None and entry["my_seed"] is None  # ann's seed stays secret
        assert "ann's seed" not in json.dumps(seen)
        assert seed_msg(b, 0, "bob 🎲")["type"] == "seed"
        assert post(client, f"/api/tables/{tid}/start").status_code == 200
        dealt = next(m for m in views(b) if m["view"] is not None)
    hand0 = dealt["fairness"][0]
    assert hand0 == {
        "hand": 0,
        "commitment": nxt["commitment"],
        "client_seeds": ["ann's seed", "bob 🎲"],
    }
    coming = next_entry(dealt)
    assert coming is not None and coming["hand"] == 1 and coming["commitment"] != nxt["commitment"]
    # The deal is the documented function of the server seed and both client seeds.
    server_seed = live.seeds[0][0]
    assert fairness.commitment(server_seed) == nxt["commitment"]
    state = fairness.new_state("highfive", {}, ["ann", "bob"])
    fairness.deal(state, server_seed, 0, ["ann's seed", "bob 🎲"])
    assert state.record()["hands"][0] == live.state.record()["hands"][0]
    fairness.deal(other := fairness.new_state("highfive", {}, ["ann", "bob"]), server_seed, 0)
    assert other.record()["hands"][0] != live.state.record()["hands"][0]


def test_refused_seeds_change_nothing(client: TestClient) -> None:
    register(client, "ann")
    tid = post(client, "/api/quickplay").json()["id"]
    live = client.app.state.tables.live[tid]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        first = ws.receive_json()
        coming = next_entry(first)
        # Hand 1 is the coming one, unless the rules redealt the first deal at once (a redealt
        # hand is over): the cases are numbered from the coming hand, whichever it is.
        assert coming is not None and coming["hand"] >= 1
        n = coming["hand"]
        before = copy.deepcopy(live.client_seeds)
        cases = [
            (n - 1, "late", f"hand {n - 1} is already dealt: a seed counts only before its deal"),
            (
                n + 1,
                "early",
                f"the server has not committed to hand {n + 1} yet (the next hand is {n})",
            ),
            (str(n), "x", '"hand" must be the number of a hand (0 is the first)'),
            (n, "", "a seed has 1 to 128 printable characters"),
            (n, "x" * 129, "a seed has 1 to 128 printable characters"),
            (n, "bell\x07", "a seed has 1 to 128 printable characters"),
            (n, 42, '"seed" must be a string'),
        ]
        for hand, seed, why in cases:
            reply = seed_msg(ws, hand, seed)
            assert reply["type"] == "error" and reply["about"] == "seed", reply
            assert reply["message"] == why
            assert reply["version"] == live.version
        assert live.client_seeds == before
    # A spectator (signed out) may not add one either.
    use(client, None)
    with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
        watcher.receive_json()
        reply = seed_msg(watcher, n, "spectator's seed")
        assert reply["type"] == "error"
        assert reply["message"] == (
            "only a seated player can add a seed: you are watching this table"
        )
    assert live.client_seeds == before

    async def stored() -> Any:
        from sqlalchemy import select

        from boneyard.store.models import HandSeed

        async with live_sessions() as s:
            rows = (await s.scalars(select(HandSeed).where(HandSeed.table_id == tid))).all()
            return {r.hand: r.client_seeds for r in rows}

    live_sessions = client.app.state.sessions  # type: ignore[attr-defined]
    assert client.portal.call(stored) == {h: {} for h in range(n + 1)}  # type: ignore[union-attr]


def test_a_whole_game_with_client_seeds_verifies_offline(
    client: TestClient, tmp_path: Path
) -> None:
    register(client, "ann")
    tid = post(client, "/api/quickplay").json()["id"]
    mine: dict[int, str] = {}
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        end = play(ws, over, mine)
    hands = end["fairness"]
    assert len(hands) == len(end["hand_scores"]) and all("seed" in f for f in hands)
    assert not any(f.get("next") for f in hands)
    doc = client.get(f"/api/tables/{tid}/record").json()
    fair = doc["meta"]["fairness"]
    assert fair["scheme"] == "boneyard-deal/2"
    assert fair["hands"] == hands
    # Hand 0 was dealt when the table started (no time to add a seed); every later hand has
    # this player's seed and none from the bot.
    assert fair["hands"][0]["client_seeds"] == [None, None]
    assert len(fair["hands"]) >= 2
    # (a thrown-in deal, with no events, is dealt again at once when the table has no seed
    # window, as here: its redeal has no seed from anyone — test_redeal covers the window)
    redeals = {h["hand"] for h in fair["hands"][1:] if not doc["hands"][h["hand"] - 1]["events"]}
    for h in fair["hands"][1:]:
        assert h["client_seeds"] == [None if h["hand"] in redeals else mine[h["hand"]], None]
    checks = fairness.verify_record(record_from_json(doc))
    assert [c.ok for c in checks] == [True] * len(fair["hands"])
    for c in checks[1:]:  # (CI once drew a thrown-in first hand: its redeal has no seed)
        assert c.why.endswith("and 0 client seeds" if c.hand in redeals else "and 1 client seed")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(good)])
    assert result.exit_code == 0, result.output
    # A changed client seed gives another deal: caught.
    bad = copy.deepcopy(doc)
    bad["meta"]["fairness"]["hands"][1]["client_seeds"][0] = "not what was sent"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1
    lines = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    assert [x["ok"] for x in lines] == [True, False]
    assert lines[-1]["why"] == "dealing from the revealed seed gives another deal"
    # Dropping a seed is caught too, and so is a malformed list.
    bad = copy.deepcopy(doc)
    bad["meta"]["fairness"]["hands"][1]["client_seeds"] = [None, None]
    assert [c.ok for c in fairness.verify_record(record_from_json(bad))] == [True, False]
    bad["meta"]["fairness"]["hands"][1]["client_seeds"] = ["x"]
    checks = fairness.verify_record(record_from_json(bad))
    assert checks[-1].ok is False and "2 entries" in checks[-1].why


@pytest.mark.usefixtures("no_throw_in")  # (the first view must come before hand 1 is dealt)
def test_a_restart_keeps_the_commitment_and_the_seeds(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        jar = register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            first = ws.receive_json()
            coming = next_entry(first)
            assert coming is not None and coming["hand"] == 1
            assert seed_msg(ws, 1, "kept across the restart")["type"] == "seed"
            live = c.app.state.tables.live[tid]  # type: ignore[attr-defined]
            kept = {1: "kept across the restart"}
            ws.send_json({"type": "resync"})  # the current view, to play on from
            play(ws, lambda m: m["type"] == "view" and live.version > first["version"] + 2, kept)
    # The server stopped (a bot may have moved last): what it had is what comes back.
    pending, seeds = live.pending, dict(live.seeds)
    record_before = live.state.record()
    with TestClient(make_app(db_path)) as c2:
        use(c2, jar)
        live = c2.app.state.tables.live[tid]  # type: ignore[attr-defined]
        assert live.pending == pending and live.seeds == seeds
        assert live.client_seeds[1] == {0: "kept across the restart"}
        # The same game (the bot, if it is to move, carries on at once after the restart).
        after = live.state.record()
        last = len(record_before["hands"]) - 1
        assert after["hands"][:last] == record_before["hands"][:last]
        done = record_before["hands"][last]["events"]
        assert after["hands"][last]["deal"] == record_before["hands"][last]["deal"]
        assert after["hands"][last]["events"][: len(done)] == done
        with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
            shown = next_entry(ws.receive_json())
            assert shown is not None
            assert shown["my_seed"] == "kept across the restart"
            assert shown["commitment"] == coming["commitment"]
            ws.send_json({"type": "resync"})  # a fresh view to play on from (seat 0 may lead)
            end = play(ws, over, {1: "kept across the restart"})
        hand1 = end["fairness"][1]
        assert hand1["commitment"] == coming["commitment"]
        assert hand1["client_seeds"] == ["kept across the restart", None]
        doc = c2.get(f"/api/tables/{tid}/record").json()
    assert all(ch.ok for ch in fairness.verify_record(record_from_json(doc)))


def old_scheme_record() -> dict[str, Any]:
    """A whole bot game dealt by boneyard-deal/1 (as records written before client seeds)."""
    rng = random.Random(3)
    state = fairness.new_state("highfive", {}, ["Ann", "Bob"])
    bot = make_bot("greedy", random.Random(3))
    hands: list[dict[str, Any]] = []
    while not state.is_over:
        if state.awaiting_deal:
            s = f"{rng.getrandbits(256):064x}"
            fairness.deal(state, s, len(hands), scheme=fairness.SCHEME_V1)
            hands.append({"hand": len(hands), "commitment": fairness.commitment(s), "seed": s})
            continue
        state.apply(bot.choose(state.observation(state.current_seat)))
    rec = state.record()
    rec["meta"] = {"fairness": {"scheme": "boneyard-deal/1", "hands": hands}}
    return rec


def test_old_scheme_records_still_verify(tmp_path: Path) -> None:
    doc = old_scheme_record()
    assert all(c.ok for c in fairness.verify_record(record_from_json(doc)))
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert CliRunner().invoke(cli, ["verify", str(path)]).exit_code == 0
    # Read as the new scheme, the same seeds deal differently.
    doc["meta"]["fairness"]["scheme"] = "boneyard-deal/2"
    assert fairness.verify_record(record_from_json(doc))[0].ok is False


def test_play_a_bot_now_deals_once_the_players_seed_is_in(db_path: str) -> None:
    """A table created full (Play a bot now) waits for its player's seed for hand 0: the seed
    deals it at once and is in hand 0's deal."""
    with TestClient(make_app(db_path, seed_window=60)) as c:
        c.get("/api/me")
        register(c, "ann")
        t = post(c, "/api/quickplay").json()
        tid = t["id"]
        assert t["status"] == "open" and "start_by" in t
        # Every seat is taken: nobody can join while it waits.
        assert post(c, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 400
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            first = ws.receive_json()
            assert first["table"]["status"] == "open" and first["view"] is None
            nxt = next_entry(first)
            assert nxt is not None and nxt["hand"] == 0 and nxt["my_seed"] is None
            reply = seed_msg(ws, 0, "ann's first seed")
            assert reply["type"] == "seed" and reply["hand"] == 0
            dealt = next(m for m in views(ws) if m["type"] == "view" and m["view"])
            assert dealt["table"]["status"] == "playing" and "start_by" not in dealt["table"]
            hand0 = next(f for f in dealt["fairness"] if f["hand"] == 0 and not f.get("next"))
            assert hand0["client_seeds"] == ["ann's first seed", None]
            ws.send_json({"type": "resync"})  # (the dealt view may have been ann's turn)
            play(ws, over)
        rec = c.get(f"/api/tables/{tid}/record").json()
        first_hand = rec["meta"]["fairness"]["hands"][0]
        assert first_hand["client_seeds"] == ["ann's first seed", None]
        checks = fairness.verify_record(record_from_json(rec))
        assert checks and all(x.ok for x in checks)


def test_a_table_created_full_deals_after_the_seed_window_without_seeds(db_path: str) -> None:
    with TestClient(make_app(db_path, seed_window=0.5)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            dealt = next(m for m in views(ws) if m["type"] == "view" and m["view"])
            hand0 = next(f for f in dealt["fairness"] if f["hand"] == 0 and not f.get("next"))
            assert hand0["client_seeds"] == [None, None]
        # The Start button still deals at once: a table with an open seat is not affected.
        t = post(c, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
        assert t["status"] == "open" and "start_by" not in t


def test_a_restart_inside_the_seed_window_still_deals(db_path: str) -> None:
    with TestClient(make_app(db_path, seed_window=60)) as c:
        c.get("/api/me")
        ann = register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            assert seed_msg(ws, 0, "before the restart")["type"] == "seed"
            next(m for m in views(ws) if m["type"] == "view" and m["view"])
        waiting = post(c, "/api/quickplay").json()["id"]  # left waiting, no seed sent
    # The second table's window (60 s) has not passed: after the restart it still waits...
    with TestClient(make_app(db_path, seed_window=60)) as c:
        use(c, ann)
        table = c.app.state.tables.live[waiting]  # type: ignore[attr-defined]
        assert table.status == "open" and table.waits_for_seeds()
        assert waiting in c.app.state.tables.starter.starters  # type: ignore[attr-defined]
        # ...and its player's seed deals it.
        with c.websocket_connect(f"/ws/tables/{waiting}") as ws:
            ws.receive_json()
            assert seed_msg(ws, 0, "after the restart")["type"] == "seed"
            dealt = next(m for m in views(ws) if m["type"] == "view" and m["view"])
            hand0 = next(f for f in dealt["fairness"] if f["hand"] == 0 and not f.get("next"))
            assert hand0["client_seeds"] == ["after the restart", None]
