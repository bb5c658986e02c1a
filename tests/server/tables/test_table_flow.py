"""Following, ending and leaving a game (issue 15): the move log, the hand's end kept on the board
until everyone continues, resign, abort, claim, rematch, play again, who is connected, bot pacing,
the default clock and the guided first hand — over the real socket protocol."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from boneyard.core.protocol import GameResult
from boneyard.core.words import same
from boneyard.server.tables import handend, tableview
from boneyard.server.tables.movelog import ACTIONS
from boneyard.store.seats import load_seats
from tests.server.conftest import hooks_settled, make_app, post, register, use, wait_for

pytestmark = pytest.mark.usefixtures("no_throw_in")  # hand 0 is the first to end: see the fixture

GAMES = {"highfive": 2, "merry-go-round": 3, "high-fives": 3, "highrise": 2}
Msg = dict[str, Any]


def live(c: TestClient, tid: str) -> Any:
    return c.app.state.tables.live[tid]  # type: ignore[attr-defined]


def merge(log: list[Msg], msg: Msg) -> None:
    """Take a view's ``log`` part as the page does: entries from ``from`` on replace ours."""
    part = msg.get("log")
    if part:
        assert part["from"] <= len(log), (part["from"], len(log))
        del log[part["from"] :]
        log.extend(part["entries"])


def receive(ws: Any, test: Callable[[Msg], bool], log: list[Msg] | None = None) -> Msg:
    """Frames until one passes ``test`` (views merged into ``log``; an error fails)."""
    for _ in range(5000):
        msg: Msg = ws.receive_json()
        if msg["type"] == "error":
            raise AssertionError(msg)
        if log is not None and msg["type"] in ("view", "resync"):
            merge(log, msg)
        if test(msg):
            return msg
    raise AssertionError("never came")


def error_of(ws: Any) -> Msg:
    """Frames until an error (views and presence frames pass by)."""
    return receive_any(ws, lambda m: m["type"] == "error")


def receive_any(ws: Any, test: Callable[[Msg], bool]) -> Msg:
    for _ in range(5000):
        msg: Msg = ws.receive_json()
        if test(msg):
            return msg
    raise AssertionError("never came")


def is_view(msg: Msg) -> bool:
    return msg["type"] in ("view", "resync")


def people_table(
    c: TestClient, game: str = "highfive", names: tuple[str, str] = ("ann", "bob"), **extra: Any
) -> tuple[str, Msg, Msg]:
    """A started two-person table: Ann (seat 0) and Bob (seat 1); returns id and cookie jars."""
    ann = register(c, names[0])
    body = {"game": game, "seats": [{"kind": "me"}, {"kind": "open"}], **extra}
    t = post(c, "/api/tables", body).json()
    bob = register(c, names[1])
    assert post(c, f"/api/tables/{t['id']}/join", {"seat": 1}).status_code == 200
    use(c, ann)
    assert post(c, f"/api/tables/{t['id']}/start").status_code == 200
    return t["id"], ann, bob


def kept(record: Msg, end: Msg) -> list[list[str]]:
    """What each seat held at the end of a Fives or Highrise hand, from the full record."""
    h = record["hands"][end["hand"]]
    hands = [list(d) for d in h.get("deal") or h.get("hands") or []]
    for e in h["events"]:
        seat = e["seat"]
        if "draw" in e:
            hands[seat].append(e["draw"])
        if "play" in e:
            hands[seat] = [t for t in hands[seat] if not same(t, e["play"])]
    return hands


# -- the move log ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_the_move_log_tells_every_move_and_is_rebuilt_the_same(db_path: str, game: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        register(c, "watcher")
        seats = [{"kind": "bot", "bot": "greedy"}] * GAMES[game]
        tid = post(c, "/api/tables", {"game": game, "seats": seats}).json()["id"]
        log: list[Msg] = []
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:  # (watched: the bots move)
            receive(ws, lambda m: is_view(m) and m["view"] and m["view"]["is_over"], log)
        table = live(c, tid)
        assert log == table.movelog.entries  # what the page pieced together is the log
        record = table.state.record()
    actions = [e for e in log if e["type"] in ACTIONS]
    events = [e for h in record["hands"] for e in h["events"]]
    if game != "high-fives":  # (High Fives: one line per turn, one event per turn too)
        assert len(actions) == len(events)
    names = record["seats"]
    for e in actions:
        assert e["text"].startswith(names[e["seat"]]), e
        if e["points"]:
            assert e["text"].endswith(f"— {e['points']} point{'s' if e['points'] > 1 else ''}")
        if e["type"] == "draw":
            assert "tile" not in e and e["text"] == f"{names[e['seat']]} drew a tile"
    assert [e["n"] for e in log] == list(range(len(log)))
    ends = [e for e in log if e["type"] == "hand_end" and e["reason"] != "redeal"]
    assert ends and all(e["explain"] and e["text"] for e in ends)
    assert log[-1]["type"] == "game_end" and log[-1]["text"].startswith("Game over")
    if game != "high-fives":
        for e in ends:  # every hand's end names what each seat kept
            assert [sorted(h) for h in e["hands"]] == [sorted(h) for h in kept(record, e)]
    with TestClient(make_app(db_path)) as c2:  # rebuilt from the table's log: the same
        c2.get("/api/me")
        with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
            first = ws.receive_json()
        assert first["log"] == {"from": 0, "entries": log}


def test_a_bot_move_with_points_reads_like_a_sentence() -> None:
    from boneyard.server.tables.movelog import action_text

    line = {"type": "play", "tile": "5-5", "on": "5-0", "port": "SIDE_A", "points": 20}
    assert (
        action_text("Greedy bot 2", line)
        == "Greedy bot 2 played 5-5 on the spinner 5-0 — 20 points"
    )
    assert action_text("Ann", {"type": "draw", "points": 0}) == "Ann drew a tile"
    assert action_text("Bob", {"type": "pass", "points": 0}) == "Bob passed"
    turn = {"type": "turn", "tile": "7-8", "capture": "8-9", "claim": ["0-1", "1-2"], "points": 4}
    assert (
        action_text("Cy", turn) == "Cy played 7-8 and captured 8-9, claiming 0-1 and 1-2 — 4 points"
    )
    tower = {"type": "play", "tile": "W-3", "level": 2, "points": 20}
    assert action_text("Di", tower) == "Di placed W-3 on level 2 — 20 points"


def test_a_hands_end_is_explained_in_words() -> None:
    names = ["Ann", "Bob"]
    line = {"hand": 0, "reason": "domino", "winner": 0, "award": 20, "scores": [45, 10]}
    words = handend.explain("highfive", names, line, [[], ["5-5", "6-2"]])
    assert words[0] == "Bob kept 5-5 and 6-2: 18 pips."
    assert words[1] == "Ann went out: Bob's 18 pips, rounded to 20, go to Ann — Ann scores 20."
    bust = {"hand": 1, "reason": "domino", "winner": 0, "award": 0, "scores": [58, 20]}
    words = handend.explain("merry-go-round", names, bust, [[], ["6-6", "4-4"]])
    assert "scores nothing" in words[2]
    plain = {**bust, "award": 4}
    assert handend.explain("merry-go-round", names, plain, [[], ["6-6", "4-4"]])[1] == (
        "Ann went out: the others kept 20 pips, rounded to 20: a point for every 5 — Ann scores 4."
    )
    block = {"hand": 0, "reason": "block", "winner": None, "award": 0, "awards": [-14, -3],
             "scores": [40, 60]}  # fmt: skip
    words = handend.explain("highrise", names, block, [["W-W"], ["1-2"]])
    assert "subtracts what they hold: Ann −14, Bob −3" in words[2]


# -- the hand's end waits ---------------------------------------------------------------------


def play_to_hand_end(ws: Any, log: list[Msg]) -> Msg:
    """As seat 0 against a bot: play the first move offered until a hand's end is shown."""
    while True:
        msg = receive(ws, lambda m: is_view(m) and (m["moves"] or "hand_end" in m), log)
        if "hand_end" in msg:
            return msg
        ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})


def test_the_hands_end_stays_until_everyone_continues(db_path: str) -> None:
    with TestClient(make_app(db_path, hand_pause=60)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        log: list[Msg] = []
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            msg = play_to_hand_end(ws, log)
            table = live(c, tid)
            end = msg["hand_end"]
            assert end["waiting"] and end["continued"] == [] and end["hand"] == 0
            assert 50 < end["deadline"] - msg["server_time"] <= 60
            assert table.state.awaiting_deal and table.hands_dealt() == 1  # not dealt yet
            entry = log[end["entry"]]
            record = tableview.record(table)
            assert entry["type"] == "hand_end"
            assert [sorted(h) for h in entry["hands"]] == [sorted(h) for h in kept(record, entry)]
            assert msg["view"]["layout"], "the final board is still there"
            # The ended hand's seed is public now; the next hand's commitment still stands.
            assert any(f["hand"] == 0 and "seed" in f for f in msg["fairness"])
            assert any(f.get("next") and f["hand"] == 1 for f in msg["fairness"])
            # A seed for the next hand during the pause does not deal it.
            ws.send_json({"type": "seed", "hand": 1, "seed": "mine"})
            assert receive(ws, lambda m: m["type"] == "seed")["hand"] == 1
            assert table.state.awaiting_deal
            ws.send_json({"type": "continue", "hand": 3})
            err = ws.receive_json()
            assert err["type"] == "error" and err["about"] == "continue"
            assert "not the hand that just ended" in err["message"]
            ws.send_json({"type": "continue", "hand": 0})  # Ann is the only person: dealt
            dealt = receive(ws, lambda m: is_view(m) and "hand_end" not in m, log)
            assert dealt["view"]["hand_number"] == 1 and table.hands_dealt() == 2
            assert log[-1]["type"] in ("deal", *ACTIONS)
            assert any(e["type"] == "deal" and e["hand"] == 1 for e in log)
            ws.send_json({"type": "continue", "hand": 0})
            assert "no hand is waiting" in error_of(ws)["message"]


def test_the_next_hand_is_dealt_after_the_pause_without_continue(db_path: str) -> None:
    with TestClient(make_app(db_path, hand_pause=0.5)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        log: list[Msg] = []
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            play_to_hand_end(ws, log)
            receive(ws, lambda m: is_view(m) and m["view"]["hand_number"] == 1, log)
        assert live(c, tid).hands_dealt() == 2


def test_a_bots_only_table_deals_the_next_hand_at_once(db_path: str) -> None:
    with TestClient(make_app(db_path, hand_pause=60)) as c:
        c.get("/api/me")
        register(c, "watcher")
        seats = [{"kind": "bot", "bot": "greedy"}] * 2
        tid = post(c, "/api/tables", {"game": "highfive", "seats": seats}).json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            receive(ws, lambda m: is_view(m) and m["view"] and m["view"]["hand_number"] >= 1)
        assert live(c, tid).break_until is None


def test_a_restart_during_the_pause_keeps_the_hands_end(db_path: str) -> None:
    with TestClient(make_app(db_path, hand_pause=600)) as c:
        c.get("/api/me")
        jar = register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            before = play_to_hand_end(ws, [])
    with TestClient(make_app(db_path, hand_pause=600)) as c2:
        use(c2, jar)
        with c2.websocket_connect(f"/ws/tables/{tid}") as ws:
            after = ws.receive_json()
            # The same hand's end as before the restart, still waiting, its deadline kept.
            assert after["hand_end"]["waiting"] and after["hand_end"]["hand"] == 0
            assert after["log"]["entries"][after["hand_end"]["entry"]]["hands"] is not None
            assert abs(after["hand_end"]["deadline"] - before["hand_end"]["deadline"]) < 2
            ws.send_json({"type": "continue", "hand": 0})
            receive(ws, lambda m: is_view(m) and "hand_end" not in m)


# -- resign, abort, claim -----------------------------------------------------------------------


def test_resigning_a_two_player_game_gives_the_opponent_the_win(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        tid, ann, bob = people_table(c)
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            ws.send_json({"type": "resign"})
            msg = receive(ws, lambda m: is_view(m) and m.get("ending"))
            ws.send_json({"type": "resign"})
            assert error_of(ws)["message"] == "the game is over"
        assert msg["ending"]["reason"] == "resign" and msg["ending"]["seat"] == 0
        assert msg["result"]["winner"] == 1 and msg["result"]["reason"] == "resign"
        assert msg["moves"] == [] and msg["log"]["entries"][-1]["text"] == "ann resigned: bob wins."
        table = live(c, tid)
        assert table.status == "over" and tableview.record(table)["meta"]["ending"]["winner"] == 1
        use(c, bob)
        assert post(c, f"/api/tables/{tid}/again").status_code == 200
        # Resigned before either had moved: not rated (the farm of issue 28; rated resignations
        # are in tests/server/site/test_hardening.py).
        hooks_settled(c)
        assert c.get("/api/ratings?game=highfive&category=2p").json()["ratings"] == []
        assert c.get(f"/api/tables/{tid}/record").json()["meta"]["ending"]["reason"] == "resign"
        assert c.get(f"/api/tables/{tid}/replay").status_code == 200


def test_resigning_with_three_players_leaves_the_seat_to_a_bot_placed_last(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        register(c, "ann")
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
        tid = post(c, "/api/tables", {"game": "merry-go-round", "seats": seats}).json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            ws.send_json({"type": "resign"})
            msg = receive(ws, lambda m: is_view(m) and m["seat"] is None)
            assert msg["table"]["seats"][0]["name"] == "bot (replacing ann)"
            receive(ws, lambda m: is_view(m) and m["view"]["is_over"])
            ws.send_json({"type": "reclaim"})
            assert "a bot plays no seat of yours" in error_of(ws)["message"]
        table = live(c, tid)
        assert table.seats[0].resigned and tableview.table_result(table).winner != 0
        assert table.settings["seat_changes"][0]["event"] == "resigned"
        assert any(e["type"] == "seat" and "resigned" in e["text"] for e in table.movelog.entries)


def test_a_resigned_seat_never_wins() -> None:
    class State:
        is_over = True

        def result(self) -> GameResult:
            return GameResult(0, (61, 40, 55), "target")

    class Table:
        def __init__(self) -> None:
            self.settings: dict[str, Any] = {}
            bots = [{"kind": "bot", "bot": "greedy", "name": n} for n in ("a", "b", "c")]
            self.seats = load_seats([bots[0] | {"resigned": True}, *bots[1:]])
            self.state = State()

    found = tableview.table_result(Table())  # type: ignore[arg-type]
    assert found == GameResult(2, (61, 40, 55), "resigned_last")
    assert tableview.record_ending(Table())["resigned"] == [0]  # type: ignore[arg-type,index]


def test_abort_before_everyone_moved_and_not_after(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        tid, ann, bob = people_table(c)
        first = live(c, tid).state.current_seat
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            msg = ws.receive_json()
            assert msg["abortable"]
            ws.send_json({"type": "abort"})
            done = receive(ws, lambda m: is_view(m) and m.get("ending"))
        assert done["ending"]["reason"] == "abort" and done["result"] is None
        assert done["abortable"] is False and live(c, tid).status == "aborted"
        assert c.get("/api/leaderboard?game=highfive&category=2p").json()["ratings"] == []
        # Another table: both move, then it is too late.
        tid2, ann, bob = people_table(c, names=("cyd", "dia"))
        table = live(c, tid2)
        for _ in range(2):
            seat = table.state.current_seat
            use(c, ann if seat == 0 else bob)
            with c.websocket_connect(f"/ws/tables/{tid2}") as ws:
                msg = ws.receive_json()
                ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
                version = msg["version"]
                receive(ws, lambda m, v=version: is_view(m) and m["version"] > v)
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid2}") as ws:
            assert ws.receive_json()["abortable"] is False
            ws.send_json({"type": "abort"})
            assert "too late to abort" in error_of(ws)["message"]
        assert first in (0, 1)


def test_claiming_a_win_after_the_opponent_left_a_minute(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        tid, ann, bob = people_table(c, clock=None)
        table = live(c, tid)
        use(c, bob)
        with c.websocket_connect(f"/ws/tables/{tid}?presence=1") as ws:
            assert ws.receive_json()["presence"][1]["online"] is True
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid}?presence=1") as ws:
            msg = ws.receive_json()
            assert msg["claim_after"] == 60 and msg["presence"][1]["online"] is False
            assert msg["presence"][1]["away_since"] <= msg["server_time"]
            ws.send_json({"type": "claim", "seat": 1, "how": "win"})
            err = error_of(ws)
            assert err["about"] == "claim" and "you may claim after 60 s" in err["message"]
            ws.send_json({"type": "claim", "seat": 0, "how": "win"})
            assert "only another person's seat" in error_of(ws)["message"]
            table.away[1] = time.time() - 61  # (a minute has passed)
            ws.send_json({"type": "claim", "seat": 1, "how": "win"})
            msg = receive(ws, lambda m: is_view(m) and m.get("ending"))
        assert msg["result"]["winner"] == 0 and msg["ending"]["reason"] == "claim"
        assert msg["log"]["entries"][-1]["text"] == "ann claimed the win: bob left the table."


def test_handing_an_absent_seat_to_a_bot_who_plays_until_they_return(db_path: str) -> None:
    with TestClient(make_app(db_path, bot_delay=0.05)) as c:
        c.get("/api/me")
        tid, ann, bob = people_table(c, clock=None)
        table = live(c, tid)
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            table.away[1] = time.time() - 61
            ws.send_json({"type": "claim", "seat": 1, "how": "bot"})
            msg = receive(ws, lambda m: is_view(m) and m["table"]["seats"][1]["kind"] == "bot")
            assert msg["table"]["seats"][1]["name"] == "bot (replacing bob)"
        assert table.settings["seat_changes"][-1]["event"] == "handed"
        use(c, bob)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            ws.send_json({"type": "reclaim"})
            msg = receive(ws, lambda m: is_view(m) and m["seat"] == 1)
        assert table.seats[1].kind == "person"


def test_an_absent_opponent_is_claimed_against_at_a_table_with_a_clock_too(db_path: str) -> None:
    """Issue 27: with the default clock, an absent opponent could not be claimed against (only
    waited out, turn after turn). Now a minute away is a minute away, clock or not."""
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        tid, ann, _bob = people_table(c)  # (an open seat: the default clock)
        table = live(c, tid)
        assert table.settings["clock"]["per_move"] == 60
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            msg = ws.receive_json()
            assert msg["claim_after"] == 60 and msg["stall"] is None  # (the clock: no stall)
            # Bob noticed away at the claim's own moment (the stored time rounded up: 0 s away,
            # as CI met it): he is away, not at the table
            table.away[1] = time.time() + 5
            ws.send_json({"type": "claim", "seat": 1, "how": "win"})
            assert "you may claim after 60 s" in error_of(ws)["message"]
            table.away[1] = time.time() - 61  # (Bob has been away a minute)
            ws.send_json({"type": "claim", "seat": 1, "how": "win"})
            msg = receive(ws, lambda m: is_view(m) and m.get("ending"))
        assert msg["result"]["winner"] == 0 and msg["ending"]["reason"] == "claim"


def test_a_person_who_stalls_without_a_clock_is_claimed_against_while_connected(
    db_path: str,
) -> None:
    """Issue 28, 5: at a table without a clock, a player who stayed connected and never moved
    blocked the game ("X is at the table"). Now their turn runs a few minutes (the site's
    ``stall_after``), shown to everyone, and then the others may claim."""
    with TestClient(make_app(db_path, stall_after=180)) as c:
        c.get("/api/me")
        tid, ann, bob = people_table(c, clock=None)
        table = live(c, tid)
        staller = table.state.current_seat
        jars = {0: ann, 1: bob}
        names = {0: "ann", 1: "bob"}
        use(c, jars[staller])
        with c.websocket_connect(f"/ws/tables/{tid}") as stays:  # connected, and never moves
            stalled = stays.receive_json()
            assert stalled["stall"]["seat"] == staller and stalled["stall"]["after"] == 180
            assert stalled["presence"][staller]["online"] is True
            use(c, jars[1 - staller])
            with c.websocket_connect(f"/ws/tables/{tid}") as ws:
                msg = ws.receive_json()
                assert msg["stall"]["since"] <= msg["server_time"]
                ws.send_json({"type": "claim", "seat": staller, "how": "win"})
                err = error_of(ws)["message"]
                assert f"{names[staller]} has not moved for" in err and "after 180 s" in err
                table.last_at -= timedelta(seconds=181)  # (three minutes have passed)
                c.app.state.tables.clock.started -= timedelta(seconds=181)  # type: ignore[attr-defined]
                ws.send_json({"type": "claim", "seat": staller, "how": "win"})
                msg = receive(ws, lambda m: is_view(m) and m.get("ending"))
        assert msg["result"]["winner"] == 1 - staller and msg["ending"]["reason"] == "claim"
        assert msg["ending"]["stalled"] is True
        said = f"{names[1 - staller]} claimed the win: {names[staller]} did not move."
        assert msg["log"]["entries"][-1]["text"] == said


# -- rematch, play again ------------------------------------------------------------------------


def test_a_rematch_starts_when_both_accept(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        tid, ann, bob = people_table(c, "highrise", options={"target": 100})
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            ws.send_json({"type": "rematch"})
            assert "once the game is over" in error_of(ws)["message"]
            ws.send_json({"type": "resign"})
            receive(ws, lambda m: is_view(m) and m.get("ending"))
            ws.send_json({"type": "rematch"})
            msg = receive(ws, lambda m: is_view(m) and m.get("rematch"))
            assert msg["rematch"] == {"accepted": [0], "table": None}
        use(c, bob)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            ws.send_json({"type": "rematch"})
            msg = receive(ws, lambda m: is_view(m) and (m.get("rematch") or {}).get("table"))
        new = live(c, msg["rematch"]["table"])
        old = live(c, tid)
        assert [s.user_id for s in new.seats] == [s.user_id for s in old.seats]
        assert new.options == {"target": 100} and new.settings["clock"] == old.settings["clock"]
        wait_for(lambda: new.state is not None, 30)  # (dealt once the seeds are in)


def test_play_again_is_a_new_table_with_the_same_bots(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        register(c, "ann")
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]
        tid = post(c, "/api/tables", {"game": "high-fives", "seats": seats}).json()["id"]
        assert post(c, f"/api/tables/{tid}/again").json()["detail"] == "the game is not over yet"
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            ws.send_json({"type": "abort"})
            receive(ws, lambda m: is_view(m) and m.get("ending"))
        t = post(c, f"/api/tables/{tid}/again").json()
        assert [s["bot"] for s in t["seats"]] == [None, "random", "greedy"]
        assert t["seats"][0]["name"] == "ann" and t["id"] != tid
        register(c, "eve")
        assert post(c, f"/api/tables/{tid}/again").status_code == 403


def test_tournament_tables_refuse_resign_and_rematch(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        tid, ann, _bob = people_table(c)
        live(c, tid).settings["event"] = "e1"
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()
            for kind in ("resign", "abort", "rematch"):
                ws.send_json({"type": kind})
                assert "tournament game" in error_of(ws)["message"]


# -- presence, pacing, the clock by default, the guide ------------------------------------------


def test_each_seat_shows_whether_its_person_is_connected(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        tid, ann, bob = people_table(c)
        use(c, ann)
        with c.websocket_connect(f"/ws/tables/{tid}?presence=1") as a:
            first = a.receive_json()
            assert first["presence"][0]["online"] and not first["presence"][1]["online"]
            assert a.receive_json()["type"] == "presence"  # (ann came)
            use(c, bob)
            with c.websocket_connect(f"/ws/tables/{tid}") as b:
                b.receive_json()
                came = a.receive_json()
                assert came["type"] == "presence" and came["presence"][1]["online"] is True
            went = a.receive_json()
            assert went["type"] == "presence" and went["presence"][1]["online"] is False
            assert went["presence"][1]["away_since"] <= went["server_time"]


def test_bots_take_their_pace_where_people_play(db_path: str) -> None:
    with TestClient(make_app(db_path, bot_pace=0.4)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            msg = receive(ws, lambda m: is_view(m) and bool(m["moves"]))
            ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
            mine = receive(ws, lambda m: is_view(m) and m["version"] > msg["version"])
            sent = time.monotonic()
            table = live(c, tid)
            if table.state.current_seat == 1:  # the bot's turn: it waits its pace
                receive(ws, lambda m: is_view(m) and m["version"] > mine["version"])
                assert time.monotonic() - sent >= 0.35
        assert c.app.state.tables.pace(table) == 0.4  # type: ignore[attr-defined]
        t = post(c, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "bot"}], "bot_pace": 2})
        assert c.app.state.tables.pace(live(c, t.json()["id"])) == 2  # type: ignore[attr-defined]
        bots = [{"kind": "bot"}, {"kind": "bot"}]
        t = post(c, "/api/tables", {"seats": bots, "bot_pace": 2}).json()
        assert c.app.state.tables.pace(live(c, t["id"])) == 0  # type: ignore[attr-defined]
        assert post(c, "/api/tables", {"seats": bots, "bot_pace": 9}).status_code == 422


def test_a_bot_whose_move_the_database_refused_tries_again(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses a bot's move twice (nothing changes): the bot tries again, and the
    person at the table gets their turn instead of waiting on a bot that stopped."""
    from sqlalchemy.exc import OperationalError

    from boneyard.server.tables import botdriver

    monkeypatch.setattr(botdriver, "BOT_RETRY", (0.05, 0.1))
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay").json()["id"]
        tables, table = c.app.state.tables, live(c, tid)  # type: ignore[attr-defined]
        advance, refused = tables.dealer.advance, []

        async def refusing(t: Any, entries: list[Any], seeds: list[Any], deal: bool = True) -> None:
            if len(refused) < 2 and entries and entries[0]["seat"] in t.bots:
                refused.append(entries[0]["seq"])
                raise OperationalError("commit", {}, ConnectionRefusedError("refused"))
            await advance(t, entries, seeds, deal=deal)

        monkeypatch.setattr(tables.dealer, "advance", refusing)
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            for _ in range(40):  # the person moves until the bot has been refused twice
                msg = receive(ws, lambda m: is_view(m) and bool(m["moves"]))
                ws.send_json({"seq": msg["version"], "action": msg["moves"][0]["event"]})
                wait_for(lambda: table.ended or table.state.current_seat not in table.bots, 30)
                if len(refused) == 2:
                    break
        assert len(refused) == 2 and refused[0] == refused[1]  # the same move, tried again
        assert table.version >= refused[0]  # and then made


def test_tables_where_people_play_each_other_get_a_clock_by_default(db_path: str) -> None:
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        register(c, "ann")
        open_ = post(c, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
        assert live(c, open_["id"]).settings["clock"]["per_move"] == 60
        none = post(c, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}], "clock": None})
        assert "clock" not in (live(c, none.json()["id"]).settings or {})
        bot = post(c, "/api/quickplay").json()
        assert "clock" not in (live(c, bot["id"]).settings or {})


def test_the_guided_first_hand_hints_at_each_step(db_path: str) -> None:
    with TestClient(make_app(db_path, hand_pause=60)) as c:
        c.get("/api/me")
        register(c, "ann")
        tid = post(c, "/api/quickplay", {"guide": True}).json()["id"]
        hints = []
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            while True:
                msg = receive(ws, lambda m: is_view(m) and (bool(m["moves"]) or "hand_end" in m))
                assert msg["guide"]["text"]
                hints.append(msg["guide"])
                if "hand_end" in msg:
                    break
                move = msg["guide"]["move"]
                assert move in [m["event"] for m in msg["moves"]]  # a legal move
                ws.send_json({"seq": msg["version"], "action": move})
            assert "press Continue" in hints[-1]["text"]
            ws.send_json({"type": "continue", "hand": 0})
            later = receive(ws, lambda m: is_view(m) and "hand_end" not in m)
            assert "guide" not in later
        assert any("multiple of 5" in h["text"] or "lead" in h["text"] for h in hints)


def test_the_leaderboard_lists_people_on_a_familiar_scale(db_path: str) -> None:
    from boneyard.server.tables.live import now
    from boneyard.store.tournaments import PlayerRating

    with TestClient(make_app(db_path)) as c:
        sessions = c.app.state.sessions  # type: ignore[attr-defined]

        async def rows() -> None:
            async with sessions() as db, db.begin():
                for player, name, mu, sigma, games in (
                    ("u:1", "ann", 30.0, 3.0, 25),  # ordinal 21: settled
                    ("u:2", "bob", 27.0, 7.0, 3),  # ordinal 6: provisional
                    ("bot:greedy", "Greedy bot", 40.0, 2.0, 90),  # an old bot row
                ):
                    db.add(PlayerRating(game="highrise", category="3p", player=player, name=name,
                                        mu=mu, sigma=sigma, games=games, updated_at=now()))  # fmt: skip

        assert c.portal is not None
        c.portal.call(rows)
        board = c.get("/api/leaderboard?game=highrise&category=3p").json()
        assert board["title"] == "Highrise" and board["players_title"] == "3 players"
        assert board["people"] == 2 and board["provisional_games"] == 10
        assert [(r["name"], r["rating"], r["provisional"]) for r in board["ratings"]] == [
            ("ann", 2130, False),
            ("bob", 1680, True),
        ]
        assert board["ratings"][0]["user_id"] == 1
        with_bots = c.get("/api/leaderboard?game=highrise&category=3p&bots=true").json()
        assert [r["name"] for r in with_bots["ratings"]] == ["Greedy bot"]  # a board of its own
        assert all(r["bot"] for r in with_bots["ratings"])
        assert with_bots["people"] == 2
        assert c.get("/api/leaderboard?game=chess").status_code == 400
        assert c.get("/api/leaderboard?category=9p").status_code == 400
        assert c.get("/leaderboard").status_code == 200


def test_a_bot_that_says_it_answers_at_once_is_asked_on_the_loop(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server asks a bot on its event loop only when the bot says it does not block
    (``blocks = False``); a bot that does not say is asked in a worker thread."""
    import asyncio

    from boneyard.bots import GreedyBot
    from boneyard.server.tables import live as live_table

    where: dict[bool, list[bool]] = {True: [], False: []}

    class Saying(GreedyBot):
        def choose(self, observation: Any) -> Any:
            try:
                asyncio.get_running_loop()
                on_loop = True
            except RuntimeError:
                on_loop = False
            where[self.blocks].append(on_loop)
            return super().choose(observation)

    def make(name: str, rng: Any, local: bool = False) -> Any:
        bot = Saying(rng)
        if name == "random":  # this one does not say: the default is that it blocks
            bot.blocks = True  # type: ignore[misc]
        return bot

    monkeypatch.setattr(live_table, "make", make)
    with TestClient(make_app(db_path)) as c:
        c.get("/api/me")
        register(c, "watcher")
        seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
        tid = post(c, "/api/tables", {"game": "highfive", "seats": seats}).json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            receive(ws, lambda m: is_view(m) and m["view"] and m["view"]["hand_number"] >= 1)
    assert where[False] and all(where[False]), "a bot that answers at once is asked on the loop"
    assert where[True] and not any(where[True]), "any other bot is asked in a thread"


def test_every_shipped_game_has_its_row() -> None:
    """The table of games above has a row for every game the registry ships (a new game
    without one would be left out of these tests)."""
    from boneyard.games.registry import SHIPPED

    assert set(GAMES) == set(SHIPPED)
